"""How a widget shows the batch it waits in: the counts its heading shows, and the person's
"Approve all" / "Reject all" from that heading.

Requests asked with ``queue=True`` while others wait are shown at once and form a batch
(``nbask.core.manager``). Every widget of the batch keeps its own controls; the widget of the
first request still waiting (the lead) also shows the batch's heading. The lead moves down as
the cards above it are answered, so the count and Approve all / Reject all never sit on a card
already answered, and stay next to the requests they act on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from ..core.lifecycle import Request, Resolution
from ..core.manager import Batch, manager
from ..models import Verification

log = logging.getLogger(__name__)


class BatchCard(Protocol):
    """What of a widget its batch view uses (``nbask.widget.base.InteractionWidget`` is one):
    said here, so the view needs nothing from the widget's module, which builds on it.
    """

    request: Request[Any]

    @property
    def done(self) -> bool: ...

    _batch: dict[str, Any]  # the synced trait the heading is drawn from

    def on_msg(self, callback: Callable[[Any, Any, Any], None]) -> None: ...

    def _sender(self, raw: dict[str, Any]) -> tuple[str | None, Verification]: ...


#: The custom message a lead widget's heading sends: {"batch": "approve_all" | "reject_all",
#: "batch_id": ..., "request_ids": [the approvals the person confirmed]}.
BATCH_ACTIONS = {"approve_all": True, "reject_all": False}


def batch_state(
    widget: BatchCard, batch: Batch | None, waiting: list[Resolution[Any]], sources: int = 1
) -> dict[str, Any]:
    """The ``_batch`` trait of ``widget``: {} unless its request is in ``batch``; ``sources`` is how
    many sources its requests have come from (each card names its own when more than one).
    """
    if batch is None or widget.request.batch_id != batch.id:
        return {}
    members = [r.request for r in waiting if r.request.batch_id == batch.id]
    if not members or members[0].request_id != widget.request.request_id:
        # Only the lead's heading shows the counts. The other cards' state stays the same while
        # requests come and go, so an answer syncs the lead's trait (and the next lead's, when
        # the lead's own request ended), not every waiting card's.
        return {"id": batch.id, "lead": False, "waiting": 0, "approvals": [], "high_risk": [], "sources": sources}
    approvals = [request for request in members if request.kind == "approval"]
    return {
        "id": batch.id,
        "lead": True,
        "sources": sources,
        "waiting": len(members),
        # Only what an "all" button may decide: approvals still waiting, in the order shown.
        "approvals": [request.request_id for request in approvals],
        # Never swept up by "Approve all": each is decided on its own card (Reject all may take them).
        "high_risk": [
            {"id": request.request_id, "action": approval.action}
            for request in approvals
            if (approval := getattr(request, "approval", None)) is not None and approval.risk == "high"
        ],
    }


def follow_batch(widget: BatchCard) -> None:
    """Keep ``widget._batch`` current, and take its heading's Approve all / Reject all.

    The widget's module builds on this one, so the view reaches the widget's private wire state
    (``_batch``, ``_message_username``) from outside its class, on purpose (SLF001 below).
    """
    # Every source seen in the batch, kept as requests end: a card that named its source goes on
    # naming it once the others are answered.
    seen: set[str] = set()

    def state_of(batch: Batch | None, waiting: list[Resolution[Any]]) -> dict[str, Any]:
        if batch is not None and widget.request.batch_id == batch.id:
            seen.update(r.request.source or "" for r in waiting if r.request.batch_id == batch.id)
            seen.add(widget.request.source or "")
        return batch_state(widget, batch, waiting, max(1, len(seen)))

    def update(batch: Batch, waiting: list[Resolution[Any]]) -> None:
        state = state_of(batch, waiting)
        if state or widget._batch:  # noqa: SLF001
            widget._batch = state  # noqa: SLF001
        if widget.done and not state.get("waiting"):
            stop()  # the batch has nothing left to show here

    stop = manager().on_batch_change(update)
    widget._batch = state_of(*manager().batch())  # noqa: SLF001
    widget.on_msg(lambda _widget, content, _buffers: _on_message(widget, content))


def _on_message(widget: BatchCard, content: Any) -> None:
    if not isinstance(content, dict) or content.get("batch") not in BATCH_ACTIONS:
        return
    ids = content.get("request_ids")
    batch_id = content.get("batch_id")
    if not isinstance(batch_id, str) or not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        log.warning("nbask request %s: malformed batch message ignored", widget.request.request_id)
        return
    # Only the approvals the person confirmed (the heading names how many): one that joined
    # after the confirmation was not seen, and keeps waiting.
    user, identity = widget._sender(content)  # noqa: SLF001
    approve = BATCH_ACTIONS[content["batch"]]
    decided = manager().decide_batch(batch_id, ids, approve=approve, user=user, identity=identity)
    log.info("nbask batch %s: %d approval(s) %s at once", batch_id, decided, "approved" if approve else "rejected")
