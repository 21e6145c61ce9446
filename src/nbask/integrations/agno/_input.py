"""agno's user input as nbask's typed form, and the refusal agno lacks for input and feedback
(nbask.integrations.agno's module docstring says what a user sees).

A ``requires_user_input`` requirement's ``user_input_schema`` lists every parameter of the tool,
the model's values filled in; agno's ``continue_run`` copies each field's value into the call,
``None`` included. So the form asks the person only the tool's ``user_input_fields``, a parameter
the model left out gets the signature's default, and a requirement that cannot be filled is
refused, never continued half-filled.
"""

from __future__ import annotations

import json
import logging
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin

from agno.models.response import ToolExecution
from agno.run.requirement import RunRequirement
from agno.tools.function import UserInputField

from ...contract import MAX_DESCRIPTION_CHARS, MAX_DETAILS_CHARS, MAX_TITLE_CHARS
from ...forms import FormSchemaError
from ...kinds import FormRequest
from ...kinds.form.request import form_request
from ...models import Answer, FormAnswer, Risk
from ...tools.function import DO_NOT_RETRY
from .. import _seam

log = logging.getLogger("nbask.integrations")

#: A UserInputField's Python type -> its JSON Schema type (bool before int: bool is an int).
_TYPES: tuple[tuple[type, str], ...] = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


@dataclass(frozen=True)
class Declared:
    """What the agent's own ``Function`` declares of a tool: its parameters' JSON Schema (for an
    approval's edit), the ``user_input_fields`` a person gives, its signature's defaults, and the
    risk its MCP behaviour hints declare (``@tool(annotations=...)``).
    """

    schema: Mapping[str, Any] | None = None
    asked: tuple[str, ...] = ()
    defaults: Mapping[str, Any] = field(default_factory=dict)
    risk: Risk | None = None


def ask_input(
    requirement: RunRequirement, tool: ToolExecution, timeout: float | None, declared: Declared | None
) -> _seam.Asking[bool]:
    """The values agno asks the person for; True once the requirement is answered or refused,
    False when it is left open (a form nbask cannot show).
    """
    name = tool.tool_name or "tool"
    schema = list(requirement.user_input_schema or [])
    if name == "get_user_input":  # its fields are the model's, not its signature's
        declared = None
    defaults = declared.defaults if declared is not None else {}
    if declared is not None and declared.asked:
        # The person's fields are the tool's user_input_fields, even one the model filled in on
        # its own (it is shown in the call): agno withholds them from the model for the person.
        fields = [f for f in schema if f.name in declared.asked]
        rest = [f for f in schema if f.name not in declared.asked and f.value is None]
    else:  # without the agent's tools, or user_input_fields=[]: what agno leaves without a value
        fields, rest = [f for f in schema if f.value is None], []
    # A parameter the model left out that is not the person's gets its default; agno would pass None.
    unfilled = [f.name for f in rest if _needed(f, defaults)]
    if unfilled:
        note = f"Not done: {name} did not run: the call gave no value for {', '.join(unfilled)}."
        refuse(requirement, tool, f"{note} Call it again with every required argument.")
        return True
    form = form_for(name, tool, fields, defaults, timeout)
    if form is None:
        return False
    submitted = yield from _seam.ask(form)
    if submitted.action != "accept":
        return not_run(requirement, tool, f"{name} did not run: it needs values no one gave", submitted)
    values = {f.name: _value(f, submitted.values.get(f.name)) for f in fields}
    values |= {f.name: defaults[f.name] for f in [*fields, *rest] if values.get(f.name) is None and f.name in defaults}
    missing = [f.name for f in fields if values[f.name] is None and _needed(f, defaults)]
    if missing:  # never a call half-filled: agno would run it with None
        return not_run(requirement, tool, f"{name} did not run: no value for {', '.join(missing)}", submitted)
    requirement.provide_user_input(values)
    # An Optional field left empty is answered with None, as its type allows; agno only marks a
    # requirement answered when no field is None, and would list it as still active.
    tool.answered = True
    return True


def form_for(
    name: str, tool: ToolExecution, fields: list[UserInputField], defaults: Mapping[str, Any], timeout: float | None
) -> FormRequest | None:
    """The FormRequest for ``fields`` (None, logged, when it cannot be shown)."""
    if name == "get_user_input":
        message = "The agent asks for these values."
    else:
        shown = {key: value for key, value in (tool.tool_args or {}).items() if key != "user_input_fields"}
        call = json.dumps(shown, ensure_ascii=False, default=repr)
        message = f"{name} asks for these values to run.\n\nCall {name}({call})"
    properties = {f.name: _property(f, defaults) for f in fields}
    required = [f.name for f in fields if _needed(f, defaults)]
    try:
        return form_request(
            _seam.clip(message, MAX_DETAILS_CHARS),
            {"type": "object", "properties": properties, "required": required},
            timeout=timeout,
            tool_call_id=tool.tool_call_id,
        )
    except FormSchemaError as error:
        log.warning("nbask: the input asked by %s is left open: %s", name, error)
        return None


def not_run(requirement: RunRequirement, tool: ToolExecution, what: str, outcome: FormAnswer | Answer) -> bool:
    """End a requirement of input or feedback no one answered, the model reading why."""
    why = outcome.note.strip() or f"the request ended ({outcome.status})"
    refuse(requirement, tool, f"Not done: {what} ({why}). {DO_NOT_RETRY}")
    return True


def refuse(requirement: RunRequirement, tool: ToolExecution, note: str) -> None:
    """End a requirement as agno ends a rejected call (it has no refusal of its own for input or
    feedback): the call does not run, and the model reads ``note``. Left open instead, a
    caller's ``continue_run`` would run the tool with ``None`` for each value.
    """
    tool.requires_confirmation, tool.confirmed, tool.confirmation_note = True, False, note
    # agno reads the call's updates more than once: once rejected, nothing may take it for input.
    tool.requires_user_input, tool.answered = False, True
    requirement.confirmation, requirement.confirmation_note = False, note


# -- UserInputField <-> a form's property -------------------------------------------------------


def _optional(kind: Any) -> tuple[Any, bool]:
    """(X, True) for ``Optional[X]`` / ``X | None``, else (kind, False)."""
    if get_origin(kind) in (Union, types.UnionType):
        rest = [arg for arg in get_args(kind) if arg is not type(None)]
        if len(rest) == 1 and len(get_args(kind)) == 2:  # noqa: PLR2004 - X and None
            return rest[0], True
    return kind, False


def _needed(field: UserInputField, defaults: Mapping[str, Any]) -> bool:
    """A value must be given: the tool has no default for it and its type does not take None."""
    return field.name not in defaults and not _optional(field.field_type)[1]


def _choices(kind: Any) -> list[str] | None:
    """The string choices of a ``Literal`` of strings or a string ``Enum``, else None."""
    if get_origin(kind) is Literal and all(isinstance(arg, str) for arg in get_args(kind)):
        return list(get_args(kind))
    if isinstance(kind, type) and issubclass(kind, Enum) and all(isinstance(m.value, str) for m in kind):
        return [m.value for m in kind]
    return None


def _json_type(kind: Any) -> str | None:
    return next((json_type for python, json_type in _TYPES if kind is python), None)


def _property(field: UserInputField, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The form's property for ``field``, its default the tool's own (not a value the model gave)."""
    kind = _optional(field.field_type)[0]
    title = field.name.replace("_", " ").strip().capitalize() or field.name
    prop: dict[str, Any] = {"title": title[:MAX_TITLE_CHARS]}
    description = " ".join((field.description or "").split())
    choices, json_type, value = _choices(kind), _json_type(kind), defaults.get(field.name)
    if isinstance(value, Enum):
        value = value.value
    if choices is not None:
        prop.update(type="string", enum=choices)
        fits = value in choices
    elif json_type is not None:
        prop["type"] = json_type
        fits = _python_type_fits(json_type, value)
    else:  # a list, a dict, anything else: its JSON as text
        prop["type"] = "string"
        description = f"{description} (JSON)".strip()
        value, fits = json.dumps(value, ensure_ascii=False, default=repr), value is not None
    if description:
        prop["description"] = description[:MAX_DESCRIPTION_CHARS]
    if fits:
        prop["default"] = value
    return prop


def _python_type_fits(json_type: str, value: object) -> bool:
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def _value(field: UserInputField, value: Any) -> Any:
    """A submitted value as the tool takes it: an Enum's member, JSON text read, the rest as typed."""
    kind = _optional(field.field_type)[0]
    if value is None:
        return None
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(value)
    if _choices(kind) is None and _json_type(kind) is None and isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value
