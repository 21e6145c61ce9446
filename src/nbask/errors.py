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


class InboxError(NbaskError, RuntimeError):
    """The inbox store (``nbask.inbox_store``) cannot do what was asked; the message names the store
    (a PostgreSQL URL without its password).
    """

    def __init__(self, message: str, *, store: str) -> None:
        super().__init__(message)
        #: The store, as named in messages: a file path, or a URL without its password.
        self.store = store


class InboxUnavailable(InboxError):
    """The store cannot be used at all: a damaged SQLite file, a PostgreSQL server that cannot be
    reached, a driver that is not installed. Nothing in the store was changed.
    """


class InboxLocked(InboxUnavailable):
    """Another process held the store locked for longer than the store waits: nothing was
    changed, and trying again later may work.
    """


class InboxSchemaTooNew(InboxUnavailable):
    """The store was written by a newer nbask (its schema version is above this nbask's)."""

    def __init__(self, message: str, *, store: str, found: int, supported: int) -> None:
        super().__init__(message, store=store)
        self.found = found
        self.supported = supported


class InboxRequestNotFound(InboxError, LookupError):
    """No request of the inbox has this id (or more than one starts with this prefix)."""

    def __init__(self, message: str, *, store: str, id: str) -> None:  # noqa: A002 - the request's id, as the store names it
        super().__init__(message, store=store)
        self.id = id


class InboxRequestClosed(InboxError):
    """The inbox request is no longer pending (answered, expired or cancelled): it cannot be
    answered or cancelled now. ``by`` and ``at`` say who closed it and when (Unix time).
    """

    def __init__(self, message: str, *, store: str, id: str, status: str, by: str | None, at: float | None) -> None:  # noqa: A002
        super().__init__(message, store=store)
        self.id = id
        self.status = status
        self.by = by
        self.at = at


class AlreadyAnswered(InboxRequestClosed):
    """The inbox request was answered already, by someone else or another process: each request
    is answered exactly once, and the first answer stands. The message reads "already answered by
    X at T".
    """


class AnswerLater(NbaskError):
    """The ``later`` policy kept what was asked in the inbox, where no answer waited yet: the
    run stops here. Once someone answers (``nbask inbox answer``, or ``nbask.inbox()`` in a
    notebook), running the same code again finds the answer and goes on. The message lists what
    waits and the command that answers it.
    """

    def __init__(self, message: str, *, ids: tuple[str, ...], store: str) -> None:
        super().__init__(message)
        #: The inbox ids of the requests this stop left waiting, in the order they were asked.
        self.ids = ids
        #: The store they wait in, as messages name it (a file path, or a URL without its password).
        self.store = store


# -- what an answer or a call's arguments did not fit ------------------------------------------


class MalformedResponse(NbaskError, ValueError):
    """A response that does not fit its request; it is ignored and the person may answer again."""


class EditNotUsable(NbaskError, ValueError):
    """The person's edit of a call's arguments is not a JSON object; the message says why."""


#: At most this many problems, each at most this long, in an ``ArgumentError``: the model reads
#: every word of it, and a list it cannot act on at once is noise.
MAX_PROBLEMS = 8
MAX_PROBLEM_CHARS = 300


class ArgumentError(NbaskError, ValueError):
    """An agent tool's arguments cannot be asked; ``problems`` name each field and the rule it
    breaks.

    ``form`` names the form of the arguments the call was written in, when a dialect accepts
    several (the 004 dialect's XML or JSON), so the error's advice shows that form again.
    """

    def __init__(self, *problems: str, form: str | None = None) -> None:
        self.problems = [_clipped(p) for p in problems[:MAX_PROBLEMS]]
        if len(problems) > MAX_PROBLEMS:
            self.problems.append(f"... and {len(problems) - MAX_PROBLEMS} more problem(s)")
        self.form = form
        super().__init__("; ".join(self.problems))


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_PROBLEM_CHARS else text[: MAX_PROBLEM_CHARS - 1] + "…"


# -- a framework's agent ----------------------------------------------------------------------


class AgentExited(NbaskError, RuntimeError):
    """An agent process (ACP) ended, or closed its connection, in the middle of a turn."""
