"""axe-core on the widget, pending and resolved: no serious or critical violations.

axe-core comes from npm (tests/support/axe/package.json, exact version) and is injected into
the page; it checks the `.nbask` element only, not JupyterLab around it.
"""

from __future__ import annotations

import json

import pytest
from support.ask_widget import open_asking, read_result, run_axe_serious

pytestmark = pytest.mark.browser

DB = "Which database should the app use?"
CHECKS = "Which checks should run before merging?"
QUESTIONS = [
    {
        "question": DB,
        "header": "DB",
        "options": [
            {"label": "PostgreSQL (Recommended)", "description": "Concurrent writes."},
            {"label": "SQLite", "description": "One file."},
        ],
    },
    {
        "question": CHECKS,
        "header": "CI",
        "options": [{"label": "Unit tests"}, {"label": "Type check"}, {"label": "Lint"}],
        "multi_select": True,
    },
]


def test_no_serious_axe_violations_pending_and_resolved(open_notebook, page, axe_source):
    nb, ask = open_asking(open_notebook, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")
    page.add_script_tag(content=axe_source)

    pending = run_axe_serious(page, ask.root)
    assert pending == [], "pending widget:\n" + json.dumps(pending, indent=1)

    # The confirm row (Submit with a question left empty) is part of the pending form too.
    ask.choose(DB, "SQLite")
    ask.submit()
    ask.button("Send anyway").wait_for()
    confirming = run_axe_serious(page, ask.root)
    assert confirming == [], "confirm row:\n" + json.dumps(confirming, indent=1)
    ask.button("Send anyway").click()

    read_result(nb, 1)
    ask.expect_resolved("answered")
    resolved = run_axe_serious(page, ask.root)
    assert resolved == [], "resolved widget:\n" + json.dumps(resolved, indent=1)
