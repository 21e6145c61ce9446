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
from ..kinds import kind_named
from ..models import Outcome
from .result import ToolResult

#: The key late answers go under in a dialect whose reply is a JSON object.
LATE_KEY: Final = "late_answers"


def _person(outcome: Outcome) -> str:
    user = outcome.answered_by_user
    return f"the person ({user})" if user and config.share_username_in_force() else "the person"


def late_text(entry: HistoryEntry) -> str:
    """One late answer as the model reads it: who, then what its kind says came after what."""
    kind = kind_named(entry.kind)
    what = kind.late_text(entry) if kind is not None else f"answered an earlier {entry.kind} after it had timed out."
    return (
        f"Late answer: {_person(entry.outcome)} {what} The earlier call already returned without it; "
        "take it into account from now on."
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
