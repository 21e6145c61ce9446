"""How an untrusted front-end response is parsed, and how the request decides the outcome."""

from __future__ import annotations

import json

import pytest

from nbask.contract import MAX_OTHER_CHARS, NO_PREFERENCE
from nbask.kinds import QuestionRequest
from nbask.models import Answer, QuestionSet
from nbask.replies import MalformedResponse


def opts(*labels: str) -> list[dict[str, str]]:
    return [{"label": label} for label in labels]


def make_request() -> QuestionRequest:
    question_set = QuestionSet(
        questions=[
            {"question": "Which database?", "options": opts("PostgreSQL (Recommended)", "SQLite")},
            {"question": "Which features?", "multi_select": True, "options": opts("Auth", "Search", "Billing")},
        ]
    )
    return QuestionRequest(question_set=question_set, request_id="r1", tool_call_id="t1", asked_at=1.0)


def respond(answers, action="submit") -> Answer:
    return make_request().parse_and_decide({"action": action, "answers": answers})


def test_submit_single_and_multi_select_joined_in_option_order():
    ans = respond([{"selected": ["SQLite"], "other": None}, {"selected": ["Search", "Auth"], "other": None}])
    assert ans.status == "answered"
    assert ans.answered_by == "person"
    assert ans.answers == {"Which database?": "SQLite", "Which features?": "Auth, Search"}
    assert ans.selections == {"Which database?": ["SQLite"], "Which features?": ["Auth", "Search"]}
    assert (ans.request_id, ans.tool_call_id, ans.asked_at) == ("r1", "t1", 1.0)
    assert ans.resolved_at >= ans.asked_at


def test_other_text_is_one_more_value():
    ans = respond([{"selected": [], "other": "  DuckDB "}, {"selected": ["Auth"], "other": "Export, CSV"}])
    assert ans.answers == {"Which database?": "DuckDB", "Which features?": "Auth, Export, CSV"}
    assert ans.selections["Which features?"] == ["Auth", "Export, CSV"]


def test_empty_questions_become_no_preference():
    ans = respond([{"selected": [], "other": "   "}, {"selected": [], "other": None}])
    assert ans.answers == {"Which database?": NO_PREFERENCE, "Which features?": NO_PREFERENCE}
    assert ans.selections == {"Which database?": [], "Which features?": []}
    assert "2 question(s)" in ans.note


def test_dismiss_gives_no_answers_and_a_note():
    ans = respond([], action="dismiss")
    assert ans.status == "dismissed"
    assert ans.answers == {}
    assert ans.selections == {}
    assert "dismissed" in ans.note


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        ({"action": "maybe", "answers": []}, "response.action must be 'submit' or 'dismiss'"),
        ({"action": "submit", "answers": [{}]}, "one entry per question"),
        ({"action": "submit", "answers": "x"}, "one entry per question"),
        ({"action": "submit", "answers": ["x", {}]}, r"answers\[0\] must be an object"),
        # An option the question does not have is not turned into "[No preference]".
        (
            {"action": "submit", "answers": [{"selected": ["<img>"]}, {"selected": []}]},
            "names options the question does not have",
        ),
        ({"action": "submit", "answers": [{"selected": []}, {"selected": ["Nope"]}]}, r"answers\[1\]\.selected names"),
        ({"action": "submit", "answers": [{"selected": "SQLite"}, {}]}, "must be a list of option labels"),
        ({"action": "submit", "answers": [{"selected": [1]}, {}]}, "must be a list of option labels"),
        (
            {"action": "submit", "answers": [{"selected": ["SQLite", "PostgreSQL (Recommended)"]}, {}]},
            "single-select question takes one choice",
        ),
        ({"action": "submit", "answers": [{"selected": ["SQLite"], "other": "x"}, {}]}, "takes one choice"),
        ({"action": "submit", "answers": [{}, {"selected": ["Auth", "Auth"]}]}, "names an option twice"),
        ({"action": "submit", "answers": [{"other": 5}, {}]}, "other must be text or null"),
        (
            {"action": "submit", "answers": [{"other": "x" * (MAX_OTHER_CHARS + 1)}, {}]},
            f"the limit is {MAX_OTHER_CHARS}",
        ),
    ],
)
def test_malformed_responses_are_rejected_by_rule(payload, rule):
    with pytest.raises(MalformedResponse, match=rule):
        make_request().parse_and_decide(payload)


def test_other_text_at_the_limit_is_accepted():
    ans = respond([{"selected": [], "other": "é" * MAX_OTHER_CHARS}, {}])
    assert ans.answers["Which database?"] == "é" * MAX_OTHER_CHARS


def test_ended_answer_round_trips_through_json():
    ans = make_request().ended("timeout", "No answer within 5 seconds.")
    assert ans.status == "timeout"
    assert ans.answers == {}
    assert ans.note.startswith("No answer")
    assert Answer.model_validate(json.loads(ans.model_dump_json())) == ans
