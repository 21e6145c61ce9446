"""Fuzzing every dialect with hypothesis: valid arguments, invalid ones, hostile text, wrong types,
huge sizes and deep nesting. Each call ends, within a bounded time, in either a valid request
(answered by a scripted person) or a clear tool error; never an exception, never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import unittest.mock
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from support.person import Person, dismiss, first_options, pick, time_out

from nbask.models import OTHER_LABELS, QuestionSet
from nbask.tools import TOOL_NAMES, ToolResult, call

#: Generous: a call is pure validation plus a scripted answer, a few milliseconds.
TIME_LIMIT = 3.0
#: An error must stay short enough to put in a model's context.
MAX_ERROR_CHARS = 6000
JSON_REPLIES = {"AskUserQuestion", "ask_user_question", "request_user_input"}

FUZZ = settings(
    max_examples=120,
    deadline=None,  # the time limit is asserted per call, below
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@contextlib.contextmanager
def scripted_person(decide) -> Iterator[Person]:
    """The scripted person as every request's resolver, for one example (not a fixture:
    hypothesis runs many examples per test).
    """
    person = Person().answers(decide)
    with unittest.mock.patch("nbask.resolvers.run.choose_resolver", return_value=person):
        yield person


HOSTILE = [
    "",
    " ",
    "\x00",
    "\ud800",
    "\udfff tail",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "]]><!-- -->",
    "{{7*7}}${7*7}",
    "'; DROP TABLE users; --",
    "\u202eevil\u202c",
    "\u200b",
    "Other",
    "other…",
    "Khác",
    "(Recommended)",
    "A (Recommended)",
    "\n\n\t",
    "<suggest>",
    "</suggest>",
    "<question>x</question>",
    "</answer>",
    "&amp;&lt;&#0;&#x110000;",
    "😀" * 50,
    "é" * 13,
    "e\u0301" * 13,
    "x" * 5000,
    "[No preference]",
    "null",
    "NaN",
]
text = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE))
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(text, children, max_size=5)),
    max_leaves=25,
)
#: Mostly text, sometimes any JSON value: most generated calls are close to valid.
maybe = st.one_of(text, text, text, json_values)


def options_of(label_key: str = "label", extra: dict[str, Any] | None = None) -> st.SearchStrategy[Any]:
    option = st.fixed_dictionaries({label_key: maybe}, optional={"description": maybe, **(extra or {})})
    listed = st.lists(option, max_size=6)
    return st.one_of(listed, listed, listed, json_values)


ARGUMENTS: dict[str, st.SearchStrategy[Any]] = {
    "AskUserQuestion": st.fixed_dictionaries(
        {
            "questions": st.one_of(
                st.lists(
                    st.fixed_dictionaries(
                        {"question": maybe, "options": options_of()},
                        optional={"header": maybe, "multi_select": maybe, "multiSelect": st.booleans()},
                    ),
                    max_size=6,
                ),
                json_values,
            )
        },
        optional={"answers": json_values, "extra": json_values},
    ),
    "ask_user_question": st.one_of(
        st.fixed_dictionaries(
            {
                "questions": st.lists(
                    st.fixed_dictionaries(
                        {"question": maybe, "options": options_of(extra={"input": st.booleans()})},
                        optional={"header": maybe, "multiSelect": maybe, "multi_select": st.booleans()},
                    ),
                    max_size=6,
                )
            }
        ),
        st.fixed_dictionaries(
            {
                "action_requests": st.lists(
                    st.fixed_dictionaries({"name": st.just("ask_user_question"), "args": json_values}), max_size=2
                )
            },
            optional={"timeout_seconds": scalars, "review_configs": json_values},
        ),
    ),
    "ask_user": st.fixed_dictionaries(
        {"question": maybe},
        optional={"choices": st.one_of(st.lists(maybe, max_size=6), json_values), "allow_freeform": maybe},
    ),
    "ask_followup_question": st.one_of(
        st.fixed_dictionaries(
            {"question": maybe},
            optional={
                "follow_up": st.one_of(
                    st.lists(st.one_of(text, st.fixed_dictionaries({"answer": maybe})), max_size=6),
                    st.lists(
                        st.sampled_from(["<suggest>", "</suggest>", "a", "<", ">", "/>", "&amp;", " ", "<suggestion>"]),
                        max_size=20,
                    ).map("".join),
                    json_values,
                ),
                "suggest": json_values,
            },
        ),
        st.lists(
            st.sampled_from(
                [
                    "<ask_followup_question>",
                    "</ask_followup_question>",
                    "<question>",
                    "</question>",
                    "<follow_up>",
                    "</follow_up>",
                    "<suggest>",
                    "</suggest>",
                    "<suggest mode='x'>",
                    "text",
                    "&lt;",
                    "<",
                    ">",
                    "/>",
                    "\n",
                ]
            ),
            max_size=30,
        ).map("".join),
    ),
    "request_user_input": st.fixed_dictionaries(
        {
            "questions": st.one_of(
                st.lists(
                    st.fixed_dictionaries(
                        {"id": maybe, "header": maybe, "question": maybe, "options": options_of()},
                        optional={"isOther": maybe, "isSecret": st.booleans()},
                    ),
                    max_size=6,
                ),
                json_values,
            )
        }
    ),
}

DECISIONS = st.sampled_from([first_options(), pick([]), dismiss(), time_out(), pick([], other="typed ✓ <b>")])


def check(result: ToolResult, person: Person, tool_name: str, elapsed: float) -> None:
    assert isinstance(result, ToolResult)
    assert elapsed < TIME_LIMIT, f"{tool_name} took {elapsed:.2f}s"
    if result.is_error:
        assert result.output.startswith("Error: ")
        assert len(result.output) < MAX_ERROR_CHARS
        assert result.status in {"invalid", "failed"}
        assert person.asked == []
        return
    # A valid request was shown: it fits every limit of nbask's models, the reply is readable.
    (request,) = person.asked
    QuestionSet.model_validate(request.asked())
    assert request.tool_call_id == "fuzz-1"
    assert result.status in {"answered", "dismissed", "timeout"}
    result.output.encode("utf-8")  # sendable
    if tool_name in JSON_REPLIES:
        assert isinstance(json.loads(result.output), dict)


def exercise(tool_name: str, arguments: Any, decide, *, as_text: bool) -> None:
    if as_text and not isinstance(arguments, str):
        with contextlib.suppress(TypeError, ValueError):  # not JSON data: sent as it is
            arguments = json.dumps(arguments)
    with scripted_person(decide) as person:
        start = time.monotonic()
        result = asyncio.run(call(arguments, tool_name=tool_name, tool_call_id="fuzz-1"))
        check(result, person, tool_name, time.monotonic() - start)
    event(f"status: {result.status}")


#: Text that is hostile but legal as a question or a label: it must be asked, shown as text.
LEGAL_HOSTILE = [t for t in HOSTILE if t.strip() and "\ud800" not in t and "\udfff" not in t and t.strip() != "\x00"]
LEGAL_HOSTILE = [t for t in LEGAL_HOSTILE if t.casefold() not in OTHER_LABELS and "<" not in t]
#: Labels that mean "Other" (OTHER_LABELS) are refused (the widget adds its own), or dropped by
#: the 001 dialect, so they are left out.
label_text = st.one_of(
    st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=10),
    st.sampled_from(LEGAL_HOSTILE),
).filter(lambda label: label.strip().casefold() not in OTHER_LABELS)

#: Any legal header of the dialects that shorten long ones.
legal_text = st.one_of(st.text(max_size=40), st.sampled_from(LEGAL_HOSTILE))


@st.composite
def valid_arguments(draw: st.DrawFn, tool_name: str) -> Any:
    """Arguments that fit the dialect's rules, with hostile but legal text."""
    labels = st.lists(label_text, min_size=2, max_size=4, unique_by=lambda x: x.strip())
    drawn = draw(st.lists(st.tuples(label_text, labels), min_size=1, max_size=4, unique_by=lambda q: q[0].strip()))
    if tool_name in ("AskUserQuestion", "ask_user_question"):
        key = "multi_select" if tool_name == "AskUserQuestion" else "multiSelect"
        header = st.text(max_size=12) if tool_name == "AskUserQuestion" else legal_text
        return {
            "questions": [
                {"question": q, "header": draw(header), key: draw(st.booleans()), "options": [{"label": x} for x in xs]}
                for q, xs in drawn
            ]
        }
    if tool_name == "request_user_input":
        return {
            "questions": [
                {
                    "id": f"q{i}",
                    "header": draw(legal_text),
                    "question": q,
                    "options": [{"label": x, "description": ""} for x in xs],
                }
                for i, (q, xs) in enumerate(drawn)
            ]
        }
    if tool_name == "ask_user":
        return {"question": drawn[0][0], "choices": drawn[0][1]}
    return {"question": drawn[0][0], "follow_up": drawn[0][1]}


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (for mutations)."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*prefix, index))
    return out


@st.composite
def mutated(draw: st.DrawFn, tool_name: str) -> Any:
    """Valid arguments with one place replaced by any JSON value, deleted, or given an extra key."""
    value = json.loads(json.dumps(draw(valid_arguments(tool_name))))
    path = draw(st.sampled_from(paths(value)[1:]))
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "delete", "extra"]))
    if action == "delete":
        del parent[path[-1]]
    elif action == "extra" and isinstance(parent, dict):
        parent[draw(text)] = draw(json_values)
    else:
        parent[path[-1]] = draw(json_values)
    return value


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_dialect_arguments(tool_name: str, data: st.DataObject):
    arguments = data.draw(
        st.one_of(
            valid_arguments(tool_name),
            mutated(tool_name),
            mutated(tool_name),
            ARGUMENTS[tool_name],
            json_values,
            st.text(max_size=200),
        ),
        label="arguments",
    )
    decide = data.draw(DECISIONS, label="decision")
    exercise(tool_name, arguments, decide, as_text=data.draw(st.booleans(), label="as_text"))


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_valid_arguments_are_always_asked(tool_name: str, data: st.DataObject):
    """Arguments that fit the dialect's rules, hostile text included, are asked, never refused."""
    arguments = data.draw(valid_arguments(tool_name))
    with scripted_person(first_options()) as person:
        result = asyncio.run(call(json.dumps(arguments), tool_name=tool_name, tool_call_id="fuzz-1"))
    assert not result.is_error, result.output
    assert len(person.asked) == 1
    shown = person.asked[0].asked()["questions"]
    if tool_name == "AskUserQuestion":
        assert [q["question"] for q in shown] == [q["question"].strip() for q in arguments["questions"]]


def nested(depth: int, *, mapping: bool) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"a": value} if mapping else [value]
    return value


def cyclic() -> dict[str, Any]:
    data: dict[str, Any] = {"questions": []}
    data["questions"].append(data)
    return data


EXTREMES = {
    "deep dict": lambda: {"questions": nested(20_000, mapping=True)},
    "deep list": lambda: {"questions": nested(20_000, mapping=False)},
    "deep JSON text": lambda: '{"questions": ' + "[" * 30_000 + "]" * 30_000 + "}",
    "deep JSON object text": lambda: '{"a":' * 40_000 + "1" + "}" * 40_000,
    "huge question": lambda: {"question": "q" * 10_000_000, "choices": ["a", "b"]},
    "huge option list": lambda: {
        "questions": [{"question": "Q?", "options": [{"label": str(i)} for i in range(300_000)]}]
    },
    "huge text": lambda: "x" * 20_000_000,
    "many questions": lambda: {"questions": [{"question": f"{i}?", "options": []} for i in range(100_000)]},
    "cyclic": cyclic,
    "not JSON data": lambda: {"questions": {1, 2}},
    "bytes not UTF-8": lambda: b"\xff\xfe{}",
    "object": object,
    "many suggests unclosed": lambda: "<suggest>" * 500_000,
    "many suggests": lambda: "<question>Q</question><follow_up>" + "<suggest>a</suggest>" * 200_000 + "</follow_up>",
}


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
@pytest.mark.parametrize("case", list(EXTREMES))
def test_extreme_arguments_are_refused_quickly(tool_name: str, case: str):
    arguments = EXTREMES[case]()
    with scripted_person(first_options()) as person:
        start = time.monotonic()
        result = asyncio.run(call(arguments, tool_name=tool_name, tool_call_id="fuzz-1"))
        elapsed = time.monotonic() - start
    assert result.is_error, result.output[:300]
    check(result, person, tool_name, elapsed)
