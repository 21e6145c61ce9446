"""Several requests shown together in the VS Code host: three approvals asked with run_requests
form a batch of three cards in one cell, the first still waiting carrying the heading ("3 requests waiting")
with Approve all / Reject all behind a confirmation. The cards are answered in any order and the
cell prints every decision in request order; Approve all asks first (focus on "Keep reviewing")
and then decides all three; Up and Down move between the waiting cards; a window reload brings
every waiting card back with its draft, still answerable; axe finds nothing serious pending,
confirming or resolved.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from support.ask_widget import ApprovalView, run_axe_serious
from support.batch_helpers import (
    PRINT_DECISIONS,
    SETUP,
    approve_all_confirmed,
    approve_last_reject_lead,
    batch_heading,
    expect_three_pending,
    read_decisions,
    run_three,
)
from support.vscode.host import RUN_TIMEOUT_MS, VSCodeHost

pytestmark = pytest.mark.vscode

# The cell prints each decision, in request order, once all of them are decided.
RUN_THREE = run_three(timeout=None) + "\n" + PRINT_DECISIONS


def open_batch(open_host: Any) -> tuple[VSCodeHost, int, list[ApprovalView], Locator]:
    host = open_host()
    host.run_ok(SETUP)
    cell = host.run(RUN_THREE)
    cards, heading = expect_three_pending([host.widget(cell, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    return host, cell, cards, heading


def test_three_approvals_answered_out_of_order_print_in_request_order(open_host, axe_source):
    host, cell, cards, heading = open_batch(open_host)
    host.page.add_script_tag(content=axe_source)
    area = host.cell(cell)
    assert run_axe_serious(host.page, area) == []
    expect(heading.get_by_role("button", name="Approve all (3)", exact=True)).to_be_visible()

    cards[2].textbox("Reason").fill("t2 is a scratch table")
    approve_last_reject_lead(cards, heading)
    assert "DECISION" not in host.stdout(cell)
    assert host.is_running(cell)
    assert run_axe_serious(host.page, area) == []
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")

    got = read_decisions(host, cell)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (0, "reject", "answered", "person"),
        (1, "approve", "answered", "person"),
        (2, "approve", "answered", "person"),
    ]
    assert got[2]["reason"] == "t2 is a scratch table"
    assert all(d["batch"] for d in got)
    assert host.wait_done(cell) == "ok"
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)
    assert run_axe_serious(host.page, area) == []


def test_approve_all_asks_first_then_decides_all_three(open_host, axe_source):
    host, cell, cards, heading = open_batch(open_host)
    page = host.page
    approve_all = heading.get_by_role("button", name="Approve all (3)", exact=True)
    approve_all.click()
    expect(heading).to_contain_text("Approve all 3 approvals? Each runs as shown, without edits.")
    keep = heading.get_by_role("button", name="Keep reviewing", exact=True)
    expect(keep).to_be_focused()
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, host.cell(cell)) == []
    # Keep reviewing (Enter: focus is on it) sends nothing and gives focus back to the opener.
    page.keyboard.press("Enter")
    expect(keep).to_have_count(0)
    expect(approve_all).to_be_focused()
    for card in cards:
        card.expect_status("pending")
    assert host.is_running(cell)

    approve_all_confirmed(cards, heading)
    got = read_decisions(host, cell)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (i, "approve", "answered", "person") for i in range(3)
    ]
    assert host.wait_done(cell) == "ok"
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)


def test_after_a_reload_every_card_comes_back_with_its_draft_and_can_be_answered(open_host, axe_source):
    host, cell, cards, heading = open_batch(open_host)
    cards[0].button("Approve").click()  # one decided before the reload
    cards[0].expect_status("answered")
    # The heading moved off the answered card, to the first one still waiting.
    expect(batch_heading(cards[1])).to_have_accessible_name("2 requests waiting")
    cards[2].button("Edit").click()
    cards[2].textbox("Details").fill("DROP TABLE IF EXISTS t2")
    # The reason is typed last, not sent, and the window reloaded right after.
    cards[1].textbox("Reason").fill("t1 still feeds the dashboard")
    host.reload()

    expect(host.cell(cell)).to_have_attribute("data-restored", "true")
    assert host.is_running(cell)
    cards = [ApprovalView(host.widget(cell, i)) for i in range(3)]
    cards[0].expect_status("answered")
    expect(cards[0].root).to_contain_text("Approved")
    for card in cards[1:]:
        card.expect_status("pending")
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)
    heading = batch_heading(cards[1])
    expect(heading).to_have_accessible_name("2 requests waiting")
    expect(heading.get_by_role("button", name="Approve all (2)", exact=True)).to_be_visible()
    expect(cards[1].textbox("Reason")).to_have_value("t1 still feeds the dashboard")
    expect(cards[2].textbox("Details")).to_have_value("DROP TABLE IF EXISTS t2")
    host.page.add_script_tag(content=axe_source)
    assert run_axe_serious(host.page, host.cell(cell)) == []

    # Answered after the reload, last card first.
    cards[2].button("Approve").click()
    cards[2].expect_status("answered")
    expect(heading).to_have_accessible_name("1 request waiting")
    cards[1].button("Reject").click()
    cards[1].expect_status("answered")

    got = read_decisions(host, cell)
    assert [(d["i"], d["decision"], d["status"], d["reason"], d["edited"]) for d in got] == [
        (0, "approve", "answered", "", None),
        (1, "reject", "answered", "t1 still feeds the dashboard", None),
        (2, "edit", "answered", "", "DROP TABLE IF EXISTS t2"),
    ]
    host.wait_done(cell)  # no execute_reply reaches a reloaded window; its idle ends the cell
    assert host.run_ok("print('next cell')") == cell + 1


def test_arrow_keys_move_between_the_waiting_cards(open_host):
    host, cell, cards, heading = open_batch(open_host)
    page = host.page
    heading.get_by_role("button", name="Approve all (3)", exact=True).focus()
    # Down from the heading: its own card first, then card by card; at the last it stays.
    for i in (0, 1, 2, 2):
        page.keyboard.press("ArrowDown")
        expect(cards[i].button("Reject")).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(cards[1].button("Reject")).to_be_focused()
    page.keyboard.press("Enter")  # Reject on the focused card only
    cards[1].expect_status("answered")
    cards[0].button("Approve").focus()
    page.keyboard.press("ArrowDown")  # the answered card is passed over
    expect(cards[2].button("Reject")).to_be_focused()
    assert host.is_running(cell)
