"""AG2's own offline model for the tests and the example cells: ``ag2.testing.TestConfig`` plays
the scripted turns (text, or tool calls), wrapped in ``ag2.testing.TrackingConfig`` so a test can
read what the model was handed on each call.
"""

from __future__ import annotations

import json
from typing import Any

from ag2.events import ToolCallEvent, ToolResultsEvent
from ag2.testing import TestConfig, TrackingConfig

__all__ = ["call", "results_read", "scripted"]


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
            read.append(
                [(r.name or "", "".join(getattr(p, "content", "") for p in r.result.parts)) for r in last.results]
            )
    return read


def _text(parts: list[Any]) -> str:
    return "".join(getattr(part, "content", "") for part in parts)
