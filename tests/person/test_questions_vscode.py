"""Several questions at once in the VS Code host: single and multi select, the "Other" text,
the recommended default, and the confirmation before sending with a question left empty.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.vscode.host import open_asking

pytestmark = pytest.mark.vscode

AUTH = "How should we authenticate?"
CHECKS = "Which checks should run before deploying?"
NAME = "What should the service be called?"
QUESTIONS = [
    {
        "question": AUTH,
        "header": "Auth",
        "options": [
            {"label": "JWT (Recommended)", "description": "Stateless."},
            {"label": "Session cookie", "description": "Simple in browsers."},
        ],
    },
    {
        "question": CHECKS,
        "header": "Checks",
        "multi_select": True,
        "options": [{"label": "Unit tests"}, {"label": "Browser tests"}, {"label": "Load tests"}],
    },
    {"question": NAME, "header": "Name", "options": [{"label": "api"}, {"label": "backend"}]},
]


def test_multi_select_other_and_several_questions(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")
    expect(ask.question(AUTH).get_by_role("radio")).to_have_count(3)
    expect(ask.question(CHECKS).get_by_role("checkbox")).to_have_count(4)
    expect(ask.root).to_contain_text("Recommended")

    ask.choose(AUTH, "Session cookie")
    ask.choose(CHECKS, "Unit tests")
    ask.choose(CHECKS, "Load tests")
    ask.option(CHECKS, "Other", exact=True).check()  # its textbox appears once chosen
    ask.other(CHECKS).fill("Smoke test on staging")
    ask.option(NAME, "Other", exact=True).check()
    ask.other(NAME).fill("orders-service")
    ask.submit()

    result = host.read_result(cell)
    assert result["status"] == "answered"
    assert result["answers"] == {
        AUTH: "Session cookie",
        CHECKS: "Unit tests, Load tests, Smoke test on staging",
        NAME: "orders-service",
    }
    assert result["selections"][CHECKS] == ["Unit tests", "Load tests", "Smoke test on staging"]
    assert host.wait_done(cell) == "ok"
    ask.expect_resolved("answered", result["answers"])


def test_empty_question_needs_confirmation(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask_questions({QUESTIONS[1:]!r}, timeout=600)")
    ask.choose(CHECKS, "Browser tests")
    ask.submit()  # NAME is still empty: the widget asks first
    send_anyway = ask.button("Send anyway")
    expect(send_anyway).to_be_visible()
    ask.expect_status("pending")
    send_anyway.click()
    result = host.read_result(cell)
    assert result["answers"] == {CHECKS: "Browser tests", NAME: "[No preference]"}
