"""Helpers of the agent-tool tests: a scripted person that stands in for the widget and records
what was asked, and the seeds' examples kept in fixtures/.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nbask.core.lifecycle import Request, Resolution, timeout_note
from nbask.kinds import ApprovalRequest, QuestionRequest
from nbask.models import Answer
from nbask.replies import ApprovalResponse, QuestionReply, QuestionResponse

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPO = HERE.parents[1]

Decide = Callable[[Request[Any]], Any]


def pick(
    *choices: list[str] | str,
    other: str | dict[int, str] | None = None,
    notes: dict[int, str] | None = None,
    note: str = "",
) -> Decide:
    """Submit: question i gets ``choices[i]`` (a label or a list of labels), the Other text and
    the note ``notes[i]``; ``note`` is the note on the whole set.
    """

    def decide(request: Request[Any]) -> Answer:
        assert isinstance(request, QuestionRequest)
        replies = []
        for index, _question in enumerate(request.question_set.questions):
            chosen = choices[index] if index < len(choices) else []
            selected = (chosen,) if isinstance(chosen, str) else tuple(chosen)
            text = other.get(index) if isinstance(other, dict) else (other if index == 0 else None)
            replies.append(QuestionReply(selected=selected, other=text, note=(notes or {}).get(index, "")))
        return request.decide(QuestionResponse(action="submit", replies=tuple(replies), note=note))

    return decide


def first_options() -> Decide:
    """Submit the first option of every question."""

    def decide(request: Request[Any]) -> Answer:
        assert isinstance(request, QuestionRequest)
        replies = tuple(
            QuestionReply(selected=(q.options[0].label,), other=None) for q in request.question_set.questions
        )
        return request.decide(QuestionResponse(action="submit", replies=replies))

    return decide


def dismiss() -> Decide:
    return lambda request: request.decide(
        QuestionResponse(action="dismiss") if isinstance(request, QuestionRequest) else ApprovalResponse("dismiss")
    )


def time_out() -> Decide:
    return lambda request: request.ended("timeout", timeout_note(request.timeout))


def cancel() -> Decide:
    return lambda request: request.ended("cancelled", "The wait was interrupted before anyone answered.")


def approve(reason: str = "") -> Decide:
    return lambda request: request.decide(ApprovalResponse("approve", reason=reason))


def edit(details: dict[str, Any] | str, reason: str = "") -> Decide:
    text = details if isinstance(details, str) else json.dumps(details, indent=2)
    return lambda request: request.decide(ApprovalResponse("approve", edited_details=text, reason=reason))


def reject(reason: str = "") -> Decide:
    return lambda request: request.decide(ApprovalResponse("reject", reason=reason))


def raises(error: BaseException) -> Decide:
    def decide(request: Request[Any]) -> Any:
        raise error

    return decide


@dataclass
class Person:
    """A scripted person: each request is decided by the next script entry (the last one repeats).

    Chosen as every request's resolver (``nbask.resolvers.run.choose_resolver``), so everything from
    ``nbask.tools.call`` down to the Resolution is the real code; only the widget is replaced.
    """

    script: list[Decide] = field(default_factory=list)
    asked: list[Request[Any]] = field(default_factory=list)
    unavailable: BaseException | None = None

    def answers(self, *decisions: Decide) -> Person:
        self.script = list(decisions)
        return self

    # the Resolver protocol
    def check_available(self, request: Request[Any]) -> None:
        del request  # every kind is served alike
        if self.unavailable is not None:
            raise self.unavailable

    async def resolve(self, resolution: Resolution[Any]) -> Any:
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution: Resolution[Any]) -> Any:
        request = resolution.request
        self.asked.append(request)
        decide = self.script[min(len(self.asked), len(self.script)) - 1] if self.script else first_options()
        resolution.settle(decide(request))
        return resolution.outcome

    @property
    def questions(self) -> list[dict[str, Any]]:
        """What each question request showed (QuestionSet as data)."""
        return [r.asked() for r in self.asked if isinstance(r, QuestionRequest)]

    @property
    def approvals(self) -> list[ApprovalRequest]:
        return [r for r in self.asked if isinstance(r, ApprovalRequest)]


def fixture_text(name: str) -> str:
    """A seed's example, kept verbatim in tests/support/fixtures."""
    return (FIXTURES / name).read_text(encoding="utf-8")


def through_the_kernels_check(*edits: dict[str, Any] | str, refused: list[str]) -> Any:
    """Reply to an approval with each edit in turn (a dict as its JSON, a str as it is), as the
    widget's comm does: the kernel checks the edit against ``details_schema``, and a refused edit
    leaves the approval open (its message is added to ``refused``).
    """

    def decide(request: Any) -> Any:
        for edited in edits:
            text = edited if isinstance(edited, str) else json.dumps(edited)
            raw = {"action": "approve", "edited_details": text, "reason": "", "view_id": "t"}
            try:
                return request.parse_and_decide({**raw, "sent_at_ms": 0})
            except ValueError as error:
                refused.append(str(error))
        raise AssertionError("every edit was refused")

    return decide
