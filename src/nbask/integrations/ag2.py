"""AG2's human in the loop answered in the cell: ``context.input(...)`` and tool approvals reach
the agent's ``hitl_hook``, and nbask's hook asks the person.

    agent = Agent("ops", config=config, tools=[...], hitl_hook=nbask.integrations.ag2.hitl_hook)
    reply = await agent.ask("Clean up the warehouse.")

    reply = await nbask.integrations.ag2.run(agent, "Clean up.")  # the same, a hook of timeout=
    reply = nbask.integrations.ag2.run_sync(agent, "Clean up.")  # blocking

What each ``HumanInputRequest`` becomes:

- ``context.input(message)`` inside a tool (or any plain ``HumanInputRequest``): a form of one
  required text field, the message shown as text above it. Submit -> the reply, what
  ``context.input`` returns. Otherwise it is AG2's own "no answer": a dismiss (by the person, or a
  headless policy: nbask never makes up a reply), or no one to ask, raises
  ``HumanInputNotProvidedError`` with nbask's reason, a timeout ``HumanInputTimeoutError``; the
  turn ends (unless the tool catches ``HumanInputError`` around ``context.input``).
- A tool gated by nbask's ``approval_required()`` (or ``requires_approval(tool)``, which also
  checks an edit against the tool's JSON Schema): an approval titled "Call <tool>", its details
  the call's arguments as JSON. Approve -> the tool runs; Edit -> it runs with the edited
  arguments; Reject (and a dismiss, a timeout, a headless policy, no one to ask) -> it never runs
  and the model reads the rejection and its reason as the call's result.
- A tool gated by AG2's own ``approval_required()`` (``ag2.middleware.builtin.tools``): the same
  approval; Approve -> ``"yes"``; Reject (and the rest) -> ``"no"``, and the model reads AG2's
  fixed ``denied_message`` (not the reason). That middleware runs the call it holds, so an Edit
  reaches the tool through ``CarryEdits`` (agent middleware; ``run`` / ``run_sync`` add it): the
  hook sets the edit on the held call and answers ``"yes"``; an edit that is not a JSON object
  never runs and the model reads why. With a bare ``hitl_hook`` and no ``CarryEdits`` an edit is
  a ``"no"`` (never the original call) and the model reads the edited arguments right after
  the denied message. Its "Always" is never answered.

Calls the model makes together run side by side, so their approvals wait together (one batch,
answered in any order). A kernel interrupt while one waits raises ``Interrupted`` (an AG2
``HumanInputError``): the turn ends, no gated call runs. A replay miss raises: AG2 wraps what a
hook raises in ``HumanInputFailedError`` (``.cause`` is the ``nbask.ReplayMissing``); ``run`` and
``run_sync`` raise the ``nbask.ReplayMissing`` itself.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from copy import copy
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeVar

from ag2 import Agent, AgentReply, Context
from ag2.events import HumanInputRequest, ToolApprovalRequest, ToolCallEvent, ToolResultEvent
from ag2.exceptions import HumanInputError, HumanInputFailedError, HumanInputNotProvidedError, HumanInputTimeoutError
from ag2.middleware import BaseMiddleware, ToolExecution, ToolResultType
from ag2.tools import tool
from ag2.tools.final.function_tool import FunctionTool

from .. import errors
from ..contract import MAX_DETAILS_CHARS
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..errors import ReplayMissing
from ..kinds.form.request import form_request
from ..models import Decision, FormAnswer
from ..tools.function import DO_NOT_RETRY
from . import _seam, _texts

__all__ = [
    "INTERRUPTED",
    "REPLY",
    "ApprovalRequired",
    "CarryEdits",
    "Interrupted",
    "approval_required",
    "hitl_hook",
    "hitl_hook_with",
    "requires_approval",
    "run",
    "run_sync",
]

T = TypeVar("T")

#: The text form's one field.
REPLY: Final = _texts.REPLY
#: What AG2's own ApprovalRequired reads as an approval, and as anything else.
_YES, _NO = "yes", "no"

HumanHook = Callable[[HumanInputRequest, Context], Awaitable[str]]

#: Why a turn ended on a kernel interrupt.
INTERRUPTED: Final = _texts.INTERRUPTED


class Interrupted(errors.Interrupted, HumanInputError):
    """A kernel interrupt while nbask waited for the person: AG2 ends the turn with it."""

    def __init__(self) -> None:
        super().__init__(INTERRUPTED)


# -- the hook ----------------------------------------------------------------------------------


async def hitl_hook(event: HumanInputRequest, context: Context) -> str:
    """AG2's ``hitl_hook``: the request asked in the cell (see the module docstring); waits
    ``event.timeout`` seconds where the request has one, else nbask's default.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _answer(event, context, DEFAULT_TIMEOUT)


def hitl_hook_with(*, timeout: float | None = DEFAULT_TIMEOUT) -> HumanHook:
    """A ``hitl_hook`` that waits ``timeout`` seconds for each answer (None: no limit) where the
    request does not carry its own ``timeout``.
    """

    async def hitl_hook(event: HumanInputRequest, context: Context) -> str:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        return await _answer(event, context, timeout)

    return hitl_hook


async def _answer(event: HumanInputRequest, context: Context, timeout: float | None) -> str:
    timeout = event.timeout if event.timeout is not None else timeout
    if isinstance(event, ToolApprovalRequest):
        gate = _GATES.get(event.id)
        if gate is not None:  # nbask's middleware: it runs the call with the person's edit
            return _YES if await _asked(_approving(gate, event.tool_call_id, gate.timeout)) else _NO
        return await _stock_answer(event, context, timeout)
    reply = await _asked(_replying(event.content, timeout, context.tool_call_id))
    if isinstance(reply, HumanInputError):
        raise reply
    return reply


async def _asked(asking: _seam.Asking[T]) -> T:
    """The outcome of ``asking``, driven on the turn's loop; a kernel interrupt raises
    ``Interrupted``, which ends AG2's turn.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _seam.drive_or_raise(asking, Interrupted)


# -- context.input ------------------------------------------------------------------------------


def _replying(prompt: str, timeout: float | None, tool_call_id: str | None) -> _seam.Asking[str | HumanInputError]:
    """The person's reply to ``prompt``, or the AG2 error that says why there is none."""
    text = prompt.strip() or "The agent asks for your reply."
    if len(text) > MAX_DETAILS_CHARS:  # the question is at the end of a long message: keep the end
        text = "…" + text[-(MAX_DETAILS_CHARS - 1) :]
    schema = {"type": "object", "properties": {REPLY: {"type": "string", "title": "Your reply"}}, "required": [REPLY]}
    answer = yield form_request(text, schema, timeout=timeout, tool_call_id=tool_call_id)
    assert isinstance(answer, FormAnswer)  # noqa: S101 - a form's outcome
    if answer.status == "answered":
        return str(answer.values.get(REPLY, ""))
    if answer.status == "timeout" and timeout is not None:
        return HumanInputTimeoutError(timeout)
    who = "The person" if answer.answered_by == "person" else "nbask's policy"
    why = answer.note.strip() or f"{who} ended the request without a reply ({answer.status})."
    return HumanInputNotProvidedError(f"No reply from the person: {why}")


# -- tool approvals -----------------------------------------------------------------------------


@dataclass
class _Gate:
    """One gated call as asked, and (once decided) what becomes of it."""

    name: str
    arguments: dict[str, Any] | str
    schema: Mapping[str, Any] | None = None
    timeout: float | None = DEFAULT_TIMEOUT
    runs: bool | None = None  # None: not decided by nbask (another hook answered)
    arguments_used: dict[str, Any] | None = None  # the person's edit
    edited: bool = False  # the person chose Edit
    result: str = ""  # what the model reads when it does not run


#: The calls nbask's middleware is asking about, by the id of their ToolApprovalRequest.
_GATES: dict[str, _Gate] = {}


def _approving(gate: _Gate, tool_call_id: str | None, timeout: float | None) -> _seam.Asking[bool]:
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


async def _stock_answer(event: ToolApprovalRequest, context: Context, timeout: float | None) -> str:
    """The answer to AG2's own ``approval_required()``: "yes" or "no". That middleware runs the
    call object it holds, so an edit reaches the tool only as that object's arguments, set where
    ``CarryEdits`` holds it; otherwise the edit is refused (never the call approved unedited) and
    the model is told the edited arguments.
    """
    held = _HELD.get(event.tool_call_id)
    gate = _held_gate(held.event) if held is not None else await _stock_gate(event, context)
    runs = await _asked(_approving(gate, event.tool_call_id, timeout))
    if runs and gate.arguments_used is not None:
        if held is not None:
            held.carry(gate.arguments_used)
            return _YES
        edit = json.dumps(gate.arguments_used, ensure_ascii=False)
        runs, gate.result = False, f"Not approved: {_seam.call_title(gate.name)} did not run. The person edited "
        gate.result += f"its arguments to {edit}, but this approval cannot pass an edit to the tool. Do not "
        gate.result += "retry the call as it was; make it with those arguments if they are what is needed."
    if gate.edited and not runs:  # AG2's fixed denied message does not say why, nor what the edit was
        if held is not None:
            held.result = gate.result
        else:  # the model reads it after the call's result, before its next step
            context.enqueue(f"About your call {event.tool_call_id} of {gate.name}: {gate.result}")
    return _YES if runs else _NO


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

    def __init__(self, *, timeout: float | None = DEFAULT_TIMEOUT, schema: Mapping[str, Any] | None = None) -> None:
        self._timeout = timeout
        self._schema = dict(schema) if schema is not None else None

    async def __call__(self, call_next: ToolExecution, event: ToolCallEvent, context: Context) -> ToolResultType:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        try:
            arguments: dict[str, Any] | str = event.serialized_arguments
        except json.JSONDecodeError:
            arguments = event.arguments
        gate = _Gate(event.name, arguments, self._schema, self._timeout)
        prompt = f"Approve the call of `{event.name}` with {event.arguments}?"
        # No timeout of AG2's (its end is an error that ends the turn): nbask's ends as a rejection.
        request = ToolApprovalRequest(prompt, tool_call_id=event.id, timeout=None)
        _GATES[request.id] = gate
        try:
            reply = await context.ask(request)
        finally:
            _GATES.pop(request.id, None)
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
    *, timeout: float | None = DEFAULT_TIMEOUT, schema: Mapping[str, Any] | None = None
) -> ApprovalRequired:
    """A tool middleware, in place of AG2's ``approval_required()``: ``@tool(middleware=[...])``.
    Each call waits ``timeout`` seconds for an approval (then it is rejected); with ``schema``
    (the tool's JSON Schema of arguments) an edit is checked before the call runs. The agent's
    ``hitl_hook`` must be nbask's (``hitl_hook``, ``hitl_hook_with(...)``, ``run``, ``run_sync``).
    """
    return ApprovalRequired(timeout=timeout, schema=schema)


def requires_approval(
    function: FunctionTool | Callable[..., Any], *, timeout: float | None = DEFAULT_TIMEOUT
) -> FunctionTool:
    """``function`` (a function or an AG2 tool) gated by ``approval_required``, an edit checked
    against its JSON Schema of arguments.
    """
    made = function if isinstance(function, FunctionTool) else tool(function)
    return made.with_middleware(approval_required(timeout=timeout, schema=made.schema.function.parameters))


# -- run a turn --------------------------------------------------------------------------------


def _running(
    agent: Agent[Any], *msg: Any, timeout: float | None = DEFAULT_TIMEOUT, **ask_kwargs: Any
) -> _seam.Asking[AgentReply[Any, Any]]:
    """``await agent.ask(*msg, **ask_kwargs)`` with nbask's hook (``timeout`` seconds for each
    answer); a replay miss raises ``nbask.ReplayMissing``.
    """
    middleware = [*ask_kwargs.pop("middleware", ()), CarryEdits]  # innermost: next to the tool's own
    try:
        reply: AgentReply[Any, Any] = yield _seam.Work(
            partial(agent.ask, *msg, hitl_hook=hitl_hook_with(timeout=timeout), middleware=middleware, **ask_kwargs)
        )
    except HumanInputFailedError as failed:
        if isinstance(failed.cause, ReplayMissing):
            raise failed.cause from None
        raise
    return reply


run, run_sync = _seam.twins(
    _running,
    "run",
    """The blocking twin of ``run``: the turn runs on an event loop of its own in a worker thread
    (so it also works in a cell, whose loop is running) while this thread waits; its questions
    are asked from there, as nbask asks from any worker thread.
    An interrupt ends the turn, waits for it to end, and is raised.""",
)
