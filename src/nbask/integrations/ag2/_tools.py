"""AG2's tool approvals answered in the cell: nbask's own ``approval_required()`` middleware (the
call runs with the person's edit), AG2's own one answered "yes" or "no" (``CarryEdits`` carries an
edit to the call it holds), and what the model reads when a call does not run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from copy import copy
from dataclasses import dataclass
from typing import Any

from ag2 import Context
from ag2.events import ToolApprovalRequest, ToolCallEvent, ToolResultEvent
from ag2.middleware import BaseMiddleware, ToolExecution, ToolResultType
from ag2.tools import tool
from ag2.tools.final.function_tool import FunctionTool

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from ...models import Decision
from ...tools.function import DO_NOT_RETRY
from .. import _seam
from ._interrupt import asked

#: What AG2's own ApprovalRequired reads as an approval, and as anything else.
YES, NO = "yes", "no"


# -- tool approvals -----------------------------------------------------------------------------


@dataclass
class _Gate:
    """One gated call as asked, and (once decided) what becomes of it."""

    name: str
    arguments: dict[str, Any] | str
    schema: Mapping[str, Any] | None = None
    timeout: float | None = DEFAULT_TIMEOUT
    approvers: tuple[str, ...] | None = None  # who alone may decide (None: as the hook says)
    runs: bool | None = None  # None: not decided by nbask (another hook answered)
    arguments_used: dict[str, Any] | None = None  # the person's edit
    edited: bool = False  # the person chose Edit
    result: str = ""  # what the model reads when it does not run


#: The calls nbask's middleware is asking about, by the id of their ToolApprovalRequest.
GATES: dict[str, _Gate] = {}


def approving(gate: _Gate, tool_call_id: str | None, timeout: float | None) -> _seam.Asking[bool]:
    """The approval of one gated call; decides ``gate`` and returns whether the call runs."""
    title = _seam.call_title(gate.name)
    shown = gate.arguments if isinstance(gate.arguments, str) else _seam.arguments_text(gate.arguments)
    try:
        request = _seam.approval(title, shown, timeout=timeout, tool_call_id=tool_call_id, schema=gate.schema)
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        gate.runs = False
        gate.result = f"Not approved: {title} did not run: it could not be shown for approval: {error} {DO_NOT_RETRY}"
        return False
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    gate.runs = decision.decision != "reject"
    if decision.decision == "reject":
        gate.result = _seam.not_run_text(decision, title)
    elif decision.decision == "edit" and decision.edited is not None:
        gate.edited = True
        try:
            gate.arguments_used = _seam.edited_arguments(decision)
        except _seam.EditNotUsable as why:
            gate.runs, gate.result = False, _seam.not_run_text(decision, title, why)
    return gate.runs


@dataclass
class _Held:
    """A call on its way through AG2's own ``approval_required()``, held by ``CarryEdits``."""

    event: ToolCallEvent  # the call that middleware passes on to the tool when answered yes
    result: str | None = None  # what the model reads in place of its denied message

    def __post_init__(self) -> None:
        # The tool is called with ``serialized_arguments``. A dict of this call's own, so the
        # edit changes neither the model's call in the history nor a sibling's copy, yet every
        # shallow copy a middleware makes on the way to the tool (``copy``, ``handled_by``)
        # shares it: the edit reaches the tool whichever copy AG2's gate holds.
        with suppress(json.JSONDecodeError):  # the tool fails on such arguments; nothing to edit
            self.event.serialized_arguments = dict(self.event.serialized_arguments)

    def carry(self, arguments: dict[str, Any]) -> None:
        """The call runs with ``arguments`` in place of the model's."""
        self.event.arguments = json.dumps(arguments)
        self.event.serialized_arguments.clear()
        self.event.serialized_arguments.update(arguments)


#: The calls ``CarryEdits`` holds, by call id.
_HELD: dict[str, _Held] = {}


async def stock_answer(event: ToolApprovalRequest, context: Context, timeout: float | None) -> str:
    """The answer to AG2's own ``approval_required()``: "yes" or "no". That middleware runs the
    call object it holds, so an edit reaches the tool only as that object's arguments, set where
    ``CarryEdits`` holds it; otherwise the edit is refused (never the call approved unedited) and
    the model is told the edited arguments.
    """
    held = _HELD.get(event.tool_call_id)
    gate = _held_gate(held.event) if held is not None else await _stock_gate(event, context)
    runs = await asked(approving(gate, event.tool_call_id, timeout))
    if runs and gate.arguments_used is not None:
        if held is not None:
            held.carry(gate.arguments_used)
            return YES
        edit = json.dumps(gate.arguments_used, ensure_ascii=False)
        runs, gate.result = False, f"Not approved: {_seam.call_title(gate.name)} did not run. The person edited "
        gate.result += f"its arguments to {edit}, but this approval cannot pass an edit to the tool. Do not "
        gate.result += "retry the call as it was; make it with those arguments if they are what is needed."
    if gate.edited and not runs:  # AG2's fixed denied message does not say why, nor what the edit was
        if held is not None:
            held.result = gate.result
        else:  # the model reads it after the call's result, before its next step
            context.enqueue(f"About your call {event.tool_call_id} of {gate.name}: {gate.result}")
    return YES if runs else NO


def _held_gate(call: ToolCallEvent) -> _Gate:
    try:
        return _Gate(call.name, call.serialized_arguments)
    except json.JSONDecodeError:
        return _Gate(call.name, call.arguments)


async def _stock_gate(event: ToolApprovalRequest, context: Context) -> _Gate:
    """AG2's own ApprovalRequired names only the call's id: its name and arguments are read from
    the stream's history (the prompt, when the call is not there).
    """
    for past in reversed(list(await context.stream.history.get_events())):
        if isinstance(past, ToolCallEvent) and past.id == event.tool_call_id:
            return _held_gate(past)
    return _Gate("tool", event.content)


class CarryEdits(BaseMiddleware):
    """AG2 agent middleware (``Agent(middleware=[CarryEdits])``; ``run`` and ``run_sync`` add it):
    a call of a tool gated by AG2's own ``approval_required()`` that the person edits runs with
    the edited arguments, and an edit that is refused is what the model reads.
    """

    async def on_tool_execution(
        self, call_next: ToolExecution, event: ToolCallEvent, context: Context
    ) -> ToolResultType:
        # Agent middleware wraps the tool's own: what it passes on reaches AG2's gate (at most
        # as a shallow copy, sharing its arguments), so the hook sets the person's edit on it.
        held = _HELD[event.id] = _Held(copy(event))
        try:
            result = await call_next(held.event, context)
        finally:
            _HELD.pop(event.id, None)
        return result if held.result is None else ToolResultEvent.from_call(event, result=held.result)


class ApprovalRequired:
    """nbask's tool middleware: each call of the tool waits for the person's approval, asked
    through the agent's ``hitl_hook`` (nbask's); see ``approval_required``.
    """

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        schema: Mapping[str, Any] | None = None,
    ) -> None:
        self._timeout = timeout
        self._approvers = checked_approvers(approvers)
        self._schema = dict(schema) if schema is not None else None

    async def __call__(self, call_next: ToolExecution, event: ToolCallEvent, context: Context) -> ToolResultType:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        try:
            arguments: dict[str, Any] | str = event.serialized_arguments
        except json.JSONDecodeError:
            arguments = event.arguments
        gate = _Gate(event.name, arguments, self._schema, self._timeout, self._approvers)
        prompt = f"Approve the call of `{event.name}` with {event.arguments}?"
        # No timeout of AG2's (its end is an error that ends the turn): nbask's ends as a rejection.
        request = ToolApprovalRequest(prompt, tool_call_id=event.id, timeout=None)
        GATES[request.id] = gate
        try:
            reply = await context.ask(request)
        finally:
            GATES.pop(request.id, None)
        if gate.runs is None:  # another hook answered: AG2's words for yes
            gate.runs = reply.strip().lower() in ("y", "yes", "1")
            gate.result = f"Not approved: {_seam.call_title(event.name)} did not run. The reply was {reply!r}."
            gate.result += f" {DO_NOT_RETRY}"
        if not gate.runs:
            return ToolResultEvent.from_call(event, result=gate.result)
        if gate.arguments_used is not None:
            event = copy(event)
            event.arguments = json.dumps(gate.arguments_used)
            event.serialized_arguments = gate.arguments_used
        return await call_next(event, context)


def approval_required(
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    schema: Mapping[str, Any] | None = None,
) -> ApprovalRequired:
    """A tool middleware, in place of AG2's ``approval_required()``: ``@tool(middleware=[...])``.
    Each call waits ``timeout`` seconds for an approval (then it is rejected), which only
    ``approvers`` may give when named (else those of the hook); with ``schema``
    (the tool's JSON Schema of arguments) an edit is checked before the call runs. The agent's
    ``hitl_hook`` must be nbask's (``hitl_hook``, ``hitl_hook_with(...)``, ``run``, ``run_sync``).
    """
    return ApprovalRequired(timeout=timeout, approvers=approvers, schema=schema)


def requires_approval(
    function: FunctionTool | Callable[..., Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> FunctionTool:
    """``function`` (a function or an AG2 tool) gated by ``approval_required``, an edit checked
    against its JSON Schema of arguments.
    """
    made = function if isinstance(function, FunctionTool) else tool(function)
    gate = approval_required(timeout=timeout, approvers=approvers, schema=made.schema.function.parameters)
    return made.with_middleware(gate)
