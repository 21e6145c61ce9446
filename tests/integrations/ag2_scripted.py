"""AG2's own offline model for the tests and the example cells: ``ag2.testing.TestConfig`` plays
the scripted turns (text, or tool calls), wrapped in ``ag2.testing.TrackingConfig`` so a test can
read what the model was handed on each call.
"""

from __future__ import annotations

import json
from typing import Any

from ag2 import AgentReply
from ag2.events import ModelRequest, ToolCallEvent, ToolResultsEvent
from ag2.testing import TestConfig, TrackingConfig

__all__ = ["call", "read_in_order", "results_read", "scripted"]


def call(tool: str, /, **arguments: Any) -> ToolCallEvent:
    """One tool call of a scripted turn (a list of them is a turn of calls made together)."""
    return ToolCallEvent(tool, arguments=json.dumps(arguments))


def scripted(*turns: Any) -> TrackingConfig:
    """AG2's scripted model: one turn per argument, each model call taking the next."""
    return TrackingConfig(TestConfig(*turns))


def results_read(config: TrackingConfig) -> list[list[tuple[str, str]]]:
    """For each model call handed tool results: (tool name, the result's text) of each, in the
    order of the calls.
    """
    read = []
    for model_call in config.mock.call_args_list:
        (last,) = model_call.args
        if isinstance(last, ToolResultsEvent):
            read.append([(r.name or "", _text(r.result.parts)) for r in last.results])
    return read


async def read_in_order(reply: AgentReply[Any, Any]) -> list[tuple[str, str]]:
    """Everything the model read after the turn's request, in the order of the turn's history:
    ("result", text) for each tool result, ("message", text) for each message put to it.
    """
    read = []
    for event in list(await reply.context.stream.history.get_events())[1:]:
        if isinstance(event, ToolResultsEvent):
            read += [("result", _text(r.result.parts)) for r in event.results]
        elif isinstance(event, ModelRequest):
            read.append(("message", _text(event.parts)))
    return read


def _text(parts: list[Any]) -> str:
    return "".join(getattr(part, "content", "") for part in parts)
