"""``runner``, ``user_id``, ``session_id`` and ``new_message`` for the README's Google ADK line:
an ``InMemoryRunner`` around an ``LlmAgent`` whose offline scripted ``BaseLlm`` calls a
``require_confirmation`` tool once, then answers with what it read; a session made for it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools import FunctionTool
from google.genai import types

__all__ = ["DROPPED", "new_message", "runner", "session_id", "user_id"]

#: Tables the tool really dropped.
DROPPED: list[str] = []


def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.

    """
    DROPPED.append(name)
    return f"dropped {name}"


class ScriptedLlm(BaseLlm):
    """Calls drop_table first; then replies with the function response it read."""

    model: str = "scripted"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        del stream
        last = llm_request.contents[-1]
        responses = [p.function_response for p in last.parts or [] if p.function_response]
        if responses:
            text = "I read: " + json.dumps(responses[-1].response, sort_keys=True)
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
            return
        call = types.FunctionCall(name="drop_table", args={"name": "events_2023"}, id="call_1")
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))


runner = InMemoryRunner(
    agent=LlmAgent(name="janitor", model=ScriptedLlm(), tools=[FunctionTool(drop_table, require_confirmation=True)]),
    app_name="nbask-docs",
)
user_id = "u"
session_id = asyncio.run(runner.session_service.create_session(app_name="nbask-docs", user_id=user_id)).id
new_message = types.Content(role="user", parts=[types.Part(text="Clean up the warehouse.")])
