"""An offline tool-calling LangChain chat model for the LangGraph / LangChain tests (imported by
the headless tests and, from a kernel cell, by the kernel tests; it needs no nbask).

``Scripted`` is LangChain's own ``BaseChatModel`` with a script: each turn answers with the next
scripted message (the last one again once the script runs out) and records the messages it read.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class Scripted(BaseChatModel):
    """A tool-calling chat model: each turn is the next scripted message; it records what it saw."""

    turns: list[AIMessage]
    seen: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:
        del tools, kwargs  # the script decides the calls
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        del args, kwargs
        self.seen.append(list(messages))
        message = self.turns[min(len(self.seen), len(self.turns)) - 1]
        return ChatResult(generations=[ChatGeneration(message=message)])


def calling(*calls: dict[str, Any], then: str) -> Scripted:
    """A model that makes ``calls`` (tool calls: name, args, id) in its first turn, then says ``then``."""
    return Scripted(turns=[AIMessage("", tool_calls=list(calls)), AIMessage(then)])
