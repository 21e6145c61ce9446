"""The "always in this run" choices of nbask.integrations.openai_agents: which tools the person
approved or rejected earlier in a run, the question that offers the SDK's ``always_approve`` /
``always_reject``, and what the model reads of a tool rejected for the rest of the run.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from agents import RunResult, RunResultStreaming, ToolApprovalItem

from ...api import history
from ...kinds import QuestionRequest
from ...models import Answer, Decision, one_question_set
from .. import _texts
from .._seam import Asking, call_title

__all__ = [
    "ALWAYS",
    "JUST_ONCE",
    "Batch",
    "Earlier",
    "Tool",
    "always",
    "always_rejected_text",
    "by_person",
    "name",
    "tool",
]

#: The options of the question asked after a tool's second approval or rejection by the person;
#: only ALWAYS holds the decision for the run.
JUST_ONCE: Final = _texts.JUST_ONCE
#: The option that approves (``always_approve=True``) or rejects (``always_reject=True``) the
#: tool for the rest of the run.
ALWAYS: Final = _texts.ALWAYS

#: A tool of one agent, as the SDK's always_approve and always_reject scope it.
Tool = tuple[int, str]


@dataclasses.dataclass
class Earlier:
    """The tools the person approved, and those they rejected, earlier in the run."""

    approved: set[Tool] = dataclasses.field(default_factory=set)
    rejected: set[Tool] = dataclasses.field(default_factory=set)

    @classmethod
    def of(cls, result: object) -> Earlier:
        """What the SDK records of a result's earlier batches (its items since the run began,
        asked through ``is_tool_approved``): the approved calls' tools, and the rejected calls'
        tools where nbask's history shows the person's own rejection (not a policy's, a
        dismissal or an edit sent back). A RunState shows none through the SDK's public API.
        """
        earlier = cls()
        if not isinstance(result, RunResult | RunResultStreaming):
            return earlier
        pending = {item.call_id for item in result.interruptions}
        rejected_by_person = {
            entry.tool_call_id
            for entry in history()
            if entry.kind == "approval" and isinstance(entry.outcome, Decision) and by_person(entry.outcome)
        }
        wrapper = result.context_wrapper
        for item in result.new_items:
            if not isinstance(item, ToolApprovalItem) or not item.call_id or item.call_id in pending:
                continue
            status = wrapper.is_tool_approved(name(item), item.call_id)
            if status:
                earlier.approved.add(tool(item))
            elif status is False and item.call_id in rejected_by_person:
                earlier.rejected.add(tool(item))
        return earlier


class Batch:
    """One batch's decisions, added to the run's ``Earlier`` as the person makes them."""

    def __init__(self, earlier: Earlier) -> None:
        self._earlier = earlier
        self._offered: set[tuple[bool, Tool]] = set()  # (approve, tool) already asked "always"

    def again(self, item: ToolApprovalItem, *, approve: bool) -> bool:
        """Record the person's approval (``approve``) or rejection of ``item``; whether they
        decided its tool alike earlier in the run and were not yet asked "always" in this batch.
        """
        this = tool(item)
        before = self._earlier.approved if approve else self._earlier.rejected
        asks = this in before and (approve, this) not in self._offered
        before.add(this)
        if asks:
            self._offered.add((approve, this))
        return asks


def tool(item: ToolApprovalItem) -> Tool:
    return id(item.agent), name(item)


def name(item: ToolApprovalItem) -> str:
    return item.qualified_name or item.name or "tool"


def by_person(decision: Decision) -> bool:
    """Whether the person themselves answered (approved or rejected; a replay reads as recorded)."""
    return decision.status == "answered" and decision.decided_by == "person"


def always(item: ToolApprovalItem, tool_name: str, timeout: float | None, *, approve: bool) -> Asking[bool]:
    """Whether the person's approval (``approve``) or rejection holds for the tool's calls in this
    run: "Always allow <tool> in this run?" / "Always reject <tool> in this run?"; only a
    person's ALWAYS says yes (never a policy, a dismiss or a time-out).
    """
    verb = "allow" if approve else "reject"
    question = f"Always {verb} {call_title(tool_name)[len('Call ') :]} in this run?"
    question_set = one_question_set(question, [JUST_ONCE, ALWAYS], header="Remember")
    asked = QuestionRequest(question_set=question_set, timeout=timeout, tool_call_id=item.call_id)
    answer: Any = yield asked
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    return answer.status == "answered" and answer.decided_by == "person" and answer.answers.get(question) == ALWAYS


def always_rejected_text(text: str, tool_name: str) -> str:
    """The rejection text nbask gives a call whose tool the person rejected for the rest of the run;
    the SDK gives the same text to the tool's later calls, which it rejects without asking.
    """
    return f"{text} The person rejected every call of {tool_name} for the rest of this run."
