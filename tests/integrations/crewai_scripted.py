"""CrewAI's own ``BaseLLM`` scripted offline for the nbask.integrations.crewai tests: each call
returns the next scripted reply and keeps the messages it was sent, so a test can read what the
model received (a tool's result, the person's feedback, a rejection's reason). Tools are called
in CrewAI's text (ReAct) form: ``Action:`` / ``Action Input:`` lines.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any

os.environ.setdefault("OPENAI_API_KEY", "sk-offline-not-used")
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_DISABLE_TRACKING", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from crewai.llms.base_llm import BaseLLM
from crewai.tools import tool


def act(tool_name: str, arguments: dict[str, Any], thought: str = "I should use a tool.") -> str:
    """A reply calling ``tool_name`` with ``arguments`` in CrewAI's text form."""
    return f"Thought: {thought}\nAction: {tool_name}\nAction Input: {json.dumps(arguments)}"


def final(text: str) -> str:
    """A reply giving the final answer ``text``."""
    return f"Thought: I now know the final answer\nFinal Answer: {text}"


class ScriptedLLM(BaseLLM):
    """Replies in order (the last one repeats); ``seen`` keeps every call's messages."""

    def __init__(self, *replies: str, **kwargs: Any) -> None:
        super().__init__(model="scripted", **kwargs)
        self._replies = list(replies)
        self._seen: list[list[dict[str, Any]]] = []
        self._lock = threading.Lock()

    @property
    def seen(self) -> list[list[dict[str, Any]]]:
        return self._seen

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:  # noqa: ARG002 - CrewAI's other arguments
        listed = [{"role": "user", "content": messages}] if isinstance(messages, str) else [dict(m) for m in messages]
        with self._lock:
            self._seen.append(listed)
            index = min(len(self._seen), len(self._replies)) - 1
        return self._replies[index]

    async def acall(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        return self.call(messages, *args, **kwargs)

    def supports_function_calling(self) -> bool:
        return False

    def supports_stop_words(self) -> bool:
        return False

    def get_context_window_size(self) -> int:
        return 100_000

    def last_text(self) -> str:
        """The text of the last message of the last call (what the model read last)."""
        return str(self._seen[-1][-1]["content"])

    def texts(self) -> list[str]:
        return [str(call[-1]["content"]) for call in self._seen]


class Files:
    """A recording tool target: ``write_file`` writes here, and ``written`` says what ran."""

    def __init__(self) -> None:
        self.written: list[tuple[str, str]] = []

        @tool("write_file")
        def write_file(path: str, text: str) -> str:
            """Write text to the file at path."""
            self.written.append((path, text))
            return f"wrote {len(text)} characters to {path}"

        self.tool = write_file


def observation(llm: ScriptedLLM) -> str:
    """What the model read of its last tool call: the text after the last ``Observation:``."""
    texts = [str(message["content"]) for message in llm.seen[-1] if "Observation:" in str(message["content"])]
    return texts[-1].rsplit("Observation:", 1)[1].strip() if texts else ""
