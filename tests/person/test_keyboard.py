"""Keyboard only, in every host: digits pick, arrows move, Space toggles, Enter submits, Escape
dismisses, Tab walks the controls in order; and none of those keys reaches the host's own
shortcuts (in a notebook digits would turn the cell into a heading; VS Code's webview forwards
every keydown that bubbles up to the window to the workbench). In VS Code: the workbench's
own keys (Shift+Enter, Ctrl+S, the command palette) still reach it, and Enter on a focused
button acts once.
"""

from __future__ import annotations

from playwright.sync_api import expect
from support.ask_widget import AskWidget
from support.hosts import Host, open_asking
from support.vscode.host import VSCodeHost
from support.vscode.host import open_asking as open_vscode_asking

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


def _open_asking(host: Host) -> AskWidget:
    ask = open_asking(host, CALL, "print('after')")
    # The widget takes focus itself, on the recommended option of the first question.
    expect(ask.option(PICK, "Medium")).to_be_focused()
    return ask


def test_answer_with_digits_arrows_space_and_enter(host: Host):
    ask = _open_asking(host)
    before = host.keys_mark()
    keys = host.page.keyboard

    keys.press("3")  # option 3 of the focused question
    expect(ask.option(PICK, "Large")).to_be_checked()
    expect(ask.option(PICK, "Large")).to_be_focused()
    keys.press("ArrowUp")  # a radio group: the arrow moves focus and the selection together
    expect(ask.option(PICK, "Medium")).to_be_focused()
    expect(ask.option(PICK, "Medium")).to_be_checked()
    expect(ask.option(PICK, "Large")).not_to_be_checked()

    # The radio group is one stop; Other's textbox is hidden while Other is not chosen; in a set
    # each question's "Add a note" ends its heading, so the next question's comes first.
    keys.press("Tab")
    expect(ask.question(EXTRAS).get_by_role("button", name="Add a note", exact=True)).to_be_focused()
    keys.press("Tab")
    expect(ask.option(EXTRAS, "Loss")).to_be_focused()
    keys.press("1")
    keys.press("3")
    expect(ask.option(EXTRAS, "Loss")).to_be_checked()
    expect(ask.option(EXTRAS, "Samples")).to_be_checked()
    expect(ask.option(EXTRAS, "Samples")).to_be_focused()
    keys.press("ArrowDown")
    expect(ask.question(EXTRAS).get_by_role("checkbox", name="Other", exact=True)).to_be_focused()
    keys.press("ArrowDown")  # wraps around
    expect(ask.option(EXTRAS, "Loss")).to_be_focused()
    keys.press("Space")
    expect(ask.option(EXTRAS, "Loss")).not_to_be_checked()
    keys.press("ArrowDown")
    keys.press("Space")
    expect(ask.option(EXTRAS, "Gradients")).to_be_checked()

    assert host.keys_leaked(before) == [], "a key pressed in the widget reached the host"
    keys.press("Enter")
    result = host.read_line(1, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {PICK: "Medium (Recommended)", EXTRAS: "Gradients, Samples"}
    ask.expect_resolved("answered")
    assert host.keys_leaked(before) == [], "Enter reached the host"
    host.expect_runs_on(1)


def test_tab_order_then_escape_dismisses(host: Host):
    ask = _open_asking(host)
    before = host.keys_mark()
    keys = host.page.keyboard

    seen = [ask.focused_description()]
    for _ in range(16):
        keys.press("Tab")
        seen.append(ask.focused_description())
        if seen[-1].startswith("outside:"):
            break
    assert seen[:9] == [
        f"radio:{PICK} / Medium (Recommended)",  # Other's textbox is hidden until Other is chosen
        f"button:{EXTRAS} / Add a note",  # in a set, it ends the question's heading
        f"checkbox:{EXTRAS} / Loss",
        f"checkbox:{EXTRAS} / Gradients",
        f"checkbox:{EXTRAS} / Samples",
        f"checkbox:{EXTRAS} / Other",
        "button:Add a note for all questions",
        "button:Submit",
        "button:Dismiss",
    ], seen
    assert seen[9].startswith("outside:"), seen  # Dismiss is the widget's last stop

    keys.press("Shift+Tab")
    expect(ask.dismiss_button).to_be_focused()
    keys.press("Shift+Tab")
    expect(ask.submit_button).to_be_focused()
    keys.press("Shift+Tab")
    expect(ask.button("Add a note for all questions")).to_be_focused()

    keys.press("Escape")  # nothing chosen: it dismisses at once (js/shell/discard.ts)
    result = host.read_line(1, "RESULT")
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    assert result["note"]
    ask.expect_resolved("dismissed")
    assert host.keys_leaked(before) == [], "a key pressed in the widget reached the host"


def test_arrowed_to_option_is_what_enter_sends(host: Host):
    """What is focused is what gets sent: arrow away from the recommended option, press Enter."""
    ask = open_asking(host, f"nbask.ask({PICK!r}, ['Small', 'Medium (Recommended)', 'Large'])")
    page = host.page
    expect(ask.option(PICK, "Medium")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(ask.option(PICK, "Large")).to_be_focused()
    expect(ask.option(PICK, "Large")).to_be_checked()
    page.keyboard.press("ArrowDown")  # the Other choice belongs to the group
    expect(ask.question(PICK).get_by_role("radio", name="Other", exact=True)).to_be_checked()
    page.keyboard.press("ArrowUp")
    expect(ask.option(PICK, "Large")).to_be_checked()
    page.keyboard.press("Enter")
    result = host.read_line(1, "RESULT")
    assert result["answers"] == {PICK: "Large"}


def test_escape_with_a_draft_asks_before_it_discards(host: Host):
    ask = _open_asking(host)
    keys = host.page.keyboard
    keys.press("3")
    expect(ask.option(PICK, "Large")).to_be_checked()
    before = host.keys_mark()

    # Escape only asks, naming what would be lost, with "Keep editing" focused; the choice stays.
    keys.press("Escape")
    row = ask.root.locator(".nbask-discard")
    expect(row).to_contain_text("Discard your answer? Your answer to “Model” will be lost.")
    expect(ask.button("Keep editing")).to_be_focused()
    ask.expect_pending()
    expect(ask.option(PICK, "Large")).to_be_checked()

    # A second Escape keeps editing: focus goes back to the choice, and the keys work on.
    keys.press("Escape")
    expect(row).to_be_hidden()
    expect(ask.option(PICK, "Large")).to_be_focused()
    keys.press("ArrowUp")
    expect(ask.option(PICK, "Medium")).to_be_checked()

    # Keyboard only: Escape, then Tab from "Keep editing" to "Discard", and Enter.
    keys.press("Escape")
    expect(ask.button("Keep editing")).to_be_focused()
    keys.press("Tab")
    expect(ask.button("Discard")).to_be_focused()
    keys.press("Enter")
    result = host.read_line(1, "RESULT")
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    ask.expect_resolved("dismissed")
    assert host.keys_leaked(before) == [], "Escape is the widget's, not the host's"


# -- VS Code: the workbench's own keys -------------------------------------------------------------


def _forwarded_since(host: VSCodeHost, count: int) -> list[str]:
    return [k["key"] for k in host.forwarded_keys()[count:]]


def test_workbench_shortcuts_still_reach_vscode(open_host):
    """VS Code runs its keybindings from keydowns that bubble up to the webview's window."""
    host, _cell, ask = open_vscode_asking(open_host, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    before = len(host.forwarded_keys())
    host.page.keyboard.press("Control+Shift+P")
    assert "P" in _forwarded_since(host, before)


def test_enter_on_a_focused_button_acts_once(open_host):
    # The extension turns Enter/Space on widget buttons into clicks (and stops the native one).
    host, cell, ask = open_vscode_asking(open_host, CALL)
    ask.choose(PICK, "Small")
    ask.choose(EXTRAS, "Loss")
    expect(ask.submit_button).to_have_attribute("data-keyboard-listener", "true")
    ask.submit_button.focus()
    host.page.keyboard.press("Enter")
    result = host.read_result(cell)  # exactly one RESULT line
    assert result["answers"] == {PICK: "Small", EXTRAS: "Loss"}
    assert host.wait_done(cell) == "ok"
    assert host.stdout(cell).count("RESULT ") == 1


def test_run_and_save_keys_reach_vscode_and_the_widgets_own_keys_do_not(open_host):
    """With focus in the widget, Shift+Enter (run the cell), Ctrl+Enter and Ctrl+S (save) bubble
    to the window, where VS Code runs its keybindings; a digit and an arrow key stay the widget's.
    """
    host, _cell, ask = open_vscode_asking(open_host, CALL)
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
