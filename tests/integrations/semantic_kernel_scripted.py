"""An offline chat model for Semantic Kernel: a ``ChatCompletionClientBase`` whose replies are
scripted, so SK's own auto function invocation loop (and the nbask filter in it) runs without a
network. It records what it read: the function results SK put in the chat history, and the
user's messages.

A turn is a text (the model's answer) or a list of calls ``(name, arguments)``, returned together
as one message, as a model asking for parallel tool calls does.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import Any

from pydantic import Field, PrivateAttr
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.contents import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    StreamingChatMessageContent,
)
from semantic_kernel.contents.utils.author_role import AuthorRole

Call = tuple[str, dict[str, Any]]
Turn = str | list[Call]


class ScriptedChat(ChatCompletionClientBase):
    """Answers each request with the next turn (the last one repeats)."""

    SUPPORTS_FUNCTION_CALLING = True

    turns: list[Any] = Field(default_factory=list)
    #: Every function result the model read back: (function name, result text).
    results: list[tuple[str, str]] = Field(default_factory=list)
    #: Every user message the model read (the task, and the person's replies).
    user_texts: list[str] = Field(default_factory=list)
    calls: int = 0
    _read: set[int] = PrivateAttr(default_factory=set)

    def __init__(self, *turns: Turn, **kwargs: Any) -> None:
        super().__init__(ai_model_id="scripted", turns=list(turns), **kwargs)

    def _next(self, chat_history: ChatHistory) -> Turn:
        for message in chat_history.messages:
            if id(message) in self._read:
                continue
            self._read.add(id(message))
            for item in message.items:
                if isinstance(item, FunctionResultContent):
                    self.results.append((item.name or "", str(item.result)))
            if message.role == AuthorRole.USER:
                self.user_texts.append(message.content)
        self.calls += 1
        return self.turns[min(self.calls, len(self.turns)) - 1]

    def _items(self, turn: Turn) -> dict[str, Any]:
        if isinstance(turn, str):
            return {"content": turn}
        calls = [
            FunctionCallContent(id=f"call_{self.calls}_{i}", index=i, name=name, arguments=json.dumps(arguments))
            for i, (name, arguments) in enumerate(turn, start=1)
        ]
        return {"items": calls}

    async def _inner_get_chat_message_contents(self, chat_history: ChatHistory, settings: Any) -> list[Any]:  # noqa: ARG002
        turn = self._next(chat_history)
        return [ChatMessageContent(role=AuthorRole.ASSISTANT, ai_model_id="scripted", **self._items(turn))]

    async def _inner_get_streaming_chat_message_contents(
        self,
        chat_history: ChatHistory,
        settings: Any,  # noqa: ARG002 - SK's signature
        function_invoke_attempt: int = 0,
    ) -> AsyncGenerator[list[Any], Any]:
        turn = self._next(chat_history)
        yield [
            StreamingChatMessageContent(
                role=AuthorRole.ASSISTANT,
                choice_index=0,
                ai_model_id="scripted",
                function_invoke_attempt=function_invoke_attempt,
                **self._items(turn),
            )
        ]
