"""Ending without an answer: the Dismiss button, and a timeout with a visible countdown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support.ask_widget import open_asking, read_result

pytestmark = pytest.mark.browser

QUESTION = "Deploy to production now?"


def test_dismiss(open_notebook):
    nb, ask = open_asking(open_notebook, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    # No time limit: no countdown.
    expect(ask.root.get_by_role("timer")).to_be_hidden()
    ask.choose(QUESTION, "Yes")  # a choice made and then dismissed is not sent
    ask.dismiss()
    # The choice would be lost: Dismiss asks first, Keep editing focused.
    expect(ask.button("Keep editing")).to_be_focused()
    ask.button("Discard").click()
    result = read_result(nb, 1)
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    assert result["note"], "a dismiss carries a note for the agent"
    ask.expect_resolved("dismissed")
    expect(ask.root).not_to_contain_text("Yes")
    nb.wait_done(1)


def test_timeout_shows_countdown_then_timed_out(open_notebook):
    nb, ask = open_asking(open_notebook, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=4)")
    timer = ask.root.get_by_role("timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"^Time left 0:0[1-4]$"))
    first = timer.inner_text()
    # It counts down (each second), still pending.
    expect(timer).not_to_have_text(first, timeout=3000)
    ask.expect_status("pending")

    ask.expect_status("timeout", timeout=15_000)
    result = read_result(nb, 1)
    assert result["status"] == "timeout"
    assert result["answers"] == {}
    ask.expect_resolved("timeout")
    expect(ask.root.get_by_role("timer")).to_have_count(0)
    assert nb.run_cell(2) == 3
