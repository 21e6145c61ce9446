"""Ending without an answer in the VS Code host: Dismiss, and a timeout with its countdown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support.vscode.host import open_asking

pytestmark = pytest.mark.vscode

QUESTION = "Deploy to production now?"


def test_dismiss(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    ask.choose(QUESTION, "Yes")  # chosen, then dismissed: not sent
    ask.dismiss()
    ask.button("Discard").click()  # the choice would be lost: Dismiss asks first
    result = host.read_result(cell)
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    assert result["note"]
    ask.expect_resolved("dismissed")
    assert host.wait_done(cell) == "ok"


def test_timeout_counts_down_then_times_out(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=4)")
    timer = ask.root.get_by_role("timer")
    expect(timer).to_have_text(re.compile(r"^Time left 0:0[1-4]$"))
    first = timer.inner_text()
    expect(timer).not_to_have_text(first, timeout=3000)
    ask.expect_status("timeout", timeout=15_000)
    result = host.read_result(cell)
    assert result["status"] == "timeout"
    assert result["answers"] == {}
    ask.expect_resolved("timeout")
    assert host.wait_done(cell) == "ok"
