"""The OpenAI Agents SDK's tool approvals, answered in the cell.

A tool with ``needs_approval`` (a function, shell, apply_patch or custom tool) or a hosted MCP
tool with ``require_approval`` stops ``Runner.run``: the result carries ``interruptions``, one
``ToolApprovalItem`` per call. Each becomes an nbask approval titled "Call <tool>" whose details
are the call's arguments as JSON:

- Approve -> ``state.approve(item)``: the SDK runs the call.
- Reject (and a dismiss, a timeout, a headless policy, or no one to ask) ->
  ``state.reject(item, rejection_message=...)``: the call does not run, and the model reads why.
- Edit -> the SDK cannot change a call's arguments, so the call is rejected with a message that
  gives the model the person's arguments and asks it to call the tool again with them (the
  approval's title says so before the person edits). Its next call is asked about in turn.

    result = await nbask.integrations.openai_agents.run(agent, "Clean up the warehouse.")
"""

from __future__ import annotations

import json
from typing import Any

from agents import (
    Agent,
    FunctionTool,
    Runner,
    RunResult,
    RunResultStreaming,
    RunState,
    ToolApprovalItem,
    TResponseInputItem,
)

from ..api import approve
from ..errors import ApprovalRejected, NoOneCanAnswer
from ..models import MAX_ACTION_CHARS, Decision
from ..tools.function import DO_NOT_RETRY, rejection_text, unasked_text
from ..waiting import WaitingUnsupported

__all__ = ["EDIT_NOTICE", "resolve", "run"]

#: Added to every approval's title: an edit does not run the call, the model is asked to retry.
EDIT_NOTICE = "(edits are sent back to the model as a request to retry)"

#: Runner.run arguments the resumed RunState carries itself: passing the first run's value again
#: would replace the state's newer one (the last response id of a server-managed conversation).
_STATE_OWNED = frozenset({"previous_response_id", "auto_previous_response_id"})

#: Bookkeeping fields of a raw tool call that are not its arguments.
_NOT_ARGUMENTS = frozenset({"id", "call_id", "type", "status", "approval_request_id", "created_by"})


async def run(
    agent: Agent[Any],
    input: str | list[TResponseInputItem] | RunState[Any],  # noqa: A002 - Runner.run's own name
    **runner_kwargs: Any,
) -> RunResult:
    """``Runner.run(agent, input, **runner_kwargs)`` with every tool approval answered in the cell.

    Each time the run stops on ``result.interruptions``, every pending call is asked about in
    turn (``resolve``) and the run resumes with ``Runner.run(agent, state, **runner_kwargs)``,
    until a run ends without interruptions; that result is returned. ``runner_kwargs``
    (``context``, ``run_config``, ``hooks``, ``session``, ``max_turns``, ...) are passed to the
    first run and to every resumption, except the response-chaining ids the state keeps itself.
    A kernel interrupt while the person decides propagates (KeyboardInterrupt).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if not isinstance(agent, Agent):
        msg = f"run(agent, input): agent must be an agents.Agent, not {type(agent).__name__}"
        raise TypeError(msg)
    result = await Runner.run(agent, input, **runner_kwargs)
    resume_kwargs = {key: value for key, value in runner_kwargs.items() if key not in _STATE_OWNED}
    while result.interruptions:
        state = await resolve(result)
        result = await Runner.run(agent, state, **resume_kwargs)
    return result


async def resolve(result: RunResult | RunResultStreaming | RunState[Any]) -> RunState[Any]:
    """Ask about every pending tool call of an interrupted run and return the ``RunState`` with
    each one approved or rejected, ready for ``Runner.run(agent, state)``.

    ``result`` is what ``Runner.run`` returned (or a ``Runner.run_streamed`` result whose
    stream has been consumed), or a ``RunState`` (e.g. one loaded with ``RunState.from_json``).
    Approve -> ``state.approve``; reject, dismiss, timeout, policy or no one to ask ->
    ``state.reject`` with the text the model reads; edit -> ``state.reject`` with a message
    asking the model to call the tool again with the edited arguments. A function tool's edit is
    checked against its ``params_json_schema`` (the item's agent's tool of that name) and a bad
    one is refused with the approval left open.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if isinstance(result, RunState):
        state: RunState[Any] = result
        items = state.get_interruptions()
    elif isinstance(result, RunResult | RunResultStreaming):
        state = result.to_state()
        items = list(result.interruptions)
    else:
        msg = (
            "resolve(result): result must be the RunResult or RunResultStreaming of a run, "
            f"or a RunState, not {type(result).__name__}"
        )
        raise TypeError(msg)
    for item in items:
        await _decide(state, item)
    return state


async def _decide(state: RunState[Any], item: ToolApprovalItem) -> None:
    """Ask about one pending call and record the decision on ``state``."""
    name = item.qualified_name or item.name or "tool"
    action = f"Call {name}"
    arguments = _arguments(item)
    details = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
    try:
        schema = _schema(item) if isinstance(arguments, dict) else None
        decision = await approve(_title(name), details, tool_call_id=item.call_id, queue=True, details_schema=schema)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        state.reject(item, rejection_message=unasked_text(action, error))
        return
    if decision.decision == "approve":
        state.approve(item)
    elif decision.decision == "edit":
        edited = _edited_arguments(decision)
        if isinstance(edited, dict) and edited == arguments:  # opened for editing, sent back unchanged: an approval
            state.approve(item)
        else:
            state.reject(item, rejection_message=_edit_message(name, action, decision, edited))
    else:
        state.reject(item, rejection_message=rejection_text(ApprovalRejected(decision, action)))


def _title(name: str) -> str:
    """The approval's title, "Call <name> (edits are ...)", the name shortened if the whole would be too long."""
    room = MAX_ACTION_CHARS - len(f"Call  {EDIT_NOTICE}")
    if len(name) > room:
        name = name[: room - 1] + "…"
    return f"Call {name} {EDIT_NOTICE}"


def _schema(item: ToolApprovalItem) -> dict[str, Any] | None:
    """The JSON Schema of the called function tool's arguments, if the item's agent has exactly
    one function tool of that name (and namespace); None for other tools (MCP, shell, patch).
    """
    agent = getattr(item, "agent", None)
    namespace = item.tool_namespace
    matches = [
        tool
        for tool in getattr(agent, "tools", None) or []
        if isinstance(tool, FunctionTool)
        and tool.name == item.tool_name
        and getattr(tool, "_tool_namespace", None) == namespace
    ]
    return matches[0].params_json_schema if len(matches) == 1 else None


def _arguments(item: ToolApprovalItem) -> Any:
    """The call's arguments as data: the JSON the model wrote (function and MCP tools), else the
    raw call's own fields (a shell command, a patch operation) without its ids.
    """
    text = item.arguments
    if text is not None:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    raw = item.raw_item
    data = raw if isinstance(raw, dict) else raw.model_dump(mode="json", exclude_none=True)
    return {key: value for key, value in data.items() if key not in _NOT_ARGUMENTS}


def _edited_arguments(decision: Decision) -> dict[str, Any] | str:
    """The person's edited arguments as a JSON object, or why they cannot be used."""
    try:
        edited = json.loads(decision.edited or "")
    except json.JSONDecodeError as error:
        return f"the edit is not valid JSON ({error})"
    if not isinstance(edited, dict):
        return f"the edit is a JSON {type(edited).__name__}, not an object of argument names"
    return edited


def _edit_message(name: str, action: str, decision: Decision, edited: dict[str, Any] | str) -> str:
    """What the model reads after an edit: the arguments to call again with, or why the edit
    could not be used (then the call is simply not approved).
    """
    note = decision.reason.strip()
    if note and note[-1] not in ".!?":
        note += "."
    note = f" Their note: {note}" if note else ""
    if isinstance(edited, str):
        why = f"The person edited its arguments, but {edited}."
        return f"Not approved: {action} did not run. {why}{note} {DO_NOT_RETRY}"
    arguments = json.dumps(edited, ensure_ascii=False)
    return (
        f"Not run: the person did not approve these arguments and edited them.{note} "
        f"Call {name} again with these arguments instead: {arguments}"
    )
