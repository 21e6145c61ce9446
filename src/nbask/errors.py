"""Every exception nbask raises to its callers, under one base class, ``NbaskError``.

This module imports nothing of nbask's at run time, so every layer, the waiting engine included, raises from
here. Framework integrations subclass these (and, where the framework ends a run on an exception
of its own, that one too), so ``except nbask.Interrupted`` catches every framework's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation only: nothing of nbask's is imported at run time
    from .models import Decision


class NbaskError(Exception):
    """The base of every exception nbask raises."""


class WaitingUnsupported(NbaskError, RuntimeError):
    """No strategy can receive widget messages here, so waiting would hang."""


class InteractionPending(NbaskError, RuntimeError):
    """Raised when a second ask starts while another one still waits for the person."""


class NoOneCanAnswer(NbaskError, RuntimeError):
    """Raised where no person can answer and no policy says what to do instead.

    The tool layer turns it into a tool error that tells the model not to ask again.
    """


class NoFrontEnd(NoOneCanAnswer, WaitingUnsupported):
    """The ``interactive`` policy found no one to show the request to: no kernel with a front
    end that renders widgets (a plain script, a notebook run by nbclient or papermill) and no
    terminal. Also a ``WaitingUnsupported``, which is what such places raised before policies.
    """


class QuestionsNotAllowed(NoOneCanAnswer):
    """Raised by a question or approval started inside ``nbask.no_questions()``."""


class FormSchemaError(NbaskError, ValueError):
    """A schema outside the form subset; the message names the property and the rule."""


class ReplayMissing(NoOneCanAnswer):
    """The ``replay`` policy's recording has no answer for what is being asked."""

    def __init__(self, message: str, *, asked: str) -> None:
        super().__init__(message)
        #: The question text (or approval action) that has no recorded answer.
        self.asked = asked


class AskedAgain(NbaskError, RuntimeError):
    """An unattended run asked again what was already decided without a person in this run (the
    same question from the same caller): answering again would loop, so nbask stops the run.
    A framework integration raises it the framework's way (inside its own error where the
    framework wraps a callback's).
    """

    def __init__(self, message: str, *, asked: str) -> None:
        super().__init__(message)
        #: What was asked again (a question, an approval's action, a form's message).
        self.asked = asked


class Interrupted(NbaskError, RuntimeError):
    """The person interrupted the kernel while nbask waited for them, and the framework's run
    ends on it (each framework's own ``Interrupted`` is one of these).
    """


class NotAnswered(NbaskError, RuntimeError):
    """A framework's pause ended without an answer it can resume with (timed out, dismissed,
    refused): each framework's own variant is one of these.
    """


class FrameworkChanged(NbaskError, RuntimeError):
    """An agent framework's release moved an internal an integration reads (its ``_compat``
    module's check): the message names the framework, its version and what moved.
    """


class ApprovalRejected(NbaskError):
    """Raised by a ``@requires_approval`` function when the person did not approve the call."""

    def __init__(self, decision: Decision, action: str) -> None:
        self.decision = decision
        self.action = action
        self.reason = decision.reason
        why = f": {decision.reason}" if decision.reason else ""
        super().__init__(f"{action} was not approved ({decision.status}){why}")
