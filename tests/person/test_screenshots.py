"""Light and dark JupyterLab screenshots of a pending widget, saved to docs/ for the README.

The theme is switched the way a person does it (Settings → Theme), and put back afterwards
(tests/support/light_and_dark.py). Besides the pictures, the test checks the widget really
follows the theme: its text is dark on light, light on dark.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget, open_asking, read_result
from support.light_and_dark import light_and_dark

pytestmark = pytest.mark.browser

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


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_light_and_dark_screenshots(open_notebook, page):
    # No time limit: a countdown would make every run's picture differ.
    nb, ask = open_asking(open_notebook, f"nbask.ask_questions({QUESTIONS!r}, timeout=None)")
    light_and_dark(nb, [ask.root], ask.question(DB).get_by_text(DB, exact=True), "widget")

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
    expect(view.root).to_contain_text("Medium risk")  # the picture shows the risk tag
    light_and_dark(nb, [view.root], view.root.get_by_text("Run shell command", exact=True), "approval")
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
    light_and_dark(nb, [view.root], view.root.get_by_text("Replicas", exact=True), "form")
    view.button("Submit").click()
    view.expect_status("answered")
