"""``runner``, ``user_id``, ``session_id`` and ``new_message`` for the README's Google ADK line:
an ``InMemoryRunner`` around an ``LlmAgent`` whose offline scripted ``BaseLlm`` (the tests'
tests/integrations/google_adk_scripted.py) calls a ``require_confirmation`` tool once, then answers with what it
read; a session made for it; ``model``, another such ``BaseLlm`` for a page's example.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.adk.tools import FunctionTool
from google.genai import types

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from google_adk_scripted import DROP_ARGS, ScriptedLlm, drop_table

__all__ = ["model", "new_message", "runner", "session_id", "user_id"]

runner = InMemoryRunner(
    agent=LlmAgent(
        name="janitor",
        model=ScriptedLlm(call_name="drop_table", call_args=DROP_ARGS),
        tools=[FunctionTool(drop_table, require_confirmation=True)],
    ),
    app_name="nbask-docs",
)
user_id = "u"
session_id = asyncio.run(runner.session_service.create_session(app_name="nbask-docs", user_id=user_id)).id
new_message = types.Content(role="user", parts=[types.Part(text="Clean up the warehouse.")])

#: The page's example's model: calls drop_table once, then answers.
model = ScriptedLlm(call_name="drop_table", call_args=DROP_ARGS)
