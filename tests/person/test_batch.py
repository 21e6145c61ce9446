"""Several requests shown together in a real browser (JupyterLab and Notebook 7): three approvals
asked with run_requests form a batch; the lead card's heading counts them ("3 requests waiting")
and offers Approve all / Reject all behind a confirmation. Each card is answered with its own
buttons in any order, Approve all decides every one, the cards and the heading are keyboard-
usable in reading order (Tab through every control, Up and Down from card to card), and axe
finds nothing serious pending or resolved.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import ApprovalView, AskWidget, read_line, run_axe_serious
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
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

# The cell prints each decision, in request order, once all of them are decided.
RUN_THREE = run_three(timeout=600) + "\n" + PRINT_DECISIONS


def open_batch(open_notebook: Callable[..., NotebookPage]) -> tuple[NotebookPage, list[ApprovalView], Locator]:
    """Run the three approvals; return the notebook, the three cards and the lead's heading."""
    nb = open_notebook([SETUP, RUN_THREE])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    cards, heading = expect_three_pending([nb.widget(1, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    return nb, cards, heading


def test_each_card_answered_in_any_order(open_notebook):
    nb, cards, heading = open_batch(open_notebook)
    expect(heading.get_by_role("button", name="Approve all (3)", exact=True)).to_be_visible()
    approve_last_reject_lead(cards, heading)
    assert "DECISION" not in nb.stream_text(1)
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")
    got = read_decisions(nb, 1)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (0, "reject", "answered", "person"),
        (1, "approve", "answered", "person"),
        (2, "approve", "answered", "person"),
    ]
    assert all(d["batch"] for d in got)
    for card in cards:
        expect(card.root.locator(".nbask-batch")).to_have_count(0)
        # One source (none said): no card names one.
        expect(card.root.locator(".nbask-source")).to_be_hidden()


def test_approve_all_asks_first_then_decides_all_three(open_notebook, page):
    nb, cards, heading = open_batch(open_notebook)
    approve_all = heading.get_by_role("button", name="Approve all (3)", exact=True)
    approve_all.click()
    expect(heading).to_contain_text("Approve all 3 approvals? Each runs as shown, without edits.")
    keep = heading.get_by_role("button", name="Keep reviewing", exact=True)
    expect(keep).to_be_focused()
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

    approve_all_confirmed(cards, heading)
    got = read_decisions(nb, 1)
    assert [(d["i"], d["decision"], d["status"], d["answered_by"]) for d in got] == [
        (0, "approve", "answered", "person"),
        (1, "approve", "answered", "person"),
        (2, "approve", "answered", "person"),
    ]
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


def test_keyboard_only_reaches_every_control_in_reading_order(open_notebook, page: Page):
    nb, _cards, heading = open_batch(open_notebook)
    area = nb.output_area(1)
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
    got = read_decisions(nb, 1)
    assert [(d["decision"], d["status"]) for d in got] == [("reject", "answered")] * 3


def test_arrow_keys_move_between_waiting_cards(open_notebook, page: Page):
    nb, cards, heading = open_batch(open_notebook)
    area = nb.output_area(1)
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


def test_axe_with_the_batch_pending_confirming_and_resolved(open_notebook, page, axe_source):
    nb, cards, heading = open_batch(open_notebook)
    page.add_script_tag(content=axe_source)
    area = nb.output_area(1)
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
    read_decisions(nb, 1)
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


def test_approve_all_in_a_mixed_batch_leaves_the_question_answerable(open_notebook):
    nb = open_notebook([MIXED_SETUP, RUN_MIXED])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    cards = [ApprovalView(nb.widget(1, i)) for i in range(2)]
    question = AskWidget.in_cell(nb, 1, 2)
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
    assert read_line(nb, 1, "MIXED") == {
        "decisions": ["approve", "approve"],
        "statuses": ["answered", "answered", "answered"],
        "answers": {"Which backup?": "Hourly"},
    }
