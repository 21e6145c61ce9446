"""Where focus goes when a request ends in the VS Code host (js/focus/focusreturn.ts): there is no
notebook cell of the page's own to go back to, so focus stays on the widget, on its resolved
block once shown (also when its time limit ends it), never dropped to the page's body; from
there Shift+Enter still reaches VS Code's workbench, which runs the next cell.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget
from support.vscode.host import VSCodeHost, open_asking

from person.test_keys import PICK, QUESTIONS

pytestmark = pytest.mark.vscode

CALL = f"nbask.ask_questions({QUESTIONS!r}, timeout=600)"


def _end_by(way: str, host: VSCodeHost, ask: AskWidget) -> None:
    keys = host.page.keyboard
    if way == "submit":
        keys.press("1")
        ask.submit()
    elif way == "enter":
        keys.press("1")
        keys.press("Enter")
    elif way == "escape":
        keys.press("Escape")  # nothing chosen: it dismisses at once
    else:
        ask.dismiss()


@pytest.mark.parametrize("way", ["submit", "enter", "escape", "dismiss"])
def test_the_resolved_block_takes_focus_when_the_request_ends(open_host, way):
    host, cell, ask = open_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    _end_by(way, host, ask)
    result = host.read_result(cell)
    assert result["status"] == ("answered" if way in ("submit", "enter") else "dismissed")
    ask.expect_resolved(result["status"])
    block = ask.root.locator(".nbask-resolved")
    expect(block).to_be_focused()
    assert host.page.evaluate("document.activeElement !== document.body")
    before = len(host.forwarded_keys())
    host.page.keyboard.press("Shift+Enter")
    # Shift+Enter bubbles from the block to the window, where VS Code runs its keybinding.
    assert "Enter" in [k["key"] for k in host.forwarded_keys()[before:]]
    expect(block).to_be_focused()


def test_the_resolved_block_takes_focus_when_the_time_limit_ends_the_request(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask_questions({QUESTIONS!r}, timeout=8)")
    expect(ask.option(PICK, "Medium")).to_be_focused()
    ask.expect_status("timeout", timeout=30_000)
    assert host.read_result(cell)["status"] == "timeout"
    expect(ask.root.locator(".nbask-resolved")).to_be_focused()
