"""The schema's limits and error messages, and how a front-end response becomes an Answer."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from nbask.contract import MAX_PREVIEW_CHARS
from nbask.models import (
    Option,
    Question,
    QuestionSet,
    is_recommended,
    one_question_set,
)


def opts(*labels: str) -> list[dict[str, str]]:
    return [{"label": label} for label in labels]


def question(text: str = "Which database?", **overrides) -> dict:
    return {"question": text, "header": "DB", "options": opts("PostgreSQL", "SQLite"), **overrides}


def error_of(callable_, *args, **kwargs) -> tuple[str, str]:
    """The (location, message) of the single validation error raised."""
    with pytest.raises(ValidationError) as info:
        callable_(*args, **kwargs)
    errors = info.value.errors()
    assert len(errors) == 1, errors
    return ".".join(str(part) for part in errors[0]["loc"]), str(info.value)


# -- limits ------------------------------------------------------------------


def test_a_valid_set_keeps_everything():
    qs = QuestionSet(questions=[question(multi_select=True), question("Which cache?", header="")])
    assert [q.question for q in qs.questions] == ["Which database?", "Which cache?"]
    assert qs.questions[0].multi_select is True
    assert qs.questions[0].options[0] == Option(label="PostgreSQL", description="")


@pytest.mark.parametrize("count", [0, 5])
def test_question_count_is_1_to_4(count):
    loc, message = error_of(QuestionSet, questions=[question(f"Q{i}?") for i in range(count)])
    assert loc == "questions"
    assert "at least 1" in message if count == 0 else "at most 4" in message


@pytest.mark.parametrize("count", [1, 5])
def test_option_count_is_2_to_4(count):
    labels = [f"choice {i}" for i in range(count)]
    loc, message = error_of(Question, **question(options=opts(*labels)))
    assert loc == "options"
    assert "at least 2" in message if count == 1 else "at most 4" in message


def test_header_is_at_most_12_characters():
    Question(**question(header="x" * 12))
    loc, message = error_of(Question, **question(header="x" * 13))
    assert loc == "header"
    assert "at most 12 characters" in message


@pytest.mark.parametrize("field", ["question"])
@pytest.mark.parametrize("blank", ["", "   "])
def test_question_text_may_not_be_empty(field, blank):
    loc, message = error_of(Question, **question(**{field: blank}))
    assert loc == field
    assert "at least 1 character" in message


def test_option_label_may_not_be_empty():
    loc, message = error_of(Question, **question(options=[{"label": " "}, {"label": "B"}]))
    assert loc == "options.0.label"
    assert "at least 1 character" in message


def test_labels_are_unique_within_a_question():
    loc, message = error_of(Question, **question(options=opts("A", "B", "A")))
    assert loc == "options"
    assert "unique within a question" in message
    assert "'A'" in message


@pytest.mark.parametrize("label", ["Other", "other", "Other…"])
def test_model_may_not_supply_other(label):
    loc, message = error_of(Question, **question(options=opts("A", label)))
    assert loc == "options"
    assert "the UI adds its own free-text 'Other' choice" in message


def test_question_texts_are_unique_within_a_set():
    loc, message = error_of(QuestionSet, questions=[question(), question()])
    assert loc == "questions"
    assert "unique within a set" in message
    assert "answer keys" in message


def test_unknown_fields_are_rejected_by_name():
    loc, message = error_of(Question, **question(multiselect=True))
    assert loc == "multiselect"
    assert "Extra inputs are not permitted" in message


def test_whitespace_is_trimmed():
    q = Question(**question("  Which?  ", options=opts(" A ", "B")))
    assert q.question == "Which?"
    assert q.options[0].label == "A"


def test_recommended_marker():
    assert is_recommended("PostgreSQL (Recommended)")
    assert is_recommended("x (recommended)  ")
    assert not is_recommended("Recommended option")


def test_json_schema_is_exportable_and_has_no_answers():
    schema = QuestionSet.model_json_schema()
    text = json.dumps(schema)
    assert schema["properties"]["questions"]["maxItems"] == 4
    question_schema = schema["$defs"]["Question"]
    assert question_schema["properties"]["options"]["minItems"] == 2
    assert question_schema["properties"]["header"]["maxLength"] == 12
    assert "answers" not in text


# -- option previews ---------------------------------------------------------------------------


def test_a_preview_is_kept_as_given_and_capped_naming_the_field():
    snippet = "  def f():\n      return 1\n"
    shown = one_question_set("Which?", [Option(label="A", preview=snippet), {"label": "B", "preview": "| x |"}, "C"])
    options = shown.questions[0].options
    assert [o.preview for o in options] == [snippet, "| x |", ""]  # indentation kept, none = ""
    assert options[2].model_dump() == {"label": "C", "description": ""}  # no preview, no key
    where, message = error_of(
        QuestionSet,
        questions=[question(options=[{"label": "A", "preview": "x" * (MAX_PREVIEW_CHARS + 1)}, *opts("B")])],
    )
    assert where == "questions.0.options.0.preview"
    assert f"at most {MAX_PREVIEW_CHARS} characters" in message
    where, message = error_of(Option, label="A", preview=["not", "text"])
    assert where == "preview"
