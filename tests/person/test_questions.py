"""Several questions at once, in every host: multi select, the "Other" text, the Recommended
badge and focus, and Submit with a question left empty (confirm row, "[No preference]").
Each test takes `host` (a hosts.Host) from its suite.
"""

from __future__ import annotations

from playwright.sync_api import expect
from support.hosts import Host, open_asking

AUTH = "How should we authenticate?"
FEATURES = "Which features should ship first?"
NAME = "What should the project be called?"

QUESTIONS = [
    {
        "question": AUTH,
        "header": "Auth",
        "options": [
            {"label": "Session cookie", "description": "Simple in browsers."},
            {"label": "JWT (Recommended)", "description": "Stateless."},
        ],
        "multi_select": False,
    },
    {
        "question": FEATURES,
        "header": "Scope",
        "options": [
            {"label": "Search", "description": "Full-text search."},
            {"label": "Export", "description": "CSV and Parquet."},
            {"label": "Sharing", "description": "Links with expiry."},
        ],
        "multi_select": True,
    },
    {
        "question": NAME,
        "header": "Name",
        "options": [{"label": "nbask"}, {"label": "askbook"}],
        "multi_select": False,
    },
]


def test_several_questions_multi_select_other_and_recommended(host: Host):
    ask = open_asking(host, f"nbask.ask_questions({QUESTIONS!r}, timeout=600)")

    for q in (AUTH, FEATURES, NAME):
        expect(ask.question(q)).to_be_visible()
        expect(ask.option(q, "Other", exact=True)).to_be_visible()
        expect(ask.other(q)).to_have_count(0)  # its textbox appears once Other is chosen
    expect(ask.question(AUTH).get_by_role("radio")).to_have_count(3)
    expect(ask.question(FEATURES).get_by_role("checkbox")).to_have_count(4)
    expect(ask.root).to_contain_text("Stateless.")

    # Recommended: a badge, focus first, not pre-selected.
    recommended = ask.option(AUTH, "JWT")
    badge_row = recommended.locator("xpath=ancestor::label[1]")
    expect(badge_row.get_by_text("Recommended", exact=True)).to_be_visible()
    expect(ask.question(FEATURES).get_by_text("Recommended", exact=True)).to_have_count(0)
    expect(recommended).to_be_focused()
    expect(recommended).not_to_be_checked()
    expect(ask.option(AUTH, "Session cookie")).not_to_be_checked()

    ask.choose(AUTH, "Session cookie")
    # Multi select: two options plus Other, whose textbox appears once it is chosen.
    ask.option(FEATURES, "Sharing").check()
    ask.option(FEATURES, "Search").check()
    other_choice = ask.question(FEATURES).get_by_role("checkbox", name="Other", exact=True)
    other_choice.check()
    expect(ask.other(FEATURES)).to_be_focused()
    ask.other(FEATURES).fill("Audit log")
    expect(other_choice).to_be_checked()
    expect(ask.option(FEATURES, "Export")).not_to_be_checked()
    # Single select answered with Other text only.
    ask.option(NAME, "Other", exact=True).check()
    ask.other(NAME).fill("QuestionPad")
    expect(ask.question(NAME).get_by_role("radio", name="Other", exact=True)).to_be_checked()

    ask.submit()
    result = host.read_line(1, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {
        AUTH: "Session cookie",
        FEATURES: "Search, Sharing, Audit log",
        NAME: "QuestionPad",
    }
    assert result["selections"][FEATURES] == ["Search", "Sharing", "Audit log"]
    ask.expect_resolved(
        "answered", {AUTH: "Session cookie", FEATURES: "Search, Sharing, Audit log", NAME: "QuestionPad"}
    )
    # The resolved block reads top to bottom: each question, then its answer.
    ask.expect_reading_order([AUTH, "Session cookie", FEATURES, "Search, Sharing, Audit log", NAME, "QuestionPad"])
    host.wait_done(1)
    assert not host.failed(1)


def test_submit_with_an_empty_question_asks_to_confirm(host: Host):
    ask = open_asking(host, f"nbask.ask_questions({QUESTIONS[:2]!r}, timeout=600)")
    ask.choose(AUTH, "JWT")

    ask.submit()
    send_anyway = ask.button("Send anyway")
    keep_answering = ask.button("Keep answering")
    expect(send_anyway).to_be_visible()
    expect(keep_answering).to_be_visible()
    keep_answering.click()
    expect(send_anyway).to_be_hidden()
    ask.expect_status("pending")

    ask.submit()
    expect(send_anyway).to_be_visible()
    send_anyway.click()
    result = host.read_line(1, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {AUTH: "JWT (Recommended)", FEATURES: "[No preference]"}
    ask.expect_resolved("answered", {AUTH: "JWT", FEATURES: "[No preference]"})
    ask.expect_reading_order([AUTH, "JWT", FEATURES, "[No preference]"])  # the label shown without "(Recommended)"
