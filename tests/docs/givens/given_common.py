"""Names the README's snippets take as given when they name no framework module: the caller's
own ``run`` and ``deploy``, an OpenAI chat tool call and message list, a pydantic-ai model
(``FunctionModel``, offline), and the framework names a snippet uses without importing them.

Each is the real library's own object. Nothing here imports an nbask submodule: the snippet
itself must reach ``nbask.tools`` / ``nbask.mcp`` / ``nbask.integrations.*`` from ``import nbask``.
"""

from __future__ import annotations

import json
from typing import Any

import pydantic_ai
from langchain_core.tools import StructuredTool
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

__all__ = ["StructuredTool", "call", "deploy", "messages", "model", "pydantic_ai", "run"]

#: What ``run`` and ``deploy`` were called with (a snippet may call them, or not).
CALLED: list[tuple[str, Any]] = []


def run(command: str) -> None:
    """The caller's own way to run a shell command (recorded, never run)."""
    CALLED.append(("run", command))


def deploy(**settings: Any) -> None:
    """The caller's own deployment (recorded, nothing deployed)."""
    CALLED.append(("deploy", settings))


#: A tool call as the OpenAI Chat Completions API returns it (``message.tool_calls[0]``).
call = ChatCompletionMessageFunctionToolCall(
    id="call_1",
    type="function",
    function={
        "name": "AskUserQuestion",
        "arguments": json.dumps(
            {
                "questions": [
                    {
                        "question": "Which database should the app use?",
                        "header": "DB",
                        "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
                    }
                ]
            }
        ),
    },
)

#: The chat so far, as a Chat Completions loop keeps it.
messages: list[dict[str, Any]] = [{"role": "user", "content": "Set up the app."}]


def _reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    del messages, info
    return ModelResponse(parts=[TextPart("done")])


#: An offline pydantic-ai model.
model = FunctionModel(_reply)
