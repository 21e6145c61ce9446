"""An unattended run ends in a bounded number of steps.

A framework whose loop goes on until the person is satisfied (a content review that asks again
after each revision, a user proxy that speaks whenever the team turns to it) would loop forever
under a policy: the policy gives the same answer each time, the framework asks again. So the seam
remembers what was decided without a person (by a policy, or refused for want of anyone to ask)
in the current run, and when the same caller asks the same thing again it raises
``nbask.AskedAgain`` instead of answering: the integration ends the run the framework's way.

- *The same thing*: the kind of request and its gist: an approval's action and details (a batch
  of calls of one tool with other arguments is not a loop; the same call again is), a form's fields, a
  question's header, options and first paragraph (model text quoted after it, such as the draft
  under review, changes from round to round and is left out). An integration whose question
  differs each round only by model text names its gist itself (``same_as``).
- *The same caller*: the Asking that asked it (its function), so two integrations, or two
  callbacks of one, never collide.
- *The same run*: an entry point that drives its framework (``run``, ``send``) is one run; a
  framework callback called by the framework's own loop belongs to the cell being executed (in a
  script, the process).

A replayed answer is the recorded person's, not a policy's: it is never remembered, so a replay
reproduces a person's rounds however many there were. A person's answer clears nothing and is
never remembered either: a person may answer the same question twice.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from typing import Any

from ..core.lifecycle import Request
from ..errors import AskedAgain
from ..host import running_kernel
from ..kinds import ApprovalRequest, FormRequest, QuestionRequest
from ..models import Outcome

__all__ = ["AskedAgain", "check", "forget", "one_run", "remember", "same_as"]

#: The run an entry point opened: what was decided without a person in it.
_RUN: contextvars.ContextVar[set[tuple[str, ...]] | None] = contextvars.ContextVar("nbask_run", default=None)
#: Outside an entry point's run: (the cell's execute_request id, or "" in a script) and its memo.
_cell: tuple[str, set[tuple[str, ...]]] = ("", set())
_lock = threading.Lock()
#: Gists the integrations named for their requests, by request id (dropped once remembered).
_named: dict[str, str] = {}


@contextlib.contextmanager
def one_run() -> Iterator[None]:
    """Everything asked inside is one run (an entry point that drives its framework)."""
    token = _RUN.set(set())
    try:
        yield
    finally:
        _RUN.reset(token)


def same_as(request: Request[Any], gist: str) -> Request[Any]:
    """``request``, asked again when another of the same caller has the same ``gist``."""
    with _lock:
        _named[request.request_id] = gist
    return request


def check(caller: str, request: Request[Any]) -> None:
    """Raise ``AskedAgain`` when ``caller`` already had ``request``'s gist decided without a
    person in this run.
    """
    key = _key(caller, request)
    with _lock:
        seen = key in _memo()
    if seen:
        _named.pop(request.request_id, None)
        what = _label(request)
        msg = (
            f"nbask stopped this run: it asked again what was already decided without a person "
            f"({_what(request)} {what!r}), and answering again would repeat the same round without "
            "end. Run it with a person to answer, or record a person's answers and replay them "
            "(policy 'replay')."
        )
        raise AskedAgain(msg, asked=what)


def remember(caller: str, request: Request[Any], outcome: Outcome) -> None:
    """Note ``outcome`` if no person decided it (a policy or a refusal), for ``check``."""
    key = _key(caller, request)
    with _lock:
        _named.pop(request.request_id, None)
        if outcome.answered_by == "policy":
            _memo().add(key)


def forget() -> None:
    """Forget what was decided outside an entry point's run (a test's fresh start)."""
    global _cell  # noqa: PLW0603 - see _memo
    with _lock:
        _cell = ("", set())
        _named.clear()


def _memo() -> set[tuple[str, ...]]:
    """The memo of the run in force (call with the lock held)."""
    global _cell  # noqa: PLW0603 - one memo for the cell being executed, replaced by the next cell's
    run = _RUN.get()
    if run is not None:
        return run
    cell = _execution_id()
    if _cell[0] != cell:
        _cell = (cell, set())
    return _cell[1]


def _execution_id() -> str:
    """The id of the execute_request the kernel runs now ("" in a script, or if unknown)."""
    kernel = running_kernel()
    try:
        parent = kernel.get_parent("shell") if kernel is not None else None
    except (LookupError, AttributeError, TypeError):
        return ""
    header = parent.get("header", {}) if isinstance(parent, dict) else {}
    return str(header.get("msg_id", ""))


def _key(caller: str, request: Request[Any]) -> tuple[str, ...]:
    return (caller, request.kind, _named.get(request.request_id) or _gist(request))


def _gist(request: Request[Any]) -> str:
    """What makes two requests the same question (see the module docstring)."""
    if isinstance(request, ApprovalRequest):  # the same call: its action and its arguments
        return f"{request.approval.action}\n{request.approval.details}"
    if isinstance(request, FormRequest):
        fields = "; ".join(f"{field.name}: {field.title}" for field in request.form.fields)
        return f"{_first_paragraph(request.form.message)} [{fields}]"
    if isinstance(request, QuestionRequest):
        return " | ".join(
            (f"{question.header}: " if question.header else "") + f"{_first_paragraph(question.question)} "
            f"[{', '.join(option.label for option in question.options)}]"
            for question in request.question_set.questions
        )
    return request.request_id  # a kind this module does not know is never taken for another


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0].strip()


def _label(request: Request[Any]) -> str:
    """What was asked, in a few words, for the error."""
    if isinstance(request, ApprovalRequest):
        return request.approval.action
    if isinstance(request, FormRequest):
        return _first_paragraph(request.form.message)
    if isinstance(request, QuestionRequest):
        return _first_paragraph(request.question_set.questions[0].question)
    return request.request_id


def _what(request: Request[Any]) -> str:
    return {"approval": "the approval", "form": "the form", "question": "the question"}.get(request.kind, "the request")
