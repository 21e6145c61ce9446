"""Ending without an answer, in every host: the Dismiss button, and a timeout with a visible
countdown. Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from support.hosts import Host, open_asking

QUESTION = "Deploy to production now?"


def test_dismiss(host: Host):
    ask = open_asking(host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    # No time limit: no countdown.
    expect(ask.root.get_by_role("timer")).to_be_hidden()
    ask.choose(QUESTION, "Yes")  # a choice made and then dismissed is not sent
    ask.dismiss()
    # The choice would be lost: Dismiss asks first, Keep editing focused.
    expect(ask.button("Keep editing")).to_be_focused()
    ask.button("Discard").click()
    result = host.read_line(1, "RESULT")
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    assert result["note"], "a dismiss carries a note for the agent"
    ask.expect_resolved("dismissed")
    expect(ask.root).not_to_contain_text("Yes")
    host.wait_done(1)
    assert not host.failed(1)


def test_timeout_shows_countdown_then_timed_out(host: Host):
    ask = open_asking(host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=4)", "print('after')")
    timer = ask.root.get_by_role("timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"^Time left 0:0[1-4]$"))
    first = timer.inner_text()
    # It counts down (each second), still pending.
    expect(timer).not_to_have_text(first, timeout=3000)
    ask.expect_status("pending")

    ask.expect_status("timeout", timeout=15_000)
    result = host.read_line(1, "RESULT")
    assert result["status"] == "timeout"
    assert result["answers"] == {}
    ask.expect_resolved("timeout")
    expect(ask.root.get_by_role("timer")).to_have_count(0)
    count = host.wait_done(1)
    assert not host.failed(1)
    assert host.run_cell(2) == count + 1
    host.wait_output(2, "after")
