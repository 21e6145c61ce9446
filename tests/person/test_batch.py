"""Several requests shown together, in every host: three approvals asked with run_requests form
a batch; the lead card's heading counts them ("3 requests waiting") and offers Approve all /
Reject all behind a confirmation. Each card is answered with its own buttons in any order and the
cell prints every decision in request order; Approve all decides every one (in a mixed batch,
the approvals only); the cards and the heading are keyboard-usable in reading order (Tab through
every control, Up and Down from card to card); axe finds nothing serious pending, confirming or
resolved. In VS Code: a window reload brings every waiting card back with its draft.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from support.ask_widget import ApprovalView, AskWidget, run_axe_serious
from support.batch_helpers import (
    LAST_DECISION,
    PRINT_DECISIONS,
    SETUP,
    approve_all_confirmed,
    approve_last_reject_lead,
    batch_heading,
    expect_three_pending,
    read_decisions,
    run_three,
)
from support.hosts import Host
from support.notebook_page import RUN_TIMEOUT_MS
from support.vscode.host import VSCodeHost

# The cell prints each decision, in request order, once all of them are decided.
RUN_THREE = run_three(timeout=600) + "\n" + PRINT_DECISIONS


def open_batch(host: Host) -> tuple[list[ApprovalView], Locator]:
    """Run the three approvals in cell 1; return the three cards and the lead's heading."""
    host.open([SETUP, RUN_THREE])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    cards, heading = expect_three_pending([host.widget(1, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    return cards, heading


def decisions(host: Host) -> list[dict[str, Any]]:
    """Every decision cell 1 printed, in request order, once the last one is printed."""
    host.wait_output(1, LAST_DECISION)
    return [
        json.loads(line[len("DECISION ") :]) for line in host.printed(1).splitlines() if line.startswith("DECISION ")
    ]


def test_each_card_answered_in_any_order(host: Host, axe_source):
    cards, heading = open_batch(host)
    page = host.page
    page.add_script_tag(content=axe_source)
    area = host.output(1)
    assert run_axe_serious(page, area) == []
    expect(heading.get_by_role("button", name="Approve all (3)", exact=True)).to_be_visible()
    cards[2].textbox("Reason").fill("t2 is a scratch table")  # typed, then Approve: not sent
    approve_last_reject_lead(cards, heading)
    assert "DECISION" not in host.printed(1)
    host.wait_running(1)
    assert run_axe_serious(page, area) == []
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")
    got = decisions(host)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (0, "reject", "answered", "person"),
        (1, "approve", "answered", "person"),
        (2, "approve", "answered", "person"),
    ]
    assert got[2]["reason"] == "t2 is a scratch table"
    assert all(d["batch"] for d in got)
    host.wait_done(1)
    assert not host.failed(1)
    assert run_axe_serious(page, area) == []
    for card in cards:
        expect(card.root.locator(".nbask-batch")).to_have_count(0)
        # One source (none said): no card names one.
        expect(card.root.locator(".nbask-source")).to_be_hidden()


def test_approve_all_asks_first_then_decides_all_three(host: Host, axe_source):
    cards, heading = open_batch(host)
    page = host.page
    approve_all = heading.get_by_role("button", name="Approve all (3)", exact=True)
    approve_all.click()
    expect(heading).to_contain_text("Approve all 3 approvals? Each runs as shown, without edits.")
    keep = heading.get_by_role("button", name="Keep reviewing", exact=True)
    expect(keep).to_be_focused()
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, host.output(1)) == []
    # Keep reviewing sends nothing, and Escape closes the confirmation the same way.
    page.keyboard.press("Enter")
    expect(keep).to_have_count(0)
    expect(approve_all).to_be_focused()
    page.keyboard.press("Enter")
    expect(keep).to_be_focused()
    page.keyboard.press("Escape")
    expect(keep).to_have_count(0)
    for card in cards:
        card.expect_status("pending")
    expect(cards[0].root.locator(".nbask-discard")).to_be_hidden()
    host.wait_running(1)

    approve_all_confirmed(cards, heading)
    got = decisions(host)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (0, "approve", "answered", "person"),
        (1, "approve", "answered", "person"),
        (2, "approve", "answered", "person"),
    ]
    host.wait_done(1)
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)


# Where focus is, as "<card>:<role>:<name>" (card -1 = outside the cell's widgets).
FOCUSED = """area => {
  const el = document.activeElement;
  const cards = [...area.querySelectorAll('.nbask')];
  const card = cards.findIndex(c => c.contains(el));
  if (card < 0) return 'outside';
  const role = el.tagName === 'TEXTAREA' ? 'textbox' : el.tagName.toLowerCase();
  const name = el.tagName === 'TEXTAREA' ? (el.labels[0] || {}).textContent : el.textContent;
  return card + ':' + role + ':' + (name || '').trim();
}"""

# Every control a person can Tab to in the cell's widgets, in document (reading) order.
TABBABLE = """area => [...area.querySelectorAll('.nbask')].flatMap((card, i) =>
  [...card.querySelectorAll('button, textarea, input, select, a[href], [tabindex="0"]')]
    .filter(el => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0)
    .map(el => i + ':' + (el.tagName === 'TEXTAREA' ? 'textbox' : el.tagName.toLowerCase()) + ':'
      + ((el.tagName === 'TEXTAREA' ? (el.labels[0] || {}).textContent : el.textContent) || '').trim()))"""


def test_keyboard_only_reaches_every_control_in_reading_order(host: Host):
    if host.name == "vscode":
        pytest.skip("VS Code wraps each widget output in a focusable region: Tab stops on it between cards")
    _cards, heading = open_batch(host)
    page = host.page
    area = host.output(1)
    expected = area.evaluate(TABBABLE)
    # The heading's buttons come first, then each card's own controls, card by card.
    assert expected[:2] == ["0:button:Approve all (3)", "0:button:Reject all (3)"], expected
    for i in range(3):
        mine = [entry for entry in expected if entry.startswith(f"{i}:")]
        assert [f"{i}:button:Approve", f"{i}:button:Edit", f"{i}:button:Reject"] == [
            entry for entry in mine if entry.split(":", 2)[2] in ("Approve", "Edit", "Reject")
        ], mine
        assert f"{i}:textbox:Reason" in mine, mine
    heading.get_by_role("button", name="Approve all (3)", exact=True).focus()
    walked = [area.evaluate(FOCUSED)]
    for _ in range(len(expected) - 1):
        page.keyboard.press("Tab")
        walked.append(area.evaluate(FOCUSED))
    assert walked == expected
    page.keyboard.press("Tab")
    assert area.evaluate(FOCUSED) == "outside"

    # And back by keyboard alone: Reject all, confirm with the keyboard (Keep reviewing first).
    for _ in range(len(expected) - 1):
        page.keyboard.press("Shift+Tab")
    expect(heading.get_by_role("button", name="Reject all (3)", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(heading).to_contain_text("Reject all 3 approvals?")
    expect(heading.get_by_role("button", name="Keep reviewing", exact=True)).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(heading.get_by_role("button", name="Reject 3", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    got = decisions(host)
    assert [(d["decision"], d["status"]) for d in got] == [("reject", "answered")] * 3


def test_arrow_keys_move_between_waiting_cards(host: Host):
    cards, heading = open_batch(host)
    page = host.page
    area = host.output(1)
    heading.get_by_role("button", name="Approve all (3)", exact=True).focus()
    # Down from the heading goes into its own card first, then card by card; at the last card
    # it stays, and Up goes back.
    walked = []
    for _ in range(4):
        page.keyboard.press("ArrowDown")
        walked.append(area.evaluate(FOCUSED))
    assert walked == ["0:button:Reject", "1:button:Reject", "2:button:Reject", "2:button:Reject"]
    page.keyboard.press("ArrowUp")
    assert area.evaluate(FOCUSED) == "1:button:Reject"
    # Enter on the focused button decides that card only; an answered card is passed over.
    page.keyboard.press("Enter")
    cards[1].expect_status("answered")
    cards[0].button("Approve").focus()
    page.keyboard.press("ArrowDown")
    assert area.evaluate(FOCUSED) == "2:button:Reject"
    for card in (cards[0], cards[2]):
        card.expect_status("pending")
    host.wait_running(1)


def test_axe_with_the_batch_pending_confirming_and_resolved(host: Host, axe_source):
    cards, heading = open_batch(host)
    page = host.page
    page.add_script_tag(content=axe_source)
    area = host.output(1)
    assert run_axe_serious(page, area) == []
    heading.get_by_role("button", name="Reject all (3)", exact=True).click()
    expect(heading.get_by_role("button", name="Keep reviewing", exact=True)).to_be_focused()
    assert run_axe_serious(page, area) == []
    heading.get_by_role("button", name="Keep reviewing", exact=True).click()
    cards[1].button("Approve").click()
    expect(heading).to_have_accessible_name("2 requests waiting")
    assert run_axe_serious(page, area) == []
    heading.get_by_role("button", name="Approve all (2)", exact=True).click()
    heading.get_by_role("button", name="Approve 2", exact=True).click()
    decisions(host)
    for card in cards:
        card.expect_status("answered")
    assert run_axe_serious(page, area) == []


# Two approvals and a question shown together; the cell prints every outcome once all ended.
MIXED_SETUP = (
    SETUP + "\nfrom nbask.models import one_question_set\nfrom nbask.kinds import QuestionRequest\n"
    "MIXED = [approval_request(f'Drop table t{i}', f'DROP TABLE t{i}', timeout=600) for i in range(2)]\n"
    "MIXED.append(QuestionRequest(question_set=one_question_set('Which backup?', ['Nightly', 'Hourly']), timeout=600))"
)
RUN_MIXED = (
    "out = await run_requests(MIXED)\n"
    'print("MIXED " + json.dumps({"decisions": [o.decision for o in out[:2]], "statuses": [o.status for o in out], '
    '"answers": out[2].answers}), flush=True)'
)


def test_approve_all_in_a_mixed_batch_leaves_the_question_answerable(host: Host):
    host.open([MIXED_SETUP, RUN_MIXED])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    cards = [ApprovalView(host.widget(1, i)) for i in range(2)]
    question = AskWidget(host.widget(1, 2))
    for card in cards:
        card.expect_status("pending")
    question.expect_pending()
    heading = batch_heading(cards[0])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    # The "all" buttons count the approvals only, and so does the confirmation.
    heading.get_by_role("button", name="Approve all (2)", exact=True).click()
    expect(heading).to_contain_text("Approve all 2 approvals? Each runs as shown, without edits.")
    heading.get_by_role("button", name="Approve 2", exact=True).click()
    for card in cards:
        card.expect_status("answered")
        expect(card.root).to_contain_text("Approved")
        expect(card.root.locator(".nbask-batch")).to_have_count(0)
    # The heading moved to the first card still waiting, the question's: never on an answered card.
    expect(batch_heading(question)).to_have_accessible_name("1 request waiting")
    question.expect_status("pending")
    for label in ("Nightly", "Hourly"):
        expect(question.option("Which backup?", label)).to_be_enabled()
    expect(question.submit_button).to_be_enabled()
    expect(question.dismiss_button).to_be_enabled()
    question.choose("Which backup?", "Hourly")
    question.submit()
    assert host.read_line(1, "MIXED") == {
        "decisions": ["approve", "approve"],
        "statuses": ["answered", "answered", "answered"],
        "answers": {"Which backup?": "Hourly"},
    }


# -- VS Code: a window reload -----------------------------------------------------------------------


def test_in_vscode_after_a_window_reload_every_card_comes_back_with_its_draft(open_host, axe_source):
    """VS Code reloads the webview: a fresh widget manager on the same kernel, cells kept
    (JupyterLab's reload: test_batch_reload.py).
    """
    host: VSCodeHost = open_host()
    host.run_ok(SETUP)
    cell = host.run(run_three(timeout=None) + "\n" + PRINT_DECISIONS)
    cards, heading = expect_three_pending([host.widget(cell, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
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
