"""Light and dark JupyterLab screenshots of a pending widget, saved to docs/ for the README.

The theme is switched the way a person does it (Settings → Theme), and put back afterwards.
Besides the pictures, the test checks the widget really follows the theme: its text is dark
on light, light on dark.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from playwright.sync_api import expect

from .ask_widget import AskWidget, open_asking, read_result

pytestmark = pytest.mark.browser

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"

DB = "Which database should the app use?"
CHECKS = "Which checks should run before merging?"
QUESTIONS = [
    {
        "question": DB,
        "header": "DB",
        "options": [
            {"label": "PostgreSQL", "description": "Concurrent writes, the team knows it."},
            {"label": "SQLite", "description": "One file, nothing to run."},
        ],
    },
    {
        "question": CHECKS,
        "header": "CI",
        "options": [
            {"label": "Unit tests (Recommended)", "description": "Fast, catch most regressions."},
            {"label": "Type check", "description": "mypy in strict mode."},
            {"label": "Browser tests", "description": "JupyterLab and Notebook 7 in Chromium."},
        ],
        "multi_select": True,
    },
]

LUMINANCE = """el => {
  const [r, g, b] = getComputedStyle(el).color.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


def _set_theme(page, name: str, light: bool) -> None:
    page.get_by_role("menuitem", name="Settings", exact=True).click()
    page.locator(".lm-Menu .lm-Menu-item").filter(has_text=re.compile(r"^Theme")).hover()
    page.get_by_role("menuitemcheckbox", name=name, exact=True).or_(
        page.get_by_role("menuitem", name=name, exact=True)
    ).first.click()
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true" if light else "false")
    expect(page.locator("body")).to_have_attribute("data-jp-theme-name", name)


def _shoot(nb, ask: AskWidget, path: pathlib.Path) -> None:
    """The widget with a margin of the notebook around it, unfocused, so the light and dark
    pictures show the same state.
    """
    nb.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    nb.page.evaluate("() => document.fonts.ready")
    ask.root.scroll_into_view_if_needed()
    box = ask.root.bounding_box()
    assert box is not None
    pad = 8
    nb.page.screenshot(
        path=str(path),
        clip={
            "x": box["x"] - pad,
            "y": box["y"] - pad,
            "width": box["width"] + 2 * pad,
            "height": box["height"] + 2 * pad,
        },
        animations="disabled",
        caret="hide",
    )


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_light_and_dark_screenshots(open_notebook, page):
    # No time limit: a countdown would make every run's picture differ.
    nb, ask = open_asking(open_notebook, f"nbask.ask_questions({QUESTIONS!r}, timeout=None)")
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true")
    question_text = ask.question(DB).get_by_text(DB, exact=True)

    DOCS.mkdir(exist_ok=True)
    assert question_text.evaluate(LUMINANCE) < 0.5, "question text is not dark in the light theme"
    _shoot(nb, ask, DOCS / "widget-light.png")

    try:
        _set_theme(page, "JupyterLab Dark", light=False)
        # Wait (bounded) for the widget's text to turn light: the theme's CSS may land a frame later.
        page.wait_for_function(f"el => ({LUMINANCE})(el) > 0.5", arg=question_text.element_handle(), timeout=10_000)
        _shoot(nb, ask, DOCS / "widget-dark.png")
    finally:
        _set_theme(page, "JupyterLab Light", light=True)

    ask.choose(CHECKS, "Unit tests")
    ask.choose(DB, "PostgreSQL")
    ask.submit()
    assert read_result(nb, 1)["answers"] == {DB: "PostgreSQL", CHECKS: "Unit tests (Recommended)"}


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_approval_light_and_dark_screenshots(open_notebook, page):
    details = "python train.py \\\n  --epochs 40 \\\n  --output s3://team-models/churn/"
    nb = open_notebook(
        ["import nbask", f"d = await nbask.approve('Run shell command', {details!r}, risk='medium', timeout=None)"]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = AskWidget(nb.widget(1))
    view.expect_status("pending")
    title = view.root.get_by_text("Run shell command", exact=True)
    assert title.evaluate(LUMINANCE) < 0.5, "the title is not dark in the light theme"
    expect(view.root).to_contain_text("Medium risk")  # the picture shows the risk tag
    _shoot(nb, view, DOCS / "approval-light.png")
    try:
        _set_theme(page, "JupyterLab Dark", light=False)
        page.wait_for_function(f"el => ({LUMINANCE})(el) > 0.5", arg=title.element_handle(), timeout=10_000)
        _shoot(nb, view, DOCS / "approval-dark.png")
    finally:
        _set_theme(page, "JupyterLab Light", light=True)
    view.button("Reject").click()
    view.expect_status("answered")


FORM = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "title": "Service", "default": "checkout-api"},
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 20, "default": 2},
        "region": {"type": "string", "title": "Region", "enum": ["eu-west", "us-east"], "default": "eu-west"},
        "checks": {
            "type": "array",
            "title": "Checks before traffic",
            "items": {"anyOf": [{"const": "smoke", "title": "Smoke test"}, {"const": "load", "title": "Load test"}]},
            "default": ["smoke"],
        },
        "canary": {"type": "boolean", "title": "Canary first", "default": True},
        "notify": {"type": "string", "title": "Notify", "format": "email", "description": "Who hears about it."},
    },
    "required": ["service", "replicas", "region"],
}


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_form_light_and_dark_screenshots(open_notebook, page):
    nb = open_notebook(
        ["import nbask", f"f = await nbask.ask_form('How should it be deployed?', {FORM!r}, timeout=None)"]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = AskWidget(nb.widget(1))
    view.expect_status("pending")
    label = view.root.get_by_text("Replicas", exact=True)
    assert label.evaluate(LUMINANCE) < 0.5, "the field label is not dark in the light theme"
    _shoot(nb, view, DOCS / "form-light.png")
    try:
        _set_theme(page, "JupyterLab Dark", light=False)
        page.wait_for_function(f"el => ({LUMINANCE})(el) > 0.5", arg=label.element_handle(), timeout=10_000)
        _shoot(nb, view, DOCS / "form-dark.png")
    finally:
        _set_theme(page, "JupyterLab Light", light=True)
    view.button("Submit").click()
    view.expect_status("answered")
