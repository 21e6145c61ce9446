"""MCP's form subset of JSON Schema (or a flat pydantic model) read into ``FormField``s.

The subset is what MCP's elicitation allows: a flat ``object`` whose properties are strings
(with length limits and the formats email, uri, date, date-time), numbers, integers, booleans,
single choices (``enum``, titled ``oneOf`` consts, legacy ``enumNames``) and multi choices
(an ``array`` of ``enum`` or titled ``anyOf`` items). An optional property, ``anyOf: [X,
{"type": "null"}]`` (pydantic's ``X | None``) or ``type: [X, "null"]``, is read as X. Anything
else is refused before anything is shown, with an error naming the property and the rule.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from ..contract import (
    MAX_CHOICE_OPTIONS,
    MAX_DESCRIPTION_CHARS,
    MAX_FIELD_CHARS,
    MAX_FORM_FIELDS,
    MAX_TITLE_CHARS,
    STRING_FORMATS,
)
from ..errors import FormSchemaError
from .fields import FieldOption, FormField, check_value

# Keys that would change what a property means, which the form cannot honour.
_STRUCTURAL_KEYS = ("$ref", "allOf", "not", "if", "then", "else", "properties", "patternProperties", "pattern")


def read_schema(schema: Mapping[str, Any] | type[BaseModel]) -> list[FormField]:
    """The fields of ``schema`` (a JSON Schema object or a flat pydantic model class)."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return _read_object(_inline_model_schema(schema.model_json_schema()))
    if not isinstance(schema, Mapping):
        msg = f"schema must be a JSON Schema object (a dict) or a pydantic model class, got {type(schema).__name__}"
        raise FormSchemaError(msg)
    return _read_object(schema)


def _read_object(schema: Mapping[str, Any]) -> list[FormField]:
    if schema.get("type") != "object":
        msg = f"schema: type must be 'object' (a flat form), got {schema.get('type')!r}"
        raise FormSchemaError(msg)
    for key in ("$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf"):
        if key in schema:
            msg = f"schema: {key!r} is outside the form subset (a flat object of simple properties)"
            raise FormSchemaError(msg)
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        msg = "schema: properties must be an object mapping names to property schemas"
        raise FormSchemaError(msg)
    if len(properties) > MAX_FORM_FIELDS:
        msg = f"schema: a form has at most {MAX_FORM_FIELDS} properties, got {len(properties)}"
        raise FormSchemaError(msg)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        msg = "schema: required must be a list of property names"
        raise FormSchemaError(msg)
    for name in required:
        if name not in properties:
            msg = f"schema: required names {name!r}, which is not one of its properties"
            raise FormSchemaError(msg)
    return [_read_property(str(name), prop, required=name in required) for name, prop in properties.items()]


def _fail(name: str, rule: str) -> FormSchemaError:
    return FormSchemaError(f"schema property {name!r}: {rule}")


def _text(name: str, prop: Mapping[str, Any], key: str, limit: int) -> str:
    value = prop.get(key, "")
    if not isinstance(value, str):
        raise _fail(name, f"{key} must be a string")
    if len(value) > limit:
        raise _fail(name, f"{key} is {len(value)} characters long; at most {limit} are allowed")
    return value.strip()


def _count(name: str, prop: Mapping[str, Any], key: str) -> int | None:
    value = prop.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(name, f"{key} must be a non-negative integer, got {value!r}")
    return value


def _bound(name: str, prop: Mapping[str, Any], key: str) -> float | None:
    value = prop.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(name, f"{key} must be a finite number, got {value!r}")
    return value


def _read_property(name: str, prop: object, *, required: bool) -> FormField:
    if len(name) > MAX_TITLE_CHARS or not name.strip():
        raise _fail(name[:40], f"property names must be 1-{MAX_TITLE_CHARS} characters")
    if not isinstance(prop, Mapping):
        raise _fail(name, "must be an object (a property schema)")
    prop = _without_null(name, prop)
    if prop.get("type") == "object" or "properties" in prop:
        raise _fail(name, "a nested object is outside the form subset (a form is one flat object)")
    for key in _STRUCTURAL_KEYS:
        if key in prop:
            raise _fail(name, f"{key!r} is outside the form subset")
    common: dict[str, Any] = {
        "name": name,
        "title": _text(name, prop, "title", MAX_TITLE_CHARS) or name,
        "description": _text(name, prop, "description", MAX_DESCRIPTION_CHARS),
        "required": required,
    }
    field = _typed_field(name, prop, common)
    if "default" in prop and prop["default"] is not None:
        try:
            default = check_value(field, prop["default"])
        except ValueError as error:
            raise _fail(name, f"default {prop['default']!r} does not fit the property: {error}") from None
        field = field.model_copy(update={"default": default})
    return field


def _optional_of(prop: Mapping[str, Any]) -> dict[str, Any] | None:
    """The property as X when it is an optional X, written ``anyOf: [X, {"type": "null"}]``
    (pydantic's schema of ``X | None``) or ``type: [X, "null"]``, with its own keys (title,
    description, default) kept; None when it is not written so.
    """
    choices, kind = prop.get("anyOf"), prop.get("type")
    rest = {key: value for key, value in prop.items() if key != "anyOf"}
    if isinstance(choices, list) and len(choices) == 2 and sum(map(_is_null, choices)) == 1:  # noqa: PLR2004
        (inner,) = [choice for choice in choices if not _is_null(choice)]
        return {**inner, **rest} if isinstance(inner, Mapping) else None
    if isinstance(kind, list) and len(kind) == 2 and kind.count("null") == 1:  # noqa: PLR2004
        (inner_type,) = [item for item in kind if item != "null"]
        return {**rest, "type": inner_type}
    return None


def _is_null(schema: object) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") == "null"


def _without_null(name: str, prop: Mapping[str, Any]) -> Mapping[str, Any]:
    """An optional X read as X (whether it is required is the object's ``required``); any
    other ``anyOf`` or list of types is refused naming the property.
    """
    if "anyOf" not in prop and not isinstance(prop.get("type"), list):
        return prop
    optional = _optional_of(prop)
    if optional is None:
        if "anyOf" in prop:
            raise _fail(name, 'anyOf is read only as [X, {"type": "null"}] (an optional X, pydantic\'s X | None)')
        raise _fail(name, f"a list of types is read only as [X, 'null'] (an optional X), got {prop['type']!r}")
    if "anyOf" in optional or isinstance(optional.get("type"), list):
        raise _fail(name, "an optional X must be one simple X, not another anyOf or list of types")
    return optional


def _typed_field(name: str, prop: Mapping[str, Any], common: dict[str, Any]) -> FormField:
    kind = prop.get("type")
    if kind == "array":
        return _multi_choice(name, prop, common)
    if kind == "string" or (kind is None and ("enum" in prop or "oneOf" in prop)):
        return _choice(name, prop, common) if "enum" in prop or "oneOf" in prop else _string(name, prop, common)
    if kind in ("number", "integer"):
        return _number(name, prop, common, kind)
    if kind == "boolean":
        return FormField(type="boolean", **common)
    raise _fail(name, f"type {kind!r} is outside the form subset (string, number, integer, boolean, array)")


def _string(name: str, prop: Mapping[str, Any], common: dict[str, Any]) -> FormField:
    fmt = prop.get("format", "")
    if fmt and fmt not in STRING_FORMATS:
        raise _fail(name, f"format {fmt!r} is not one of {', '.join(STRING_FORMATS)}")
    min_length, max_length = _count(name, prop, "minLength"), _count(name, prop, "maxLength")
    if max_length is None or max_length > MAX_FIELD_CHARS:
        max_length = MAX_FIELD_CHARS
    if min_length is not None and min_length > max_length:
        raise _fail(name, f"minLength {min_length} is more than maxLength {max_length}")
    return FormField(type="string", format=fmt, min_length=min_length, max_length=max_length, **common)


def _number(name: str, prop: Mapping[str, Any], common: dict[str, Any], kind: str) -> FormField:
    minimum, maximum = _bound(name, prop, "minimum"), _bound(name, prop, "maximum")
    if minimum is not None and maximum is not None and minimum > maximum:
        raise _fail(name, f"minimum {minimum} is more than maximum {maximum}")
    return FormField(type="integer" if kind == "integer" else "number", minimum=minimum, maximum=maximum, **common)


def _options(name: str, values: object, titles: object = None) -> list[FieldOption]:
    """Options from a list of enum values (with legacy enumNames) or of titled consts."""
    if not isinstance(values, list) or not values:
        raise _fail(name, "a choice needs a non-empty list of options")
    if len(values) > MAX_CHOICE_OPTIONS:
        raise _fail(name, f"a choice has at most {MAX_CHOICE_OPTIONS} options, got {len(values)}")
    if titles is not None and (not isinstance(titles, list) or len(titles) != len(values)):
        raise _fail(name, "enumNames must be a list as long as enum")
    options: list[FieldOption] = []
    for index, item in enumerate(values):
        if isinstance(item, Mapping):
            value, title = item.get("const"), item.get("title", item.get("const"))
        else:
            value, title = item, titles[index] if isinstance(titles, list) else item
        if not isinstance(value, str) or not isinstance(title, str):
            raise _fail(name, f"option {index + 1} must have a string value and title (only string choices)")
        if len(value) > MAX_TITLE_CHARS or len(title) > MAX_TITLE_CHARS:
            raise _fail(name, f"option {index + 1} is longer than {MAX_TITLE_CHARS} characters")
        options.append(FieldOption(value=value, title=title.strip() or value))
    if len({option.value for option in options}) != len(options):
        raise _fail(name, "option values must be unique")
    return options


def _choice(name: str, prop: Mapping[str, Any], common: dict[str, Any]) -> FormField:
    if "enum" in prop:
        options = _options(name, prop["enum"], prop.get("enumNames"))
    else:
        one_of = prop["oneOf"]
        if not isinstance(one_of, list) or not all(isinstance(item, Mapping) and "const" in item for item in one_of):
            raise _fail(name, "oneOf is read only as a list of {const, title} choices")
        options = _options(name, one_of)
    return FormField(type="choice", options=options, **common)


def _multi_choice(name: str, prop: Mapping[str, Any], common: dict[str, Any]) -> FormField:
    items = prop.get("items")
    if not isinstance(items, Mapping):
        raise _fail(name, "an array must have items: an enum or anyOf of {const, title} (a multi choice)")
    if "enum" in items:
        options = _options(name, items["enum"], items.get("enumNames"))
    elif "anyOf" in items or "oneOf" in items:
        listed = items.get("anyOf", items.get("oneOf"))
        if not isinstance(listed, list) or not all(isinstance(item, Mapping) and "const" in item for item in listed):
            raise _fail(name, "items.anyOf is read only as a list of {const, title} choices")
        options = _options(name, listed)
    else:
        raise _fail(name, "an array is allowed only as a multi choice: items must have enum or anyOf")
    min_items, max_items = _count(name, prop, "minItems"), _count(name, prop, "maxItems")
    if min_items is not None and max_items is not None and min_items > max_items:
        raise _fail(name, f"minItems {min_items} is more than maxItems {max_items}")
    return FormField(type="multi_choice", options=options, min_items=min_items, max_items=max_items, **common)


def _inline_model_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic model's schema in the subset's terms: an optional ``X | None`` becomes X, and a
    reference to an Enum's definition is replaced by the definition itself.
    """
    definitions = schema.get("$defs", {})
    properties: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        flat = _optional_of(prop) or dict(prop)
        for holder in (flat, flat.get("items") if isinstance(flat.get("items"), dict) else None):
            if holder is not None and isinstance(holder.get("$ref"), str):
                target = definitions.get(holder["$ref"].rsplit("/", 1)[-1])
                if isinstance(target, dict) and "enum" in target:
                    ref = holder.pop("$ref")
                    holder.update({key: value for key, value in target.items() if key not in holder or key == "type"})
                    del ref
        properties[name] = flat
    rest = {key: value for key, value in schema.items() if key not in ("$defs", "properties")}
    return {**rest, "properties": properties}
