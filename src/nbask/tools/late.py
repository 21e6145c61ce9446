"""Late answers for the model: an answer the person gave after an earlier request had timed out
rides along with the agent's next tool result, once, as a short text saying so and what they
answered. It never changes what the timed-out call returned.
"""

from __future__ import annotations

import json
from typing import Final

from .. import config
from ..core.history import HistoryEntry
from ..core.manager import manager
from ..models import Answer, Decision, FormAnswer, Outcome
from .result import ToolResult

#: The key late answers go under in a dialect whose reply is a JSON object.
LATE_KEY: Final = "late_answers"


def _quoted(text: object) -> str:
    return json.dumps(text, ensure_ascii=False)


_VERDICTS: Final = {"approve": "approved it", "edit": "approved it with edits", "reject": "rejected it"}


def _person(outcome: Outcome) -> str:
    user = outcome.answered_by_user
    return f"the person ({user})" if user and config.share_username_in_force() else "the person"


def late_text(entry: HistoryEntry) -> str:
    """One late answer as the model reads it: what was asked, that it timed out, what came."""
    outcome, person = entry.outcome, _person(entry.outcome)
    if isinstance(outcome, Answer):
        given = "; ".join(f"{_quoted(q)} -> {_quoted(a)}" for q, a in outcome.answers.items())
        what = f"answered an earlier question after it had timed out: {given}."
        if outcome.notes:
            notes = "; ".join(f"{_quoted(q)} -> {_quoted(n)}" for q, n in outcome.notes.items())
            what += f" Their notes: {notes}."
        if outcome.note:
            what += f" Note: {_quoted(outcome.note)}."
    elif isinstance(outcome, Decision):
        action = _quoted(str(entry.asked.get("action", "")))
        what = f"{_VERDICTS[outcome.decision]} after the approval request {action} had timed out; it has not run since."
        if outcome.edited is not None:
            what += f" Edited to: {_quoted(outcome.edited)}."
        if outcome.reason:
            what += f" Reason: {_quoted(outcome.reason)}."
    elif isinstance(outcome, FormAnswer):
        message = _quoted(str(entry.asked.get("message", "")))
        what = f"filled in the earlier form {message} after it had timed out: {_quoted(outcome.values)}."
    else:  # a kind without its own wording
        what = f"answered an earlier {entry.kind} after it had timed out."
    return (
        f"Late answer: {person} {what} The earlier call already returned without it; take it into account from now on."
    )


def take_late_texts() -> list[str]:
    """The late answers not yet passed on to the model, as texts; each is handed out once."""
    return [late_text(entry) for entry in manager().take_late_answers()]


def with_late_answers(result: ToolResult, *, in_json: bool = False) -> ToolResult:
    """``result`` with the late answers not yet delivered: under ``"late_answers"`` in a reply
    that is a JSON object (``in_json``), else as text after the output.
    """
    texts = take_late_texts()
    if not texts:
        return result
    if in_json and not result.is_error:
        try:
            payload = json.loads(result.output)
        except ValueError:
            payload = None
        if isinstance(payload, dict):
            payload[LATE_KEY] = texts
            return result.model_copy(update={"output": json.dumps(payload, ensure_ascii=False)})
    return result.model_copy(update={"output": "\n\n".join([result.output, *texts])})


def with_late_text(text: str) -> str:
    """A text result (an approval gate's rejection) with the late answers not yet delivered."""
    return "\n\n".join([text, *take_late_texts()])
