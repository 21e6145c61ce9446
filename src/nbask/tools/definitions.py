"""Tool definitions for the model: name, description and JSON Schema, in the shapes of the
OpenAI Chat Completions and Responses APIs, Anthropic's Messages API and MCP ``tools/list``.

The JSON Schema comes from the dialect's pydantic model, with every ``$ref`` inlined (some
providers reject ``$defs``) and pydantic's generated titles left out.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from .. import config
from .dialects import DEFAULT_TOOL_NAME, dialect_for
from .result import FORMATS, Format


def parameters_schema(tool_name: str = DEFAULT_TOOL_NAME) -> dict[str, Any]:
    """The JSON Schema of ``tool_name``'s arguments: self-contained (no ``$ref``)."""
    schema = dialect_for(tool_name).arguments.model_json_schema()
    defs = schema.pop("$defs", {})
    inlined: dict[str, Any] = _inline(schema, defs)
    inlined.pop("description", None)  # the tool's description says it, in the model's terms
    inlined.setdefault("additionalProperties", False)
    return inlined


def _inline(node: Any, defs: dict[str, Any], *, properties: bool = False) -> Any:
    """A copy of ``node`` with ``$ref`` replaced by the definition and schema titles dropped.

    ``properties`` marks a ``properties`` mapping, whose keys are field names (a field may be
    called "title"), not schema keywords.
    """
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if properties:
        return {name: _inline(value, defs) for name, value in node.items()}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = copy.deepcopy(defs[ref.removeprefix("#/$defs/")])
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return _inline({**target, **rest}, defs)
    return {key: _inline(value, defs, properties=key == "properties") for key, value in node.items() if key != "title"}


def definition(tool_name: str = DEFAULT_TOOL_NAME, format: Format = "openai-chat") -> dict[str, Any]:  # noqa: A002 - the name the API fixes
    """The definition of the tool ``tool_name`` in one API's shape.

    ``format``: ``"openai-chat"`` (a Chat Completions ``tools`` entry), ``"openai-responses"``
    (a Responses API function tool), ``"anthropic"`` (a Messages API tool) or ``"mcp"`` (a tool
    of an MCP ``tools/list`` result). ``tool_name`` picks the dialect: ``"AskUserQuestion"``
    (default), ``"ask_user_question"``, ``"ask_user"``, ``"ask_followup_question"`` or
    ``"request_user_input"``.

        client.chat.completions.create(..., tools=[nbask.tools.definition()])
    """
    dialect = dialect_for(tool_name)
    schema = parameters_schema(tool_name)
    if format == "openai-chat":
        return {
            "type": "function",
            "function": {
                "name": dialect.name,
                "description": dialect.description,
                "parameters": schema,
                "strict": False,
            },
        }
    if format == "openai-responses":
        return {
            "type": "function",
            "name": dialect.name,
            "description": dialect.description,
            "parameters": schema,
            "strict": False,
        }
    if format == "anthropic":
        return {"name": dialect.name, "description": dialect.description, "input_schema": schema}
    if format == "mcp":
        return {
            "name": dialect.name,
            "title": dialect.title,
            "description": dialect.description,
            "inputSchema": schema,
            # Asking changes nothing in the world; it waits for the person.
            "annotations": {"title": dialect.title, "readOnlyHint": True, "openWorldHint": False},
        }
    msg = f"unknown format {format!r}; use one of: {', '.join(FORMATS)}"
    raise ValueError(msg)


def definitions(
    format: Format = "openai-chat",  # noqa: A002
    tool_names: Iterable[str] = (DEFAULT_TOOL_NAME,),
) -> list[dict[str, Any]]:
    """The definitions of the tools named in ``tool_names``, ready to add to a request's ``tools``.

    By default that is one tool, ``AskUserQuestion``: one question tool is usually what a model
    should see; name other dialects (or several) to list those instead, in the same order.
    Empty when nbask's tools are switched off (``nbask.configure(tools_enabled=False)``): the model
    does not see them at all (the 002 switch). An unknown tool name or format is a ValueError,
    even while switched off.
    """
    names = [tool_names] if isinstance(tool_names, str) else list(tool_names)
    for name in names:
        dialect_for(name)  # unknown names fail even while the tool is off
    if format not in FORMATS:
        msg = f"unknown format {format!r}; use one of: {', '.join(FORMATS)}"
        raise ValueError(msg)
    if not config.settings().tools_enabled:
        return []
    return [definition(name, format) for name in names]
