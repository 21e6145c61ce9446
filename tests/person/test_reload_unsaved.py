"""A page reload while a request waits, the notebook NOT saved: the file has no output for the
running cell, so no cell shows the request; the widget manager still restores its live model
from the kernel, and nbask shows the request in a page-level "Waiting requests" panel, where
answering it resumes the cell. The reloaded page no longer owns the running cell's output
stream, so the next cell reads the answer the waiting cell received.

A saved notebook brings its output back in the cell, and the panel never appears; nor does it
for a widget shown in its cell as usual.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import (
    PRINT_DECISION,
    PRINT_RESULT,
    ApprovalView,
    AskWidget,
    read_decision,
    read_result,
    reload_unsaved,
    waiting_panel,
)
from support.notebook_page import NotebookPage

pytestmark = pytest.mark.browser

QUESTION = "Retrain the model on the new data?"
HEADING = "A request is still waiting"
NOTE = "Its cell's output was not saved, so it is shown here."
# js/reload/orphans.ts ORPHAN_DELAY_MS: how long a request may go without a view before it gets a card.
ORPHAN_DELAY_MS = 2000

# Records, in every document the page loads, whether the panel was ever put in the page.
WATCH_PANEL = """
window.__nbaskPanelSeen = false;
new MutationObserver(() => {
  if (document.querySelector('section.nbask-orphans')) window.__nbaskPanelSeen = true;
}).observe(document, { childList: true, subtree: true });
"""


def expect_no_panel_once_its_moment_passed(page: Page) -> None:
    """The panel never appeared, checked once the page has lived past the panel's delay."""
    page.wait_for_function(f"() => performance.now() > window.__nbaskSince + {ORPHAN_DELAY_MS + 1000}")
    assert page.evaluate("() => window.__nbaskPanelSeen") is False
    expect(waiting_panel(page)).to_have_count(0)


def mark_now(page: Page) -> None:
    page.evaluate("() => { window.__nbaskSince = performance.now(); }")


def assert_output_not_saved(nb: NotebookPage, cell: int) -> None:
    assert nb.disk_notebook()["cells"][cell]["outputs"] == []


def ask_watching_the_panel(open_notebook: Callable[..., NotebookPage], page: Page, options: list[str]) -> NotebookPage:
    """Watch for the panel in every document the page loads; run QUESTION (cell 1, PRINT_RESULT in
    cell 2) until its widget waits in its cell.
    """
    page.add_init_script(WATCH_PANEL)
    nb = open_notebook(
        ["import json, nbask", f"ans = await nbask.ask({QUESTION!r}, {options!r}, timeout=None)", PRINT_RESULT]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    AskWidget.in_cell(nb, 1).expect_pending()
    return nb


def test_a_question_waiting_in_an_unsaved_notebook_comes_back_in_the_panel_after_a_reload(open_notebook, page):
    nb = ask_watching_the_panel(open_notebook, page, ["Yes", "No", "Only the last week"])
    mark_now(page)
    expect_no_panel_once_its_moment_passed(page)  # shown in its cell: no panel
    assert_output_not_saved(nb, 1)

    reload_unsaved(nb)
    expect(nb.output_area(1).locator(".nbask")).to_have_count(0)  # the file never had it
    region = waiting_panel(page)
    expect(region).to_be_visible()
    expect(region.get_by_role("heading", name=HEADING)).to_be_visible()
    expect(region).to_contain_text(NOTE)
    # Which cell asked, by the first line of its code (the running cell shows only [*]).
    line = f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No', 'Only the last week'], timeout=None)"
    expect(region.locator(".nbask-orphan-card-from")).to_have_text(f"From the cell {line[:79]}\u2026")
    expect(region.get_by_role("button", name="Close")).to_have_count(0)  # it still waits
    ask = AskWidget(region.locator(".nbask"))
    ask.expect_pending()
    ask.choose(QUESTION, "Only the last week")
    ask.submit()
    ask.expect_resolved("answered", {QUESTION: "Only the last week"})

    nb.run_cell(2, wait=False)
    result = read_result(nb, 2)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "Only the last week"}

    expect(region.get_by_role("heading", name="Nothing is waiting any more")).to_be_visible()
    region.get_by_role("button", name="Close").click()
    expect(waiting_panel(page)).to_have_count(0)


def test_an_approval_waiting_in_an_unsaved_notebook_is_decided_in_the_panel(open_notebook, page):
    nb = open_notebook(
        [
            "import json, nbask",
            "d = await nbask.approve('Scale the web service', '{\"replicas\": 2}', timeout=None)",
            PRINT_DECISION,
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ApprovalView(nb.widget(1)).expect_status("pending")
    assert_output_not_saved(nb, 1)

    reload_unsaved(nb)
    region = waiting_panel(page)
    expect(region.get_by_role("heading", name=HEADING)).to_be_visible()
    view = ApprovalView(region.locator(".nbask"))
    view.expect_status("pending")
    expect(view.root).to_contain_text("Scale the web service")
    view.textbox("Reason").fill("approved after the reload")
    view.button("Approve").click()
    view.expect_status("answered")

    nb.run_cell(2, wait=False)
    decision = read_decision(nb, 2)
    assert (decision["decision"], decision["status"]) == ("approve", "answered")
    assert decision["reason"] == "approved after the reload"


def test_a_saved_notebook_shows_the_question_in_its_cell_and_no_panel(open_notebook, page):
    nb = ask_watching_the_panel(open_notebook, page, ["Yes", "No"])
    nb.save()
    nb.reload()
    nb.wait_kernel_connected()

    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    mark_now(page)
    expect_no_panel_once_its_moment_passed(page)
    ask.choose(QUESTION, "Yes")
    ask.submit()
    nb.run_cell(2, wait=False)
    assert read_result(nb, 2)["answers"] == {QUESTION: "Yes"}


def test_a_request_answered_in_the_panel_shows_how_it_ended_in_its_cell(open_notebook, page):
    # The file keeps an earlier run's output (dismissed); the run after it was not saved. After
    # the reload the cell shows that old record, and the panel the request that waits: answered
    # there, the cell shows how it ended too, and the panel says it ended.
    nb = open_notebook(
        ["import json, nbask", f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)\n" + PRINT_RESULT]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    earlier = AskWidget.in_cell(nb, 1)
    earlier.expect_pending()
    earlier.dismiss()
    earlier.expect_resolved("dismissed")
    nb.wait_done(1)
    nb.save()
    nb.run_cell(1, wait=False)
    AskWidget.in_cell(nb, 1).expect_pending()

    reload_unsaved(nb)
    expect(nb.output_area(1)).to_contain_text("dismissed")  # the earlier run's record, from the file
    region = waiting_panel(page)
    expect(region.get_by_role("heading", name=HEADING)).to_be_visible()
    card = AskWidget(region.locator(".nbask"))
    card.expect_pending()
    card.choose(QUESTION, "No")
    card.submit()
    card.expect_resolved("answered", {QUESTION: "No"})

    mark = nb.output_area(1).get_by_role("region", name="How this cell's request ended")
    expect(mark).to_contain_text("this cell's request was shown in the Waiting requests panel")
    shown = AskWidget(mark.locator(".nbask"))
    shown.expect_resolved("answered", {QUESTION: "No"})
    # What the cell printed after the answer, which the notebook no longer routes to it.
    expect(shown.root.get_by_role("region", name="The cell after the answer")).to_contain_text('"No"')

    expect(region.get_by_role("heading", name="Nothing is waiting any more")).to_be_visible()
    expect(region).to_contain_text("It has ended, as shown below: its cell no longer waits for it.")
    expect(region).not_to_contain_text("Answering")
