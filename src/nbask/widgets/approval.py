"""ApprovalWidget: shows a proposed action and resolves with the person's Decision."""

from __future__ import annotations

from typing import Any

import traitlets

from ..lifecycle import ApprovalRequest, Resolution
from ..models import Approval, Decision
from ..summary import approval_markdown
from ._base import InteractionWidget


class ApprovalWidget(InteractionWidget[Decision]):
    """Asks the person to approve, edit or reject an action.

    Example::

        w = nbask.ApprovalWidget(action="Run shell command", details="rm -rf build/")
        display(w)
        decision = await w.await_answer(timeout=None)
    """

    # Mirrored by ApprovalModel in js/contract.ts.
    title = traitlets.Unicode("").tag(sync=True)
    details = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        *,
        action: str | None = None,
        details: str = "",
        tool_call_id: str | None = None,
        resolution: Resolution[Decision] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if action is None:
                msg = "ApprovalWidget needs action='...' (or a resolution of an ApprovalRequest)"
                raise TypeError(msg)
            request = ApprovalRequest(approval=Approval(action=action, details=details), tool_call_id=tool_call_id)
            resolution = Resolution(request)
        if not isinstance(resolution.request, ApprovalRequest):
            msg = "ApprovalWidget shows approval requests only"
            raise TypeError(msg)
        self.approval = resolution.request.approval
        super().__init__(resolution, title=self.approval.action, details=self.approval.details, **traits)

    def summary_markdown(self) -> str:
        return approval_markdown(self.approval, self.answer)

    def result_for(self, outcome: Decision) -> dict[str, Any]:
        return {"decision": outcome.decision, "edited": outcome.edited, "reason": outcome.reason, "note": ""}
