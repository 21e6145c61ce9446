"""The approval kind's replay: the recorded outcome that fits a request asked again."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast

from ...core.history import HistoryEntry, Recording, asked_again, current_workdir
from ...core.lifecycle import Ending
from ...errors import ReplayMissing
from ...models import Approval, Decision
from ...replies import ApprovalResponse
from .request import ApprovalRequest

# Only for the exact action and details a person decided on.


@dataclass(frozen=True)
class _Record:
    status: str
    decision: str
    edited: str | None
    reason: str
    #: The recorded outcome itself: who decided it then.
    source: Decision
    #: The working directory it was recorded in, and the details as recorded.
    workdir: str | None
    details: str


def _index(entries: list[HistoryEntry]) -> dict[str, list[_Record]]:
    """The recorded decisions by action, oldest first."""
    index: dict[str, list[_Record]] = {}
    for entry in entries:
        outcome = entry.outcome
        if isinstance(outcome, Decision):
            details = str(entry.asked.get("details", ""))
            record = _Record(
                outcome.status, outcome.decision, outcome.edited, outcome.reason, outcome, entry.workdir, details
            )
            index.setdefault(str(entry.asked.get("action", "")), []).append(record)
    return index


#: A character that continues a path's name: the recorded folder followed by one (``/a/proj``
#: in ``/a/proj-old``) or preceded by one (in ``/x/a/proj``) is another folder, never moved.
_NAME_CHAR = r"[\w.~-]"


def _as_here(text: str, workdir: str | None, here: str | None) -> str:
    """``text`` recorded in ``workdir`` as it would read in ``here``: a path under the recorded
    working directory (another checkout, another machine) becomes the same path under this one.
    Only the folder itself moves: where it is followed by a separator, a quote, a space or the
    end of the text, not where it is the start of a longer name or the end of another path.
    """
    if not text or workdir is None or here is None or workdir == here or workdir in ("", "/"):
        return text
    pattern = rf"(?<!{_NAME_CHAR}){re.escape(workdir)}(?!{_NAME_CHAR})"
    return re.sub(pattern, lambda _: here, text)


def replay_decision(request: ApprovalRequest, recording: Recording) -> Decision:
    """The recorded decision for exactly this action and details (answered_by "replay"); details
    recorded in another working directory match with its paths read as under this one.
    """
    approval = request.approval
    here = current_workdir()
    same_action = recording.index(ApprovalRequest.kind, _index).get(approval.action, [])
    records = [r for r in same_action if _as_here(r.details, r.workdir, here) == approval.details]
    if not records:
        raise ReplayMissing(_missing(approval, recording, same_action, here), asked=approval.action)
    record = recording.take((ApprovalRequest.kind, approval.action, approval.details), records)
    if record is None:
        raise ReplayMissing(
            asked_again(f"the approval {approval.action!r}", recording, len(records)), asked=approval.action
        )
    if record.status != "answered":
        ended = request.ended(cast("Ending | Literal['dismissed']", record.status), record.reason, "replay")
        return ended.replayed_from(record.source)
    action: Literal["approve", "reject"] = "reject" if record.decision == "reject" else "approve"
    edited = _as_here(record.edited, record.workdir, here) if record.decision == "edit" and record.edited else None
    response = ApprovalResponse(action=action, edited_details=edited, reason=record.reason)
    return request.decide(response, answered_by="replay").replayed_from(record.source)


def _missing(approval: Approval, recording: Recording, same_action: list[_Record], here: str | None) -> str:
    """Why no recorded decision fits: none for the action, or the details differ (and where)."""
    text = (
        f"replay: no recorded decision for the approval {approval.action!r} with these details in "
        f"{recording.source} ({recording.size} recorded interactions). Approvals replay only for the exact "
        "action and details a person decided on"
    )
    if not same_action:
        return text + "; none was recorded for this action."
    last = same_action[-1]
    recorded = _as_here(last.details, last.workdir, here).splitlines() or [""]
    asked = approval.details.splitlines() or [""]
    line = next(
        (n for n, (a, b) in enumerate(zip(recorded, asked, strict=False)) if a != b), min(len(recorded), len(asked))
    )
    was = recorded[line][:120] if line < len(recorded) else "(nothing)"
    now = asked[line][:120] if line < len(asked) else "(nothing)"
    text += f"; the details recorded for it differ at line {line + 1}: recorded {was!r}, asked {now!r}"
    if last.workdir is not None and here is not None and last.workdir != here:
        text += (
            f" (recorded in {last.workdir}, replayed in {here}: paths under the recorded folder were read as "
            "under this one, other paths must match exactly)"
        )
    return text + "."
