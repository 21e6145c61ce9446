"""The shipped quickstart notebook, cell by cell, as a newcomer runs it: each cell pauses,
shows its question, and continues with the answer. Runs in JupyterLab and in Notebook 7.
"""

from __future__ import annotations

import pathlib

import nbformat
import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget

pytestmark = pytest.mark.browser

QUICKSTART = pathlib.Path(__file__).resolve().parents[2] / "notebooks" / "01_quickstart.ipynb"


def quickstart_cells() -> list[str]:
    """The notebook's code cells, the time limit shortened so the test need not wait 20 s."""
    cells = [c.source for c in nbformat.read(QUICKSTART, as_version=4).cells if c.cell_type == "code"]
    assert "timeout=20" in cells[3], "the quickstart's timeout cell changed: update this test"
    cells[3] = cells[3].replace("timeout=20", "timeout=2")
    return cells


def test_quickstart_cells_pause_and_resume(open_notebook):
    nb = open_notebook(quickstart_cells())
    assert nb.run_cell(0) == 1

    # 1. one question
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    nb.wait_running(1)
    ask.choose("Which database should the app use?", "PostgreSQL (Recommended)")
    ask.submit()
    nb.wait_done(1)
    assert nb.stream_text(1).strip() == "answered {'Which database should the app use?': 'PostgreSQL (Recommended)'}"

    # 2. several choices and free text
    nb.run_cell(2, wait=False)
    ask = AskWidget.in_cell(nb, 2)
    features = "Which features should the first release have?"
    ask.choose(features, "Login")
    ask.choose(features, "Search (Recommended)")
    ask.option(features, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(features).fill("Dark mode")
    expect(ask.option(features, "Other", exact=True)).to_be_checked()
    ask.choose("How should we authenticate?", "Session cookie")
    ask.submit()
    nb.wait_done(2)
    assert nb.stream_text(2).strip().splitlines() == [
        f"{features} -> Login, Search (Recommended), Dark mode",
        "How should we authenticate? -> Session cookie",
    ]

    # 3. the time limit runs out: a countdown, then "Timed out"
    nb.run_cell(3, wait=False)
    ask = AskWidget.in_cell(nb, 3)
    expect(ask.root.get_by_role("timer")).to_contain_text("Time left")
    ask.expect_resolved("timeout")
    nb.wait_done(3)
    assert nb.stream_text(3).strip() == (
        "timeout No answer within 2 seconds; no one answered, so do not assume an answer."
    )

    # 4. dismiss with Escape
    nb.run_cell(4, wait=False)
    ask = AskWidget.in_cell(nb, 4)
    ask.option("Should the agent also write tests?", "Yes (Recommended)").focus()
    ask.root.page.keyboard.press("Escape")  # nothing chosen: it dismisses at once (js/shell/discard.ts)
    ask.expect_resolved("dismissed")
    nb.wait_done(4)
    assert nb.stream_text(4).startswith("dismissed {}")
