"""What the person reads in the widget, in a real browser (JupyterLab and Notebook 7): every ending
in their own words while the agent's wording stays exactly as the kernel returns it; the
countdown's warning near the end; key hints that match the form. An answered question (no made-up
name on a one-person server), a dismissed, timed-out or interrupted one, a rejection with a
reason, an edited approval and a declined form are shared scenarios (tests/person/test_words.py),
run here by test_person_scenarios.py.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import open_asking, read_result
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

from nbask.contract import agent_text

pytestmark = pytest.mark.browser

QUESTION = "Which region?"
DASH = "\u2013"  # the en dash of the key hints' ranges
PRINT_DECISION = 'print("DECISION " + json.dumps({"status": d.status, "reason": d.reason}), flush=True)'


def status_line(root: Locator) -> Locator:
    return root.locator(".nbask-status-line")


def ending(root: Locator) -> Locator:
    """The line about how the request ended, in the person's words."""
    return root.locator(".nbask-ending")


def keys_hint(root: Locator) -> Locator:
    return root.locator(".nbask-keys")


def read_decision(nb: NotebookPage) -> dict[str, str]:
    nb.wait_output(1, re.compile(r"DECISION \{"))
    line = next(line for line in nb.stream_text(1).splitlines() if line.startswith("DECISION "))
    return dict(json.loads(line[len("DECISION ") :]))


def test_multi_select_hint_mentions_space(open_notebook):
    options = [{"label": label} for label in ("a", "b", "c")]
    questions = [{"question": QUESTION, "header": "Region", "options": options, "multi_select": True}]
    _nb, ask = open_asking(open_notebook, f"nbask.ask_questions({questions!r}, timeout=600)")
    expect(keys_hint(ask.root)).to_have_text(f"Keys: 1{DASH}4 choose · ↑↓ move · Space check · Enter send · Esc close")


def test_countdown_warns_then_timeout_and_late_answer(open_notebook):
    nb, ask = open_asking(open_notebook, f"nbask.ask({QUESTION!r}, ['eu-west', 'us-east'], timeout=3)")
    # A 3-second wait is all in its last minute: the warning shows and is said once.
    expect(ask.root.locator(".nbask-time-warning")).to_have_text(re.compile(r"^\d seconds? left to answer$"))
    expect(ask.root.locator(".nbask-timer[data-warning]")).to_be_visible()
    ask.expect_status("timeout")
    expect(ending(ask.root)).to_have_text("No answer in 3 s — the agent went on without one.")
    assert read_result(nb, 1)["note"] == agent_text("timeout", seconds="3")
    ask.button("Answer anyway").click()
    ask.choose(QUESTION, "us-east")
    ask.submit()
    expect(status_line(ask.root)).to_have_text("Answered late")
    expect(ending(ask.root)).to_have_text(
        re.compile(r"^You answered after the time limit: the cell had already gone on")
    )
    expect(ask.root).to_contain_text("It is kept in nbask.late_answers()")  # where the answer went


def open_approval(open_notebook) -> tuple[NotebookPage, Locator]:
    nb = open_notebook(
        ["import json, nbask", "d = await nbask.approve('Drop table', 'DROP TABLE t', timeout=600)\n" + PRINT_DECISION]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    root = nb.widget(1)
    expect(root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    return nb, root


@pytest.mark.parametrize(
    ("button", "reason", "said"),
    [
        ("Approve", "", "You approved this."),
        ("Reject", "", "You rejected this."),
        ("Reject", "not now", "You rejected this."),
    ],
)
def test_approval_decisions_in_the_persons_words(open_notebook, button, reason, said):
    nb, root = open_approval(open_notebook)
    if reason:
        root.get_by_role("textbox", name="Reason", exact=True).fill(reason)
    root.get_by_role("button", name=button, exact=True).click()
    expect(root).to_have_attribute("data-status", "answered", timeout=RUN_TIMEOUT_MS)
    expect(root.locator(".nbask-decision-text")).to_have_text(said)
    reason_line = root.locator(".nbask-reason-text")
    if reason:
        expect(reason_line).to_have_text(f"Reason: {reason}")
    else:
        expect(reason_line).to_have_count(0)
    assert read_decision(nb)["reason"] == reason


def test_escape_on_an_approval_is_not_shown_as_a_reason(open_notebook, page: Page):
    nb, root = open_approval(open_notebook)
    reason = root.get_by_role("textbox", name="Reason", exact=True)
    reason.fill("not today")
    # A typed reason would be lost: Escape asks first (js/shell/discard.ts), naming it.
    page.keyboard.press("Escape")
    row = root.locator(".nbask-discard")
    expect(row).to_contain_text("Discard your changes? Your reason will be lost, and the request will not be approved.")
    expect(root.get_by_role("button", name="Keep editing", exact=True)).to_be_focused()
    expect(root).to_have_attribute("data-status", "pending")
    root.get_by_role("button", name="Discard", exact=True).click()
    expect(root).to_have_attribute("data-status", "dismissed", timeout=RUN_TIMEOUT_MS)
    expect(ending(root)).to_have_text("You dismissed this request: it was not approved.")
    expect(root.locator(".nbask-reason-text")).to_have_count(0)
    expect(root).not_to_contain_text("The person")
    assert read_decision(nb)["reason"] == agent_text("approval_dismissed")


def test_a_dismissed_card_of_two_questions_says_so_in_the_plural(open_notebook, page: Page):
    questions = [
        {"question": QUESTION, "header": "Region", "options": [{"label": "EU"}, {"label": "US"}]},
        {"question": "Which tier?", "header": "Tier", "options": [{"label": "Free"}, {"label": "Paid"}]},
    ]
    nb, ask = open_asking(open_notebook, f"nbask.ask_questions({questions!r}, timeout=600)")
    ask.choose(QUESTION, "EU")
    # Dismiss asks as Escape does: the chosen answer would be lost; Keep editing is focused.
    ask.dismiss()
    row = ask.root.locator(".nbask-discard")
    expect(row).to_contain_text("Discard your answer? Your answer to “Region” will be lost.")
    expect(ask.button("Keep editing")).to_be_focused()
    ask.button("Discard").click()
    assert read_result(nb, 1)["status"] == "dismissed"
    expect(ending(ask.root)).to_have_text("You dismissed these 2 questions without answering.")
