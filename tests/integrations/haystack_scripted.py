"""A scripted Haystack chat model for the tests, offline: Haystack's own ``MockChatGenerator``
given a ``response_fn`` that plays the next turn of a script. A turn is the text of a final
answer, or a list of tool calls ``(name, arguments)`` made together (ids ``call_<turn>_<i>``);
every call records what the model was sent: ``seen`` holds the tool results (name, text, error
flag) and ``notes`` the user messages after the first, as they stood at its last call.

Importable in a kernel as well (no test-only imports).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ChatRole, ToolCall

Turn = str | Sequence[tuple[str, dict[str, Any]]]


class Script:
    """Plays ``turns`` one call at a time (the last one repeats)."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        self.calls = 0
        self.seen: list[tuple[str, str, bool]] = []
        self.notes: list[str] = []

    def __call__(self, messages: list[ChatMessage]) -> ChatMessage:
        self.seen = [
            (result.origin.tool_name, result.result, result.error)
            for message in messages
            for result in message.tool_call_results
        ]
        users = [message.text or "" for message in messages if message.is_from(ChatRole.USER)]
        self.notes = users[1:]
        turn = self.turns[min(self.calls, len(self.turns) - 1)]
        self.calls += 1
        if isinstance(turn, str):
            return ChatMessage.from_assistant(turn)
        calls = [
            ToolCall(tool_name=name, arguments=arguments, id=f"call_{self.calls}_{index}")
            for index, (name, arguments) in enumerate(turn, 1)
        ]
        return ChatMessage.from_assistant(tool_calls=calls)


def scripted(turns: Sequence[Turn]) -> tuple[MockChatGenerator, Script]:
    """Haystack's MockChatGenerator playing ``turns``, and the script (what the model saw)."""
    script = Script(turns)
    return MockChatGenerator(response_fn=script), script
