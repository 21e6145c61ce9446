"""A page reload while a batch of three approvals (run_requests) waits.

Saved first (toolbar), every card comes back in its cell with its unsent draft (a typed reason),
the lead's heading counts what still waits, and the cards are answered in any order. Not saved,
the file has no output for the running cell: the "Waiting requests" panel shows every waiting
card of the batch, and answering them there resumes the cell. Either way the reloaded page no
longer owns the waiting cell's output stream, so a follow-up cell prints the decisions.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import ApprovalView, reload_unsaved, waiting_panel
from support.batch_helpers import PRINT_DECISIONS, SETUP, expect_three_pending, read_decisions, run_three
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

RUN_THREE = run_three(timeout=None)


def start_batch(nb: NotebookPage) -> list[ApprovalView]:
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    cards, heading = expect_three_pending([nb.widget(1, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting")
    return cards


def decisions(nb: NotebookPage, cell: int) -> list[dict[str, Any]]:
    """Run the follow-up cell (PRINT_DECISIONS) once the batch's cell ended; read what it printed."""
    nb.run_cell(cell, wait=False)
    return read_decisions(nb, cell)


def test_a_saved_batch_comes_back_in_its_cell_with_every_draft(open_notebook):
    nb = open_notebook([SETUP, RUN_THREE, PRINT_DECISIONS])
    cards = start_batch(nb)
    nb.save()

    # Drafts typed after the save: they live in the widget models, not in the file.
    cards[0].textbox("Reason").fill("t0 is still read nightly")
    cards[2].textbox("Reason").fill("t2 is a scratch table")
    cards[1].textbox("Reason").fill("t1 moved to the archive")  # the last keystrokes before the reload
    nb.reload()
    nb.wait_kernel_connected()

    cards, heading = expect_three_pending([nb.widget(1, i) for i in range(3)])
    expect(cards[0].textbox("Reason")).to_have_value("t0 is still read nightly")
    expect(cards[1].textbox("Reason")).to_have_value("t1 moved to the archive")
    expect(cards[2].textbox("Reason")).to_have_value("t2 is a scratch table")
    expect(heading).to_have_accessible_name("3 requests waiting")

    # Answered in any order after the reload.
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")
    expect(heading).to_have_accessible_name("2 requests waiting")
    cards[2].button("Approve").click()
    cards[2].expect_status("answered")
    cards[0].button("Reject").click()
    cards[0].expect_status("answered")

    got = decisions(nb, 2)
    assert [(d["i"], d["decision"], d["status"], d["reason"]) for d in got] == [
        (0, "reject", "answered", "t0 is still read nightly"),
        (1, "approve", "answered", "t1 moved to the archive"),
        (2, "approve", "answered", "t2 is a scratch table"),
    ]
    assert all(d["batch"] for d in got)


def test_an_unsaved_batch_comes_back_in_the_waiting_requests_panel(open_notebook, page: Page):
    nb = open_notebook([SETUP, RUN_THREE, PRINT_DECISIONS])
    cards = start_batch(nb)
    cards[2].textbox("Reason").fill("t2 is a scratch table")
    assert nb.disk_notebook()["cells"][1]["outputs"] == []

    reload_unsaved(nb)
    expect(nb.output_area(1).locator(".nbask")).to_have_count(0)  # the file never had it
    region = waiting_panel(page)
    expect(region).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(region.get_by_role("heading", name="3 requests are still waiting")).to_be_visible()
    shown = region.locator(".nbask")
    expect(shown).to_have_count(3)
    views = {}
    for i in range(3):
        view = ApprovalView(shown.filter(has_text=f"DROP TABLE t{i}"))
        expect(view.root).to_have_count(1)
        view.expect_status("pending")
        views[i] = view
    expect(views[2].textbox("Reason")).to_have_value("t2 is a scratch table")

    views[2].button("Approve").click()
    views[2].expect_status("answered")
    expect(region.get_by_role("heading", name="2 requests are still waiting")).to_be_visible()
    views[0].button("Reject").click()
    views[0].expect_status("answered")
    views[1].button("Approve").click()
    views[1].expect_status("answered")
    expect(region.get_by_role("heading", name="Nothing is waiting any more")).to_be_visible()
    # The batch's cell shows how each of them ended, as the panel did.
    marks = nb.output_area(1).get_by_role("region", name="How this cell's request ended")
    expect(marks).to_have_count(3)
    region.get_by_role("button", name="Close").click()
    expect(waiting_panel(page)).to_have_count(0)

    got = decisions(nb, 2)
    assert [(d["i"], d["decision"], d["status"], d["reason"]) for d in got] == [
        (0, "reject", "answered", ""),
        (1, "approve", "answered", ""),
        (2, "approve", "answered", "t2 is a scratch table"),
    ]
    assert all(d["batch"] for d in got)
