"""The one seam every integration goes through: a framework's pause becomes nbask requests, the
outcomes come back, and the framework resumes with what they mean.

The convention every module in this package follows (see the package docstring):

- An integration describes what it asks as an ``Asking``: a generator that yields nbask requests
  (``approval``, ``form_request``, a ``QuestionRequest``) and receives each one's outcome, then
  returns what the framework resumes with. ``drive`` runs it awaiting, ``drive_sync`` blocking:
  a sync twin is one line, never a copy of the async code.
- "No one can answer here" (no front end, the ``error`` policy, ``nbask.no_questions()``) is the
  framework's own refusal with nbask's reason: the request ends as the kind's ``refused`` outcome
  (an approval is rejected by policy), recorded in ``nbask.history()`` like any other outcome.
- A replay miss is never a refusal: ``ReplayMissing`` propagates, so a replayed run that asks
  something the recording lacks fails instead of going on with a guess.
- A call's edited arguments are read by ``edited_arguments``, with one wording for what is wrong.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Generator
from typing import Any, TypeVar, cast

from ..api import approval_request, run_request, run_request_sync
from ..core.lifecycle import Request
from ..core.manager import manager
from ..errors import ApprovalRejected, NoOneCanAnswer, ReplayMissing
from ..models import MAX_ACTION_CHARS, Decision, Outcome
from ..tools.function import DO_NOT_RETRY, rejection_text
from ..waiting import WaitingUnsupported

__all__ = [
    "Asking",
    "EditNotUsable",
    "approval",
    "arguments_text",
    "call_title",
    "drive",
    "drive_sync",
    "edited_arguments",
    "not_run_text",
]

log = logging.getLogger("nbask.integrations")

T = TypeVar("T")
#: What answering one pause yields (nbask requests), receives (their outcomes) and returns (what
#: the framework resumes with).
Asking = Generator[Request[Any], Outcome, T]


async def drive(asking: Asking[T]) -> T:
    """Run every request ``asking`` yields, awaiting each (queued behind one already waiting),
    and return what it returns.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request, result = _step(asking, None)
    while request is not None:
        try:
            outcome: Outcome = await run_request(request, queue=True)
        except (NoOneCanAnswer, WaitingUnsupported) as error:
            outcome = _refused(request, error)
        request, result = _step(asking, outcome)
    return cast("T", result)


def drive_sync(asking: Asking[T]) -> T:
    """The blocking twin of ``drive``, for synchronous code."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request, result = _step(asking, None)
    while request is not None:
        try:
            outcome: Outcome = run_request_sync(request)
        except (NoOneCanAnswer, WaitingUnsupported) as error:
            outcome = _refused(request, error)
        request, result = _step(asking, outcome)
    return cast("T", result)


def _step(asking: Asking[T], outcome: Outcome | None) -> tuple[Request[Any] | None, T | None]:
    """(the next request ``asking`` yields, None) once sent ``outcome`` (None: started), or
    (None, what it returned) when it is done.
    """
    try:
        return (next(asking) if outcome is None else asking.send(outcome)), None
    except StopIteration as done:
        return None, done.value


def _refused(request: Request[Any], error: Exception) -> Outcome:
    """The outcome of a request no one could be asked, kept in the history; a replay miss raises."""
    if isinstance(error, ReplayMissing):
        raise error
    outcome: Outcome = request.refused(f"No one could be asked: {error}")
    manager().record(request, outcome)
    log.info("nbask request %s refused: no one can answer here", request.request_id)
    return outcome


def call_title(name: str, suffix: str = "") -> str:
    """An approval's title for a call of tool ``name``: "Call <name>[ suffix]", the name
    shortened so the whole fits an approval's action.
    """
    tail = f" {suffix}" if suffix else ""
    room = MAX_ACTION_CHARS - len(f"Call {tail}")
    if len(name) > room:
        name = name[: room - 1] + "…"
    return f"Call {name}{tail}"


#: The approval request for one pending call: ``details`` shown (and editable), an edit checked
#: against ``schema`` (the call's JSON Schema of arguments) where there is one.
approval = approval_request


def arguments_text(arguments: object) -> str:
    """A call's arguments as the approval shows them: indented JSON, anything else as its repr."""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=repr)


class EditNotUsable(ValueError):
    """The person's edit of a call's arguments is not a JSON object; the message says why."""


def edited_arguments(decision: Decision) -> dict[str, Any]:
    """The arguments of an "edit" decision as a JSON object; raises EditNotUsable saying why not."""
    try:
        edited = json.loads(decision.edited or "")
    except json.JSONDecodeError as error:
        msg = f"the edited arguments are not valid JSON ({error})"
        raise EditNotUsable(msg) from None
    if not isinstance(edited, dict):
        msg = f"the edited arguments are a JSON {_json_type(edited)}, not an object of argument names"
        raise EditNotUsable(msg)
    return edited


def _json_type(value: object) -> str:
    names = {list: "array", str: "string", bool: "boolean", int: "number", float: "number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def not_run_text(decision: Decision, title: str, why: EditNotUsable | None = None) -> str:
    """What the model reads when the call titled ``title`` does not run: the person's (or the
    policy's) rejection and reason, or why their edit could not be used.
    """
    if why is not None:
        return f"Not approved: {title} did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    return rejection_text(ApprovalRejected(decision, title))
