"""The approval kind's widget: the card in the notebook that shows the request and takes the person's reply."""

from __future__ import annotations

from typing import Any

import traitlets

from ...core.lifecycle import Resolution
from ...models import Approval, Decision, Risk
from ...widget import ShowsRefusals
from ...widget.bundle import esm_of
from .request import ApprovalRequest


class ApprovalWidget(ShowsRefusals[Decision]):
    """Asks the person to approve, edit or reject an action.

    Example::

        w = nbask.ApprovalWidget(action="Run shell command", details="rm -rf build/")
        display(w)
        decision = await w.await_answer(timeout=None)
    """

    # This kind's own front end (js/kinds/approval/widget.ts), not the other kinds'.
    _esm = esm_of("approval")

    # Mirrored by ApprovalModel in js/contract/contract.ts.
    _title = traitlets.Unicode("").tag(sync=True)
    _details = traitlets.Unicode("").tag(sync=True)
    # The JSON Schema an edit of the details must fit (None: the details are not checked).
    _details_schema = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    # What is at stake: "low", "medium", "high", or "" (no tag, the default look).
    _risk = traitlets.Unicode("").tag(sync=True)
    # What an edit does: "run", "sent_back" (to the model; the resolved card says so) or "off"
    # (no Edit offered).
    _edits = traitlets.Unicode("run").tag(sync=True)

    def __init__(
        self,
        *,
        action: str | None = None,
        details: str = "",
        details_schema: dict[str, Any] | None = None,
        risk: Risk | None = None,
        tool_call_id: str | None = None,
        resolution: Resolution[Decision] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if action is None:
                msg = "ApprovalWidget needs action='...' (or a resolution of an ApprovalRequest)"
                raise TypeError(msg)
            approval = Approval(action=action, details=details, details_schema=details_schema, risk=risk)
            request = ApprovalRequest(approval=approval, tool_call_id=tool_call_id)
            resolution = Resolution(request)
        if not isinstance(resolution.request, ApprovalRequest):
            msg = "ApprovalWidget shows approval requests only"
            raise TypeError(msg)
        self.approval = resolution.request.approval
        super().__init__(
            resolution,
            _title=self.approval.action,
            _details=self.approval.details,
            _details_schema=self.approval.details_schema,
            _risk=self.approval.risk or "",
            _edits=self.approval.edits,
            **traits,
        )

    def _result_for(self, outcome: Decision) -> dict[str, Any]:
        return {"decision": outcome.decision, "edited": outcome.edited, "reason": outcome.reason, "note": ""}
