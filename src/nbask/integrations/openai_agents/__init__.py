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

import dataclasses
import json
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from typing import Any, Final

from agents import (
    Agent,
    FunctionTool,
    RunConfig,
    Runner,
    RunResult,
    RunResultStreaming,
    RunState,
    ToolApprovalItem,
    TResponseInputItem,
)
from agents.stream_events import StreamEvent

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from ...models import Decision
from .._seam import (
    Asking,
    EditNotUsable,
    Work,
    answerable_by,
    approval,
    arguments_text,
    call_title,
    drive,
    drive_sync,
    edited_arguments,
    not_run_text,
    resuming,
    together,
    twins,
)
from . import _always as _remembered
from . import _later
from ._always import (
    Batch,
    Earlier,
    always,
    always_rejected_text,
    by_person,
    name,
)
from ._text import ALWAYS_REJECTED, retry_text, run_kwargs, texts_for

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

#: Added to every approval's title: an edit does not run the call, the model is asked to retry.
EDIT_NOTICE: Final = "(edits are sent back to the model as a request to retry)"
#: The options of the question asked after the person's second approval, or rejection, of a tool
#: in a run; only ALWAYS holds the decision for the rest of the run.
JUST_ONCE: Final = _remembered.JUST_ONCE
#: The option that approves (``always_approve=True``) or rejects (``always_reject=True``) the
#: tool for the rest of the run.
ALWAYS: Final = _remembered.ALWAYS
#: The caller's own text for a rejection: a string, or a function of the call and nbask's
#: decision that returns the text (None: the run's tool_error_formatter or nbask's text).
RejectionMessage = str | Callable[[ToolApprovalItem, Decision], "str | None"]

#: Bookkeeping fields of a raw tool call that are not its arguments.
_NOT_ARGUMENTS = frozenset({"id", "call_id", "type", "status", "approval_request_id", "created_by"})

#: Raw item types of hosted MCP approvals: the SDK sends only an explicit rejection_message, no formatter.
_HOSTED = frozenset({"mcp_approval_request", "hosted_tool_call"})


@dataclasses.dataclass(frozen=True)
class _Verdict:
    """One call approved, or not run with ``text`` (``decision``: a rejection); ``always``: for
    the rest of the run.
    """

    item: ToolApprovalItem
    approve: bool = False
    always: bool = False
    text: str = ""
    decision: Decision | None = None


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
    while _pending(result)[1]:
        state, items = _pending(result)
        with resuming.keeping(paused, state.to_string):
            verdicts = yield from _asking(items, timeout, earlier)
        _apply(state, verdicts, rejection_message, texts)
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
    state, items = _pending(result)
    with answerable_by(approvers):
        verdicts = await drive(_asking(items, timeout, Earlier.of(result)))
    _apply(state, verdicts, rejection_message, texts_for(run_config))
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
    state, items = _pending(result)
    with answerable_by(approvers):
        verdicts = drive_sync(_asking(items, timeout, Earlier.of(result)))
    _apply(state, verdicts, rejection_message, texts_for(run_config))
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
            state, items = _pending(self.result)
            with answerable_by(self._approvers):
                verdicts = await drive(_asking(items, self._timeout, self._earlier))
            _apply(state, verdicts, self._rejection_message, self._texts)
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


# -- what is pending, and how it is decided --------------------------------------------------


def _pending(result: object) -> tuple[RunState[Any], list[ToolApprovalItem]]:
    """The state to decide on and its pending calls."""
    if isinstance(result, RunState):
        return result, result.get_interruptions()
    if isinstance(result, RunResult | RunResultStreaming):
        return result.to_state(), list(result.interruptions)
    msg = (
        "resolve(result): result must be the RunResult or RunResultStreaming of a run, "
        f"or a RunState, not {type(result).__name__}"
    )
    raise TypeError(msg)


def _asking(items: Sequence[ToolApprovalItem], timeout: float | None, earlier: Earlier) -> Asking[list[_Verdict]]:
    """Ask about every pending call together: the person sees the whole batch and answers in any
    order. "Always allow in this run?" follows the person's approval of a tool they approved
    earlier in the run (``earlier``: an earlier batch, or a call before it in this one), at most
    once per tool and batch; "Always reject in this run?" follows a rejection alike.
    """
    batch = Batch(earlier)
    verdicts = yield from together([_decide(item, timeout, batch) for item in items])
    return verdicts


def _decide(item: ToolApprovalItem, timeout: float | None, batch: Batch) -> Asking[_Verdict]:
    """One pending call: its approval, then (the person's approval or rejection of a tool they
    decided alike before) whether for the run. ``together`` hands a round's outcomes to the
    batch's calls in order, so ``batch`` has the decisions of the calls before this one.
    """
    tool_name = name(item)
    title = call_title(tool_name)
    arguments = _arguments(item)
    schema = _schema(item) if isinstance(arguments, dict) else None
    shown = arguments_text(arguments)
    decision = yield approval(
        call_title(tool_name, EDIT_NOTICE),
        shown,
        timeout=timeout,
        tool_call_id=item.call_id,
        schema=schema,
        edits="sent_back",
        source=getattr(item.agent, "name", None),  # which agent asks: told apart in a batch
    )
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "reject":
        asks = by_person(decision) and batch.again(item, approve=False)
        held = (yield from always(item, tool_name, timeout, approve=False)) if asks else False
        text = not_run_text(decision, title)
        return _Verdict(
            item, text=always_rejected_text(text, tool_name) if held else text, decision=decision, always=held
        )
    if decision.decision == "edit":
        try:
            edited = edited_arguments(decision)
        except EditNotUsable as why:
            return _Verdict(item, text=not_run_text(decision, title, why), decision=decision)
        if edited != arguments:
            return _Verdict(item, text=retry_text(tool_name, decision, edited))
        # opened for editing, sent back unchanged: an approval
    if decision.decided_by != "person":
        return _Verdict(item, approve=True)
    held = (yield from always(item, tool_name, timeout, approve=True)) if batch.again(item, approve=True) else False
    return _Verdict(item, approve=True, always=held)


def _apply(
    state: RunState[Any],
    verdicts: list[_Verdict],
    rejection_message: RejectionMessage | None,
    texts: dict[str, str] | None,
) -> None:
    """Record each verdict on ``state``. A rejection's text: the caller's own words, else left to
    the run's tool_error_formatter (``texts`` not None; nbask's text kept there), else nbask's.
    The "always" verdicts go first: the SDK's always resets the tool's per-call decisions, so a
    call of the batch decided once keeps its own decision after it.
    """
    for verdict in sorted(verdicts, key=lambda verdict: not verdict.always):
        item = verdict.item
        if verdict.approve:
            state.approve(item, always_approve=verdict.always)
            continue
        text = verdict.text
        if verdict.decision is not None:
            own = rejection_message(item, verdict.decision) if callable(rejection_message) else rejection_message
            if own is not None:
                text = own
            elif texts is not None and _raw_type(item) not in _HOSTED and item.call_id:
                texts[item.call_id] = text
                if verdict.always and item.tool_name:  # the SDK's later rejections of the tool
                    texts[ALWAYS_REJECTED + item.tool_name] = text
                state.reject(item, always_reject=verdict.always)
                continue
        state.reject(item, always_reject=verdict.always, rejection_message=text)


def _raw_type(item: ToolApprovalItem) -> object:
    raw = item.raw_item
    return raw.get("type") if isinstance(raw, dict) else getattr(raw, "type", None)


# -- a call's arguments --------------------------------------------------------------------------


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
