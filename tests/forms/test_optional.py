"""Forms: an optional property as JSON Schema writes it (``anyOf: [X, {"type": "null"}]``, which is
pydantic's schema of ``X | None``, or ``type: [X, "null"]``) is read as a field of X that is not
required; a field left blank is left out of the values, so the model validates it as its default
None. Any other ``anyOf`` or list of types is still refused, naming the property and the rule.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from pydantic import BaseModel, TypeAdapter

from nbask.core.lifecycle import Resolution
from nbask.forms import FormSchemaError, check_values, read_schema
from nbask.kinds import FormWidget
from nbask.kinds.form.request import form_request


class Decision(BaseModel):
    approved: bool
    note: str | None = None


class Options(BaseModel):
    replicas: int | None = None
    ratio: float | None = None
    region: Literal["eu", "us"] | None = None
    email: str | None = None
    canary: bool | None = None


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema LangGraph's interrupt(..., response_schema=model) carries."""
    return TypeAdapter(model).json_schema()


def test_pydantics_optional_text_is_a_text_field_that_is_not_required():
    schema = schema_of(Decision)
    assert schema["properties"]["note"]["anyOf"] == [{"type": "string"}, {"type": "null"}]  # what is read
    fields = {field.name: field for field in read_schema(schema)}
    assert (fields["note"].type, fields["note"].required, fields["note"].title) == ("string", False, "Note")
    assert fields["note"].default is None
    assert (fields["approved"].type, fields["approved"].required) == ("boolean", True)


def test_every_optional_simple_type_keeps_its_type_and_rules():
    fields = {field.name: field for field in read_schema(schema_of(Options))}
    kinds = {name: (field.type, field.required) for name, field in fields.items()}
    assert kinds == {
        "replicas": ("integer", False),
        "ratio": ("number", False),
        "region": ("choice", False),
        "email": ("string", False),
        "canary": ("boolean", False),
    }
    assert [option.value for option in fields["region"].options] == ["eu", "us"]


def test_the_dict_schema_and_the_model_read_the_same_fields():
    assert read_schema(schema_of(Decision)) == read_schema(Decision)


@pytest.mark.parametrize("kind", [["string", "null"], ["null", "string"]])
def test_a_list_of_a_type_and_null_is_an_optional_field(kind: list[str]):
    schema = {"type": "object", "properties": {"n": {"type": kind, "maxLength": 5, "title": "Name"}}}
    (field,) = read_schema(schema)
    assert (field.type, field.required, field.max_length, field.title) == ("string", False, 5, "Name")


def test_the_outer_keys_of_an_optional_property_are_kept():
    prop = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "title": "Replicas", "default": 3}
    (field,) = read_schema({"type": "object", "properties": {"r": prop}})
    assert (field.type, field.minimum, field.title, field.default) == ("integer", 1, "Replicas", 3)


def test_a_blank_optional_value_is_left_out_and_validates_as_none():
    fields = read_schema(schema_of(Decision))
    for blank in ({"approved": True}, {"approved": True, "note": ""}, {"approved": True, "note": None}):
        values = check_values(fields, blank)
        assert values == {"approved": True}
        assert Decision.model_validate(values) == Decision(approved=True, note=None)
    assert check_values(fields, {"approved": False, "note": "later"}) == {"approved": False, "note": "later"}


def test_an_optional_value_is_still_checked_as_its_type():
    fields = read_schema(schema_of(Options))
    with pytest.raises(ValueError, match=re.escape("field 'replicas' (Replicas): must be a number, got 'x'")):
        check_values(fields, {"replicas": "x"})
    with pytest.raises(ValueError, match=re.escape("field 'region' (Region): must be one of the choices")):
        check_values(fields, {"region": "mars"})


def test_the_widget_takes_a_reply_without_the_optional_field():
    widget = FormWidget(resolution=Resolution(form_request("Approve?", schema_of(Decision))))
    assert [(f["name"], f["required"]) for f in widget._fields] == [("approved", True), ("note", False)]
    # What js/kinds/form/fields.ts collectValues sends for an empty optional text box: the key left out.
    widget._response = {"action": "submit", "values": {"approved": True}, "view_id": "v1", "sent_at_ms": 0}
    assert widget._status == "answered"
    assert widget.answer is not None
    assert widget.answer.values == {"approved": True}


def test_a_required_optional_property_stays_required():
    """``note: str | None`` with no default: the key must be sent, and a form cannot send null."""

    class Strict(BaseModel):
        note: str | None

    (field,) = read_schema(schema_of(Strict))
    assert (field.type, field.required) == ("string", True)


OBJ = {"type": "object", "properties": {"db": {"type": "string"}}}


@pytest.mark.parametrize(
    ("prop", "message"),
    [
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, '\'n\': anyOf is read only as [X, {"type": "null"}]'),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}, "'n': anyOf is read only as"),
        ({"anyOf": [{"type": "null"}, {"type": "null"}]}, "'n': anyOf is read only as"),
        ({"anyOf": [{"type": "string"}]}, "'n': anyOf is read only as"),
        ({"type": ["string", "integer"]}, "'n': a list of types is read only as [X, 'null']"),
        ({"type": ["string", "integer", "null"]}, "'n': a list of types is read only as [X, 'null']"),
        ({"anyOf": [OBJ, {"type": "null"}]}, "'n': a nested object is outside the form subset"),
        ({"anyOf": [{"$ref": "#/$defs/Db"}, {"type": "null"}]}, "'n': '$ref' is outside the form subset"),
        ({"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "null"}]}, "'n': 'pattern' is outside"),
        ({"type": ["object", "null"], "properties": {}}, "'n': a nested object is outside the form subset"),
        ({"anyOf": [{"type": ["string", "null"]}, {"type": "null"}]}, "'n': an optional X must be one simple X"),
        ({"anyOf": [{"type": "string", "format": "ipv4"}, {"type": "null"}]}, "'n': format 'ipv4'"),
    ],
)
def test_anything_else_is_still_refused_naming_the_property_and_the_rule(prop: dict[str, Any], message: str):
    with pytest.raises(FormSchemaError, match=re.escape(message)):
        read_schema({"type": "object", "properties": {"n": prop}})


def test_an_optional_nested_model_is_refused():
    class Inner(BaseModel):
        x: int

    class Outer(BaseModel):
        inner: Inner | None = None

    with pytest.raises(FormSchemaError, match=re.escape("'$defs' is outside the form subset")):
        read_schema(schema_of(Outer))
    with pytest.raises(FormSchemaError, match="'inner': "):
        read_schema(Outer)
