"""Where focus goes once the person answers, in JupyterLab and Notebook 7: while requests wait,
to the next waiting one; when none waits, to the cell after the one that asked, in command mode,
so the next Shift+Enter runs on and never runs the asking cell (and its agent) again.

Each scenario ends the same way: the cell after the asking one is focused, Shift+Enter runs it,
and the asking cell keeps its execution count and its resolved widget.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import PRINT_RESULT, AskWidget, read_result
from support.batch_helpers import PRINT_DECISIONS, SETUP, expect_three_pending, read_decisions, run_three
from support.notebook_page import KERNEL_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

QUESTION = "Which region should the cluster use?"
ASK = f"ans = await nbask.ask({QUESTION!r}, ['eu-west', 'us-east'], timeout=600)\n" + PRINT_RESULT
COMMAND_MODE = re.compile(r"\bjp-mod-commandMode\b")
ACTIVE = re.compile(r"\bjp-mod-active\b")


def runs_on_after(nb: NotebookPage, page: Page, asking: int, text: str = "after") -> None:
    """No request waits: the cell after the asking one has focus in command mode and
    Shift+Enter runs it; the asking cell is not run again.
    """
    count = nb.execution_count(asking)
    expect(nb.cell(asking + 1)).to_be_focused()
    expect(nb.cell(asking + 1)).to_have_class(ACTIVE)
    expect(nb.notebook).to_have_class(COMMAND_MODE)
    page.keyboard.press("Shift+Enter")
    if text:
        nb.wait_output(asking + 1, text)
    else:
        expect(nb.cell(asking + 1)).not_to_have_class(ACTIVE)
    assert nb.execution_count(asking) == count
    expect(nb.output_area(asking).locator(".nbask[data-status='pending']")).to_have_count(0)


def mouse_answer(ask: AskWidget, label: str, question: str = QUESTION) -> None:
    """Read, then answer with the mouse: a click on the question's text first (the notebook makes
    the asking cell its active cell on that press), then the option, then Submit.
    """
    ask.root.get_by_text(question, exact=True).first.click()
    ask.choose(question, label)
    ask.submit()
    ask.expect_resolved("answered", {question: label})


def test_mouse_submit_on_the_first_question_after_opening(open_notebook, page):
    # The notebook's first cell asks: the first thing run since the page opened.
    nb = open_notebook(["import json, nbask\n" + ASK, "print('after')"])
    nb.run_cell(0, wait=False)
    ask = AskWidget.in_cell(nb, 0)
    ask.expect_pending()
    mouse_answer(ask, "us-east")
    assert read_result(nb, 0)["answers"] == {QUESTION: "us-east"}
    nb.wait_done(0)
    runs_on_after(nb, page, 0)


def restart_kernel(nb: NotebookPage) -> None:
    """Restart with the toolbar's button and confirm, as a person does."""
    nb.panel.get_by_role("button", name="Restart the kernel", exact=True).click()
    dialog = nb.page.locator(".jp-Dialog")
    dialog.locator("button.jp-mod-accept").click()
    expect(dialog).to_have_count(0)


def test_mouse_submit_after_a_kernel_restart(open_notebook, page):
    nb = open_notebook(["import json, nbask", ASK, "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    mouse_answer(AskWidget.in_cell(nb, 1), "eu-west")
    nb.wait_done(1)

    restart_kernel(nb)
    nb.run_cell(0, timeout=KERNEL_TIMEOUT_MS)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)  # running the cell again cleared the first answer's output
    ask.expect_pending()
    mouse_answer(ask, "us-east")
    assert read_result(nb, 1)["answers"] == {QUESTION: "us-east"}
    nb.wait_done(1)
    runs_on_after(nb, page, 1)


def test_the_asking_cell_is_the_last_one(open_notebook, page):
    # Shift+Enter on the last cell adds an empty cell below and types in it: the question still
    # takes focus from that untouched editor, so digits and Enter answer it.
    nb = open_notebook(["import json, nbask", ASK])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    expect(nb.cells).to_have_count(3)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    expect(ask.option(QUESTION, "eu-west")).to_be_focused()
    page.keyboard.press("2")
    page.keyboard.press("Enter")
    assert read_result(nb, 1)["answers"] == {QUESTION: "us-east"}
    nb.wait_done(1)
    expect(nb.cell(2).locator(".cm-content")).to_have_text("")
    runs_on_after(nb, page, 1, text="")


def test_a_batch_answered_by_keyboard_goes_card_to_card(open_notebook, page):
    nb = open_notebook([SETUP, run_three(timeout=600), PRINT_DECISIONS])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    cards, _ = expect_three_pending([nb.widget(1, i) for i in range(3)])
    # Focus starts on the lead card's Reject (a stray Enter never approves); Enter rejects it.
    for i, card in enumerate(cards):
        expect(card.button("Reject")).to_be_focused()
        page.keyboard.press("Enter")
        card.expect_status("answered")
        if i < 2:  # the next waiting card takes focus, not the notebook
            expect(cards[i + 1].button("Reject")).to_be_focused()
    nb.wait_done(1)
    runs_on_after(nb, page, 1, text="DECISION")
    assert [d["decision"] for d in read_decisions(nb, 2)] == ["reject"] * 3


def test_a_cell_that_asks_twice(open_notebook, page):
    second = "Which size?"
    cell = (
        f"first = await nbask.ask({QUESTION!r}, ['eu-west', 'us-east'], timeout=600)\n"
        f"second = await nbask.ask({second!r}, ['small', 'large'], timeout=600)\n"
        "print('GOT', first.answers[" + repr(QUESTION) + "], second.answers[" + repr(second) + "])"
    )
    nb = open_notebook(["import nbask", cell, "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    mouse_answer(AskWidget.in_cell(nb, 1), "eu-west")
    ask = AskWidget.in_cell(nb, 1, nth=1)
    ask.expect_pending()
    # The second question takes focus as the first did.
    expect(ask.option(second, "small")).to_be_focused()
    mouse_answer(ask, "large", second)
    nb.wait_output(1, "GOT eu-west large")
    nb.wait_done(1)
    runs_on_after(nb, page, 1)
