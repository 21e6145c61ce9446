"""Python functions for agent frameworks that build tools from a function's signature and
docstring (pydantic-ai ``Agent(tools=[...])``, the OpenAI Agents SDK's ``function_tool``,
LangChain's ``StructuredTool``): ``function`` (async) and ``function_sync`` (blocking), and
``gate``, the approval gate whose rejections the model reads.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic_core import to_jsonable_python

from .. import config
from ..approvals import approval_decorator, approval_gated
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..errors import ApprovalRejected, NoOneCanAnswer
from ..kinds import ApprovalRequest
from ..models import Decision, Risk
from ..resolvers.run import refused, run_request, run_request_sync
from ..waiting import WaitingUnsupported
from .call import call, call_sync
from .dialects import DEFAULT_TOOL_NAME, Dialect, dialect_for
from .late import with_late_text

F = TypeVar("F", bound=Callable[..., Any])


def function(
    tool_name: str = DEFAULT_TOOL_NAME, *, timeout: float | None = DEFAULT_TIMEOUT
) -> Callable[..., Awaitable[str]]:
    """An async function named ``tool_name``, with the dialect's typed parameters and a docstring
    that teaches the model when to ask; it returns the text the model reads (the answer in the
    dialect's format, or an error that starts with "Error:"). It never raises for a model's
    mistake or for "no one can answer here" (kept in ``nbask.history()``); a kernel interrupt and
    a replay miss (``nbask.ReplayMissing``) still propagate.

        agent = pydantic_ai.Agent(model, tools=[nbask.tools.function()])
        tool = agents.function_tool(nbask.tools.function())
        tool = StructuredTool.from_function(coroutine=nbask.tools.function())
    """
    dialect = dialect_for(tool_name)

    async def ask_tool(**arguments: Any) -> str:
        result = await call(_plain(arguments), tool_name=dialect.name, timeout=timeout)
        return result.output

    return _as_tool(ask_tool, dialect)


def function_sync(tool_name: str = DEFAULT_TOOL_NAME, *, timeout: float | None = DEFAULT_TIMEOUT) -> Callable[..., str]:
    """The blocking twin of ``function``, for frameworks that call tools synchronously (LangChain's
    ``tool.invoke``, a plain agent loop): the same name, typed parameters and docstring; each call
    maps the arguments to ``nbask.tools.call_sync`` (nbask's sync path, like ``nbask.ask_sync``)
    and returns the text the model reads (the answer in the dialect's format, or an error that
    starts with "Error:"). It blocks the calling thread until the person answers, dismisses or the
    ``timeout`` (seconds; ``None`` waits forever) passes; headless policies answer at once. It
    never raises for a model's mistake or for "no one can answer here" (kept in
    ``nbask.history()``); a kernel interrupt and a replay miss (``nbask.ReplayMissing``) still
    propagate. Use ``function`` in async code: a blocking wait inside a running event loop would
    stall it.

        tool = StructuredTool.from_function(func=nbask.tools.function_sync())
        tool.invoke({"questions": [...]})
    """
    dialect = dialect_for(tool_name)

    def ask_tool(**arguments: Any) -> str:
        return call_sync(_plain(arguments), tool_name=dialect.name, timeout=timeout).output

    return _as_tool(ask_tool, dialect)


def _plain(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as plain JSON data (a framework may hand over validated models)."""
    return {name: to_jsonable_python(value) for name, value in arguments.items()}


T = TypeVar("T", bound=Callable[..., Any])


def _as_tool(ask_tool: T, dialect: Dialect) -> T:
    """``ask_tool`` named after the dialect, with its typed signature and its docstring."""
    parameters = dialect.parameters()
    ask_tool.__name__ = ask_tool.__qualname__ = dialect.name
    ask_tool.__doc__ = dialect.function_doc()
    ask_tool.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    ask_tool.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": str}
    return ask_tool


@approval_decorator
def gate(function: F, action: str | None, timeout: float | None, risk: Risk | None) -> F:
    """``@nbask.requires_approval`` for a tool an agent framework calls: each call waits for the
    person's decision, and a rejection comes back as the tool's result (text saying the call did
    not run, and why) instead of an exception, so the model reads it in its next turn.

    "Approve" runs the call; "Edit" runs it with the edited arguments; "Reject", a dismiss, a
    timeout, an unattended policy or no one to ask returns the rejection text (no one to ask is
    kept in ``nbask.history()`` as an approval rejected by policy). A replay miss is no
    rejection: ``nbask.ReplayMissing`` propagates, so a replayed run that asks for an approval its
    recording lacks fails instead of going on. Works on plain
    and ``async`` functions and keeps their signature and docstring. ``risk`` tags each approval
    with what is at stake ("low", "medium" or "high"), as ``nbask.approve(risk=...)`` does.

        @nbask.tools.gate
        def drop_table(name: str) -> str: ...
        agent = pydantic_ai.Agent(model, tools=[drop_table])
    """
    title = action or f"Call {function.__name__}"
    gated = approval_gated(
        function, action=title, timeout=timeout, risk=risk, run=_run_or_refuse, run_sync=_run_or_refuse_sync
    )

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def async_gate(*args: Any, **kwargs: Any) -> Any:
            try:
                return await gated(*args, **kwargs)
            except ApprovalRejected as rejected:
                return rejection_text(rejected)
            except _Unasked as unasked:
                return unasked_text(title, unasked.error)

        return async_gate  # type: ignore[return-value]

    @functools.wraps(function)
    def sync_gate(*args: Any, **kwargs: Any) -> Any:
        try:
            return gated(*args, **kwargs)
        except ApprovalRejected as rejected:
            return rejection_text(rejected)
        except _Unasked as unasked:
            return unasked_text(title, unasked.error)

    return sync_gate  # type: ignore[return-value]


class _Unasked(Exception):
    """No one could be asked to approve the call; its refusal is already in the history."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


async def _run_or_refuse(request: ApprovalRequest) -> Decision:
    """The approval's decision; when no one can be asked, its refusal is recorded and ``_Unasked``
    raised (only the approval's own refusal: the gated function's errors pass through as they are).
    """
    try:
        return await run_request(request, queue=True)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        refused(request, error)  # a replay miss raises from here
        raise _Unasked(error) from error


def _run_or_refuse_sync(request: ApprovalRequest) -> Decision:
    """The blocking twin of ``_run_or_refuse``."""
    try:
        return run_request_sync(request, queue=True)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        refused(request, error)  # a replay miss raises from here
        raise _Unasked(error) from error


DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."


def rejection_text(rejected: ApprovalRejected) -> str:
    """What the model reads when the person (or a policy) did not approve a call."""
    decision = rejected.decision
    # A replayed decision reads as it did when recorded (``decided_by``), a person's reason included.
    if decision.status == "answered" and decision.decided_by == "person":
        user = decision.answered_by_user if config.share_username_in_force() else None
        who = f"The person ({user}) rejected it" if user else "The person rejected it"
    elif decision.status == "answered":
        who = f"It was rejected by {decision.decided_by}, not by a person"
    elif decision.status == "dismissed" and decision.decided_by == "person":
        who = "The person dismissed the approval request without approving it"
    elif decision.status == "dismissed":
        who = f"It was dismissed by {decision.decided_by}, not by a person"
    elif decision.status == "timeout":
        who = "No one approved it in time"
    else:
        who = "The approval request was cancelled"
    reason = decision.reason.strip()
    if reason and reason[-1] not in ".!?":
        reason += "."
    reason = f" Reason: {reason}" if reason else ""
    return with_late_text(f"Not approved: {rejected.action} did not run. {who}.{reason} {DO_NOT_RETRY}")


def unasked_text(title: str, error: Exception) -> str:
    """What the model reads when no one could be asked to approve a call."""
    return with_late_text(
        f"Not approved: {title} did not run, because no one could be asked to approve it: {error} {DO_NOT_RETRY}"
    )
