"""The OpenAI Agents SDK's tool approvals, answered in the cell.

A tool with ``needs_approval`` (a function, shell, apply_patch or custom tool) or a hosted MCP
tool with ``require_approval`` stops ``Runner.run``: the result carries ``interruptions``, one
``ToolApprovalItem`` per call. Each becomes an nbask approval titled "Call <tool>" whose details
are the call's arguments as JSON:

- Approve -> ``state.approve(item)``: the SDK runs the call. Then "Always allow <tool> in this
  run?" offers the SDK's own choice: "Always in this run" is ``always_approve=True`` (no more
  asking about that tool in this run); "Just this call (Recommended)" is the default, and only
  a person's answer chooses "always" (never a policy or a dismiss).
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
import inspect
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
    ToolErrorFormatterArgs,
    TResponseInputItem,
)
from agents.stream_events import StreamEvent

from ..api import one_question_set
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..kinds import QuestionRequest
from ..models import Answer, Decision
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
#: The options of the question asked after an approval; only ALWAYS approves the tool for the run.
JUST_ONCE: Final = "Just this call (Recommended)"
ALWAYS: Final = "Always in this run"

#: The caller's own text for a rejection: a string, or a function of the call and nbask's
#: decision that returns the text (None: the run's tool_error_formatter or nbask's text).
RejectionMessage = str | Callable[[ToolApprovalItem, Decision], "str | None"]

#: Runner.run arguments the resumed RunState carries itself: passing the first run's value again
#: would replace the state's newer one (the last response id of a server-managed conversation).
_STATE_OWNED = frozenset({"previous_response_id", "auto_previous_response_id"})

#: Bookkeeping fields of a raw tool call that are not its arguments.
_NOT_ARGUMENTS = frozenset({"id", "call_id", "type", "status", "approval_request_id", "created_by"})

#: Raw item types of hosted MCP approvals: the SDK sends only an explicit rejection_message, no formatter.
_HOSTED = frozenset({"mcp_approval_request", "hosted_tool_call"})


@dataclasses.dataclass(frozen=True)
class _Verdict:
    """One call approved (``always``: for the run), or not run with ``text`` (``decision``: a rejection)."""

    item: ToolApprovalItem
    approve: bool = False
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
    first, resume, texts = _run_kwargs(agent, "run", runner_kwargs)
    result = await Runner.run(agent, input, **first)
    while result.interruptions:
        state, items = _pending(result)
        _apply(state, await drive(_asking(items, timeout)), rejection_message, texts)
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
    _apply(state, await drive(_asking(items, timeout)), rejection_message, _texts_for(run_config))
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
    _apply(state, drive_sync(_asking(items, timeout)), rejection_message, _texts_for(run_config))
    return state


class StreamedRun:
    """``Runner.run_streamed`` with the approvals answered between streams, as the SDK's example
    does: ``stream_events()`` yields each streamed run's events, answers its interruptions and
    resumes streamed, until a run ends without them. ``result``: the current RunResultStreaming.
    """

    def __init__(self, agent: Agent[Any], start: Any, timeout: float | None, rejection: Any, kwargs: Any) -> None:
        first, self._resume, self._texts = _run_kwargs(agent, "run_streamed", kwargs)
        self._agent, self._timeout, self._rejection_message = agent, timeout, rejection
        self.result: RunResultStreaming = Runner.run_streamed(agent, start, **first)

    async def stream_events(self) -> AsyncIterator[StreamEvent]:
        """Every streamed run's events, the interruptions answered in the cell between runs."""
        while True:
            async for event in self.result.stream_events():
                yield event
            if not self.result.interruptions:
                return
            state, items = _pending(self.result)
            verdicts = await drive(_asking(items, self._timeout))
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


def _asking(items: Sequence[ToolApprovalItem], timeout: float | None) -> Asking[list[_Verdict]]:
    """Ask about each pending call in turn; a tool the person allowed for the run is not asked again."""
    verdicts: list[_Verdict] = []
    allowed: set[tuple[int, str]] = set()
    for item in items:
        tool = (id(item.agent), _name(item))
        if tool in allowed:
            verdicts.append(_Verdict(item, approve=True))
            continue
        verdict = yield from _decide(item, timeout)
        if verdict.always:
            allowed.add(tool)
        verdicts.append(verdict)
    return verdicts


def _name(item: ToolApprovalItem) -> str:
    return item.qualified_name or item.name or "tool"


def _decide(item: ToolApprovalItem, timeout: float | None) -> Asking[_Verdict]:
    """One pending call: its approval, then (after a person's approve) whether for the whole run."""
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
            return _Verdict(item, text=_retry_text(name, decision, edited))
        return _Verdict(item, approve=True)  # opened for editing, sent back unchanged: an approval
    always = (yield from _always(item, name, timeout)) if decision.decided_by == "person" else False
    return _Verdict(item, approve=True, always=always)


def _always(item: ToolApprovalItem, name: str, timeout: float | None) -> Asking[bool]:
    """Whether the approval holds for the tool's calls in this run: only a person's ALWAYS says yes."""
    question = f"Always allow {call_title(name)[len('Call ') :]} in this run?"
    question_set = one_question_set(question, [JUST_ONCE, ALWAYS], header="Remember")
    asked = QuestionRequest(question_set=question_set, timeout=timeout, tool_call_id=item.call_id)
    answer = yield asked
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    return answer.status == "answered" and answer.decided_by == "person" and answer.answers.get(question) == ALWAYS


def _retry_text(name: str, decision: Decision, edited: dict[str, Any]) -> str:
    """What the model reads after a usable edit: call the tool again with the person's arguments."""
    note = decision.reason.strip()
    if note and note[-1] not in ".!?":
        note += "."
    note = f" Their note: {note}" if note else ""
    arguments = json.dumps(edited, ensure_ascii=False)
    return (
        f"Not run: the person did not approve these arguments and edited them.{note} "
        f"Call {name} again with these arguments instead: {arguments}"
    )


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


# -- the run's tool_error_formatter ------------------------------------------------------------


def _texts_for(run_config: object) -> dict[str, str] | None:
    """A place for nbask's rejection texts when the run has a tool_error_formatter, else None."""
    return {} if isinstance(run_config, RunConfig) and run_config.tool_error_formatter is not None else None


def _run_kwargs(
    agent: object, where: str, runner_kwargs: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str] | None]:
    """The first run's and the resumptions' Runner arguments, and ``_texts_for`` the run_config."""
    if not isinstance(agent, Agent):
        msg = f"{where}(agent, input): agent must be an agents.Agent, not {type(agent).__name__}"
        raise TypeError(msg)
    run_config = runner_kwargs.get("run_config")
    first = dict(runner_kwargs)
    texts = _texts_for(run_config)
    if texts is not None and isinstance(run_config, RunConfig):
        formatter = _formatter(run_config.tool_error_formatter, texts)
        first["run_config"] = dataclasses.replace(run_config, tool_error_formatter=formatter)
    resume = {key: value for key, value in first.items() if key not in _STATE_OWNED}
    return first, resume, texts


def _formatter(own: Any, texts: dict[str, str]) -> Callable[[ToolErrorFormatterArgs[Any]], Any]:
    """The caller's formatter; for a call nbask rejected, with nbask's text as ``default_message``
    (its None keeps that text). Other errors reach it unchanged.
    """

    async def formatter(args: ToolErrorFormatterArgs[Any]) -> str | None:
        text = texts.get(args.call_id) if args.kind == "approval_rejected" else None
        message = own(args if text is None else dataclasses.replace(args, default_message=text))
        if inspect.isawaitable(message):
            message = await message
        return text if message is None else message

    return formatter


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
