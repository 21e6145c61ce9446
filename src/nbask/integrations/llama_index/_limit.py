"""A LlamaIndex workflow's own timeout: its run started (or the handler given), the limit read
from it, and each request's wait kept inside it, the limit said on the card.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from workflows import Workflow
from workflows.handler import WorkflowHandler

from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import Request
from ...kinds import ApprovalRequest, FormRequest, QuestionRequest
from ...models import MAX_ACTION_CHARS
from .. import _seam
from . import _compat


@dataclass(frozen=True)
class Limit:
    """A workflow's own timeout: LlamaIndex ends the run ``seconds`` after it started."""

    seconds: float
    ends_at: float  # time.monotonic()

    def wait(self, timeout: float | None) -> float | None:
        """How long a request may wait: ``timeout``, or less where the run ends first."""
        left = max(self.ends_at - time.monotonic() - MARGIN, 1.0)
        return left if timeout is None else min(timeout, left)

    def note(self) -> str:
        # The limit, not the time left: the card's countdown shows that, and a replayed run must ask
        # in the same words as the recorded one.
        return f"LlamaIndex stops this workflow {self.seconds:g} s after it starts"


#: How long before the workflow's own end a request gives up, so nbask's timeout comes first.
MARGIN = 1.0


def started(workflow: Workflow | WorkflowHandler, start: dict[str, Any]) -> WorkflowHandler:
    """The running handler: ``workflow`` started with ``start``, or the handler given."""
    if isinstance(workflow, WorkflowHandler):
        if start:
            msg = f"run(handler, ...): the handler's run has already started, so {sorted(start)} cannot be given"
            raise TypeError(msg)
        return workflow
    return workflow.run(**start)


def limit_of(handler: WorkflowHandler) -> Limit | None:
    """The workflow's own timeout, counted from now (None: no limit, or none known)."""
    seconds = _compat.workflow_timeout(handler)
    if not isinstance(seconds, int | float) or seconds <= 0:
        return None
    return Limit(float(seconds), time.monotonic() + float(seconds))


def with_limit_noted(request: Request[Any], note: str) -> Request[Any]:
    """``request`` with ``note`` shown after what it asks: a form's message, a question's text,
    an approval's title (not its details: an edit starts from them, and goes back to the step).
    """
    if isinstance(request, FormRequest):
        message = _seam.clip(f"{request.form.message}\n\n{note}.", MAX_DETAILS_CHARS)
        return replace(request, form=request.form.model_copy(update={"message": message}))
    if isinstance(request, ApprovalRequest):
        action = f"{request.approval.action} ({note})"
        if len(action) > MAX_ACTION_CHARS:  # the countdown still shows the time left
            return request
        return replace(request, approval=request.approval.model_copy(update={"action": action}))
    if isinstance(request, QuestionRequest):
        questions = request.question_set.questions
        first = questions[0].model_copy(update={"question": f"{questions[0].question}\n\n{note}."})
        question_set = request.question_set.model_copy(update={"questions": [first, *questions[1:]]})
        return replace(request, question_set=question_set, shorthand=None)
    return request
