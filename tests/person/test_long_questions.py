"""Long and many questions in JupyterLab and Notebook 7: four questions at once read as four
blocks (a rule between them, each question's "Add a note" at the end of its heading); "Other"
is an option row whose textbox appears only once it is chosen, takes focus, grows with what is
typed, and what is typed reaches the kernel; in a 350 px column Submit and Dismiss share a row
and the keys hint is one line or hidden; a form's number field shows its bounds before any
value is checked.
"""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import AskWidget, open_asking, read_result
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

MODEL = "Which model should the run use?"
DATA = "Which data should it train on?"
LOGS = "What should be logged?"
STOP = "When should it stop?"


def _options(*labels: str) -> list[dict[str, str]]:
    return [{"label": label, "description": f"{label}: a longer explanation of this choice."} for label in labels]


QUESTIONS = [
    {"question": MODEL, "header": "Model", "options": _options("Small", "Medium (Recommended)", "Large", "Huge")},
    {"question": DATA, "header": "Data", "options": _options("Full set", "Sample", "Synthetic")},
    {"question": LOGS, "header": "Logs", "options": _options("Loss", "Gradients", "Samples"), "multi_select": True},
    {"question": STOP, "header": "Stop", "options": _options("After 1 epoch", "On plateau")},
]
BOUNDS = "1\N{EN DASH}10"
ASK_FOUR = f"nbask.ask_questions({QUESTIONS!r}, timeout=600)"
LONG_ANSWER = "A distilled 300M model, " + "fine-tuned on the support tickets from the last quarter " * 3


def _other_choice(ask: AskWidget, question: str, role: str = "radio") -> Locator:
    return ask.question(question).get_by_role(role, name="Other", exact=True)


def _box(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not shown"
    return box


def test_other_appears_once_chosen_grows_and_reaches_the_kernel(open_notebook):
    nb, ask = open_asking(open_notebook, ASK_FOUR)
    for question in (MODEL, DATA, LOGS, STOP):
        expect(ask.other(question)).to_have_count(0)  # no empty box until Other is chosen

    _other_choice(ask, MODEL).check()
    other = ask.other(MODEL)
    expect(other).to_be_visible()
    expect(other).to_be_focused()
    empty_height = _box(other)["height"]
    other.press_sequentially(LONG_ANSWER)
    # It grows with the answer (wrapped over several lines) and keeps all of it.
    expect(other).to_have_value(LONG_ANSWER)
    assert _box(other)["height"] > empty_height * 1.5, (empty_height, _box(other))
    for question in (DATA, LOGS, STOP):
        expect(ask.other(question)).to_have_count(0)  # still hidden where Other is not chosen

    ask.choose(DATA, "Sample")
    ask.choose(LOGS, "Loss")
    _other_choice(ask, LOGS, "checkbox").check()
    ask.other(LOGS).fill("Learning rate")
    ask.choose(STOP, "On plateau")
    ask.submit()
    result = read_result(nb, 1)
    assert result["status"] == "answered"
    assert result["answers"] == {
        MODEL: LONG_ANSWER.strip(),
        DATA: "Sample",
        LOGS: "Loss, Learning rate",
        STOP: "On plateau",
    }


def test_four_questions_are_separated_and_have_one_note_link_each_in_their_heading(open_notebook):
    _nb, ask = open_asking(open_notebook, ASK_FOUR)
    groups = [ask.question(q) for q in (MODEL, DATA, LOGS, STOP)]
    for before, after in itertools.pairwise(groups):
        # A visible rule above every question but the first, with room between the blocks.
        width = after.evaluate("el => parseFloat(getComputedStyle(el).borderTopWidth)")
        style = after.evaluate("el => getComputedStyle(el).borderTopStyle")
        assert width >= 1, width
        assert style != "none", style
        gap = _box(after)["y"] - (_box(before)["y"] + _box(before)["height"])
        assert gap >= 8, gap
    for group in groups:
        expect(group.locator(".nbask-chip")).to_be_visible()  # the header chips stay
        note = group.get_by_role("button", name="Add a note", exact=True)
        expect(note).to_have_count(1)
        # On the heading's line, not a line of its own under the options.
        head = _box(group.locator(".nbask-question-head"))
        note_box = _box(note)
        assert head["y"] - 1 <= note_box["y"] <= head["y"] + head["height"], (head, note_box)
    expect(ask.button("Add a note for all questions")).to_be_visible()


def _narrow(page: Page, root: Locator, width: int = 350) -> None:
    """Makes the widget's notebook column `width` px wide."""
    root.evaluate(f"el => {{ el.parentElement.style.width = el.parentElement.style.maxWidth = '{width}px'; }}")
    page.wait_for_function(f"el => el.getBoundingClientRect().width <= {width}", arg=root.element_handle())


def test_a_350px_column_keeps_submit_and_dismiss_on_one_row(open_notebook, page):
    _nb, ask = open_asking(open_notebook, ASK_FOUR)
    _narrow(page, ask.root)
    submit = _box(ask.submit_button)
    dismiss = _box(ask.dismiss_button)
    assert abs(submit["y"] - dismiss["y"]) <= 2, (submit, dismiss)
    assert dismiss["x"] >= submit["x"] + submit["width"] - 1, (submit, dismiss)
    root = _box(ask.root)
    assert dismiss["x"] + dismiss["width"] <= root["x"] + root["width"] + 1, (dismiss, root)
    keys = ask.root.locator(".nbask-keys")
    if keys.is_visible():
        line = keys.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 20")
        assert _box(keys)["height"] <= line * 1.5, "the keys hint wraps"
    # Choosing Other still works in the narrow column: its box fits the column.
    _other_choice(ask, MODEL).check()
    other = _box(ask.other(MODEL))
    assert other["x"] + other["width"] <= root["x"] + root["width"] + 1, (other, root)


FORM_SCHEMA = {
    "type": "object",
    "properties": {
        "seats": {"type": "integer", "title": "Seats", "minimum": 1, "maximum": 10},
        "share": {"type": "number", "title": "Traffic share", "minimum": 0},
    },
    "required": ["seats"],
}
PRINT_VALUES = 'print("FORM " + json.dumps({"action": f.action, "values": f.values}, sort_keys=True), flush=True)'


def test_a_number_field_shows_its_bounds_before_any_error(open_notebook, page):
    call = f"nbask.ask_form('How many seats?', {FORM_SCHEMA!r}, timeout=600)"
    nb = open_notebook(["import json, nbask", f"f = await {call}\n" + PRINT_VALUES])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    root = nb.widget(1)
    expect(root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    _narrow(page, root)
    seats = root.get_by_role("spinbutton", name=re.compile("Seats"))
    expect(seats).to_have_accessible_description(BOUNDS)  # before anything is checked
    expect(root.get_by_text(BOUNDS, exact=True)).to_be_visible()
    expect(root.get_by_text("0 or more", exact=True)).to_be_visible()
    expect(root.get_by_role("button", name="Submit", exact=True)).to_be_visible()
    submit = _box(root.get_by_role("button", name="Submit", exact=True))
    dismiss = _box(root.get_by_role("button", name="Dismiss", exact=True))
    assert abs(submit["y"] - dismiss["y"]) <= 2, (submit, dismiss)
    seats.fill("12")
    root.get_by_role("button", name="Submit", exact=True).click()
    expect(seats).to_have_attribute("aria-invalid", "true")
    expect(root.get_by_text(BOUNDS, exact=True)).to_be_visible()  # the bounds stay beside the message
    seats.fill("4")
    root.get_by_role("button", name="Submit", exact=True).click()
    nb.wait_output(1, re.compile(r"FORM \{"))
    assert '"seats": 4' in nb.stream_text(1)
