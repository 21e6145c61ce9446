"""The widget in a narrow output column, once for every host: at 350 px Submit and Dismiss share
a row inside the widget and the keys hint is one line or hidden. The column is narrowed as a
narrow notebook or editor pane narrows it: the element around the widget gets a width.
Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

from playwright.sync_api import Locator
from support.ask_widget import PRINT_RESULT, AskWidget
from support.hosts import Host

MODEL = "Which model should the run use?"
DATA = "Which data should it train on?"


def _options(*labels: str) -> list[dict[str, str]]:
    return [{"label": label, "description": f"{label}: a longer explanation of this choice."} for label in labels]


QUESTIONS = [
    {"question": MODEL, "header": "Model", "options": _options("Small", "Medium (Recommended)", "Large", "Huge")},
    {"question": DATA, "header": "Data", "options": _options("Full set", "Sample", "Synthetic"), "multi_select": True},
]


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def narrow(root: Locator, width: int = 350) -> None:
    """Makes the output column holding the widget `width` px wide."""
    root.evaluate(f"el => {{ el.parentElement.style.width = el.parentElement.style.maxWidth = '{width}px'; }}")
    root.page.wait_for_function(f"el => el.getBoundingClientRect().width <= {width}", arg=root.element_handle())


def test_a_350px_column_keeps_submit_and_dismiss_on_one_row(host: Host):
    host.open(["import json, nbask", f"ans = await nbask.ask_questions({QUESTIONS!r}, timeout=600)\n" + PRINT_RESULT])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    narrow(ask.root)
    root = box(ask.root)
    assert root["width"] <= 350, root
    submit = box(ask.submit_button)
    dismiss = box(ask.dismiss_button)
    assert abs(submit["y"] - dismiss["y"]) <= 2, (submit, dismiss)
    assert dismiss["x"] >= submit["x"] + submit["width"] - 1, (submit, dismiss)
    assert dismiss["x"] + dismiss["width"] <= root["x"] + root["width"] + 1, (dismiss, root)
    keys = ask.root.locator(".nbask-keys")
    if keys.is_visible():
        line = keys.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 20")
        assert box(keys)["height"] <= line * 1.5, "the keys hint wraps"
    # Nothing sticks out of the column sideways (the page would scroll to show it).
    overflow = ask.root.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the widget's content is {overflow} px wider than its column"
    # The narrow form still works: an answer reaches the cell.
    ask.choose(MODEL, "Large")
    ask.choose(DATA, "Sample")
    ask.submit()
    assert host.read_line(1, "RESULT")["answers"] == {MODEL: "Large", DATA: "Sample"}
