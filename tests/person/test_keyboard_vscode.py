"""Keyboard only, in the VS Code host: digits pick, arrows move (and select in a radio group),
Enter submits, Escape dismisses. VS Code's webview forwards every keydown that bubbles up to
the window to the workbench (where it may run a keybinding); the keys nbask handles must not be
forwarded.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.vscode.host import open_asking

pytestmark = pytest.mark.vscode

PICK = "Which model size?"
EXTRAS = "Which extras should be logged?"
QUESTIONS = [
    {
        "question": PICK,
        "header": "Model",
        "options": [{"label": "Small"}, {"label": "Medium (Recommended)"}, {"label": "Large"}],
    },
    {
        "question": EXTRAS,
        "header": "Logging",
        "options": [{"label": "Loss"}, {"label": "Gradients"}, {"label": "Samples"}],
        "multi_select": True,
    },
]
CALL = f"nbask.ask_questions({QUESTIONS!r}, timeout=600)"


def _forwarded_since(host, count: int) -> list[str]:
    return [k["key"] for k in host.forwarded_keys()[count:]]


def test_digits_arrows_and_enter(open_host):
    host, cell, ask = open_asking(open_host, CALL)
    # The widget focuses the recommended option of the first question itself.
    expect(ask.option(PICK, "Medium")).to_be_focused()
    before = len(host.forwarded_keys())
    keys = host.page.keyboard

    keys.press("3")
    expect(ask.option(PICK, "Large")).to_be_checked()
    keys.press("ArrowUp")  # radio group: focus and selection move together
    expect(ask.option(PICK, "Medium")).to_be_focused()
    expect(ask.option(PICK, "Medium")).to_be_checked()
    # Other's textbox is hidden until Other is chosen; in a set each question's "Add a note"
    # ends its heading, so the next question's comes first.
    keys.press("Tab")
    expect(ask.question(EXTRAS).get_by_role("button", name="Add a note", exact=True)).to_be_focused()
    keys.press("Tab")
    expect(ask.option(EXTRAS, "Loss")).to_be_focused()
    keys.press("1")
    keys.press("3")
    expect(ask.option(EXTRAS, "Loss")).to_be_checked()
    expect(ask.option(EXTRAS, "Samples")).to_be_checked()
    keys.press("ArrowUp")  # checkboxes: focus moves (from Samples), the selection stays
    expect(ask.option(EXTRAS, "Gradients")).to_be_focused()
    expect(ask.option(EXTRAS, "Gradients")).not_to_be_checked()
    keys.press("Enter")

    result = host.read_result(cell)
    assert result["answers"] == {PICK: "Medium (Recommended)", EXTRAS: "Loss, Samples"}
    forwarded = [k for k in _forwarded_since(host, before) if k != "Tab"]
    assert forwarded == [], f"keys nbask handled reached VS Code's workbench: {forwarded}"


def test_escape_on_an_untouched_question_dismisses(open_host):
    host, cell, ask = open_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    before = len(host.forwarded_keys())
    host.page.keyboard.press("Escape")  # nothing would be lost (js/shell/discard.ts)
    result = host.read_result(cell)
    assert result["status"] == "dismissed"
    ask.expect_resolved("dismissed")
    assert "Escape" not in _forwarded_since(host, before)


def test_workbench_shortcuts_still_reach_vscode(open_host):
    """VS Code runs its keybindings from keydowns that bubble up to the webview's window."""
    host, _cell, ask = open_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    before = len(host.forwarded_keys())
    host.page.keyboard.press("Control+Shift+P")
    assert "P" in _forwarded_since(host, before)


def test_enter_on_a_focused_button_acts_once(open_host):
    # The extension turns Enter/Space on widget buttons into clicks (and stops the native one).
    host, cell, ask = open_asking(open_host, CALL)
    ask.choose(PICK, "Small")
    ask.choose(EXTRAS, "Loss")
    expect(ask.submit_button).to_have_attribute("data-keyboard-listener", "true")
    ask.submit_button.focus()
    host.page.keyboard.press("Enter")
    result = host.read_result(cell)  # exactly one RESULT line
    assert result["answers"] == {PICK: "Small", EXTRAS: "Loss"}
    assert host.wait_done(cell) == "ok"
    assert host.stdout(cell).count("RESULT ") == 1


def test_escape_with_a_draft_asks_before_it_discards(open_host):
    host, cell, ask = open_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    keys = host.page.keyboard
    keys.press("3")
    expect(ask.option(PICK, "Large")).to_be_checked()
    before = len(host.forwarded_keys())

    keys.press("Escape")
    row = ask.root.locator(".nbask-discard")
    expect(row).to_be_visible()
    expect(ask.button("Keep editing")).to_be_focused()
    ask.expect_pending()
    keys.press("Escape")  # a second Escape keeps editing
    expect(row).to_be_hidden()
    expect(ask.option(PICK, "Large")).to_be_checked()
    keys.press("Escape")
    expect(row).to_be_visible()
    keys.press("Shift+Tab")  # Discard comes after Keep editing
    keys.press("Tab")
    keys.press("Tab")
    expect(ask.button("Discard")).to_be_focused()
    keys.press("Enter")
    result = host.read_result(cell)
    assert result["status"] == "dismissed"
    ask.expect_resolved("dismissed")
    assert _forwarded_since(host, before) == [], "Escape is the widget's, not the workbench's"


def test_run_and_save_keys_reach_vscode_and_the_widgets_own_keys_do_not(open_host):
    """With focus in the widget, Shift+Enter (run the cell), Ctrl+Enter and Ctrl+S (save) bubble
    to the window, where VS Code runs its keybindings; a digit and an arrow key stay the widget's.
    """
    host, _cell, ask = open_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    before = len(host.forwarded_keys())
    host.page.keyboard.press("ArrowDown")
    host.page.keyboard.press("1")
    assert _forwarded_since(host, before) == []
    expect(ask.option(PICK, "Small")).to_be_checked()
    for key, seen in (("Shift+Enter", "Enter"), ("Control+Enter", "Enter"), ("Control+s", "s")):
        before = len(host.forwarded_keys())
        host.page.keyboard.press(key)
        assert seen in _forwarded_since(host, before), key
    ask.expect_pending()  # none of them answered the question
