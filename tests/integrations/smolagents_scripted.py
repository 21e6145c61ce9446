"""A scripted smolagents model for the tests, offline: a subclass of smolagents' own ``Model``
whose ``generate`` plays the next turn of a script, returning a ``ChatMessage`` with tool calls.
A turn is the text of a final answer (a ``final_answer`` call) or a list of tool calls
``(name, arguments)`` made together (ids ``call_<turn>_<i>``); ``seen`` holds the observation
of every step the model was sent, as it stood at its last call.

Importable in a kernel as well (no test-only imports).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole, Model

Turn = str | Sequence[tuple[str, dict[str, Any]]]
OBSERVATION = "Observation:\n"


class ScriptedModel(Model):
    """smolagents' ``Model`` playing ``turns`` one call at a time (the last one repeats)."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        super().__init__(model_id="scripted")
        self.turns = list(turns)
        self.calls = 0
        self.seen: list[str] = []

    def generate(self, messages: list[ChatMessage], *_: Any, **__: Any) -> ChatMessage:
        self.seen = [
            part["text"].removeprefix(OBSERVATION)
            for message in messages
            if message.role == MessageRole.TOOL_RESPONSE and isinstance(message.content, list)
            for part in message.content
            if part.get("type") == "text" and part["text"].startswith(OBSERVATION)
        ]
        turn = self.turns[min(self.calls, len(self.turns) - 1)]
        self.calls += 1
        calls = [("final_answer", {"answer": turn})] if isinstance(turn, str) else turn
        return ChatMessage(
            role=MessageRole.ASSISTANT,
            content="",
            tool_calls=[
                ChatMessageToolCall(
                    function=ChatMessageToolCallFunction(name=name, arguments=arguments),
                    id=f"call_{self.calls}_{index}",
                    type="function",
                )
                for index, (name, arguments) in enumerate(calls, 1)
            ],
        )


class ScriptedCodeModel(ScriptedModel):
    """For a ``CodeAgent``: each turn is Python code, answered in ``<code>`` tags."""

    def generate(self, messages: list[ChatMessage], *_: Any, **__: Any) -> ChatMessage:
        super().generate(messages)
        code = self.turns[min(self.calls, len(self.turns)) - 1]
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"Thought: go on.\n<code>\n{code}\n</code>")
