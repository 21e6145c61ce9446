"""Each ending as the person reads it, once for every host, while the cell receives the agent's
wording unchanged (src/nbask/contract.json `wording`, js/parts/wording.ts): an answered question (the
option's label without "(Recommended)", no made-up name), a dismissed, a timed-out and an
interrupted question, an approval rejected with a reason, one approved with edits (its resolved
block showing the changed lines) and a declined form. Each test takes `host` (a hosts.Host)
from its suite.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, expect
from support.ask_widget import PRINT_DECISION, PRINT_RESULT, AskWidget
from support.hosts import Host

from nbask.contract import agent_text

QUESTION = "Which region?"
DASH = "\N{EN DASH}"  # the key hints' ranges
ACTION = "Delete old events"
DETAILS = "DELETE FROM events\nWHERE day < 7\n-- 12,408,331 rows"
EDITED = DETAILS.replace("day < 7", "day < 30")
PRINT_FORM = (
    'print("FORM " + json.dumps({"status": f.status, "action": f.action, "values": f.values, "note": f.note}), '
    "flush=True)"
)


def status_line(root: Locator) -> Locator:
    return root.locator(".nbask-status-line")


def ending(root: Locator) -> Locator:
    """The line about how the request ended, in the person's words."""
    return root.locator(".nbask-ending")


def expect_no_agent_wording(root: Locator, agent: str) -> None:
    """The person never reads the text written for the agent ("The person dismissed…")."""
    expect(root).not_to_contain_text(agent)
    expect(root).not_to_contain_text("The person")


def _ask(host: Host, timeout: int) -> AskWidget:
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['eu-west', 'us-east'], timeout={timeout})\n" + PRINT_RESULT,
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    return ask


def _approve(host: Host) -> Locator:
    host.open(
        ["import json, nbask", f"d = await nbask.approve({ACTION!r}, {DETAILS!r}, timeout=600)\n" + PRINT_DECISION]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    root = host.widget(1)
    expect(root).to_have_attribute("data-status", "pending")
    return root


def test_an_answer_shows_the_label_and_the_keys_hint_matches_the_form(host: Host):
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['eu-west (Recommended)', 'us-east'], timeout=600)\n" + PRINT_RESULT,
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    # Two options and Other: digits 1 to 3.
    expect(ask.root.locator(".nbask-keys")).to_have_text(f"Keys: 1{DASH}3 choose · ↑↓ move · Enter send · Esc close")
    ask.choose(QUESTION, "eu-west")
    ask.submit()
    result = host.read_line(1, "RESULT")
    assert result["answers"] == {QUESTION: "eu-west (Recommended)"}
    ask.expect_resolved("answered")
    # No one's name: a one-person server's made-up "Anonymous <moon>" is not shown, nor any in VS Code.
    expect(status_line(ask.root)).to_have_text("Answered")
    expect(ask.root.locator(".nbask-resolved-answer")).to_have_text("eu-west")


def test_a_dismissed_question_in_the_persons_words(host: Host):
    ask = _ask(host, timeout=600)
    ask.dismiss()
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("dismissed", {})
    assert result["note"] == agent_text("question_dismissed")
    ask.expect_resolved("dismissed")
    expect(status_line(ask.root)).to_have_text("Dismissed")
    expect(ending(ask.root)).to_have_text("You dismissed this question without answering.")
    expect_no_agent_wording(ask.root, result["note"])


def test_a_timed_out_question_in_the_persons_words(host: Host):
    ask = _ask(host, timeout=3)
    ask.expect_status("timeout")
    result = host.read_line(1, "RESULT")
    assert (result["status"], result["answers"]) == ("timeout", {})
    assert result["note"] == agent_text("timeout", seconds="3")
    ask.expect_resolved("timeout")
    expect(status_line(ask.root)).to_have_text("Timed out")
    expect(ending(ask.root)).to_have_text("No answer in 3 s — the agent went on without one.")
    expect_no_agent_wording(ask.root, result["note"])


def test_an_interrupted_question_in_the_persons_words(host: Host):
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['eu-west', 'us-east'], timeout=3600)",
            "print('NOTE ' + json.dumps({'note': nbask.history()[-1].outcome.note}), flush=True)",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    # The countdown starts once the wait has taken the kernel's interrupt over (scenarios/basic.py).
    expect(ask.root).to_contain_text("Time left")
    host.interrupt()
    ask.expect_resolved("cancelled")
    expect(status_line(ask.root)).to_have_text("Cancelled")
    expect(ending(ask.root)).to_have_text("The cell was interrupted before you answered — the agent stopped waiting.")
    expect_no_agent_wording(ask.root, agent_text("cancelled"))
    host.wait_done(1)
    host.wait_idle()
    host.run_cell(2)
    assert host.read_line(2, "NOTE") == {"note": agent_text("cancelled")}


def test_a_rejection_with_a_reason_in_the_persons_words(host: Host):
    root = _approve(host)
    root.get_by_role("textbox", name="Reason", exact=True).fill("Not on a Friday")
    root.get_by_role("button", name="Reject", exact=True).click()
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["status"], decision["edited"]) == ("reject", "answered", None)
    assert decision["reason"] == "Not on a Friday"
    expect(root).to_have_attribute("data-status", "answered")
    expect(status_line(root)).to_have_text("Rejected")
    expect(root.locator(".nbask-decision-text")).to_have_text("You rejected this.")
    expect(root.locator(".nbask-reason-text")).to_have_text("Reason: Not on a Friday")
    expect(ending(root)).to_have_count(0)  # the reason is the person's own, not an ending nbask wrote
    expect(root.locator("button, textarea, input")).to_have_count(0)


def test_an_edited_approval_says_so_and_shows_the_changed_lines(host: Host):
    root = _approve(host)
    root.get_by_role("button", name="Edit", exact=True).click()
    details = root.get_by_role("textbox", name="Details", exact=True)
    expect(details).to_have_value(DETAILS)
    details.fill(EDITED)
    root.get_by_role("button", name="Approve", exact=True).click()
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["status"], decision["edited"]) == ("edit", "answered", EDITED)
    assert decision["reason"] == ""
    expect(root).to_have_attribute("data-status", "answered")
    expect(status_line(root)).to_have_text("Approved with edits")
    expect(root.locator(".nbask-decision-text")).to_have_text("You approved this with your edits.")
    expect(root.locator(".nbask-reason-text")).to_have_count(0)
    # Before → after, line by line: the changed line removed then added, the others kept; within
    # the changed line the word that changed is marked, and screen readers hear what changed.
    changes = root.get_by_role("region", name="Changes")
    expect(changes).to_be_visible()
    expect(changes.get_by_role("deletion")).to_have_text("-Removed: WHERE day < 7")
    expect(changes.get_by_role("insertion")).to_have_text("+Added: WHERE day < 30 (Changed: 7 → 30)")
    expect(changes.locator("mark.nbask-diff-word")).to_have_text(["7", "30"])
    lines = changes.locator(".nbask-diff-line")
    expect(lines).to_have_count(4)
    expect(lines).to_have_text(
        [
            "DELETE FROM events",
            "-Removed: WHERE day < 7",
            "+Added: WHERE day < 30 (Changed: 7 → 30)",
            "-- 12,408,331 rows",
        ],
        use_inner_text=False,
    )
    expect(root.locator("button, textarea, input")).to_have_count(0)


def test_a_declined_form_in_the_persons_words(host: Host):
    schema = {"type": "object", "properties": {"seats": {"type": "integer", "title": "Seats"}}, "required": ["seats"]}
    host.open(
        ["import json, nbask", f"f = await nbask.ask_form('How many seats?', {schema!r}, timeout=600)\n" + PRINT_FORM]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    root = host.widget(1)
    expect(root).to_have_attribute("data-status", "pending")
    root.get_by_role("spinbutton", name=re.compile("Seats")).fill("3")  # typed, then declined: not sent
    root.get_by_role("button", name="Dismiss", exact=True).click()
    # The typed value would be lost: Dismiss asks first, naming it.
    expect(root.locator(".nbask-discard")).to_contain_text("Your entry in “Seats” will be lost.")
    root.get_by_role("button", name="Discard", exact=True).click()
    form = host.read_line(1, "FORM")
    assert form == {"status": "dismissed", "action": "decline", "values": {}, "note": agent_text("form_dismissed")}
    expect(root).to_have_attribute("data-status", "dismissed")
    expect(status_line(root)).to_have_text("Dismissed")
    expect(ending(root)).to_have_text("You dismissed this form without sending it.")
    expect_no_agent_wording(root, form["note"])
    expect(root.locator("button, textarea, input")).to_have_count(0)
