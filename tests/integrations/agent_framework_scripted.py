"""A scripted Agent Framework chat client for the tests, offline: the framework's own
``BaseChatClient`` with its own layers (chat middleware, function invocation, telemetry), as the
framework's own tests compose theirs, whose every model call plays the next turn of a script.

A turn is the text of a final answer, or a list of tool calls ``(name, arguments)`` made
together (``function_call`` contents). Every call records what the model read since its last
turn (``seen``): each function result as ``(call name, result text)``, and each text a person
sent as ``("user", text)``.

Importable in a kernel as well (no test-only imports).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Awaitable, MutableSequence, Sequence
from typing import Any

from agent_framework import (
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
    ResponseStream,
)
from agent_framework.observability import ChatTelemetryLayer

Turn = str | Sequence[tuple[str, dict[str, Any]]]


class ScriptedChatClient(FunctionInvocationLayer, ChatMiddlewareLayer, ChatTelemetryLayer, BaseChatClient):  # type: ignore[misc]
    """A chat client playing ``turns`` one model call at a time (the last one repeats)."""

    def __init__(self, turns: Sequence[Turn] = ("done",), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.turns = list(turns)
        self.calls = 0
        self.seen: list[tuple[str, str]] = []
        self._answered: set[str] = set()
        #: How many messages the model was sent, call by call.
        self.history: list[int] = []

    def _inner_get_response(
        self, *, messages: MutableSequence[Message], stream: bool, **_: Any
    ) -> Awaitable[ChatResponse] | ResponseStream[ChatResponseUpdate, ChatResponse]:
        response = self._play(messages)
        if not stream:

            async def _get() -> ChatResponse:
                return response

            return _get()

        async def _stream() -> AsyncIterable[ChatResponseUpdate]:
            for message in response.messages:
                yield ChatResponseUpdate(contents=list(message.contents), role="assistant", finish_reason="stop")

        return ResponseStream(_stream(), finalizer=ChatResponse.from_updates)

    def _play(self, messages: Sequence[Message]) -> ChatResponse:
        self.history.append(len(messages))
        self._note(messages)
        turn = self.turns[min(self.calls, len(self.turns) - 1)]
        self.calls += 1
        if isinstance(turn, str):
            return ChatResponse(messages=Message(role="assistant", contents=[Content.from_text(turn)]))
        calls = [
            Content.from_function_call(call_id=f"call_{self.calls}_{index}", name=name, arguments=dict(arguments))
            for index, (name, arguments) in enumerate(turn, 1)
        ]
        return ChatResponse(messages=Message(role="assistant", contents=calls))

    def _note(self, messages: Sequence[Message]) -> None:
        """What the model reads this turn that it had not read before: each function result, once per call id."""
        names = {c.call_id: c.name for m in messages for c in m.contents if c.type == "function_call"}
        for message in messages:
            for content in message.contents:
                if content.type == "function_result" and content.call_id not in self._answered:
                    self._answered.add(str(content.call_id))
                    self.seen.append((str(names.get(content.call_id, "?")), str(content.result)))
