"""Approvals, in every host: edit round-trips to the kernel and prints the Decision (approve and
reject with a reason are in test_basics.py); an edit's diff marks the words that changed and the
title follows the edit; Escape on an untouched approval dismisses it (shown as Dismissed, never
Rejected); the view is keyboard-usable and axe-clean; model text stays literal; a bad edit of a
gated function is named and never sent. Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_DECISION, ApprovalView, run_axe_serious
from support.hosts import Host

pytestmark = pytest.mark.colab

DETAILS = "rm -rf build/\necho 'done'"


def open_approval(host: Host, action: str = "Run shell command", details: str = DETAILS) -> ApprovalView:
    host.open(
        [
            "import json, nbask",
            f"d = await nbask.approve({action!r}, {details!r}, timeout=600)\n" + PRINT_DECISION,
            "print('after')",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    view = ApprovalView(host.widget(1))
    view.expect_status("pending")
    expect(view.button("Approve")).to_be_visible()
    expect(view.root).to_contain_text(action)
    return view


def test_edit_round_trip(host: Host):
    view = open_approval(host)
    view.button("Edit").click()
    details = view.textbox("Details")
    expect(details).to_have_value(DETAILS)
    details.fill("rm -rf build/tmp")
    view.button("Approve").click()
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["edited"], decision["status"]) == ("edit", "rm -rf build/tmp", "answered")
    host.wait_done(1)
    assert not host.failed(1)
    view.expect_status("answered")
    expect(view.root).to_contain_text("Approved with edits")
    expect(view.root).to_contain_text("rm -rf build/tmp")


COMMAND = "kubectl apply -f deploy/web.yaml --context prod --namespace web --wait --timeout 300s"


def test_an_edit_marks_the_changed_word_and_the_title_follows_it(host: Host):
    view = open_approval(host, action="Deploy web to prod", details=COMMAND)
    view.button("Edit").click()
    edited = COMMAND.replace("prod", "staging")
    view.textbox("Details").fill(edited)
    view.button("Approve").click()
    assert host.read_line(1, "DECISION")["edited"] == edited
    view.expect_status("answered")
    changes = view.root.get_by_role("region", name="Changes")
    # The one word that changed is marked on both lines, not only the whole lines.
    expect(changes.locator("del mark.nbask-diff-word")).to_have_text(["prod"])
    expect(changes.locator("ins mark.nbask-diff-word")).to_have_text(["staging"])
    expect(changes.get_by_role("insertion")).to_contain_text("(Changed: prod → staging)")
    # The title says what ran, the edited value marked, and the title as asked stays beside it.
    title = view.root.locator(".nbask-action")
    expect(title).to_have_text("Deploy web to staging (edited)")
    expect(title.locator("ins")).to_have_text("staging")
    expect(view.root.locator(".nbask-asked-as")).to_have_text("As asked: Deploy web to prod")


def test_escape_dismisses_and_enter_never_approves(host: Host):
    view = open_approval(host)
    page = host.page
    # Whatever the widget focused first, a stray Enter must not approve.
    focused_name = page.evaluate("() => document.activeElement && document.activeElement.textContent")
    assert "Approve" not in (focused_name or "")
    expect(view.button("Reject")).to_be_visible()
    view.textbox("Reason").focus()
    page.keyboard.press("Escape")  # nothing typed: it dismisses at once (js/shell/discard.ts)
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["status"]) == ("reject", "dismissed")
    view.expect_status("dismissed")
    # Not approved, but the person rejected nothing: the card says Dismissed.
    expect(view.root.locator(".nbask-status-line")).to_have_text("Dismissed")


def test_hostile_text_stays_literal(host: Host):
    title = "<img src=x onerror=window.__pwned=1> Run"
    details = "<script>window.__pwned=2</script>\n**bold** [link](javascript:alert(1))"
    view = open_approval(host, action=title, details=details)
    expect(view.root).to_contain_text(title)
    expect(view.root).to_contain_text("<script>window.__pwned=2</script>")
    assert view.root.locator("img, script, a").count() == 0
    assert host.page.evaluate("() => window.__pwned") is None
    view.button("Reject").click()
    assert host.read_line(1, "DECISION")["decision"] == "reject"


def test_axe_pending_editing_and_resolved(host: Host, axe_source):
    view = open_approval(host)
    page = host.page
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, view.root) == []
    view.button("Edit").click()
    assert run_axe_serious(page, view.root) == []
    view.button("Approve").click()
    host.read_line(1, "DECISION")
    view.expect_status("answered")
    assert run_axe_serious(page, view.root) == []


RESIZE = (
    "@nbask.requires_approval\n"
    "def resize(name: str, replicas: int):\n"
    "    calls.append([name, replicas])\n"
    "    return f'{name} has {replicas} replicas'\n"
    "calls = []\n"
    "returned = resize('web', 2)\n"
    'print("RESIZED " + json.dumps({"returned": returned, "calls": calls}), flush=True)'
)


def test_a_bad_edit_of_a_gated_function_is_named_and_never_sent(host: Host):
    host.open(["import json, nbask", RESIZE])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    view = ApprovalView(host.widget(1))
    view.expect_status("pending")
    view.button("Edit").click()
    details = view.textbox("Details")
    expect(details).to_have_value(json.dumps({"name": "web", "replicas": 2}, indent=2))
    details.fill('{\n  "name": "web",\n  "replicas": "three"\n}')
    problem = 'Argument "replicas" must be an integer, not a string'
    check = view.root.locator(".nbask-details-error")
    expect(check).to_have_text(problem)
    expect(details).to_have_attribute("aria-invalid", "true")
    expect(details).to_have_accessible_description(re.compile(re.escape(problem)))
    view.button("Approve").click()
    expect(details).to_be_focused()
    # Nothing was sent: no "Sending…", no refusal from the kernel, the cell still waits.
    expect(view.root).not_to_have_attribute("data-sending", "true")
    expect(view.root.get_by_role("alert")).to_be_hidden()
    view.expect_status("pending")
    assert "RESIZED" not in host.printed(1)
    details.fill('{\n  "name": "web",\n  "replicas": 3\n}')
    expect(check).to_be_hidden()
    expect(details).not_to_have_attribute("aria-invalid", "true")
    view.button("Approve").click()
    assert host.read_line(1, "RESIZED") == {"returned": "web has 3 replicas", "calls": [["web", 3]]}
    view.expect_status("answered")
    expect(view.root).to_contain_text("Approved with edits")
