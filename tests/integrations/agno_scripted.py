"""A scripted agno model for the tests, offline: a subclass of agno's own ``Model`` (as agno's own
tests write theirs) whose every call plays the next turn of a script. A turn is the text of a
final answer, or a list of tool calls ``(name, arguments)`` made together; every call records
the tool results the model was sent since its last turn (``seen``: name, content, error flag).

Importable in a kernel as well (no test-only imports).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from agno.models.base import Model
from agno.models.message import Message, MessageMetrics
from agno.models.response import ModelResponse

Turn = str | Sequence[tuple[str, dict[str, Any]]]


@dataclass
class ScriptedModel(Model):
    """agno's ``Model`` playing ``turns`` one call at a time (the last one repeats)."""

    id: str = "scripted"
    name: str | None = "scripted"
    provider: str | None = "test"
    turns: Sequence[Turn] = ("done",)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.calls = 0
        self.seen: list[tuple[str | None, str, bool]] = []

    # the provider's side: one ModelResponse per call

    def invoke(self, *_: Any, **kwargs: Any) -> ModelResponse:
        return self._play(kwargs["messages"])

    async def ainvoke(self, *_: Any, **kwargs: Any) -> ModelResponse:
        return self._play(kwargs["messages"])

    def invoke_stream(self, *_: Any, **kwargs: Any) -> Iterator[ModelResponse]:
        yield self._play(kwargs["messages"])

    async def ainvoke_stream(self, *_: Any, **kwargs: Any) -> AsyncIterator[ModelResponse]:  # type: ignore[override]
        yield self._play(kwargs["messages"])

    def _parse_provider_response(self, response: Any, **_: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    def _play(self, messages: list[Message]) -> ModelResponse:
        self._note_results(messages)
        turn = self.turns[min(self.calls, len(self.turns) - 1)]
        self.calls += 1
        if isinstance(turn, str):
            return ModelResponse(role="assistant", content=turn, response_usage=MessageMetrics())
        calls = [
            {
                "id": f"call_{self.calls}_{index}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for index, (name, arguments) in enumerate(turn, 1)
        ]
        return ModelResponse(role="assistant", tool_calls=calls, response_usage=MessageMetrics())

    def _note_results(self, messages: list[Message]) -> None:
        """The tool results after the last assistant message: what the model reads this turn."""
        last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=-1)
        for message in messages[last + 1 :]:
            if message.role == "tool":
                self.seen.append((message.tool_name, str(message.content), bool(message.tool_call_error)))
