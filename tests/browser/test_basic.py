"""Acceptance test of the foundation: ask one question mid-cell, click an option and Submit,
the same cell goes on and prints the answer. Runs in JupyterLab and in Notebook 7.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = pytest.mark.browser

QUESTION = "Which database should the app use?"


def test_single_select_submit_prints_answer(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'],\n"
            "                      header='DB', multi_select=False, timeout=600.0)\n" + PRINT_RESULT,
            "print('next cell')",
        ]
    )
    assert nb.run_cell(0) == 1
    nb.run_cell(1, wait=False)

    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    nb.wait_running(1)  # the cell is still running while the question waits
    expect(ask.question(QUESTION)).to_be_visible()
    expect(ask.question(QUESTION).get_by_role("radio")).to_have_count(3)  # two options + Other
    expect(ask.other(QUESTION)).to_be_visible()
    expect(ask.root).to_contain_text("DB")
    expect(ask.dismiss_button).to_be_visible()

    ask.choose(QUESTION, "SQLite")
    expect(ask.option(QUESTION, "SQLite")).to_be_checked()
    ask.submit()

    result = read_result(nb, 1)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SQLite"}
    assert result["selections"] == {QUESTION: ["SQLite"]}
    assert nb.wait_done(1) == 2
    ask.expect_resolved("answered", {QUESTION: "SQLite"})

    assert nb.run_cell(2) == 3
    assert nb.stream_text(2).strip() == "next cell"
