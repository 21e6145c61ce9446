"""Forms: MCP's form subset read into fields, refusals that name the property and the rule,
values checked and typed by the kernel, and the form widget driven as the front end drives it.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
import time
from typing import Literal

import pytest
from pydantic import BaseModel, Field

import nbask
from nbask.core.history import HistoryEntry
from nbask.core.lifecycle import Resolution
from nbask.forms import FormSchemaError, check_values, read_schema
from nbask.kinds import FormRequest, FormWidget, kind_of
from nbask.kinds.form.markdown import form_markdown
from nbask.kinds.form.request import form_request, url_request

EVERY_TYPE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Service name", "minLength": 2, "maxLength": 20, "default": "web"},
        "email": {"type": "string", "format": "email", "description": "Who is paged."},
        "docs": {"type": "string", "format": "uri"},
        "day": {"type": "string", "format": "date", "default": "2026-11-23"},
        "at": {"type": "string", "format": "date-time"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "canary": {"type": "boolean", "default": False},
        "region": {"type": "string", "enum": ["eu", "us"]},
        "tier": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]},
        "checks": {
            "type": "array",
            "items": {"anyOf": [{"const": "lint", "title": "Lint"}, {"const": "unit", "title": "Unit"}]},
            "minItems": 1,
            "maxItems": 2,
            "default": ["unit"],
        },
    },
    "required": ["name", "replicas", "region"],
}


def fields_by_name(schema: dict) -> dict:
    return {field.name: field for field in read_schema(schema)}


def test_every_type_of_the_subset_becomes_a_field():
    fields = fields_by_name(EVERY_TYPE)
    assert [(f.name, f.type) for f in fields.values()] == [
        ("name", "string"),
        ("email", "string"),
        ("docs", "string"),
        ("day", "string"),
        ("at", "string"),
        ("replicas", "integer"),
        ("ratio", "number"),
        ("canary", "boolean"),
        ("region", "choice"),
        ("tier", "choice"),
        ("legacy", "choice"),
        ("checks", "multi_choice"),
    ]
    assert fields["name"].title == "Service name"
    assert fields["email"].title == "email"  # the key where there is no title
    assert (fields["name"].min_length, fields["name"].max_length, fields["name"].default) == (2, 20, "web")
    assert [fields[k].format for k in ("email", "docs", "day", "at")] == ["email", "uri", "date", "date-time"]
    assert (fields["replicas"].minimum, fields["replicas"].maximum, fields["replicas"].default) == (1, 10, 3)
    assert [(o.value, o.title) for o in fields["tier"].options] == [("s", "Small"), ("l", "Large")]
    assert [(o.value, o.title) for o in fields["legacy"].options] == [("a", "Alpha"), ("b", "Beta")]
    assert [(o.value, o.title) for o in fields["region"].options] == [("eu", "eu"), ("us", "us")]
    assert (fields["checks"].min_items, fields["checks"].max_items, fields["checks"].default) == (1, 2, ["unit"])
    assert [f.name for f in fields.values() if f.required] == ["name", "replicas", "region"]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"type": "array"}, "type must be 'object'"),
        ({"type": "object", "properties": {"db": {"type": "object", "properties": {}}}}, "'db': a nested object"),
        ({"type": "object", "properties": {"db": {"$ref": "#/$defs/Db"}}}, "'db': '$ref' is outside"),
        ({"type": "object", "$defs": {}, "properties": {}}, "'$defs' is outside"),
        ({"type": "object", "properties": {"n": {"type": ["string", "integer"]}}}, "'n': a list of types is read"),
        ({"type": "object", "properties": {"n": {"type": "string", "pattern": "^a"}}}, "'n': 'pattern'"),
        ({"type": "object", "properties": {"n": {"type": "string", "format": "ipv4"}}}, "'n': format 'ipv4'"),
        ({"type": "object", "properties": {"n": {"type": "array", "items": {"type": "string"}}}}, "'n': an array"),
        ({"type": "object", "properties": {"n": {"type": "string", "enum": [1, 2]}}}, "'n': option 1"),
        ({"type": "object", "properties": {"n": {"type": "string", "enum": ["a", "a"]}}}, "'n': option values"),
        ({"type": "object", "properties": {"n": {"type": "integer", "default": "x"}}}, "'n': default 'x'"),
        ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}}, "'n': minimum"),
        ({"type": "object", "properties": {"n": {"type": "string", "minLength": 9, "maxLength": 3}}}, "'n': minLen"),
        ({"type": "object", "properties": {"n": {"type": "string"}}, "required": ["m"]}, "required names 'm'"),
        ({"type": "object", "properties": {"n": {"type": "string", "title": "x" * 201}}}, "'n': title is 201"),
    ],
)
def test_anything_outside_the_subset_is_refused_naming_the_property_and_the_rule(schema, message):
    with pytest.raises(FormSchemaError, match=re.escape(message)):
        read_schema(schema)


def test_hostile_schemas_end_in_a_clear_error_within_bounded_time():
    huge = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(10_000)}}
    recorded = len(nbask.history())
    started = time.perf_counter()
    with pytest.raises(FormSchemaError, match="at most 50 properties, got 10000"):
        nbask.ask_form_sync("Too many", huge)
    many_options = {"type": "object", "properties": {"n": {"type": "string", "enum": [str(i) for i in range(10**5)]}}}
    with pytest.raises(FormSchemaError, match="at most 100 options, got 100000"):
        read_schema(many_options)
    assert time.perf_counter() - started < 5
    assert len(nbask.history()) == recorded  # nothing was shown or recorded


def test_script_like_titles_stay_text_in_the_summary():
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": "<img src=x onerror=alert(1)>"}}}
    request = form_request("**bold** <script>", schema)
    markdown = form_markdown(request.form, request.decide({"x": "[link](http://e.test)"}))
    assert re.search(r"(?<!\\)[<\[]", markdown) is None  # every < and [ is escaped: no HTML, no links
    assert "\\<img src=x onerror=alert\\(1\\)\\>" in markdown


class Size(enum.Enum):
    SMALL = "s"
    LARGE = "l"


class Deployment(BaseModel):
    name: str = Field(min_length=2, title="Service name")
    day: dt.date
    size: Size = Size.SMALL
    mode: Literal["blue", "green"] = "blue"
    checks: list[Literal["lint", "unit"]] = ["unit"]
    replicas: int | None = None
    canary: bool = False


def test_a_flat_pydantic_model_is_a_schema_and_the_answer_carries_an_instance():
    request = form_request("Deploy?", Deployment)
    fields = {field.name: field for field in request.form.fields}
    assert {name: field.type for name, field in fields.items()} == {
        "name": "string",
        "day": "string",
        "size": "choice",
        "mode": "choice",
        "checks": "multi_choice",
        "replicas": "integer",
        "canary": "boolean",
    }
    assert fields["day"].format == "date"
    assert fields["name"].title == "Service name"
    assert [f.name for f in fields.values() if f.required] == ["name", "day"]
    answer = request.decide({"name": "api", "day": "2026-12-01", "size": "l", "checks": ["lint", "unit"]})
    assert answer.data == Deployment(name="api", day=dt.date(2026, 12, 1), size=Size.LARGE, checks=["lint", "unit"])
    assert "data" not in answer.model_dump()


def test_a_nested_model_is_refused():
    class Inner(BaseModel):
        x: int

    class Outer(BaseModel):
        inner: Inner

    with pytest.raises(FormSchemaError, match="'inner'"):
        form_request("Nested?", Outer)


def test_values_are_typed_as_the_schema_says():
    fields = read_schema(EVERY_TYPE)
    values = check_values(
        fields,
        {
            "name": "api",
            "email": "",  # blank optional fields are left out
            "replicas": 4.0,  # JSON numbers may arrive as floats
            "ratio": 1,
            "canary": True,
            "region": "us",
            "checks": ["unit", "lint"],
            "at": "2026-11-23T10:30",
        },
    )
    assert values == {
        "name": "api",
        "replicas": 4,
        "ratio": 1.0,
        "canary": True,
        "region": "us",
        "checks": ["lint", "unit"],  # in option order
        "at": "2026-11-23T10:30",
    }
    assert type(values["replicas"]) is int
    assert type(values["ratio"]) is float


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"replicas": 3, "region": "eu"}, "field 'name' (Service name) is required"),
        ({"name": "a", "replicas": 3, "region": "eu"}, "at least 2 characters"),
        ({"name": "api", "replicas": 11, "region": "eu"}, "'replicas' (replicas): must be at most 10, got 11"),
        ({"name": "api", "replicas": 2.5, "region": "eu"}, "must be a whole number"),
        ({"name": "api", "replicas": True, "region": "eu"}, "must be a number"),
        ({"name": "api", "replicas": 3, "region": "mars"}, "must be one of the choices"),
        ({"name": "api", "replicas": 3, "region": "eu", "email": "no-at"}, "must be an email address"),
        ({"name": "api", "replicas": 3, "region": "eu", "docs": "not a uri"}, "must be a URI"),
        ({"name": "api", "replicas": 3, "region": "eu", "day": "23/11/2026"}, "YYYY-MM-DD"),
        ({"name": "api", "replicas": 3, "region": "eu", "canary": "yes"}, "must be true or false"),
        ({"name": "api", "replicas": 3, "region": "eu", "checks": ["lint", "unit", "lint"]}, "listed twice"),
        ({"name": "api", "replicas": 3, "region": "eu", "checks": ["deploy"]}, "'deploy' is not one of"),
        ({"name": "api", "replicas": 3, "region": "eu", "admin": True}, "'admin' is not a field"),
    ],
)
def test_bad_values_are_refused_naming_the_field_and_the_rule(values, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        check_values(read_schema(EVERY_TYPE), values)


def reply(widget: FormWidget, values: dict | None) -> None:
    # Exactly what js/kinds/form/view.ts sends (type FormResponse), as a synced trait update.
    action = "dismiss" if values is None else "submit"
    widget._response = {"action": action, "values": values or {}, "view_id": "v1", "sent_at_ms": 0}


def test_the_widget_refuses_an_invalid_reply_and_stays_open_then_takes_a_valid_one():
    widget = FormWidget(resolution=Resolution(form_request("Deploy?", EVERY_TYPE)))
    assert widget._kind == "form"
    assert widget._message == "Deploy?"
    assert [field["name"] for field in widget._fields][:2] == ["name", "email"]
    assert widget._url == ""
    reply(widget, {"name": "api", "replicas": 99, "region": "eu"})
    assert widget._status == "pending"
    assert widget._response == {}
    assert "'replicas'" in widget._error
    assert "at most 10" in widget._error
    reply(widget, {"name": "api", "replicas": 2, "region": "eu", "canary": False})
    assert widget._status == "answered"
    assert widget.answer is not None
    assert widget.answer.action == "accept"
    assert widget.answer.values == {"name": "api", "replicas": 2, "region": "eu", "canary": False}
    assert widget._result == {"values": widget.answer.values, "note": ""}


def test_dismiss_declines_and_url_mode_opens_only_on_submit():
    widget = FormWidget(resolution=Resolution(form_request("Deploy?", EVERY_TYPE)))
    reply(widget, None)
    assert (widget._status, widget.answer.action) == ("dismissed", "decline")
    page = FormWidget(resolution=Resolution(url_request("Sign in to continue", "https://auth.example.test/x?y=1")))
    assert (page._url, page._fields) == ("https://auth.example.test/x?y=1", [])
    reply(page, {})
    assert (page._status, page.answer.action, page.answer.values) == ("answered", "accept", {})


def test_a_form_answer_survives_the_history_with_its_types():
    request = form_request("Deploy?", EVERY_TYPE)
    answer = request.decide({"name": "api", "replicas": 2, "ratio": 0.5, "region": "eu", "checks": ["lint"]})
    entry = HistoryEntry.of(request, answer)
    back = HistoryEntry.model_validate_json(entry.model_dump_json())
    assert back.kind == "form"
    assert back.outcome == answer
    assert type(back.outcome.values["replicas"]) is int
    assert back.asked["fields"][0]["title"] == "Service name"


def test_form_requests_are_registered_as_a_kind():
    request = form_request("Deploy?", EVERY_TYPE)
    assert isinstance(request, FormRequest)
    assert kind_of(request).name == "form"
    with pytest.raises(ValueError, match="url must not be empty"):
        url_request("Sign in", " ")
