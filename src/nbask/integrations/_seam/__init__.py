"""The one seam every integration goes through: a framework's pause becomes nbask requests, the
outcomes come back, and the framework resumes with what they mean.

The convention every module in this package follows (see the package docstring):

- An integration describes what it asks as an ``Asking``: a generator that yields nbask requests
  (``approval``, ``form_request``, a ``QuestionRequest``) and receives each one's outcome, then
  returns what the framework resumes with. ``drive`` runs it awaiting, ``drive_sync`` blocking:
  a sync twin is one line, never a copy of the async code.
- An entry point that also runs the framework (``run``, ``send``) is one Asking too: between its
  requests it yields ``Work``, the framework call in both its forms (or only the async one, for
  an async-only framework: the blocking twin runs it on a worker loop of its own). ``twins``
  makes the public pair from that one program, with its parameters.
- A framework's batch (parallel tool calls, parallel interrupts) is asked together: ``together``
  runs one Asking per item side by side, so their requests are shown at once (beside any already
  waiting), answered in any order, and the framework resumes once, with every decision.
- "No one can answer here" (no front end, the ``error`` policy, ``nbask.no_questions()``) is the
  framework's own refusal with nbask's reason: the request ends as the kind's ``refused`` outcome
  (an approval is rejected by policy), recorded in ``nbask.history()`` like any other outcome.
- A replay miss is never a refusal: ``ReplayMissing`` propagates, so a replayed run that asks
  something the recording lacks fails instead of going on with a guess.
- An unattended run ends in bounded steps: the same caller asking again what was decided without
  a person in the same run raises ``nbask.AskedAgain`` (``_bounded``) instead of answering again.
- A call's edited arguments are read by ``edited_arguments``, with one wording for what is wrong.
- ``approvers=`` on an entry point or a callback's factory: only those people may answer what it
  asks (every request it drives that names none of its own). ``answerable_by`` around the
  driving applies it; ``twins`` does so for a program's keyword ``approvers``.
"""

from ...errors import EditNotUsable
from . import resuming
from .asking import (
    REPLY,
    approval,
    arguments_text,
    ask,
    call_title,
    clip,
    edited_arguments,
    hinted_risk,
    not_run_text,
    replying,
)
from .driving import Asking, Together, Work, answerable_by, drive, drive_or_raise, drive_sync, together, twins

__all__ = [
    "REPLY",
    "Asking",
    "EditNotUsable",
    "Together",
    "Work",
    "answerable_by",
    "approval",
    "arguments_text",
    "ask",
    "call_title",
    "clip",
    "drive",
    "drive_or_raise",
    "drive_sync",
    "edited_arguments",
    "hinted_risk",
    "not_run_text",
    "replying",
    "resuming",
    "together",
    "twins",
]
