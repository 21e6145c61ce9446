"""The person's notes reach the model in every dialect: a note on one question and a note on the
whole set, each where the dialect's own clients put such a note (Claude Code's ``annotations``,
Codex's ``user_note``, the JSON dialects' ``notes``, the text dialects' parenthesis).

The scripted person (tool_helpers.Person) stands in for the widget; everything from
``nbask.tools.call`` down to the Resolution is the real code.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from support.person import Person, pick

import nbask
from nbask.contract import MAX_NOTE_CHARS
from nbask.kinds import QuestionRequest
from nbask.kinds.question.markdown import questions_markdown
from nbask.models import Answer, QuestionSet
from nbask.replies import MalformedResponse, parse_question_response
from nbask.tools import ToolResult, call

DB = "Which database?"
CACHE = "Which cache?"
NOTE = "Keep it on the laptop; no server for now."
SET_NOTE = "We ship on Friday."


def run(arguments: Any, tool_name: str) -> ToolResult:
    return asyncio.run(call(arguments, tool_name=tool_name))


def two_questions() -> list[dict[str, Any]]:
    return [
        {"question": DB, "header": "DB", "options": [{"label": "SQLite"}, {"label": "Postgres"}]},
        {"question": CACHE, "header": "Cache", "options": [{"label": "LRU"}, {"label": "None"}]},
    ]


def test_ask_user_question_claude_code_reply_has_notes_and_the_set_note(person: Person):
    person.answers(pick("SQLite", "LRU", notes={0: NOTE}, note=SET_NOTE))
    result = run({"questions": two_questions()}, "AskUserQuestion")
    assert json.loads(result.output) == {
        "answers": {DB: "SQLite", CACHE: "LRU"},
        "notes": {DB: NOTE},
        "note": SET_NOTE,
    }
    assert result.outcome is not None
    assert result.outcome.notes == {DB: NOTE}
    assert result.outcome.note == SET_NOTE


def test_without_notes_the_replies_are_as_before(person: Person):
    person.answers(pick("SQLite", "LRU"))
    assert json.loads(run({"questions": two_questions()}, "AskUserQuestion").output) == {
        "answers": {DB: "SQLite", CACHE: "LRU"}
    }
    person.answers(pick("SQLite"))
    codex = {"questions": [{"id": "db", "header": "DB", "question": DB, "options": CODEX_OPTIONS}]}
    assert json.loads(run(codex, "request_user_input").output) == {"answers": {"db": {"answers": ["SQLite"]}}}


def test_chat_backend_reply_has_notes(person: Person):
    person.answers(pick("SQLite", [], notes={1: "Not sure yet."}, note=SET_NOTE))
    result = run({"questions": two_questions()}, "ask_user_question")
    assert json.loads(result.output) == {
        "type": "approval",
        "answers": {DB: "SQLite", CACHE: "[No preference]"},
        "notes": {CACHE: "Not sure yet."},
        # the person's words first, nbask's remark about the empty question after them
        "note": f"{SET_NOTE}\n\n1 question(s) left without an answer.",
    }


CODEX_OPTIONS = [{"label": "SQLite", "description": "A file."}, {"label": "Postgres", "description": "A server."}]


def test_codex_note_is_one_more_user_note_after_the_typed_answer(person: Person):
    person.answers(pick(["SQLite"], [], other={1: "Redis"}, notes={0: NOTE, 1: "Ask ops."}, note=SET_NOTE))
    arguments = {
        "questions": [
            {"id": "db", "header": "DB", "question": DB, "options": CODEX_OPTIONS},
            {"id": "cache", "header": "Cache", "question": CACHE, "options": CODEX_OPTIONS},
        ]
    }
    result = run(arguments, "request_user_input")
    assert json.loads(result.output) == {
        "answers": {
            "db": {"answers": ["SQLite", f"user_note: {NOTE}"]},
            "cache": {"answers": ["user_note: Redis", "user_note: Ask ops."]},
        },
        "note": SET_NOTE,
    }


@pytest.mark.parametrize(
    ("tool_name", "arguments", "expected"),
    [
        ("ask_user", {"question": DB, "choices": ["SQLite", "Postgres"]}, f"SQLite\n\n({NOTE} {SET_NOTE})"),
        (
            "ask_followup_question",
            {"question": DB, "follow_up": ["SQLite", "Postgres"]},
            f"<answer>\nSQLite\n</answer>\n({NOTE} {SET_NOTE})",
        ),
    ],
)
def test_text_dialects_add_the_notes_after_the_answer(
    person: Person, tool_name: str, arguments: dict[str, Any], expected: str
):
    person.answers(pick("SQLite", notes={0: NOTE}, note=SET_NOTE))
    assert run(arguments, tool_name).output == expected


def test_notes_are_recorded_in_the_history_and_the_summary(person: Person):
    person.answers(pick("SQLite", "LRU", notes={1: "*bold* <b>x</b>"}, note=SET_NOTE))
    run({"questions": two_questions()}, "AskUserQuestion")
    (entry,) = nbask.history()
    record = json.loads(entry.model_dump_json())
    assert record["outcome"]["notes"] == {CACHE: "*bold* <b>x</b>"}
    assert record["outcome"]["note"] == SET_NOTE
    assert isinstance(entry.outcome, Answer)
    summary = questions_markdown(QuestionSet.model_validate({"questions": two_questions()}), entry.outcome)
    assert "  - Note: \\*bold\\* \\<b\\>x\\</b\\>" in summary  # literal text, no markup


# -- the cap: a note as long as an Other answer may be -------------------------------------------


def response(**extra: Any) -> dict[str, Any]:
    entries = [{"selected": ["SQLite"], "other": None}, {"selected": [], "other": None}]
    return {"action": "submit", "answers": entries, **extra}


def test_a_note_at_the_cap_is_taken_and_one_over_is_refused_naming_the_field():
    question_set = QuestionSet.model_validate({"questions": two_questions()})
    raw = response()
    raw["answers"][1]["note"] = "n" * MAX_NOTE_CHARS
    assert parse_question_response(raw, question_set).replies[1].note == "n" * MAX_NOTE_CHARS
    raw["answers"][1]["note"] += "n"
    with pytest.raises(MalformedResponse, match=rf"response\.answers\[1\]\.note is {MAX_NOTE_CHARS + 1} characters"):
        parse_question_response(raw, question_set)
    with pytest.raises(MalformedResponse, match=rf"response\.note is {MAX_NOTE_CHARS + 1} characters; the limit"):
        parse_question_response(response(note="s" * (MAX_NOTE_CHARS + 1)), question_set)
    with pytest.raises(MalformedResponse, match=r"response\.note must be text or null"):
        parse_question_response(response(note=["x"]), question_set)


def test_notes_are_trimmed_and_blank_ones_are_none():
    question_set = QuestionSet.model_validate({"questions": two_questions()})
    raw = response(note="  ")
    raw["answers"][0]["note"] = "  padded  "
    raw["answers"][1]["note"] = None
    parsed = parse_question_response(raw, question_set)
    assert [reply.note for reply in parsed.replies] == ["padded", ""]
    assert parsed.note == ""
    answer = QuestionRequest(question_set=question_set).decide(parsed)
    assert answer.notes == {DB: "padded"}
    assert answer.note == "1 question(s) left without an answer."
