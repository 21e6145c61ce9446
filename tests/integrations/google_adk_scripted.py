"""A Google ADK agent with an offline scripted model, for nbask.integrations.google_adk's tests
(imported by the headless tests, from a kernel cell by the kernel tests, and by the README's
givens, which must not load nbask: only ``drive`` imports it).

The model (a ``BaseLlm`` subclass) calls one tool, records every function response it reads,
and answers each with text. The tools record each real run in ``RAN``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools import FunctionTool, ToolContext, request_input
from google.genai import types
from pydantic import Field

#: Every real run of a tool, in order.
RAN: list[dict[str, Any]] = []

DROP_ARGS = {"name": "events_2023"}
TRANSFER_ARGS = {"amount": 100, "to": "ACME GmbH"}
TRANSFER_HINT = "Send 100 EUR to ACME GmbH?"
TIME_OFF_ARGS = {"days": 5}
#: The hint of Google's human_tool_confirmation sample: written for a client developer.
TIME_OFF_HINT = (
    "Please approve or reject the tool call request_time_off() by responding with a FunctionResponse "
    "with an expected ToolConfirmation payload."
)
INPUT_MESSAGE = "Where should the bucket live?"
INPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "title": "Region", "enum": ["eu-west", "us-east"]},
        "replicas": {"type": "integer", "title": "Replicas", "default": 2},
    },
    "required": ["region"],
}
YES_NO_SCHEMA = {"type": "boolean", "title": "Proceed?", "default": True}


def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.

    """
    RAN.append({"tool": "drop_table", "name": name})
    return f"dropped {name}"


def transfer(amount: int, to: str, tool_context: ToolContext) -> dict[str, Any]:
    """Send money to a supplier, after the person confirms the amount.

    Args:
        amount: EUR to send.
        to: The supplier.
        tool_context: The ADK's context (not shown to the model).

    """
    confirmation = tool_context.tool_confirmation
    if confirmation is None:
        # A nested payload: more than a flat form can show.
        payload = {"transfer": {"amount": amount, "currency": "EUR"}}
        tool_context.request_confirmation(hint=f"Send {amount} EUR to {to}?", payload=payload)
        tool_context.actions.skip_summarization = True
        return {"status": "waiting for confirmation"}
    if not confirmation.confirmed:
        return {"status": "not sent: the person did not confirm"}
    sent = confirmation.payload["transfer"]["amount"]
    RAN.append({"tool": "transfer", "amount": sent, "to": to})
    return {"status": "sent", "amount": sent}


def request_time_off(days: int, tool_context: ToolContext) -> dict[str, Any]:
    """Request days off for the employee (the shape of Google's human_tool_confirmation sample:
    more than two days need a manager, who says how many of them are approved).

    Args:
        days: The days asked for.
        tool_context: The ADK's context (not shown to the model).

    """
    if days <= 2:
        RAN.append({"tool": "request_time_off", "approved_days": days})
        return {"status": "ok", "approved_days": days}
    confirmation = tool_context.tool_confirmation
    if not confirmation:
        tool_context.request_confirmation(hint=TIME_OFF_HINT, payload={"approved_days": 0})
        return {"status": "Manager approval is required."}
    approved = min(confirmation.payload["approved_days"], days)
    if approved == 0:
        return {"status": "The time off request is rejected.", "approved_days": 0}
    RAN.append({"tool": "request_time_off", "approved_days": approved})
    return {"status": "ok", "approved_days": approved}


TOOLS: dict[str, tuple[Any, dict[str, Any]]] = {
    "drop_table": (FunctionTool(drop_table, require_confirmation=True), DROP_ARGS),
    "transfer": (transfer, TRANSFER_ARGS),
    "time_off": (request_time_off, TIME_OFF_ARGS),
    "input": (request_input, {"message": INPUT_MESSAGE, "response_schema": INPUT_SCHEMA}),
    "yes_no": (request_input, {"message": "Go ahead with the migration?", "response_schema": YES_NO_SCHEMA}),
}


class ScriptedLlm(BaseLlm):
    """Calls ``call_name`` with ``call_args`` first; then reads each function response and
    replies "I read: <response as JSON>".
    """

    model: str = "scripted"
    call_name: str
    call_args: dict[str, Any]
    seen: list[dict[str, Any]] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        del stream
        last = llm_request.contents[-1]
        responses = [p.function_response for p in last.parts or [] if p.function_response]
        if not responses:
            call = types.FunctionCall(name=self.call_name, args=self.call_args, id="call_1")
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))
            return
        read = [{"name": r.name, "id": r.id, "response": r.response} for r in responses]
        self.seen.extend(read)
        text = "I read: " + json.dumps(read[-1]["response"], ensure_ascii=False, sort_keys=True)
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


async def drive(tool: str, **options: Any) -> dict[str, Any]:
    """Run an agent with ``TOOLS[tool]`` through ``google_adk.run``: what the model read, what
    ran, the final text, the client answers sent back, and whether the last event was a pause.
    """
    from nbask.integrations import google_adk  # noqa: PLC0415 - see the module's docstring

    RAN.clear()
    function, args = TOOLS[tool]
    model = ScriptedLlm(call_name=getattr(function, "name", getattr(function, "__name__", "")), call_args=args)
    runner = InMemoryRunner(agent=LlmAgent(name="agent", model=model, tools=[function]), app_name="nbask-test")
    session = await runner.session_service.create_session(app_name="nbask-test", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="Do the job.")])
    texts: list[str] = []
    paused = False
    async for event in google_adk.run(runner, user_id="u", session_id=session.id, new_message=message, **options):
        texts.extend(p.text for p in (event.content.parts or []) if event.content and p.text)
        paused = bool(event.long_running_tool_ids)
    stored = await runner.session_service.get_session(app_name="nbask-test", user_id="u", session_id=session.id)
    assert stored is not None
    answers = [
        {"name": p.function_response.name, "response": p.function_response.response}
        for event in stored.events
        if event.author == "user" and event.content
        for p in event.content.parts or []
        if p.function_response
    ]
    final = texts[-1] if texts else None
    return {"seen": model.seen, "ran": list(RAN), "final": final, "answers": answers, "paused": paused}
