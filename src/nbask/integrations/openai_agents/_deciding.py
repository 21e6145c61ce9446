"""What an OpenAI Agents SDK run's pending tool calls become: each asked as an approval (with
the "always" question after a second decision on one tool), and the verdicts applied to the
``RunState`` the run resumes from.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from agents import (
    FunctionTool,
    RunResult,
    RunResultStreaming,
    RunState,
    ToolApprovalItem,
)

from ...models import Decision
from .._seam import (
    Asking,
    EditNotUsable,
    approval,
    arguments_text,
    call_title,
    edited_arguments,
    not_run_text,
    together,
)
from ._always import (
    Batch,
    Earlier,
    always,
    always_rejected_text,
    by_person,
    name,
)
from ._text import ALWAYS_REJECTED, retry_text

#: Added to every approval's title: an edit does not run the call, the model is asked to retry.
EDIT_NOTICE: Final = "(edits are sent back to the model as a request to retry)"
#: The caller's own text for a rejection: a string, or a function of the call and nbask's
#: decision that returns the text (None: the run's tool_error_formatter or nbask's text).
RejectionMessage = str | Callable[[ToolApprovalItem, Decision], "str | None"]

#: Bookkeeping fields of a raw tool call that are not its arguments.
_NOT_ARGUMENTS = frozenset({"id", "call_id", "type", "status", "approval_request_id", "created_by"})

#: Raw item types of hosted MCP approvals: the SDK sends only an explicit rejection_message, no formatter.
_HOSTED = frozenset({"mcp_approval_request", "hosted_tool_call"})


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One call approved, or not run with ``text`` (``decision``: a rejection); ``always``: for
    the rest of the run.
    """

    item: ToolApprovalItem
    approve: bool = False
    always: bool = False
    text: str = ""
    decision: Decision | None = None


# -- what is pending, and how it is decided --------------------------------------------------


def pending(result: object) -> tuple[RunState[Any], list[ToolApprovalItem]]:
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


def asking(items: Sequence[ToolApprovalItem], timeout: float | None, earlier: Earlier) -> Asking[list[Verdict]]:
    """Ask about every pending call together: the person sees the whole batch and answers in any
    order. "Always allow in this run?" follows the person's approval of a tool they approved
    earlier in the run (``earlier``: an earlier batch, or a call before it in this one), at most
    once per tool and batch; "Always reject in this run?" follows a rejection alike.
    """
    batch = Batch(earlier)
    verdicts = yield from together([_decide(item, timeout, batch) for item in items])
    return verdicts


def _decide(item: ToolApprovalItem, timeout: float | None, batch: Batch) -> Asking[Verdict]:
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
        return Verdict(
            item, text=always_rejected_text(text, tool_name) if held else text, decision=decision, always=held
        )
    if decision.decision == "edit":
        try:
            edited = edited_arguments(decision)
        except EditNotUsable as why:
            return Verdict(item, text=not_run_text(decision, title, why), decision=decision)
        if edited != arguments:
            return Verdict(item, text=retry_text(tool_name, decision, edited))
        # opened for editing, sent back unchanged: an approval
    if decision.decided_by != "person":
        return Verdict(item, approve=True)
    held = (yield from always(item, tool_name, timeout, approve=True)) if batch.again(item, approve=True) else False
    return Verdict(item, approve=True, always=held)


def apply(
    state: RunState[Any],
    verdicts: list[Verdict],
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
