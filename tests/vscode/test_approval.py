"""Approvals in the VS Code host: approve on every ipykernel; edit (decision "edit"
with the edited details) and reject with a reason on the newest. Each prints the kernel's
Decision from the same cell.
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import expect

from .conftest import ALL_KERNELS
from .host import PRINT_DECISION, ApprovalView

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


@pytest.mark.parametrize("kernel_name", ALL_KERNELS)
def test_approve(open_host, kernel_name):
    host, cell, view = _open_approval(open_host)
    view.button("Approve").click()
    decision = host.read_decision(cell)
    assert decision == {
        "decision": "approve",
        "status": "answered",
        "edited": None,
        "reason": "",
        "answered_by": "person",
    }
    assert host.wait_done(cell) == "ok"
    view.expect_status("answered")
    outputs = [o for o in host.outputs(cell) if "DECISION" in (o.get("text") or "")]
    assert outputs
    assert all(o["parentId"] == host.cell_msg_id(cell) for o in outputs)


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


def test_reject_with_a_reason(open_host):
    host, cell, view = _open_approval(open_host)
    view.textbox("Reason").fill("Not on a Friday")
    view.button("Reject").click()
    decision = host.read_decision(cell)
    assert decision["decision"] == "reject"
    assert decision["reason"] == "Not on a Friday"
    assert host.wait_done(cell) == "ok"
