"""The check of a person's edited tool-call arguments against the tool's JSON Schema, done again
in the kernel because the front end (js/kinds/approval/argcheck.ts, the same rules and words) is untrusted.

Only the subset a function's signature gives (pydantic's schema of its parameters) is read:
``type`` (one or a list), ``enum``, ``const``, ``anyOf`` / ``oneOf`` / ``allOf``, ``$ref`` into
``$defs``, ``properties``, ``required``, ``additionalProperties`` (false or a schema) and
``items``. Other keywords are not checked here; the function still checks its own arguments.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: How many problems one check reports at most.
MAX_PROBLEMS = 5
#: How many ``$ref`` hops are followed before giving up (a schema may refer to itself).
MAX_REF_HOPS = 32

_TYPE_WORDS = {
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


def _reject_constant(name: str) -> Any:
    # json.loads takes NaN and Infinity, which JSON (and the browser's JSON.parse) does not.
    msg = f"{name} is not a JSON value"
    raise ValueError(msg)


def parse_json(text: str) -> Any:
    """``text`` as strict JSON; ValueError (with the parser's words) if it is not."""
    return json.loads(text, parse_constant=_reject_constant)


def json_type(value: Any) -> str:
    """The JSON type of a parsed value: null, boolean, integer, number, string, array or object.
    A number with no fraction (``3.0``) is an integer, as in JSON Schema and in the browser.
    """
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    kinds = ((type(None), "null"), (bool, "boolean"), (int, "integer"), (str, "string"), (list, "array"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "object")


def _fits_type(value: Any, wanted: str) -> bool:
    actual = json_type(value)
    return actual == wanted or (wanted == "number" and actual == "integer")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _where(path: str) -> str:
    return f"argument {_show(path)}" if path else "the arguments"


def _resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < MAX_REF_HOPS:
        ref: str = schema["$ref"]
        seen += 1
        parts = ref.removeprefix("#/").split("/") if ref.startswith("#/") else []
        target: Any = root
        for part in parts:
            target = target.get(part) if isinstance(target, dict) else None
        if not isinstance(target, dict) or not parts:
            return {}
        schema = target
    return schema if isinstance(schema, dict) else {}


def describe(schema: Any, root: dict[str, Any]) -> str:
    """What a schema allows, in words: "an integer", "one of "a", "b"", "a string or null"."""
    schema = _resolve(schema, root)
    if "const" in schema:
        return _show(schema["const"])
    if isinstance(schema.get("enum"), list):
        return "one of " + ", ".join(_show(item) for item in schema["enum"])
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches:
        return " or ".join(dict.fromkeys(describe(branch, root) for branch in branches))
    types = schema.get("type")
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    words = [_TYPE_WORDS[name] for name in names if isinstance(name, str) and name in _TYPE_WORDS]
    return " or ".join(words) or "a value of another form"


def problems_of(value: Any, schema: Any, root: dict[str, Any], path: str = "") -> list[str]:
    """What is wrong with ``value`` against ``schema``, each naming the argument and the rule."""
    schema = _resolve(schema, root)
    types = schema.get("type")
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else None
    if names is not None and not any(_fits_type(value, name) for name in names if isinstance(name, str)):
        return [f"{_where(path)} must be {describe(schema, root)}, not {_TYPE_WORDS[json_type(value)]}"]
    if "const" in schema and not _same(value, schema["const"]):
        return [f"{_where(path)} must be {_show(schema['const'])}"]
    if isinstance(schema.get("enum"), list) and not any(_same(value, item) for item in schema["enum"]):
        return [f"{_where(path)} must be {describe({'enum': schema['enum']}, root)}"]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches and (failed := _branch_problems(value, schema, branches, root, path)):
        return failed
    found: list[str] = []
    for part in schema.get("allOf") or []:
        found += problems_of(value, part, root, path)
    if isinstance(value, dict):
        found += _object_problems(value, schema, root, path)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            found += problems_of(item, schema["items"], root, f"{path}[{index}]")
    return found


def _branch_problems(
    value: Any, schema: dict[str, Any], branches: list[Any], root: dict[str, Any], path: str
) -> list[str]:
    """Nothing when one branch of an anyOf fits; else what the branch of the value's type says,
    or what the branches allow.
    """
    tried = [problems_of(value, branch, root, path) for branch in branches]
    if not all(tried):
        return []
    typed = [found for found, branch in zip(tried, branches, strict=True) if _type_fits(value, branch, root)]
    if len(typed) == 1:
        return typed[0]
    but = "" if typed else f", not {_TYPE_WORDS[json_type(value)]}"
    return [f"{_where(path)} must be {describe(schema, root)}{but}"]


def _type_fits(value: Any, schema: Any, root: dict[str, Any]) -> bool:
    schema = _resolve(schema, root)
    types = schema.get("type")
    if "type" not in schema:
        return "$ref" not in schema and "enum" not in schema and "const" not in schema
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    return any(_fits_type(value, name) for name in names if isinstance(name, str))


def _same(value: Any, item: Any) -> bool:
    return json_type(value) == json_type(item) and value == item


def _object_problems(value: dict[str, Any], schema: dict[str, Any], root: dict[str, Any], path: str) -> list[str]:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    found = [
        f"missing required argument {_show(_join(path, name))}"
        for name in (required if isinstance(required, list) else [])
        if isinstance(name, str) and name not in value
    ]
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            found += problems_of(item, properties[name], root, _join(path, name))
        elif extra is False:
            known = ", ".join(properties) or "none"
            found.append(f"unknown argument {_show(_join(path, name))} (the arguments are: {known})")
        elif isinstance(extra, dict):
            found += problems_of(item, extra, root, _join(path, name))
    return found


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def edit_problems(text: str, schema: dict[str, Any] | None) -> list[str]:
    """What is wrong with edited arguments ``text``: not JSON, not an object, or (with a
    ``schema``) a missing, unknown or ill-typed argument. An empty list: the edit fits.
    """
    try:
        value = parse_json(text)
    except ValueError as error:
        return [f"the arguments are not valid JSON ({error})"]
    if not isinstance(value, dict):
        kind = _TYPE_WORDS[json_type(value)]
        return [f"the arguments must be a JSON object of argument names and values, not {kind}"]
    if schema is None:
        return []
    return problems_of(value, schema, schema)[:MAX_PROBLEMS]
