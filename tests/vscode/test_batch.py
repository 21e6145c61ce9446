"""Several requests shown together in the VS Code host: three approvals asked with run_requests
form a batch of three cards in one cell, the first carrying the heading ("3 requests waiting")
with Approve all / Reject all behind a confirmation. The cards are answered in any order and the
cell prints every decision in request order; Approve all asks first (focus on "Keep reviewing")
and then decides all three; a window reload brings every waiting card back with its draft, still
answerable; axe finds nothing serious pending, confirming or resolved.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser.ask_widget import ApprovalView, run_axe_serious
from playwright.sync_api import Locator, expect

from .host import RUN_TIMEOUT_MS, VSCodeHost

pytestmark = pytest.mark.vscode

SETUP = "import json, nbask\nfrom nbask.api import approval_request, run_requests"
# The cell prints each decision, in request order, once all of them are decided.
RUN_THREE = (
    'ds = await run_requests([approval_request(f"Drop table t{i}", f"DROP TABLE t{i}", timeout=None) '
    "for i in range(3)])\n"
    "for i, d in enumerate(ds):\n"
    '    print("DECISION " + json.dumps({"i": i, "decision": d.decision, "status": d.status, '
    '"reason": d.reason, "edited": d.edited, "answered_by": d.answered_by, "batch": bool(d.batch_id)}), flush=True)'
)


def cards_of(host: VSCodeHost, cell: int) -> tuple[list[ApprovalView], Locator]:
    """The cell's three pending cards, each showing its own request, and the lead's heading."""
    cards = [ApprovalView(host.widget(cell, i)) for i in range(3)]
    for i, card in enumerate(cards):
        expect(card.root).to_be_visible(timeout=RUN_TIMEOUT_MS)
        card.expect_status("pending")
        expect(card.root).to_contain_text(f"DROP TABLE t{i}")
    heading = cards[0].root.get_by_role("group", name=re.compile(r"requests? waiting$"))
    # Only the lead card carries the heading.
    for card in cards[1:]:
        expect(card.root.locator(".nbask-batch")).to_have_count(0)
    return cards, heading


def open_batch(open_host: Any) -> tuple[VSCodeHost, int, list[ApprovalView], Locator]:
    host = open_host()
    host.run_ok(SETUP)
    cell = host.run(RUN_THREE)
    cards, heading = cards_of(host, cell)
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    return host, cell, cards, heading


def decisions(host: VSCodeHost, cell: int) -> list[dict[str, Any]]:
    host.wait_output(cell, re.compile(r'DECISION \{"i": 2'))
    lines = [line for line in host.stdout(cell).splitlines() if line.startswith("DECISION ")]
    return [json.loads(line[len("DECISION ") :]) for line in lines]


def test_three_approvals_answered_out_of_order_print_in_request_order(open_host, axe_source):
    host, cell, cards, heading = open_batch(open_host)
    host.page.add_script_tag(content=axe_source)
    area = host.cell(cell)
    assert run_axe_serious(host.page, area) == []
    expect(heading.get_by_role("button", name="Approve all (3)", exact=True)).to_be_visible()

    cards[2].textbox("Reason").fill("t2 is a scratch table")
    cards[2].button("Approve").click()
    cards[2].expect_status("answered")
    expect(heading).to_have_accessible_name("2 requests waiting")
    cards[0].button("Reject").click()
    cards[0].expect_status("answered")
    # The lead's own request ended; its heading stays while the batch waits.
    expect(heading).to_have_accessible_name("1 request waiting")
    expect(heading.get_by_role("button")).to_have_count(0)  # one approval left: no "all" button
    assert "DECISION" not in host.stdout(cell)
    assert host.is_running(cell)
    assert run_axe_serious(host.page, area) == []
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")

    got = decisions(host, cell)
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

    approve_all.click()
    expect(keep).to_be_focused()
    heading.get_by_role("button", name="Approve 3", exact=True).click()
    for card in cards:
        card.expect_status("answered")
        expect(card.root).to_contain_text("Approved")
    got = decisions(host, cell)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (i, "approve", "answered", "person") for i in range(3)
    ]
    assert host.wait_done(cell) == "ok"
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)


def test_after_a_reload_every_card_comes_back_with_its_draft_and_can_be_answered(open_host, axe_source):
    host, cell, cards, heading = open_batch(open_host)
    cards[0].button("Approve").click()  # one decided before the reload
    cards[0].expect_status("answered")
    expect(heading).to_have_accessible_name("2 requests waiting")
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
    heading = cards[0].root.get_by_role("group", name=re.compile(r"requests? waiting$"))
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

    got = decisions(host, cell)
    assert [(d["i"], d["decision"], d["status"], d["reason"], d["edited"]) for d in got] == [
        (0, "approve", "answered", "", None),
        (1, "reject", "answered", "t1 still feeds the dashboard", None),
        (2, "edit", "answered", "", "DROP TABLE IF EXISTS t2"),
    ]
    host.wait_done(cell)  # no execute_reply reaches a reloaded window; its idle ends the cell
    assert host.run_ok("print('next cell')") == cell + 1
