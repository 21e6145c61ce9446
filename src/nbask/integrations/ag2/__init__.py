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

from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Final

from ag2 import Agent, AgentReply, Context
from ag2.events import HumanInputRequest, ToolApprovalRequest
from ag2.exceptions import HumanInputError, HumanInputFailedError, HumanInputNotProvidedError, HumanInputTimeoutError

from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import ReplayMissing
from ...identity import checked_approvers
from ...kinds.form.request import form_request
from ...models import FormAnswer
from .. import _seam, _texts
from ._interrupt import Interrupted, asked
from ._tools import (
    GATES,
    NO,
    YES,
    ApprovalRequired,
    CarryEdits,
    approval_required,
    approving,
    requires_approval,
    stock_answer,
)

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

#: Why a turn ended on a kernel interrupt (what ``Interrupted`` says).
INTERRUPTED: Final = _texts.INTERRUPTED
#: The text form's one field.
REPLY: Final = _texts.REPLY

HumanHook = Callable[[HumanInputRequest, Context], Awaitable[str]]

# -- the hook ----------------------------------------------------------------------------------


async def hitl_hook(event: HumanInputRequest, context: Context) -> str:
    """AG2's ``hitl_hook``: the request asked in the cell (see the module docstring); waits
    ``event.timeout`` seconds where the request has one, else nbask's default.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _answer(event, context, DEFAULT_TIMEOUT)


def hitl_hook_with(*, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None) -> HumanHook:
    """A ``hitl_hook`` that waits ``timeout`` seconds for each answer (None: no limit) where the
    request does not carry its own ``timeout``; only ``approvers`` may answer, when named.
    """
    checked = checked_approvers(approvers)

    async def hitl_hook(event: HumanInputRequest, context: Context) -> str:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with _seam.answerable_by(checked):
            return await _answer(event, context, timeout)

    return hitl_hook


async def _answer(event: HumanInputRequest, context: Context, timeout: float | None) -> str:
    timeout = event.timeout if event.timeout is not None else timeout
    if isinstance(event, ToolApprovalRequest):
        gate = GATES.get(event.id)
        if gate is not None:  # nbask's middleware: it runs the call with the person's edit
            with _seam.answerable_by(gate.approvers):  # the gate's own, before the hook's
                runs = await asked(approving(gate, event.tool_call_id, gate.timeout))
            return YES if runs else NO
        return await stock_answer(event, context, timeout)
    reply = await asked(_replying(event.content, timeout, context.tool_call_id))
    if isinstance(reply, HumanInputError):
        raise reply
    return reply


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


# -- run a turn --------------------------------------------------------------------------------


def _running(
    agent: Agent[Any],
    *msg: Any,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    **ask_kwargs: Any,
) -> _seam.Asking[AgentReply[Any, Any]]:
    """``await agent.ask(*msg, **ask_kwargs)`` with nbask's hook (``timeout`` seconds for each
    answer, only ``approvers`` answering when named); a replay miss raises ``nbask.ReplayMissing``.
    """
    # The hook runs inside the turn (on a worker loop for run_sync): it takes the approvers itself.
    hook = hitl_hook_with(timeout=timeout, approvers=approvers)
    middleware = [*ask_kwargs.pop("middleware", ()), CarryEdits]  # innermost: next to the tool's own
    try:
        reply: AgentReply[Any, Any] = yield _seam.Work(
            partial(agent.ask, *msg, hitl_hook=hook, middleware=middleware, **ask_kwargs)
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
