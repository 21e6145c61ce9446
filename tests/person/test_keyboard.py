"""Keyboard only: digits pick, arrows move, Space toggles, Enter submits, Escape dismisses,
Tab walks the controls in order; and none of those keys reaches the notebook's own
shortcuts (digits would turn the cell into a heading, arrows move the active cell).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import open_asking, read_result

pytestmark = pytest.mark.browser

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


def _open_asking(open_notebook):
    nb, ask = open_asking(open_notebook, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")
    # The widget takes focus itself, on the recommended option of the first question.
    expect(ask.option(PICK, "Medium")).to_be_focused()
    return nb, ask


def test_answer_with_digits_arrows_space_and_enter(open_notebook, page):
    nb, ask = _open_asking(open_notebook)
    before = nb.notebook_state()
    keys = page.keyboard

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

    assert nb.notebook_state() == before, "a key pressed in the widget reached the notebook"
    keys.press("Enter")
    result = read_result(nb, 1)
    assert result["status"] == "answered"
    assert result["answers"] == {PICK: "Medium (Recommended)", EXTRAS: "Gradients, Samples"}
    ask.expect_resolved("answered")
    # Focus went back to the cell the person was in (cell 2: Shift+Enter ran cell 1 and moved on).
    expect(nb.cell(2)).to_be_focused()
    assert nb.notebook_state() == {**before, "active": 2}


def test_tab_order_then_escape_dismisses(open_notebook, page):
    nb, ask = _open_asking(open_notebook)
    before = nb.notebook_state()
    keys = page.keyboard

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
    result = read_result(nb, 1)
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    assert result["note"]
    ask.expect_resolved("dismissed")
    # Focus left the widget on the way (Tab past Dismiss), so only compare what keys change.
    after = nb.notebook_state()
    assert (after["count"], after["types"]) == (before["count"], before["types"])


def test_arrowed_to_option_is_what_enter_sends(open_notebook, page):
    """What is focused is what gets sent: arrow away from the recommended option, press Enter."""
    nb, ask = open_asking(open_notebook, f"nbask.ask({PICK!r}, ['Small', 'Medium (Recommended)', 'Large'])")
    expect(ask.option(PICK, "Medium")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(ask.option(PICK, "Large")).to_be_focused()
    expect(ask.option(PICK, "Large")).to_be_checked()
    page.keyboard.press("ArrowDown")  # the Other choice belongs to the group
    expect(ask.question(PICK).get_by_role("radio", name="Other", exact=True)).to_be_checked()
    page.keyboard.press("ArrowUp")
    expect(ask.option(PICK, "Large")).to_be_checked()
    page.keyboard.press("Enter")
    result = read_result(nb, 1)
    assert result["answers"] == {PICK: "Large"}


def test_escape_with_a_draft_asks_before_it_discards(open_notebook, page):
    nb, ask = _open_asking(open_notebook)
    keys = page.keyboard
    keys.press("3")
    expect(ask.option(PICK, "Large")).to_be_checked()

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
    result = read_result(nb, 1)
    assert result["status"] == "dismissed"
    assert result["answers"] == {}
    ask.expect_resolved("dismissed")
