"""The OpenAI Agents SDK's tool approvals, answered in the cell.

A tool with ``needs_approval`` (a function, shell, apply_patch or custom tool) or a hosted MCP
tool with ``require_approval`` stops ``Runner.run``: the result carries ``interruptions``, one
``ToolApprovalItem`` per call. Each becomes an nbask approval titled "Call <tool>" whose details
are the call's arguments as JSON:

- Approve -> ``state.approve(item)``: the SDK runs the call; a first approval of a tool is one
  click. When the person approves a tool they already approved once earlier in the run, "Always
  allow <tool> in this run?" then offers the SDK's own choice: "Always in this run" is
  ``always_approve=True`` (the tool's later calls in the run are not asked about); "Just this
  call (Recommended)" is the default. Only a person's answer chooses "always" (never a policy,
  a dismiss, a timeout or a replayed policy; a replay replays what was recorded). "Earlier in
  the run": every batch of ``run`` / ``run_streamed``, or an earlier call of the tool in the
  batch; for ``resolve``, the batch, plus the decisions the SDK recorded in a ``RunResult``'s
  items (a bare ``RunState`` shows none through the SDK's public API).
- Reject (and a dismiss, a timeout, a headless policy, or no one to ask) -> ``state.reject``:
  the call does not run. When the person rejects a tool they already rejected once earlier in
  the run, "Always reject <tool> in this run?" offers ``always_reject=True`` the same way: the
  SDK then rejects the tool's later calls in the run without asking, with the same text. The
  model reads, in the SDK's order: the caller's ``rejection_message``; else the run's
  ``RunConfig(tool_error_formatter=...)``, which ``run`` calls with nbask's text as
  ``default_message`` (its None keeps it); else nbask's text. A call decided "just this call"
  in the batch keeps its own decision beside another call's "always".
- Edit -> the SDK cannot change a call's arguments, so the call is rejected with a message that
  gives the model the person's arguments and asks it to call the tool again with them (the
  approval's title says so before the person edits). Its next call is asked about in turn.

    result = await nbask.integrations.openai_agents.run(agent, "Clean up the warehouse.")

``run_streamed(agent, input).stream_events()`` does the same between streamed runs. A replay
miss raises ``nbask.ReplayMissing``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Any, Final

from agents import (
    Agent,
    RunConfig,
    Runner,
    RunResult,
    RunResultStreaming,
    RunState,
    TResponseInputItem,
)
from agents.stream_events import StreamEvent

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from .._seam import Asking, Work, answerable_by, drive, drive_sync, resuming, twins
from . import _always as _remembered
from . import _deciding, _later
from ._always import Earlier
from ._deciding import apply, asking, pending
from ._text import run_kwargs, texts_for

__all__ = [
    "ALWAYS",
    "EDIT_NOTICE",
    "JUST_ONCE",
    "RejectionMessage",
    "StreamedRun",
    "resolve",
    "resolve_sync",
    "run",
    "run_streamed",
    "run_sync",
]
#: The options of the question asked after the person's second approval, or rejection, of a tool
#: in a run; only ALWAYS holds the decision for the rest of the run.
JUST_ONCE: Final = _remembered.JUST_ONCE
#: The option that approves (``always_approve=True``) or rejects (``always_reject=True``) the
#: tool for the rest of the run.
ALWAYS: Final = _remembered.ALWAYS
#: Added to every approval's title: an edit does not run the call, the model is asked to retry.
EDIT_NOTICE: Final = _deciding.EDIT_NOTICE
#: The caller's own text for a rejection: a string, or a function of the call and nbask's
#: decision that returns the text (None: the run's tool_error_formatter or nbask's text).
RejectionMessage = _deciding.RejectionMessage


def _run(
    agent: Agent[Any],
    input: str | list[TResponseInputItem] | RunState[Any],  # noqa: A002 - Runner.run's own name
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    rejection_message: RejectionMessage | None = None,
    **runner_kwargs: Any,
) -> Asking[RunResult]:
    """``Runner.run(agent, input, **runner_kwargs)`` with every tool approval answered in the cell.

    Each time the run stops on ``result.interruptions``, every pending call is asked about in
    turn (``timeout`` seconds each) and the run resumes with ``Runner.run(agent, state, ...)``,
    until a run ends without interruptions; that result is returned. ``runner_kwargs``
    (``context``, ``run_config``, ``hooks``, ``session``, ``max_turns``, ...) are passed to the
    first run and to every resumption, except the response-chaining ids the state keeps itself.
    A rejection's text: ``rejection_message``, else ``run_config.tool_error_formatter`` (called
    with nbask's text as ``default_message``), else nbask's text. A kernel interrupt while the
    person decides propagates (KeyboardInterrupt); so does a replay miss. ``approvers``: only
    these people may answer what the run asks.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    first, resume, texts = run_kwargs(agent, "run", runner_kwargs)
    paused = _later.key(agent, input)
    kept = resuming.kept(paused)
    earlier = Earlier()  # the tools the person approved or rejected in earlier batches
    if kept is not None:
        # A run of this agent and input paused for answers given later: go on from there, the
        # model not asked again for the steps it already took.
        state: RunState[Any] = yield Work(partial(RunState.from_string, agent, kept))
        result: RunResult | RunState[Any] = state
    else:
        # Async only: the blocking twin runs the SDK's loop on a worker loop of its own, which also
        # works inside a notebook cell (Runner.run_sync would need the cell's running loop).
        result = yield Work(partial(Runner.run, agent, input, **first))
    while pending(result)[1]:
        state, items = pending(result)
        with resuming.keeping(paused, state.to_string):
            verdicts = yield from asking(items, timeout, earlier)
        apply(state, verdicts, rejection_message, texts)
        result = yield Work(partial(Runner.run, agent, state, **resume))
    resuming.resumed(paused)
    assert isinstance(result, RunResult)  # noqa: S101 - a run without interruptions
    return result


run, run_sync = twins(
    _run, "run", "The blocking twin of ``run``, for synchronous code; it also works in a notebook cell."
)


async def resolve(
    result: RunResult | RunResultStreaming | RunState[Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    rejection_message: RejectionMessage | None = None,
    run_config: RunConfig | None = None,
) -> RunState[Any]:
    """Ask about every pending tool call of an interrupted run and return the ``RunState`` with
    each one approved or rejected, ready for ``Runner.run(agent, state)``.

    ``result`` is what ``Runner.run`` returned (or a consumed ``Runner.run_streamed`` result),
    or a ``RunState`` (e.g. from ``RunState.from_json``); decided as the module docstring says.
    Pass the ``run_config`` you resume with when it has a ``tool_error_formatter``: a rejection's
    text is then left to it, as after ``state.reject(item)`` (the SDK gives it its own default).
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    state, items = pending(result)
    with answerable_by(approvers):
        verdicts = await drive(asking(items, timeout, Earlier.of(result)))
    apply(state, verdicts, rejection_message, texts_for(run_config))
    return state


def resolve_sync(
    result: RunResult | RunResultStreaming | RunState[Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    rejection_message: RejectionMessage | None = None,
    run_config: RunConfig | None = None,
) -> RunState[Any]:
    """The blocking twin of ``resolve``, for a loop around ``Runner.run_sync``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    state, items = pending(result)
    with answerable_by(approvers):
        verdicts = drive_sync(asking(items, timeout, Earlier.of(result)))
    apply(state, verdicts, rejection_message, texts_for(run_config))
    return state


class StreamedRun:
    """``Runner.run_streamed`` with the approvals answered between streams, as the SDK's example
    does: ``stream_events()`` yields each streamed run's events, answers its interruptions and
    resumes streamed, until a run ends without them. ``result``: the current RunResultStreaming.
    """

    def __init__(
        self,
        agent: Agent[Any],
        start: Any,
        timeout: float | None,
        rejection: Any,
        kwargs: Any,
        *,
        approvers: Sequence[str] | None = None,
    ) -> None:
        self._approvers = checked_approvers(approvers)
        first, self._resume, self._texts = run_kwargs(agent, "run_streamed", kwargs)
        self._agent, self._timeout, self._rejection_message = agent, timeout, rejection
        self._earlier = Earlier()  # the tools the person decided in earlier streamed runs
        self.result: RunResultStreaming = Runner.run_streamed(agent, start, **first)

    async def stream_events(self) -> AsyncIterator[StreamEvent]:
        """Every streamed run's events, the interruptions answered in the cell between runs."""
        while True:
            async for event in self.result.stream_events():
                yield event
            if not self.result.interruptions:
                return
            state, items = pending(self.result)
            with answerable_by(self._approvers):
                verdicts = await drive(asking(items, self._timeout, self._earlier))
            apply(state, verdicts, self._rejection_message, self._texts)
            self.result = Runner.run_streamed(self._agent, state, **self._resume)

    @property
    def final_output(self) -> Any:
        """The last streamed run's final output."""
        return self.result.final_output


def run_streamed(
    agent: Agent[Any],
    input: str | list[TResponseInputItem] | RunState[Any],  # noqa: A002 - Runner's own name
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    rejection_message: RejectionMessage | None = None,
    **runner_kwargs: Any,
) -> StreamedRun:
    """``Runner.run_streamed(agent, input, **runner_kwargs)`` answered in the cell (``StreamedRun``);
    ``approvers``: only these people may answer.
    """
    return StreamedRun(agent, input, timeout, rejection_message, runner_kwargs, approvers=approvers)
