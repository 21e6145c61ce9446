"""The dialects against their peers' current schemas: Kilo Code's and Roo Code's ``follow_up``
list of ``{"text", "mode"}`` objects, Codex's ``autoResolutionMs`` and answers keyed by id, Claude
Code's option ``preview`` and top-level ``metadata``; and every argument error showing the form
the dialect's model was told to write.

The scripted person (tool_helpers.Person) stands in for the widget; everything from
``nbask.tools.call`` down to the Resolution is the real code.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import jsonschema
import pytest
from support.person import Person, first_options, fixture_text, pick, time_out

import nbask
from nbask.contract import MAX_PREVIEW_CHARS
from nbask.models import Option
from nbask.tools import TOOL_NAMES, ToolResult, call, parameters_schema
from nbask.tools.dialects import DIALECTS
from nbask.tools.dialects.followup import FORM_CALL_XML, FORM_FOLLOW_UP_XML, FORM_JSON, RETRY


def run(arguments: Any, tool_name: str, **kwargs: Any) -> ToolResult:
    return asyncio.run(call(arguments, tool_name=tool_name, **kwargs))


def shown_labels(person: Person, index: int = -1) -> list[str]:
    return [o["label"] for o in person.questions[index]["questions"][0]["options"]]


# -- Kilo Code / Roo Code: follow_up as [{"text", "mode"}] -------------------------------------

KILO_NATIVE = {
    "question": "Should I add the cache layer now?",
    "follow_up": [
        {"text": "Yes, implement it now", "mode": "code"},
        {"text": "No, plan it first", "mode": "architect"},
        {"text": "Skip the cache", "mode": None},
    ],
}


def test_followup_native_json_list_is_asked_and_the_mode_left_out_of_the_reply(person: Person):
    person.answers(pick("No, plan it first"))
    result = run(KILO_NATIVE, "ask_followup_question")
    assert shown_labels(person) == ["Yes, implement it now", "No, plan it first", "Skip the cache"]
    assert result.output == "<answer>\nNo, plan it first\n</answer>"
    assert "architect" not in json.dumps(person.questions[0])  # a notebook has no modes to switch


@pytest.mark.parametrize(
    "arguments",
    [
        {**KILO_NATIVE, "follow_up": json.dumps(KILO_NATIVE["follow_up"])},  # the list as JSON text
        json.dumps({**KILO_NATIVE, "follow_up": json.dumps(KILO_NATIVE["follow_up"])}),  # both as text
        {**KILO_NATIVE, "follow_up": "  \n" + json.dumps([s["text"] for s in KILO_NATIVE["follow_up"]])},
        {**KILO_NATIVE, "follow_up": [{"text": s["text"]} for s in KILO_NATIVE["follow_up"]]},  # mode left out
    ],
    ids=["list-as-text", "all-as-text", "strings-as-text", "no-mode"],
)
def test_followup_native_list_in_every_spelling(person: Person, arguments: Any):
    result = run(arguments, "ask_followup_question")
    assert not result.is_error, result.output
    assert shown_labels(person) == ["Yes, implement it now", "No, plan it first", "Skip the cache"]
    assert result.output == "<answer>\nYes, implement it now\n</answer>"


def test_followup_xml_keeps_working_with_modes(person: Person):
    person.answers(pick("B"))
    xml = (
        "<ask_followup_question><question>Which?</question><follow_up>"
        '<suggest mode="code">A</suggest><suggest>B</suggest></follow_up></ask_followup_question>'
    )
    assert run(xml, "ask_followup_question").output == "<answer>\nB\n</answer>"
    assert shown_labels(person) == ["A", "B"]


@pytest.mark.parametrize(
    ("follow_up", "count"),
    [
        ([{"text": "Only one", "mode": None}], 1),
        ([{"text": f"S{i}", "mode": None} for i in range(5)], 5),
        (json.dumps([{"text": "Only one", "mode": "code"}]), 1),
        ("<suggest>Only one</suggest>", 1),
        ([], 0),
    ],
)
def test_followup_wrong_number_of_suggestions_is_a_count_error(follow_up: Any, count: int):
    result = run({"question": "Q?", "follow_up": follow_up}, "ask_followup_question")
    assert result.is_error
    assert result.output.startswith(
        f"Error: Wrong number of suggestions in follow_up: give 2-4 suggestions, got {count}."
    )
    assert "format" not in result.output.split("Please retry")[0]


@pytest.mark.parametrize(
    ("follow_up", "problem"),
    [
        ([{"text": "A", "mode": 3}, {"text": "B", "mode": None}], "follow_up[0].mode must be a mode name"),
        ([{"text": "A", "mode": None, "icon": "x"}, "B"], "follow_up[0] has unknown key(s) ['icon']"),
        ([{"mode": "code"}, "B"], 'follow_up[0] must be {"text": "...", "mode": null}'),
        ([{"text": "A", "answer": "A"}, "B"], 'follow_up[0] must be {"text": "...", "mode": null}'),
        ('[{"text": "A", ', "Failed to parse follow_up: not a valid JSON list"),
        ('[{"text": "A"}', "Failed to parse follow_up: not a valid JSON list"),
    ],
)
def test_followup_bad_suggestions_name_the_place(follow_up: Any, problem: str):
    result = run({"question": "Q?", "follow_up": follow_up}, "ask_followup_question")
    assert result.is_error
    assert problem in result.output
    assert result.output.endswith(f"Please retry with a complete call: {FORM_JSON}.")


def test_followup_schema_and_function_take_the_native_form():
    jsonschema.validate(KILO_NATIVE, parameters_schema("ask_followup_question"))
    nbask.configure(policy="recommended")
    tool = nbask.tools.function_sync("ask_followup_question")
    output = tool(question=KILO_NATIVE["question"], follow_up=KILO_NATIVE["follow_up"])
    assert output.startswith("<answer>\nYes, implement it now\n</answer>\n(Answered by nbask's 'recommended' policy")


# -- Codex: autoResolutionMs and answers keyed by id --------------------------------------------


def codex(**extra: Any) -> dict[str, Any]:
    return {**json.loads(fixture_text("codex_request_user_input.json")), **extra}


@pytest.mark.parametrize(
    ("milliseconds", "caller", "seconds"),
    [
        (90_000, 600, 90),
        (60_000, 600, 60),
        (240_000, 600, 240),
        (5_000, 600, 60),  # clamped up, as Codex does
        (10_000_000, 600, 240),  # clamped down
        (90_000, None, 90),  # the caller waits forever; the model asked for less
        (90_000, 30, 30),  # the model may shorten the caller's limit, never lengthen it
        (None, 45, 45),
    ],
)
def test_codex_auto_resolution_is_the_time_limit(person: Person, milliseconds: int | None, caller, seconds: float):
    arguments = codex() if milliseconds is None else codex(autoResolutionMs=milliseconds)
    result = run(arguments, "request_user_input", timeout=caller)
    assert not result.is_error, result.output
    assert person.asked[0].timeout == seconds


def test_codex_auto_resolution_timeout_has_no_answers(person: Person):
    person.answers(time_out())
    result = run(codex(autoResolutionMs=120_000), "request_user_input")
    assert json.loads(result.output) == {
        "answers": {},
        "status": "timeout",
        "note": "No answer within 120 seconds; no one answered, so do not assume an answer.",
    }


@pytest.mark.parametrize("value", [0, -5, 1.5, 90_000.0, True, "90000", [90_000]])
def test_codex_auto_resolution_must_be_a_positive_whole_number(person: Person, value: Any):
    result = run(codex(autoResolutionMs=value), "request_user_input")
    assert (result.is_error, result.status) == (True, "invalid")
    assert "autoResolutionMs: " in result.output
    assert "(a whole number of milliseconds, 60000-240000; leave it out to wait for the answer)" in result.output
    assert person.asked == []


def test_codex_schema_offers_auto_resolution():
    schema = parameters_schema("request_user_input")
    auto = schema["properties"]["autoResolutionMs"]
    assert "from 60000 to 240000" in auto["description"]
    jsonschema.validate(codex(autoResolutionMs=90_000), schema)
    assert "autoResolutionMs" in DIALECTS["request_user_input"].description


def same_text_twice() -> dict[str, Any]:
    options = [{"label": "eu-west-1", "description": ""}, {"label": "us-east-1", "description": ""}]
    return {
        "questions": [
            {"id": "db_region", "header": "Database", "question": "Which region?", "options": options},
            {"id": "cache_region", "header": "Cache", "question": "Which region?", "options": options},
        ]
    }


def test_codex_same_text_with_different_ids_is_asked_and_answered_by_id(person: Person):
    person.answers(pick("eu-west-1", "us-east-1"))
    result = run(same_text_twice(), "request_user_input")
    shown = person.questions[0]["questions"]
    assert [q["question"] for q in shown] == ["Which region?", "Which region? (2)"]
    assert [q["header"] for q in shown] == ["Database", "Cache"]
    assert json.loads(result.output) == {
        "answers": {"db_region": {"answers": ["eu-west-1"]}, "cache_region": {"answers": ["us-east-1"]}}
    }


def test_codex_shown_texts_never_collide(person: Person):
    arguments = same_text_twice()
    third = {**arguments["questions"][0], "id": "third", "question": "Which region? (2)"}
    arguments["questions"].append(third)
    person.answers(pick("eu-west-1", "us-east-1", [], other={2: "ap-south-1"}))
    result = run(arguments, "request_user_input")
    assert [q["question"] for q in person.questions[0]["questions"]] == [
        "Which region?",
        "Which region? (3)",
        "Which region? (2)",
    ]
    assert json.loads(result.output)["answers"] == {
        "db_region": {"answers": ["eu-west-1"]},
        "cache_region": {"answers": ["us-east-1"]},
        "third": {"answers": ["user_note: ap-south-1"]},
    }


@pytest.mark.parametrize("tool_name", ["AskUserQuestion", "ask_user_question"])
def test_dialects_keyed_by_text_still_refuse_the_same_text_twice(tool_name: str):
    questions = [{"question": "Which region?", "options": [{"label": "A"}, {"label": "B"}]}] * 2
    result = run({"questions": questions}, tool_name)
    assert result.is_error
    assert "question texts must be unique within a set" in result.output


# -- Claude Code: an option's preview, the top-level metadata ------------------------------------

SNIPPET = "```python\n    cache = LRU(maxsize=128)\n```"


def claude_code(**extra: Any) -> dict[str, Any]:
    return {
        "questions": [
            {
                "question": "Which cache should we use?",
                "header": "Cache",
                "multiSelect": False,
                "options": [
                    {"label": "LRU (Recommended)", "description": "Bounded memory.", "preview": SNIPPET},
                    {"label": "None", "description": "Simplest."},
                ],
            }
        ],
        **extra,
    }


def test_claude_code_preview_and_metadata_are_accepted_and_the_preview_kept(person: Person):
    person.answers(pick("None"))
    result = run(claude_code(metadata={"source": "remember"}), "AskUserQuestion")
    assert json.loads(result.output) == {"answers": {"Which cache should we use?": "None"}}
    options = person.asked[0].question_set.questions[0].options
    assert options[0].preview == SNIPPET  # kept as given: the snippet's indentation matters
    assert person.questions[0]["questions"][0]["options"] == [
        {"label": "LRU (Recommended)", "description": "Bounded memory.", "preview": SNIPPET},
        {"label": "None", "description": "Simplest."},  # no preview, no key
    ]


def test_claude_code_long_preview_is_withheld_not_refused(person: Person):
    arguments = claude_code()
    arguments["questions"][0]["options"][0]["preview"] = "x" * (MAX_PREVIEW_CHARS + 1)
    result = run(arguments, "AskUserQuestion")
    assert not result.is_error, result.output
    assert person.asked[0].question_set.questions[0].options[0].preview == ""


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ({"metadata": "remember"}, 'metadata: must be an object such as {"source": "..."}, or left out'),
        ({"annotations": {"Q?": {"notes": "x"}}}, "annotations: not an input; the person's answers come back"),
        ({"answers": {"Q?": "A"}}, "answers: not an input; the person's answers come back"),
        ({"metdata": {}}, "metdata: not a field of this tool; remove it"),
    ],
)
def test_claude_code_top_level_fields(extra: dict[str, Any], problem: str):
    result = run(claude_code(**extra), "AskUserQuestion")
    assert result.is_error
    assert problem in result.output


def test_claude_code_preview_that_is_not_text_names_the_field():
    arguments = claude_code()
    arguments["questions"][0]["options"][1]["preview"] = {"html": "<b>x</b>"}
    result = run(arguments, "AskUserQuestion")
    assert "questions[0].options[1].preview: Input should be a valid string" in result.output


def test_preview_is_advertised_to_the_model_with_its_cap_and_is_capped_on_the_option():
    option = parameters_schema("AskUserQuestion")["properties"]["questions"]["items"]["properties"]["options"]
    preview = option["items"]["properties"]["preview"]
    assert preview["type"] == "string"
    assert preview["maxLength"] == MAX_PREVIEW_CHARS
    assert "monospace" in preview["description"]
    assert "preview" not in option["items"].get("required", [])
    assert Option(label="A").model_dump() == {"label": "A", "description": ""}
    with pytest.raises(ValueError, match=f"preview\n.*at most {MAX_PREVIEW_CHARS} characters"):
        Option(label="A", preview="x" * (MAX_PREVIEW_CHARS + 1))


def test_a_preview_in_the_schema_validates_and_reaches_the_person(person: Person):
    question = claude_code()["questions"][0]
    snake = {"questions": [{("multi_select" if k == "multiSelect" else k): v for k, v in question.items()}]}
    schema = parameters_schema("AskUserQuestion")
    jsonschema.validate(snake, schema)
    too_long = json.loads(json.dumps(snake))
    too_long["questions"][0]["options"][0]["preview"] = "x" * (MAX_PREVIEW_CHARS + 1)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(too_long, schema)
    run(snake, "AskUserQuestion")
    assert person.questions[0]["questions"][0]["options"][0]["preview"] == SNIPPET


# -- every argument error shows the form the model was told to write ----------------------------

BAD_CALLS = {
    "AskUserQuestion": {"questions": [{"question": "Q?", "options": [{"label": "A"}]}]},
    "ask_user_question": {"questions": [{"question": "Q?", "options": [{"label": "A"}]}]},
    "ask_user": {"question": "Q?"},
    "ask_followup_question": {"question": "Q?"},
    "request_user_input": {"questions": [{"id": "q", "question": "Q?", "options": []}]},
}


def properties_of(schema: Any) -> set[str]:
    """Every property name anywhere in a JSON Schema."""
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found |= set(value)
            found |= properties_of(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= properties_of(item)
    return found


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_argument_errors_show_the_dialects_own_form(tool_name: str):
    dialect = DIALECTS[tool_name]
    result = run(BAD_CALLS[tool_name], tool_name)
    assert (result.is_error, result.status) == (True, "invalid")
    assert dialect.form in result.output
    # The form names only fields of the schema the model was given, and the required ones.
    keys = set(re.findall(r'"(\w+)":', dialect.form))
    schema = parameters_schema(tool_name)
    assert keys <= properties_of(schema), keys - properties_of(schema)
    assert set(schema["required"]) <= keys


@pytest.mark.parametrize(
    ("arguments", "form"),
    [
        ("<ask_followup_question><question>Q?</question></ask_followup_question>", FORM_CALL_XML),
        ("<question>Q?</question><follow_up><suggest>A</suggest></follow_up>", FORM_CALL_XML),
        ({"question": "Q?", "follow_up": "<suggest>A</suggest>"}, FORM_FOLLOW_UP_XML),
        ({"question": "", "suggest": "<suggest>A</suggest><suggest>B</suggest>"}, FORM_FOLLOW_UP_XML),
        ({"question": "Q?", "follow_up": [{"text": "A", "mode": None}]}, FORM_JSON),
        ({"question": "Q?", "follow_up": '[{"text": "A", "mode": null}]'}, FORM_JSON),
        ("{not json", FORM_JSON),
    ],
)
def test_followup_advice_repeats_the_form_the_call_was_written_in(arguments: Any, form: str):
    result = run(arguments, "ask_followup_question")
    assert result.is_error
    assert result.output.endswith(f"Please retry with a complete call: {form}.")
    assert f"Please retry with a complete call: {FORM_FOLLOW_UP_XML}." == RETRY


def test_a_valid_call_of_each_form_is_accepted(person: Person):
    person.answers(first_options())
    xml_call = (
        "<ask_followup_question><question>Q?</question><follow_up><suggest>A</suggest><suggest>B</suggest>"
        "</follow_up></ask_followup_question>"
    )
    for arguments in (
        xml_call,
        {"question": "Q?", "follow_up": "<suggest>A</suggest><suggest>B</suggest>"},
        {"question": "Q?", "follow_up": [{"text": "A", "mode": None}, {"text": "B", "mode": None}]},
    ):
        assert run(arguments, "ask_followup_question").output == "<answer>\nA\n</answer>"
