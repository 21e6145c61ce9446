"""The one seam every integration goes through: a framework's pause becomes nbask requests, the
outcomes come back, and the framework resumes with what they mean.

The convention every module in this package follows (see the package docstring):

- An integration describes what it asks as an ``Asking``: a generator that yields nbask requests
  (``approval``, ``form_request``, a ``QuestionRequest``) and receives each one's outcome, then
  returns what the framework resumes with. ``drive`` runs it awaiting, ``drive_sync`` blocking:
  a sync twin is one line, never a copy of the async code.
- A framework's batch (parallel tool calls, parallel interrupts) is asked together: ``together``
  runs one Asking per item side by side, so their requests are shown at once (beside any already
  waiting), answered in any order, and the framework resumes once, with every decision.
- "No one can answer here" (no front end, the ``error`` policy, ``nbask.no_questions()``) is the
  framework's own refusal with nbask's reason: the request ends as the kind's ``refused`` outcome
  (an approval is rejected by policy), recorded in ``nbask.history()`` like any other outcome.
- A replay miss is never a refusal: ``ReplayMissing`` propagates, so a replayed run that asks
  something the recording lacks fails instead of going on with a guess.
- A call's edited arguments are read by ``edited_arguments``, with one wording for what is wrong.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, Union, cast

from ..api import approval_request, refused, run_request, run_request_sync, run_requests, run_requests_sync
from ..core.lifecycle import Request
from ..errors import ApprovalRejected, NoOneCanAnswer
from ..models import MAX_ACTION_CHARS, Decision, Outcome
from ..tools.function import DO_NOT_RETRY, rejection_text
from ..waiting import WaitingUnsupported, cancelled_by_interrupt

__all__ = [
    "Asking",
    "EditNotUsable",
    "Together",
    "approval",
    "arguments_text",
    "ask",
    "call_title",
    "drive",
    "drive_or_raise",
    "drive_sync",
    "edited_arguments",
    "not_run_text",
    "together",
]

log = logging.getLogger("nbask.integrations")

T = TypeVar("T")


@dataclass(frozen=True)
class Together:
    """Requests to show at once and answer in any order; what receives it gets their outcomes,
    in the same order, as a list.
    """

    requests: tuple[Request[Any], ...]


#: What answering one pause yields (an nbask request, or several ``Together``), receives (the
#: outcome, or the list of outcomes) and returns (what the framework resumes with).
Asking = Generator[Union[Request[Any], Together], Any, T]  # noqa: UP007 - a runtime alias on 3.10


async def drive(asking: Asking[T]) -> T:
    """Run every request ``asking`` yields, awaiting each (shown beside any already waiting),
    and return what it returns.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    step, result = _step(asking, None, first=True)
    while step is not None:
        if isinstance(step, Together):
            sent: Any = await _all(step.requests)
        else:
            sent = await _one(step)
        step, result = _step(asking, sent)
    return cast("T", result)


async def drive_or_raise(asking: Asking[T], interrupted: Callable[[], BaseException]) -> T:
    """``drive(asking)``, where a kernel interrupt raises ``interrupted()`` instead: for a
    framework that ends its run on an exception of its own (a bare CancelledError in a task it
    gathers would read as the cancellation of that one task).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        return await drive(asking)
    except asyncio.CancelledError:
        if not cancelled_by_interrupt():
            raise
        raise interrupted() from None
    except KeyboardInterrupt:
        raise interrupted() from None


def drive_sync(asking: Asking[T]) -> T:
    """The blocking twin of ``drive``, for synchronous code."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    step, result = _step(asking, None, first=True)
    while step is not None:
        requests = _requests_of(step)
        try:
            outcomes = run_requests_sync(requests) if isinstance(step, Together) else [run_request_sync(step)]
        except (NoOneCanAnswer, WaitingUnsupported) as error:
            outcomes = [_refused(request, error) for request in requests]
        step, result = _step(asking, outcomes if isinstance(step, Together) else outcomes[0])
    return cast("T", result)


async def _one(request: Request[Any]) -> Outcome:
    try:
        return await run_request(request, queue=True)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return _refused(request, error)


async def _all(requests: Sequence[Request[Any]]) -> list[Outcome]:
    try:
        return await run_requests(requests)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return [_refused(request, error) for request in requests]


def _step(asking: Asking[T], sent: Any, *, first: bool = False) -> tuple[Request[Any] | Together | None, T | None]:
    """(what ``asking`` yields next, None) once sent ``sent`` (or started, ``first``), or
    (None, what it returned) when it is done.
    """
    try:
        return (next(asking) if first else asking.send(sent)), None
    except StopIteration as done:
        return None, done.value


def ask(request: Request[Any]) -> Asking[Any]:
    """The Asking of one request: yields it, returns its outcome (an item of ``together``)."""
    outcome = yield request
    return outcome


def together(askings: Sequence[Asking[T]]) -> Asking[list[T]]:
    """One Asking per item of a batch, run side by side: each round shows the next request(s) of
    every one not yet done, together (an item that yields ``Together`` adds all of its own);
    returns what each returned, in order.
    """
    results: list[Any] = [None] * len(askings)
    current: dict[int, Request[Any] | Together] = {}
    for index in range(len(askings)):
        _advance(askings, index, None, current, results, first=True)
    while current:
        order = sorted(current)
        parts = [_requests_of(current[index]) for index in order]
        outcomes = iter((yield Together(tuple(request for part in parts for request in part))))
        stepped, current = current, {}
        for index, part in zip(order, parts, strict=True):
            got = [next(outcomes) for _ in part]
            _advance(askings, index, got if isinstance(stepped[index], Together) else got[0], current, results)
    return results


def _requests_of(step: Request[Any] | Together) -> tuple[Request[Any], ...]:
    return step.requests if isinstance(step, Together) else (step,)


def _advance(
    askings: Sequence[Asking[Any]],
    index: int,
    sent: Any,
    current: dict[int, Request[Any] | Together],
    results: list[Any],
    *,
    first: bool = False,
) -> None:
    """Step Asking ``index``: what it asks next into ``current``, or what it returned into ``results``."""
    step, result = _step(askings[index], sent, first=first)
    if step is None:
        results[index] = result
    else:
        current[index] = step


def _refused(request: Request[Any], error: Exception) -> Outcome:
    """The outcome of a request no one could be asked, kept in the history; a replay miss raises."""
    outcome: Outcome = refused(request, error)
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
