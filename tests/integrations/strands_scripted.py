"""A scripted Strands model for the tests, offline: a subclass of Strands' own ``Model`` that
streams each turn of a script as Strands' stream events (messageStart, contentBlockStart /
Delta / Stop, messageStop), as Strands' own tests' mocked model provider does. A turn is the
text of a final answer, or a list of tool calls ``(name, input)`` made together; every call
records the tool results the model was sent since its last turn (``seen``: tool use id,
status, text), so a test reads what the model really received.

Importable in a kernel as well (no test-only imports).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Iterator, Sequence
from typing import Any

from strands.models import Model

Turn = str | Sequence[tuple[str, dict[str, Any]]]


class ScriptedModel(Model):
    """Strands' ``Model`` playing ``turns`` one call at a time (the last one repeats)."""

    def __init__(self, *turns: Turn) -> None:
        self.turns: list[Turn] = list(turns) or ["done"]
        self.calls = 0
        self.seen: list[tuple[str, str, str]] = []

    def get_config(self) -> Any:
        return {"model_id": "scripted"}

    def update_config(self, **model_config: Any) -> None:
        del model_config

    async def structured_output(self, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:  # type: ignore[override]
        del args, kwargs
        raise NotImplementedError
        yield  # an async generator

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:  # type: ignore[override]
        del args, kwargs  # tool specs, system prompt, ...: the script does not read them
        self._note_results(messages)
        turn = self.turns[min(self.calls, len(self.turns) - 1)]
        self.calls += 1
        for event in self._events(turn):
            yield event

    def _events(self, turn: Turn) -> Iterator[dict[str, Any]]:
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(turn, str):
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": turn}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        for index, (name, arguments) in enumerate(turn, 1):
            start = {"toolUse": {"name": name, "toolUseId": f"call_{self.calls}_{index}"}}
            yield {"contentBlockStart": {"start": start}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(arguments)}}}}
            yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}

    def _note_results(self, messages: Any) -> None:
        """The tool results after the last assistant message: what the model reads this turn."""
        last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=-1)
        for message in messages[last + 1 :]:
            for block in message["content"]:
                if "toolResult" in block:
                    result = block["toolResult"]
                    text = "".join(part.get("text", "") for part in result["content"])
                    self.seen.append((result["toolUseId"], result["status"], text))
