"""Google ADK: an ``LlmAgent`` in the ADK's ``InMemoryRunner`` with the scripted ``BaseLlm`` and
the ``require_confirmation=True`` tool of tests/tools/adk_scripted.py, driven by
``google_adk.run``; ``request_input`` is the framework's question (a typed form). The ADK reruns
a confirmed call with its own arguments, so an edit is not carried.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools import request_input
from google.genai import types

from integrations import google_adk_scripted as adk_scripted
from integrations.google_adk_scripted import ScriptedLlm
from nbask.integrations import google_adk

from .contract import ARGS, BATCH, NUMBER_QUESTION, QUESTION, TOOL, BatchRun, Integration, ToolRun, entry_kw

DROP = adk_scripted.TOOLS[TOOL][0]


class Calls(ScriptedLlm):
    """``ScriptedLlm`` that makes its calls (``calls``, in one turn) ``rounds`` times, each round
    after reading the last one's responses.
    """

    calls: list[dict[str, Any]]
    rounds: int = 1
    made: int = 0

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[Any, None]:
        last = llm_request.contents[-1]
        if not any(p.function_response for p in last.parts or []) or self.made < self.rounds:
            if any(p.function_response for p in last.parts or []):
                self.seen.extend(
                    {"name": p.function_response.name, "response": p.function_response.response}
                    for p in last.parts or []
                    if p.function_response
                )
            self.made += 1
            parts = [
                types.Part(function_call=types.FunctionCall(name=self.call_name, args=args, id=f"call_{self.made}_{i}"))
                for i, args in enumerate(self.calls)
            ]
            yield LlmResponse(content=types.Content(role="model", parts=parts))
            return
        async for response in super().generate_content_async(llm_request, stream):
            yield response


def _run(tool: Any, model: Calls, timeout: float | None, approvers: list[str] | None = None) -> int:
    """Run the agent to its end; how many times the ADK was resumed with answers."""

    async def main() -> int:
        runner = InMemoryRunner(agent=LlmAgent(name="agent", model=model, tools=[tool]), app_name="conformance")
        session = await runner.session_service.create_session(app_name="conformance", user_id="u")
        message = types.Content(role="user", parts=[types.Part(text="Do the job.")])
        kwargs = {"user_id": "u", "session_id": session.id, "new_message": message, **entry_kw(timeout, approvers)}
        async for _ in google_adk.run(runner, **kwargs):
            pass
        stored = await runner.session_service.get_session(app_name="conformance", user_id="u", session_id=session.id)
        assert stored is not None
        return sum(
            1
            for event in stored.events
            if event.author == "user" and event.content and any(p.function_response for p in event.content.parts or [])
        )

    adk_scripted.RAN.clear()
    return asyncio.run(main())


def _ran() -> list[dict[str, Any]]:
    return [{"name": run["name"]} for run in adk_scripted.RAN if run["tool"] == TOOL]


class Adapter(Integration):
    framework = "google_adk"
    carries_edits = False
    has_questions = True
    has_typed = True
    has_batches = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        model = Calls(call_name=TOOL, call_args=args, calls=[args], rounds=calls)
        _run(DROP, model, timeout, approvers)
        return ToolRun(ran=_ran(), read=[json.dumps(seen["response"]) for seen in model.seen])

    def _ask(
        self,
        message: str,
        schema: dict[str, Any],
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        args = {"message": message, "response_schema": schema}
        model = Calls(call_name="adk_request_input", call_args=args, calls=[args], rounds=rounds)
        model.call_name = getattr(request_input, "name", "")
        _run(request_input, model, timeout, approvers)
        return model.seen[-1]["response"].get("result") if model.seen else None

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        return self._ask(question, {"type": "string", "title": "Database"}, rounds, timeout, approvers)

    def run_typed(self) -> Any:
        return self._ask(NUMBER_QUESTION, {"type": "integer", "title": "Replicas"})

    def run_batch(self) -> BatchRun:
        model = Calls(call_name=TOOL, call_args={}, calls=list(BATCH))
        resumed = _run(DROP, model, None)
        return BatchRun(ran=_ran(), resumed=resumed)
