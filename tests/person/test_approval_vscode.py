"""Approvals in the VS Code host: edit (decision "edit" with the edited details) prints the
kernel's Decision from the same cell. Approve and reject with a reason are shared scenarios
(tests/person/test_basics.py, run by test_scenarios.py on every ipykernel).
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_DECISION, ApprovalView

BUNDLE = pathlib.Path(__file__).resolve().parents[2] / "src" / "nbask" / "static" / "widget.js"

pytestmark = [
    pytest.mark.vscode,
    pytest.mark.skipif(
        "Approve" not in BUNDLE.read_text(errors="replace"),
        reason="the front-end bundle (src/nbask/static/widget.js) has no approval view yet",
    ),
]

ACTION = "Run shell command"
DETAILS = "rm -rf build/\necho 'done'"


def _open_approval(open_host):
    host = open_host()
    host.run_ok("import json, nbask")
    cell = host.run(f"d = await nbask.approve({ACTION!r}, {DETAILS!r}, timeout=600)\n" + PRINT_DECISION)
    view = ApprovalView(host.widget(cell))
    expect(view.root).to_be_visible()
    view.expect_status("pending")
    expect(view.root).to_contain_text(ACTION)
    expect(view.root).to_contain_text("rm -rf build/")
    return host, cell, view


def test_edit_then_approve_sends_the_edited_details(open_host):
    host, cell, view = _open_approval(open_host)
    view.button("Edit").click()
    details = view.textbox("Details")
    expect(details).to_be_visible()
    details.fill("rm -rf build/cache\necho 'done'")
    view.button("Approve").click()
    decision = host.read_decision(cell)
    assert decision["decision"] == "edit"
    assert decision["edited"] == "rm -rf build/cache\necho 'done'"
    assert host.wait_done(cell) == "ok"
