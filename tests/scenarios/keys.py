"""The keys a person meets first, once for every host: Enter, Enter on an untouched question
sends nothing (the first Enter asks, naming the empty question, with focus on "Keep answering";
the second keeps answering); one Escape on an untouched question or approval leaves it pending
with "Press Escape again…" shown, and a second Escape dismisses it. Each test takes `host`
(a hosts.Host) from its suite.
"""

from __future__ import annotations

from browser.ask_widget import PRINT_DECISION, PRINT_RESULT, AskWidget
from hosts import Host
from playwright.sync_api import Locator, expect

from nbask.contract import agent_text

PICK = "Which model size?"
QUESTIONS = [
    {
        "question": PICK,
        "header": "Model",
        "options": [{"label": "Small"}, {"label": "Medium (Recommended)"}, {"label": "Large"}],
    }
]
ESCAPE_AGAIN = "Press Escape again to discard your answer"
ACTION = "Drop the staging table"


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


def escape_note(root: Locator) -> Locator:
    return root.get_by_role("status").filter(has_text=ESCAPE_AGAIN)


def test_enter_enter_on_an_untouched_question_sends_nothing(host: Host):
    ask = open_question(host)
    keys = ask.root.page.keyboard
    # Focus is on the recommended option, and focus is not a choice.
    expect(ask.option(PICK, "Medium")).not_to_be_checked()
    keys.press("Enter")
    expect(ask.button("Keep answering")).to_be_focused()
    expect(ask.root.locator(".nbask-confirm-text")).to_contain_text("Not answered: “Model”")
    keys.press("Enter")
    expect(ask.root.locator(".nbask-confirm")).to_be_hidden()
    expect(ask.option(PICK, "Medium")).to_be_focused()  # back on the question left empty
    ask.expect_pending()
    host.wait_running(1)
    assert host.printed(1) == ""
    # Nothing was on its way: the one answer the cell ever gets is the dismissal that follows.
    ask.dismiss()
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})


def test_one_escape_on_an_untouched_question_keeps_it_pending(host: Host):
    ask = open_question(host)
    keys = ask.root.page.keyboard
    keys.press("Escape")
    expect(escape_note(ask.root)).to_be_visible()
    ask.expect_pending()
    host.wait_running(1)
    assert host.printed(1) == ""
    keys.press("Escape")
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})
    ask.expect_resolved("dismissed")
    expect(escape_note(ask.root)).to_have_count(0)


def test_one_escape_on_an_untouched_approval_keeps_it_pending(host: Host):
    root = open_approval(host)
    keys = root.page.keyboard
    keys.press("Escape")
    expect(escape_note(root)).to_be_visible()
    expect(root).to_have_attribute("data-status", "pending")
    for name in ("Approve", "Edit", "Reject"):
        expect(root.get_by_role("button", name=name, exact=True)).to_be_enabled()
    expect(root.get_by_role("textbox", name="Reason")).to_be_enabled()
    expect(root.locator(".nbask-keys")).to_have_text("Keys: Esc close")  # one Escape only asks
    host.wait_running(1)
    assert host.printed(1) == ""
    keys.press("Escape")
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["status"], decision["edited"]) == ("reject", "dismissed", None)
    assert decision["reason"] == agent_text("approval_dismissed")
    expect(root).to_have_attribute("data-status", "dismissed")
    expect(escape_note(root)).to_have_count(0)
