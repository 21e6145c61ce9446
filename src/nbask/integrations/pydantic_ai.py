"""pydantic-ai's deferred tool calls answered in the cell: each call waiting for approval (a tool
with ``requires_approval=True``, or one that raised ``ApprovalRequired``) becomes an nbask approval.

Inline, the run goes on by itself::

    from pydantic_ai.capabilities import HandleDeferredToolCalls
    from nbask.integrations.pydantic_ai import handle_deferred, handle_deferred_with

    agent = Agent(model, tools=[...], capabilities=[HandleDeferredToolCalls(handler=handle_deferred)])
    # another time limit, only some people may answer, or your own handler for the external
    # (CallDeferred) calls:
    HandleDeferredToolCalls(
        handler=handle_deferred_with(timeout=60, approvers=["alice"], external=run_in_the_warehouse)
    )

Stop and resume::

    agent = Agent(model, tools=[...], output_type=[str, DeferredToolRequests])
    result = await agent.run(prompt)
    if isinstance(result.output, DeferredToolRequests):
        results = await resolve(result.output)  # resolve_sync(result.output) in synchronous code
        result = await agent.run(message_history=result.all_messages(), deferred_tool_results=results)

The approval's title is "Call <tool_name>", followed by the reason the tool gave in
``ApprovalRequired(metadata={"reason": ...})`` (as pydantic-ai's docs write it), and its details
the call's arguments as JSON. Approve runs the call (``True``); Edit runs it with the edited
arguments (``ToolApproved(override_args=...)``); Reject, a dismiss, a timeout or a headless policy
denies it (``ToolDenied``), and the model reads why in the tool's result. No one to ask (no front
end, the ``error`` policy) is a denial by policy with nbask's reason, kept in ``nbask.history()``;
a replay that has no recorded answer raises ``nbask.ReplayMissing`` out of the run.

External calls (``CallDeferred``, ``requests.calls``) are not nbask's to answer. pydantic-ai asks
each ``HandleDeferredToolCalls`` capability in turn about what the ones before it left, so your
own handler goes beside nbask's (``capabilities=[HandleDeferredToolCalls(handler=handle_deferred),
HandleDeferredToolCalls(handler=yours)]``), or inside it (``handle_deferred_with(external=yours)``). Without
one, the run ends with a ``DeferredToolRequests`` output holding them (its ``output_type`` must
allow it); with ``resolve`` the caller adds ``results.calls[tool_call_id]`` before resuming.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from typing import Any

from pydantic import TypeAdapter
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage
from pydantic_ai.run import AgentRunResult
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDefinition,
    ToolDenied,
)

from .. import host
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..identity import checked_approvers
from ..models import Decision
from ..tools.function import DO_NOT_RETRY
from . import _seam

__all__ = [
    "approval_result",
    "handle_deferred",
    "handle_deferred_with",
    "resolve",
    "resolve_sync",
    "run",
    "run_sync",
]

ApprovalResult = bool | ToolApproved | ToolDenied
#: A ``HandleDeferredToolCalls`` handler: the run's context and the pending calls -> results for
#: some of them (or None), sync or async.
Handler = Callable[
    [RunContext[Any], DeferredToolRequests],
    DeferredToolResults | Awaitable[DeferredToolResults | None] | None,
]
#: The longest reason (from ``ApprovalRequired(metadata={"reason": ...})``) shown in a title.
MAX_REASON_IN_TITLE = 120


async def handle_deferred(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
    """The handler for ``HandleDeferredToolCalls(handler=handle_deferred)``: asks the person about
    every call in ``requests.approvals`` (see ``resolve``) and lets the run go on; external calls
    are left to the next handler, or to the run's ``DeferredToolRequests`` output. The run's tool
    definitions (``ctx.tools``) give each approval its tool's parameter schema, so a bad edit is
    refused. ``handle_deferred_with(timeout=..., approvers=..., external=...)`` makes one with
    other settings.
    """
    return await resolve(requests, tool_definitions=ctx.tools)


def handle_deferred_with(
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    external: Handler | None = None,
) -> Callable[[RunContext[Any], DeferredToolRequests], Awaitable[DeferredToolResults]]:
    """A ``handle_deferred`` that waits ``timeout`` seconds for each approval (None: no limit)
    and, with ``external``, then hands the external calls (``requests.calls``) to that handler
    (your own, of the same shape as ``HandleDeferredToolCalls``' handler) and returns both
    answers together, so one capability answers every deferred call. ``approvers``: only these
    people may answer the approvals.
    """
    checked = checked_approvers(approvers)

    async def handle(ctx: RunContext[Any], requests: DeferredToolRequests) -> DeferredToolResults:
        results = await resolve(requests, timeout=timeout, approvers=checked, tool_definitions=ctx.tools)
        rest = requests.remaining(results) if external is not None else None
        if external is not None and rest is not None:
            answered = external(ctx, rest)
            if inspect.isawaitable(answered):
                answered = await answered
            if answered is not None:
                results.update(answered)
        return results

    return handle


def _running(
    agent: Agent[Any, Any],
    user_prompt: Any = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    run_timeout: float | None = None,
    **run_kwargs: Any,
) -> _seam.Asking[AgentRunResult[Any]]:
    """``agent.run(user_prompt, **run_kwargs)`` with every approval answered in the cell: each
    time the run stops with ``DeferredToolRequests`` (its output type gains them), their approvals
    are asked about as ``resolve`` asks, and the run goes on with
    ``agent.run(message_history=..., deferred_tool_results=...)`` until it ends with the agent's
    own output. A pause that also has external calls (``requests.calls``) is returned as it is,
    its ``DeferredToolRequests`` the output, for the caller's code to answer. ``timeout``: each
    approval's time limit; ``run_timeout``: pydantic-ai's own ``timeout`` of each run;
    ``approvers``: only these people may answer the approvals.

    Under the ``later`` policy, a pause whose approvals wait in the inbox keeps the run (its
    messages and requests) there too, and the next ``run`` of the same agent, prompt and
    notebook goes on from it with the inbox's answers: the model is not asked again for the
    steps it took.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    output_type = run_kwargs.pop("output_type", agent.output_type)
    several = isinstance(output_type, Sequence) and not isinstance(output_type, str)
    types = list(output_type) if several else [output_type]
    if DeferredToolRequests not in types:
        types.append(DeferredToolRequests)
    kwargs = {"output_type": types, "timeout": run_timeout, **run_kwargs}
    key = _later_key(agent, user_prompt)
    kept = _seam.resuming.kept(key)
    result: AgentRunResult[Any] | None = None
    if kept is not None:
        messages, requests = _RUN.validate_json(kept)
    else:
        result = yield _seam.Work(partial(agent.run, user_prompt, **kwargs))
        messages, requests = result.all_messages(), result.output
    while isinstance(requests, DeferredToolRequests) and not requests.calls:
        with _seam.resuming.keeping(key, partial(_kept_text, (messages, requests))):
            answers = yield from _asking(requests, timeout=timeout)
        result = yield _seam.Work(partial(agent.run, message_history=messages, deferred_tool_results=answers, **kwargs))
        messages, requests = result.all_messages(), result.output
    _seam.resuming.resumed(key)
    assert result is not None  # noqa: S101 - a kept run is one that waits on approvals only
    return result


run, run_sync = _seam.twins(
    _running, "run", "The blocking twin of ``run``, for synchronous code; it also works in a notebook cell."
)

#: A paused run as the inbox keeps it: its messages so far, and the calls it waits on.
_RUN: TypeAdapter[tuple[list[ModelMessage], DeferredToolRequests]] = TypeAdapter(
    tuple[list[ModelMessage], DeferredToolRequests]
)


def _kept_text(paused: tuple[list[ModelMessage], DeferredToolRequests]) -> str:
    """A paused run as the inbox keeps it: JSON text of its messages and requests."""
    return _RUN.dump_json(paused).decode()


def _later_key(agent: Agent[Any, Any], user_prompt: Any) -> str | None:
    """Under the ``later`` policy, the key a paused run of ``agent`` on ``user_prompt`` is kept
    under: the agent's name, the notebook, and the prompt's fingerprint.
    """
    if not _seam.resuming.answering_later():
        return None
    return "pydantic_ai:" + _seam.resuming.input_key([agent.name, host.notebook_path(), user_prompt])


async def resolve(
    requests: DeferredToolRequests,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    tool_definitions: Mapping[str, ToolDefinition] | None = None,
) -> DeferredToolResults:
    """Map each call of ``requests.approvals`` to an nbask approval, one after another, and return
    the ``DeferredToolResults`` to resume with: approve -> ``True``, edit ->
    ``ToolApproved(override_args=<the edited JSON object>)``, anything else -> ``ToolDenied`` whose
    message the model reads. ``answered_by`` records who decided each call (person, policy or
    replay). External calls (``requests.calls``) are left out: add their results before resuming.
    With ``tool_definitions`` (tool definitions by name, e.g. ``RunContext.tools``), an edit that does not
    fit the called tool's ``parameters_json_schema`` is refused and the approval stays open.
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return await _seam.drive(_asking(requests, timeout=timeout, tool_definitions=tool_definitions))


def resolve_sync(
    requests: DeferredToolRequests,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    tool_definitions: Mapping[str, ToolDefinition] | None = None,
) -> DeferredToolResults:
    """The blocking twin of ``resolve``, for synchronous code; it also works in a notebook cell,
    whose event loop is already running (where ``asyncio.run(resolve(...))`` cannot).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return _seam.drive_sync(_asking(requests, timeout=timeout, tool_definitions=tool_definitions))


def _asking(
    requests: DeferredToolRequests,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_definitions: Mapping[str, ToolDefinition] | None = None,
) -> _seam.Asking[DeferredToolResults]:
    """The approvals of one batch, shown together (in pydantic-ai's order, answered in any
    order); returns the results to resume with.
    """
    approvals: dict[str, ApprovalResult] = {}
    answered_by: dict[str, str] = {}
    calls: list[Any] = []
    askings: list[_seam.Asking[Decision]] = []
    for call in requests.approvals:
        tool = (tool_definitions or {}).get(call.tool_name)
        reason = _reason(requests.metadata.get(call.tool_call_id))
        try:
            request = _seam.approval(
                _seam.call_title(call.tool_name, f"({reason})" if reason else ""),
                _seam.arguments_text(call.args_as_dict()),
                timeout=timeout,
                tool_call_id=call.tool_call_id,
                schema=tool.parameters_json_schema if tool is not None else None,
                risk=_seam.hinted_risk((tool.metadata or {}).get("annotations")) if tool is not None else None,
            )
        except ValueError as error:  # the approval cannot be shown (e.g. arguments over the size limit)
            why = f"because it could not be shown for approval: {error}"
            name = _seam.call_title(call.tool_name)
            approvals[call.tool_call_id] = ToolDenied(f"Not approved: {name} did not run, {why} {DO_NOT_RETRY}")
            continue
        calls.append(call)
        askings.append(_seam.ask(request))
    decisions = yield from _seam.together(askings)
    for call, decision in zip(calls, decisions, strict=True):
        approvals[call.tool_call_id] = approval_result(decision, _seam.call_title(call.tool_name))
        answered_by[call.tool_call_id] = decision.answered_by
    # In pydantic-ai's order, whatever order the person answered in.
    ordered = {call.tool_call_id: approvals[call.tool_call_id] for call in requests.approvals}
    return requests.build_results(approvals=ordered, answered_by=answered_by)


def _reason(metadata: Mapping[str, Any] | None) -> str:
    """The reason a tool gave for asking (``metadata["reason"]``) as one line of plain text."""
    reason = (metadata or {}).get("reason")
    if not isinstance(reason, str):
        return ""
    line = " ".join(reason.split())
    return _seam.clip(line, MAX_REASON_IN_TITLE)


def approval_result(decision: Decision, title: str) -> ApprovalResult:
    """What pydantic-ai takes for one nbask ``Decision`` on the call titled ``title``: approve ->
    ``True``; edit -> ``ToolApproved(override_args=...)`` from the edited JSON text; reject (and
    a dismiss, timeout or policy) -> ``ToolDenied`` with the text the model reads. An edit that is
    not a JSON object is a denial saying so: the call does not run.
    """
    if decision.decision == "reject":
        return ToolDenied(_seam.not_run_text(decision, title))
    if decision.decision == "approve" or decision.edited is None:
        return True
    try:
        return ToolApproved(override_args=_seam.edited_arguments(decision))
    except _seam.EditNotUsable as why:
        return ToolDenied(_seam.not_run_text(decision, title, why))
