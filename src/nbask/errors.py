"""The exceptions nbask raises to its callers (the waiting engine's own live in ``waiting``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .waiting import WaitingUnsupported

if TYPE_CHECKING:
    from .models import Decision


class InteractionPending(RuntimeError):
    """Raised when a second ask starts while another one still waits for the person."""


class NoOneCanAnswer(RuntimeError):
    """Raised where no person can answer and no policy says what to do instead.

    The tool layer turns it into a tool error that tells the model not to ask again.
    """


class NoFrontEnd(NoOneCanAnswer, WaitingUnsupported):
    """The ``interactive`` policy found no one to show the request to: no kernel with a front
    end that renders widgets (a plain script, a notebook run by nbclient or papermill) and no
    terminal. Also a ``WaitingUnsupported``, which is what such places raised before policies.
    """


class ReplayMissing(NoOneCanAnswer):
    """The ``replay`` policy's recording has no answer for what is being asked."""

    def __init__(self, message: str, *, asked: str) -> None:
        super().__init__(message)
        #: The question text (or approval action) that has no recorded answer.
        self.asked = asked


class ApprovalRejected(Exception):
    """Raised by a ``@requires_approval`` function when the person did not approve the call."""

    def __init__(self, decision: Decision, action: str) -> None:
        self.decision = decision
        self.action = action
        self.reason = decision.reason
        why = f": {decision.reason}" if decision.reason else ""
        super().__init__(f"{action} was not approved ({decision.status}){why}")
