"""pydantic-ai's deferred tool calls answered in the cell: each call waiting for approval (a tool
with ``requires_approval=True``, or one that raised ``ApprovalRequired``) becomes an nbask approval.

Inline, the run goes on by itself::

    from pydantic_ai.capabilities import HandleDeferredToolCalls
    from nbask.integrations.pydantic_ai import handle_deferred

    agent = Agent(model, tools=[...], capabilities=[HandleDeferredToolCalls(handler=handle_deferred)])

Stop and resume::

    agent = Agent(model, tools=[...], output_type=[str, DeferredToolRequests])
    result = await agent.run(prompt)
    if isinstance(result.output, DeferredToolRequests):
        results = await resolve(result.output)
        result = await agent.run(message_history=result.all_messages(), deferred_tool_results=results)

The approval's title is "Call <tool_name>" and its details the call's arguments as JSON.
Approve runs the call (``True``); Edit runs it with the edited arguments
(``ToolApproved(override_args=...)``); Reject, a dismiss, a timeout, a headless policy or no one to
ask denies it (``ToolDenied``), and the model reads why in the tool's result. For a timeout other
than nbask's default, pass ``handler=lambda ctx, requests: resolve(requests, timeout=60)``.

External calls (``CallDeferred``, ``requests.calls``) are not answered here: with the handler they
stay pending and the run ends with a ``DeferredToolRequests`` output holding only them (the agent's
``output_type`` must allow it); with ``resolve`` the caller adds ``results.calls[tool_call_id]``
for each before resuming, as pydantic-ai requires a result for every pending call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDefinition,
    ToolDenied,
)

from nbask.api import approve
from nbask.core.lifecycle import DEFAULT_TIMEOUT
from nbask.errors import ApprovalRejected, NoOneCanAnswer
from nbask.models import Decision
from nbask.tools.function import DO_NOT_RETRY, rejection_text, unasked_text
from nbask.waiting import WaitingUnsupported

__all__ = ["approval_result", "handle_deferred", "resolve"]

ApprovalResult = bool | ToolApproved | ToolDenied


async def handle_deferred(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
    """The handler for ``HandleDeferredToolCalls(handler=handle_deferred)``: asks the person about
    every call in ``requests.approvals`` (see ``resolve``) and lets the run go on; external calls
    are left pending for the run's ``DeferredToolRequests`` output. The run's tool definitions
    (``ctx.tools``) give each approval its tool's parameter schema, so a bad edit is refused.
    """
    return await resolve(requests, tools=ctx.tools)


async def resolve(
    requests: DeferredToolRequests,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tools: Mapping[str, ToolDefinition] | None = None,
) -> DeferredToolResults:
    """Map each call of ``requests.approvals`` to an nbask approval, one after another, and return
    the ``DeferredToolResults`` to resume with: approve -> ``True``, edit ->
    ``ToolApproved(override_args=<the edited JSON object>)``, anything else -> ``ToolDenied`` whose
    message the model reads. ``answered_by`` records who decided each call (person, policy or
    replay). External calls (``requests.calls``) are left out: add their results before resuming.
    With ``tools`` (tool definitions by name, e.g. ``RunContext.tools``), an edit that does not
    fit the called tool's ``parameters_json_schema`` is refused and the approval stays open.
    """
    approvals: dict[str, ApprovalResult] = {}
    answered_by: dict[str, str] = {}
    for call in requests.approvals:
        tool = (tools or {}).get(call.tool_name)
        schema = tool.parameters_json_schema if tool is not None else None
        result, who = await _ask(call, timeout, schema)
        approvals[call.tool_call_id] = result
        if who is not None:
            answered_by[call.tool_call_id] = who
    return requests.build_results(approvals=approvals, answered_by=answered_by)


async def _ask(
    call: ToolCallPart, timeout: float | None, schema: Mapping[str, Any] | None
) -> tuple[ApprovalResult, str | None]:
    title = f"Call {call.tool_name}"
    try:
        details = json.dumps(call.args_as_dict(), indent=2, ensure_ascii=False, default=repr)
        decision = await approve(
            title, details, timeout=timeout, tool_call_id=call.tool_call_id, queue=True, details_schema=schema
        )
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return ToolDenied(unasked_text(title, error)), None
    except ValueError as error:  # the approval could not be shown (e.g. arguments over the size limit)
        text = f"Not approved: {title} did not run, because it could not be shown for approval: {error} {DO_NOT_RETRY}"
        return ToolDenied(text), None
    return approval_result(decision, title), decision.answered_by


def approval_result(decision: Decision, title: str) -> ApprovalResult:
    """What pydantic-ai takes for one nbask ``Decision`` on the call titled ``title``: approve ->
    ``True``; edit -> ``ToolApproved(override_args=...)`` from the edited JSON text; reject (and
    a dismiss, timeout or policy) -> ``ToolDenied`` with the text the model reads. An edit that is
    not a JSON object is a denial saying so: the call does not run.
    """
    if decision.decision == "reject":
        return ToolDenied(rejection_text(ApprovalRejected(decision, title)))
    if decision.decision == "approve" or decision.edited is None:
        return True
    try:
        edited = json.loads(decision.edited)
    except json.JSONDecodeError as error:
        return ToolDenied(_bad_edit(title, f"the edited arguments are not valid JSON ({error})"))
    if not isinstance(edited, dict):
        return ToolDenied(_bad_edit(title, "the edited arguments are not a JSON object of parameter names"))
    return ToolApproved(override_args=edited)


def _bad_edit(title: str, why: str) -> str:
    return f"Not approved: {title} did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
