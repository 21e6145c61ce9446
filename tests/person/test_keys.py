"""The keys a person meets first, once for every host: Enter, Enter on an untouched question
sends nothing (the first Enter asks, naming the empty question, with focus on "Keep answering";
the second keeps answering); Escape on an untouched question or approval dismisses it at once
(nothing would be lost, and an approval is dismissed, never rejected); with a choice made, Escape
and the Dismiss button both ask "Discard your answer?" first, "Keep editing" focused, and a second
Escape keeps the draft. Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

from playwright.sync_api import Locator, expect
from support.ask_widget import PRINT_DECISION, PRINT_RESULT, AskWidget
from support.hosts import Host

from nbask.contract import agent_text

PICK = "Which model size?"
QUESTIONS = [
    {
        "question": PICK,
        "header": "Model",
        "options": [{"label": "Small"}, {"label": "Medium (Recommended)"}, {"label": "Large"}],
    }
]
DISCARD = "Discard your answer? Your answer to “Model” will be lost."
ACTION = "Drop the staging table"
# The "Send anyway?" row of a question, not the one that asks before a draft is discarded.
SEND_ANYWAY_ROW = ".nbask-confirm:not(.nbask-discard)"


def open_question(host: Host) -> AskWidget:
    """Cell 1 waits on one untouched question, its recommended option focused by the widget."""
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask_questions({QUESTIONS!r}, timeout=600)\n" + PRINT_RESULT,
            "print('after')",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    expect(ask.option(PICK, "Medium")).to_be_focused()
    return ask


def open_approval(host: Host) -> Locator:
    """Cell 1 waits on an untouched approval, Reject focused by the widget."""
    host.open(
        [
            "import json, nbask",
            f"d = await nbask.approve({ACTION!r}, 'DROP TABLE staging', timeout=600)\n" + PRINT_DECISION,
            # A next cell to land on: Shift+Enter on the last cell opens a new one, whose editor
            # keeps focus (the widget never takes it from an editor).
            "print('after')",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    root = host.widget(1)
    expect(root).to_have_attribute("data-status", "pending")
    expect(root.get_by_role("button", name="Reject", exact=True)).to_be_focused()
    return root


def discard_row(root: Locator) -> Locator:
    """The row that asks before a draft is discarded."""
    return root.locator(".nbask-discard")


def test_enter_enter_on_an_untouched_question_sends_nothing(host: Host):
    ask = open_question(host)
    keys = ask.root.page.keyboard
    # Focus is on the recommended option, and focus is not a choice.
    expect(ask.option(PICK, "Medium")).not_to_be_checked()
    keys.press("Enter")
    expect(ask.button("Keep answering")).to_be_focused()
    expect(ask.root.locator(f"{SEND_ANYWAY_ROW} .nbask-confirm-text")).to_contain_text("Not answered: “Model”")
    keys.press("Enter")
    expect(ask.root.locator(SEND_ANYWAY_ROW)).to_be_hidden()
    expect(ask.option(PICK, "Medium")).to_be_focused()  # back on the question left empty
    ask.expect_pending()
    host.wait_running(1)
    assert host.printed(1) == ""
    # Nothing was on its way: the one answer the cell ever gets is the dismissal that follows.
    ask.dismiss()
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})


def test_one_escape_on_an_untouched_question_dismisses_it(host: Host):
    ask = open_question(host)
    ask.root.page.keyboard.press("Escape")
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})
    ask.expect_resolved("dismissed")


def test_escape_or_dismiss_with_a_choice_asks_once_then_keeps_it(host: Host):
    ask = open_question(host)
    keys = ask.root.page.keyboard
    keys.press("3")
    expect(ask.option(PICK, "Large")).to_be_checked()
    keys.press("Escape")
    row = discard_row(ask.root)
    expect(row).to_be_visible()
    expect(row).to_contain_text(DISCARD)
    keep = ask.button("Keep editing")
    expect(keep).to_be_focused()
    # A second Escape is "Keep editing": nothing is sent, the choice stays, focus goes back.
    keys.press("Escape")
    expect(row).to_be_hidden()
    expect(ask.option(PICK, "Large")).to_be_focused()
    expect(ask.option(PICK, "Large")).to_be_checked()
    # The Dismiss button asks the same; Enter on the focused "Keep editing" keeps it too.
    ask.dismiss_button.click()
    expect(row).to_contain_text(DISCARD)
    expect(keep).to_be_focused()
    keys.press("Enter")
    expect(row).to_be_hidden()
    expect(ask.dismiss_button).to_be_focused()
    ask.expect_pending()
    host.wait_running(1)
    assert host.printed(1) == ""
    ask.dismiss_button.click()
    ask.button("Discard").click()
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})


def test_one_escape_on_an_untouched_approval_dismisses_it_never_rejects(host: Host):
    root = open_approval(host)
    expect(root.locator(".nbask-keys")).to_have_text("Keys: Esc close")
    root.page.keyboard.press("Escape")  # with Reject focused: still a dismissal, not Reject
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["status"], decision["edited"]) == ("reject", "dismissed", None)
    assert decision["reason"] == agent_text("approval_dismissed")
    expect(root).to_have_attribute("data-status", "dismissed")
    expect(root.locator(".nbask-status-line")).not_to_contain_text("Rejected")
