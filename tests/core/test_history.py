"""The history keeps each outcome compactly (as JSON text where its model round-trips) and gives
back exactly what the call returned.
"""

from __future__ import annotations

import json
import pathlib

import pytest

import nbask
from nbask.core.manager import manager
from nbask.kinds import QuestionRequest
from nbask.models import Answer, QuestionSet
from nbask.replies import QuestionReply, QuestionResponse


def test_every_outcome_read_back_from_the_history_equals_what_the_call_returned():
    nbask.configure(policy="recommended")
    returned = [
        nbask.ask_sync("Which database?", ["PostgreSQL (Recommended)", "SQLite"], header="DB"),
        nbask.approve_sync("Deploy", "make deploy"),
        nbask.ask_form_sync(
            "Replicas?", {"type": "object", "properties": {"n": {"type": "number", "default": 0.1 + 0.2}}}
        ),
    ]
    assert [entry.outcome for entry in nbask.history()] == returned
    assert nbask.history()[2].outcome.values == {"n": 0.1 + 0.2}  # a float reads back exactly


def test_an_answer_json_cannot_hold_is_kept_as_it_was():
    # A front end may send a lone surrogate in an "Other" text: JSON text cannot hold it.
    question_set = QuestionSet(questions=[{"question": "Name?", "options": [{"label": "A"}, {"label": "B"}]}])
    request = QuestionRequest(question_set=question_set)
    answer = request.decide(QuestionResponse(action="submit", replies=(QuestionReply(selected=(), other="x\ud800"),)))
    manager().record(request, answer)
    (entry,) = nbask.history()
    assert entry.outcome == answer
    assert entry.outcome.answers == {"Name?": "x\ud800"}


def test_only_an_approval_keeps_the_working_directory_beside_its_record():
    # An approval's replay reads paths in its details (tests/kinds/test_approval_replay.py); the
    # other kinds' replays never do, so their records skip the system call.
    nbask.configure(policy="recommended")
    nbask.ask_sync("Which database?", ["PostgreSQL (Recommended)", "SQLite"])
    nbask.approve_sync("Deploy", "make deploy")
    nbask.ask_form_sync("Replicas?", {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}})
    assert [entry.workdir for entry in nbask.history()] == [None, str(pathlib.Path.cwd()), None]


def test_an_answer_built_without_validation_equals_the_validated_one():
    options = [{"label": "A"}, {"label": "B"}]
    request = QuestionRequest(question_set=QuestionSet(questions=[{"question": "Q?", "options": options}]))
    answered = request.answered({"Q?": ["A"]}, {"Q?": "a note"}, "all", "person")
    assert answered == Answer.model_validate(answered.model_dump())
    assert answered.answers == {"Q?": "A"}
    short = {"status": "dismissed", "request_id": "r", "asked_at": 0.0, "resolved_at": 0.0}
    for fields in (answered.model_dump(), short):
        built, validated = Answer.built(fields), Answer.model_validate(fields)
        assert built == validated
        assert built.model_dump_json() == validated.model_dump_json()  # the same fields, in order
        assert built.model_fields_set == validated.model_fields_set
    assert Answer.built(short).answers == {}
    assert Answer.built(short).answers is not Answer.built(short).answers  # a factory's default, fresh


def test_building_an_outcome_names_what_is_missing_or_unknown():
    with pytest.raises(TypeError, match=r"Answer needs \['asked_at', 'resolved_at'\]"):
        Answer.built({"status": "answered", "request_id": "r"})
    with pytest.raises(TypeError, match=r"knows no \['answer'\]"):
        Answer.built({"status": "answered", "request_id": "r", "asked_at": 0.0, "resolved_at": 0.0, "answer": "x"})


def test_a_tool_call_id_that_is_not_text_is_refused_when_asked():
    with pytest.raises(TypeError, match="tool_call_id must be a string or None, got int"):
        nbask.ask_sync("Which database?", ["PostgreSQL", "SQLite"], tool_call_id=7)  # type: ignore[arg-type]


def test_a_one_question_ask_of_labels_keeps_its_arguments_and_reads_back_as_its_set(tmp_path: pathlib.Path):
    """Its record keeps the ask's arguments, not the set's JSON, and is read back as the same
    entry, stripped text and all, as the same question asked as a set.
    """
    nbask.configure(policy="recommended")
    labels = ["  PostgreSQL (Recommended) ", "SQLite"]
    nbask.ask_sync("  Which database? ", labels, header="DB ", multi_select=True)
    kept = manager()._ended[-1][1]
    assert kept == ("  Which database? ", tuple(labels), "DB ", True)
    labels.append("DuckDB")  # the caller's list changes after the ask: the record does not
    as_set = [
        {
            "question": "Which database?",
            "header": "DB",
            "multi_select": True,
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
    nbask.ask_sync(as_set)
    shorthand, from_set = nbask.history()
    assert isinstance(manager()._ended[-1][1], str)  # a set given whole is kept as its JSON
    assert shorthand.asked == from_set.asked
    assert shorthand.asked["questions"][0]["options"][0] == {"label": "PostgreSQL (Recommended)", "description": ""}
    assert shorthand.outcome.answers == from_set.outcome.answers == {"Which database?": "PostgreSQL (Recommended)"}
    saved = nbask.save_history(tmp_path / "history.jsonl")
    read = [json.loads(line) for line in saved.read_text(encoding="utf-8").splitlines()]
    assert read[0]["asked"] == read[1]["asked"]


def test_options_given_as_objects_are_kept_as_they_were_when_asked():
    nbask.configure(policy="recommended")
    option = {"label": "SQLite", "description": "a file"}
    nbask.ask_sync("Which database?", [option, "DuckDB"])
    option["label"] = "changed later"
    (entry,) = nbask.history()
    assert [o["label"] for o in entry.asked["questions"][0]["options"]] == ["SQLite", "DuckDB"]


def test_options_given_once_as_an_iterator_are_read_once_and_kept():
    nbask.configure(policy="recommended")
    answer = nbask.ask_sync("Which database?", (label for label in ["SQLite", "DuckDB (Recommended)"]))
    (entry,) = nbask.history()
    assert [o["label"] for o in entry.asked["questions"][0]["options"]] == ["SQLite", "DuckDB (Recommended)"]
    assert entry.outcome == answer
