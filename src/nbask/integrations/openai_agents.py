"""The OpenAI Agents SDK's tool approvals, answered in the cell.

A tool with ``needs_approval`` (a function, shell, apply_patch or custom tool) or a hosted MCP
tool with ``require_approval`` stops ``Runner.run``: the result carries ``interruptions``, one
``ToolApprovalItem`` per call. Each becomes an nbask approval titled "Call <tool>" whose details
are the call's arguments as JSON:

- Approve -> ``state.approve(item)``: the SDK runs the call; a first approval of a tool is one
  click. When the person approves a tool they already approved once earlier in the run, "Always
  allow <tool> in this run?" then offers the SDK's own choice: "Always in this run" is
  ``always_approve=True`` (the tool's other calls in the batch and the run are not asked about);
  "Just this call (Recommended)" is the default. Only a person's answer chooses "always" (never a
  policy, a dismiss, a timeout or a replayed policy). "Earlier in the run": every batch of
  ``run`` / ``run_streamed``; for ``resolve``, the batch, plus the approvals the SDK recorded in
  a ``RunResult``'s items (a bare ``RunState`` shows none through the SDK's public API).
- Reject (and a dismiss, a timeout, a headless policy, or no one to ask) -> ``state.reject``:
  the call does not run. The model reads, in the SDK's order: the caller's ``rejection_message``;
  else the run's ``RunConfig(tool_error_formatter=...)``, which ``run`` calls with nbask's text
  as ``default_message`` (its None keeps it); else nbask's text.
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

from ..api import one_question_set
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..kinds import QuestionRequest
from ..models import Answer, Decision
from ._openai_agents_text import retry_text, run_kwargs, texts_for
from ._seam import (
    Asking,
    EditNotUsable,
    approval,
    arguments_text,
    call_title,
    drive,
    drive_sync,
    edited_arguments,
    not_run_text,
    together,
)

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
]

#: Added to every approval's title: an edit does not run the call, the model is asked to retry.
EDIT_NOTICE: Final = "(edits are sent back to the model as a request to retry)"
#: The options of the question asked after a tool's second approval; only ALWAYS approves it for the run.
JUST_ONCE: Final = "Just this call (Recommended)"
#: The option that approves the tool for the rest of the run (``always_approve=True``).
ALWAYS: Final = "Always in this run"

#: The caller's own text for a rejection: a string, or a function of the call and nbask's
#: decision that returns the text (None: the run's tool_error_formatter or nbask's text).
RejectionMessage = str | Callable[[ToolApprovalItem, Decision], "str | None"]

#: Bookkeeping fields of a raw tool call that are not its arguments.
_NOT_ARGUMENTS = frozenset({"id", "call_id", "type", "status", "approval_request_id", "created_by"})

#: Raw item types of hosted MCP approvals: the SDK sends only an explicit rejection_message, no formatter.
_HOSTED = frozenset({"mcp_approval_request", "hosted_tool_call"})


#: A tool of one agent, as the SDK's always_approve scopes it.
_Tool = tuple[int, str]


@dataclasses.dataclass(frozen=True)
class _Verdict:
    """One call approved (``by_person``; ``always``: for the run), or not run with ``text``
    (``decision``: a rejection).
    """

    item: ToolApprovalItem
    approve: bool = False
    by_person: bool = False
    always: bool = False
    text: str = ""
    decision: Decision | None = None


async def run(
    agent: Agent[Any],
    input: str | list[TResponseInputItem] | RunState[Any],  # noqa: A002 - Runner.run's own name
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    rejection_message: RejectionMessage | None = None,
    **runner_kwargs: Any,
) -> RunResult:
    """``Runner.run(agent, input, **runner_kwargs)`` with every tool approval answered in the cell.

    Each time the run stops on ``result.interruptions``, every pending call is asked about in
    turn (``timeout`` seconds each) and the run resumes with ``Runner.run(agent, state, ...)``,
    until a run ends without interruptions; that result is returned. ``runner_kwargs``
    (``context``, ``run_config``, ``hooks``, ``session``, ``max_turns``, ...) are passed to the
    first run and to every resumption, except the response-chaining ids the state keeps itself.
    A rejection's text: ``rejection_message``, else ``run_config.tool_error_formatter`` (called
    with nbask's text as ``default_message``), else nbask's text. A kernel interrupt while the
    person decides propagates (KeyboardInterrupt); so does a replay miss.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    first, resume, texts = run_kwargs(agent, "run", runner_kwargs)
    result = await Runner.run(agent, input, **first)
    approved: set[_Tool] = set()  # the tools the person approved in earlier batches
    while result.interruptions:
        state, items = _pending(result)
        _apply(state, await drive(_asking(items, timeout, approved)), rejection_message, texts)
        result = await Runner.run(agent, state, **resume)
    return result


async def resolve(
    result: RunResult | RunResultStreaming | RunState[Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    rejection_message: RejectionMessage | None = None,
    run_config: RunConfig | None = None,
) -> RunState[Any]:
    """Ask about every pending tool call of an interrupted run and return the ``RunState`` with
    each one approved or rejected, ready for ``Runner.run(agent, state)``.

    ``result`` is what ``Runner.run`` returned (or a consumed ``Runner.run_streamed`` result),
    or a ``RunState`` (e.g. from ``RunState.from_json``); decided as the module docstring says.
    Pass the ``run_config`` you resume with when it has a ``tool_error_formatter``: a rejection's
    text is then left to it, as after ``state.reject(item)`` (the SDK gives it its own default).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    state, items = _pending(result)
    verdicts = await drive(_asking(items, timeout, _approved_earlier(result)))
    _apply(state, verdicts, rejection_message, texts_for(run_config))
    return state


def resolve_sync(
    result: RunResult | RunResultStreaming | RunState[Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    rejection_message: RejectionMessage | None = None,
    run_config: RunConfig | None = None,
) -> RunState[Any]:
    """The blocking twin of ``resolve``, for a loop around ``Runner.run_sync``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    state, items = _pending(result)
    verdicts = drive_sync(_asking(items, timeout, _approved_earlier(result)))
    _apply(state, verdicts, rejection_message, texts_for(run_config))
    return state


class StreamedRun:
    """``Runner.run_streamed`` with the approvals answered between streams, as the SDK's example
    does: ``stream_events()`` yields each streamed run's events, answers its interruptions and
    resumes streamed, until a run ends without them. ``result``: the current RunResultStreaming.
    """

    def __init__(self, agent: Agent[Any], start: Any, timeout: float | None, rejection: Any, kwargs: Any) -> None:
        first, self._resume, self._texts = run_kwargs(agent, "run_streamed", kwargs)
        self._agent, self._timeout, self._rejection_message = agent, timeout, rejection
        self._approved: set[_Tool] = set()  # the tools the person approved in earlier streamed runs
        self.result: RunResultStreaming = Runner.run_streamed(agent, start, **first)

    async def stream_events(self) -> AsyncIterator[StreamEvent]:
        """Every streamed run's events, the interruptions answered in the cell between runs."""
        while True:
            async for event in self.result.stream_events():
                yield event
            if not self.result.interruptions:
                return
            state, items = _pending(self.result)
            verdicts = await drive(_asking(items, self._timeout, self._approved))
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
    rejection_message: RejectionMessage | None = None,
    **runner_kwargs: Any,
) -> StreamedRun:
    """``Runner.run_streamed(agent, input, **runner_kwargs)`` answered in the cell (``StreamedRun``)."""
    return StreamedRun(agent, input, timeout, rejection_message, runner_kwargs)


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


def _approved_earlier(result: object) -> set[_Tool]:
    """The tools whose earlier calls in this run the SDK records as approved: a result's items
    (every batch since the run began) asked through ``is_tool_approved``; a RunState shows none.
    """
    if not isinstance(result, RunResult | RunResultStreaming):
        return set()
    pending = {item.call_id for item in result.interruptions}
    wrapper = result.context_wrapper
    return {
        _tool(item)
        for item in result.new_items
        if isinstance(item, ToolApprovalItem)
        and item.call_id not in pending
        and item.call_id
        and wrapper.is_tool_approved(_name(item), item.call_id)
    }


def _asking(items: Sequence[ToolApprovalItem], timeout: float | None, approved: set[_Tool]) -> Asking[list[_Verdict]]:
    """Ask about every pending call together: the person sees the whole batch and answers in any
    order. "Always allow in this run?" follows a person's approval at most once per tool: for a
    tool approved earlier in the run (``approved``; the person's approvals here are added), or
    on its second call in this batch.
    """
    seen: set[_Tool] = set()
    offered: set[_Tool] = set()
    askings = []
    for item in items:
        tool = _tool(item)
        again = tool not in offered and (tool in approved or tool in seen)
        offered.update([tool] if again else [])
        seen.add(tool)
        askings.append(_decide(item, timeout, again=again))
    verdicts = yield from together(askings)
    approved.update(_tool(verdict.item) for verdict in verdicts if verdict.by_person)
    return verdicts


def _tool(item: ToolApprovalItem) -> _Tool:
    return id(item.agent), _name(item)


def _name(item: ToolApprovalItem) -> str:
    return item.qualified_name or item.name or "tool"


def _decide(item: ToolApprovalItem, timeout: float | None, *, again: bool) -> Asking[_Verdict]:
    """One pending call: its approval, then (a person's approve of a tool ``again``) whether for the run."""
    name = _name(item)
    title = call_title(name)
    arguments = _arguments(item)
    schema = _schema(item) if isinstance(arguments, dict) else None
    shown = arguments_text(arguments)
    decision = yield approval(
        call_title(name, EDIT_NOTICE), shown, timeout=timeout, tool_call_id=item.call_id, schema=schema
    )
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "reject":
        return _Verdict(item, text=not_run_text(decision, title), decision=decision)
    if decision.decision == "edit":
        try:
            edited = edited_arguments(decision)
        except EditNotUsable as why:
            return _Verdict(item, text=not_run_text(decision, title, why), decision=decision)
        if edited != arguments:
            return _Verdict(item, text=retry_text(name, decision, edited))
        # opened for editing, sent back unchanged: an approval
    if decision.decided_by != "person":
        return _Verdict(item, approve=True)
    always = (yield from _always(item, name, timeout)) if again else False
    return _Verdict(item, approve=True, by_person=True, always=always)


def _always(item: ToolApprovalItem, name: str, timeout: float | None) -> Asking[bool]:
    """Whether the approval holds for the tool's calls in this run: only a person's ALWAYS says yes."""
    question = f"Always allow {call_title(name)[len('Call ') :]} in this run?"
    question_set = one_question_set(question, [JUST_ONCE, ALWAYS], header="Remember")
    asked = QuestionRequest(question_set=question_set, timeout=timeout, tool_call_id=item.call_id)
    answer = yield asked
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    return answer.status == "answered" and answer.decided_by == "person" and answer.answers.get(question) == ALWAYS


def _apply(
    state: RunState[Any],
    verdicts: list[_Verdict],
    rejection_message: RejectionMessage | None,
    texts: dict[str, str] | None,
) -> None:
    """Record each verdict on ``state``. A rejection's text: the caller's own words, else left to
    the run's tool_error_formatter (``texts`` not None; nbask's text kept there), else nbask's.
    """
    for verdict in verdicts:
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
                state.reject(item)
                continue
        state.reject(item, rejection_message=text)


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
