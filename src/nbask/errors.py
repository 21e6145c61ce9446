"""The exceptions nbask raises to its callers (the waiting engine's own live in ``waiting``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Decision


class InteractionPending(RuntimeError):
    """Raised when a second ask starts while another one still waits for the person."""


class NoOneCanAnswer(RuntimeError):
    """Raised where no person can answer and no policy says what to do instead.

    The tool layer turns it into a tool error that tells the model not to ask again.
    """


class ApprovalRejected(Exception):
    """Raised by a ``@requires_approval`` function when the person did not approve the call."""

    def __init__(self, decision: Decision, action: str) -> None:
        self.decision = decision
        self.action = action
        self.reason = decision.reason
        why = f": {decision.reason}" if decision.reason else ""
        super().__init__(f"{action} was not approved ({decision.status}){why}")
