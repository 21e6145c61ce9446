"""The public calls: ask questions, ask for approval or a form, awaiting or blocking, and read
the history.

Each call turns its arguments into a request of its kind (``nbask.kinds``) and runs it
(``nbask.resolvers.run``): the policy in force chooses who answers it.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from .core.history import HistoryEntry, write_jsonl
from .core.lifecycle import DEFAULT_TIMEOUT, Request
from .core.manager import manager
from .identity import checked_approvers
from .kinds import QuestionRequest
from .kinds.approval.request import approval_request
from .kinds.form.request import form_request
from .kinds.question.request import as_question_set, one_question_request
from .models import (
    Answer,
    Decision,
    FormAnswer,
    Option,
    Question,
    QuestionSet,
    Risk,
)
from .resolvers.run import run_request, run_request_sync

RequestT = TypeVar("RequestT", bound=Request[Any])

# The public calls (``nbask`` re-exports them): those that ask, then those that read what ended.
__all__ = ["approve", "approve_sync", "ask", "ask_form", "ask_form_sync", "ask_questions", "ask_sync"]
__all__ += ["HistoryEntry", "history", "late_answers", "save_history"]


async def ask(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> Answer:
    """Ask one question with 2-4 options in the running cell and wait for the answer.

    The UI adds a free-text "Other" choice itself. An option given as ``Option(label=...,
    preview=...)`` or a dict with ``"preview"`` shows that text (a snippet, a small table, a
    diff) beside the options while it is focused or chosen. ``timeout`` is in seconds (``None``
    waits forever); ``queue=True`` shows it at once beside requests already waiting (answered
    in any order) instead of raising InteractionPending. The person's notes come back in ``Answer.notes`` (per
    question) and ``Answer.note`` (the whole set). ``source`` names who asks ("billing agent"):
    shown on the card when a batch holds requests from more than one source. ``inbox=True``
    keeps it in the inbox too while it waits (``nbask inbox``): answered there first, the cell
    goes on with that answer; every call that asks takes ``inbox=`` the same way.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = one_question_request(
        question,
        options,
        header=header,
        multi_select=multi_select,
        timeout=timeout,
        tool_call_id=tool_call_id,
        source=source,
    )
    return await run_request(_only(request, approvers), queue=queue, inbox=inbox)


async def ask_questions(
    questions: Sequence[Question | dict[str, Any]] | QuestionSet,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> Answer:
    """Ask 1-4 questions at once (the schema of ``Question``) and wait for the answers."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = QuestionRequest(
        question_set=as_question_set(questions), timeout=timeout, tool_call_id=tool_call_id, source=source
    )
    return await run_request(_only(request, approvers), queue=queue, inbox=inbox)


def ask_sync(
    question: str | Sequence[Question | dict[str, Any]] | QuestionSet,
    options: Sequence[str | Option | dict[str, Any]] | None = None,
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> Answer:
    """The blocking twin of ``ask`` / ``ask_questions`` for synchronous code.

    ``ask_sync("Proceed?", ["Yes", "No"])`` asks one question; ``ask_sync([...])`` with
    a list of questions (and no options) asks several. ``queue=True`` (from a thread, say) shows
    it beside requests already waiting.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if isinstance(question, str):
        if options is None:
            msg = "ask_sync(question, options): options are required with a question text"
            raise TypeError(msg)
        request = one_question_request(
            question,
            options,
            header=header,
            multi_select=multi_select,
            timeout=timeout,
            tool_call_id=tool_call_id,
            source=source,
        )
    else:
        if options is not None:
            msg = "ask_sync(questions): pass options inside each question, not separately"
            raise TypeError(msg)
        request = QuestionRequest(
            question_set=as_question_set(question), timeout=timeout, tool_call_id=tool_call_id, source=source
        )
    return run_request_sync(_only(request, approvers), queue=queue, inbox=inbox)


async def approve(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    details_schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> Decision:
    """Ask the person to approve, edit or reject ``action`` (a short title) with ``details``.

    Anything but an explicit approval (dismiss, timeout, interrupt) is a rejection whose
    ``reason`` says why. A kernel interrupt raises KeyboardInterrupt, as for questions.
    With ``details_schema`` (the JSON Schema of the arguments the details hold as JSON), an
    edit that does not fit it is refused in the widget, naming the argument, and stays open.
    ``risk`` ("low", "medium" or "high"; None = no tag) tags the approval with what is at stake;
    "high" draws Approve in the danger colour (Reject is still what has focus first).
    ``source`` names who asks ("billing agent"), shown when a batch mixes sources.
    ``approvers=["alice"]`` (every call that asks takes it): only a verified answer of one of
    them resolves it (``nbask.configure(approvers=...)`` sets a default for approvals).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = approval_request(
        action, details, timeout=timeout, tool_call_id=tool_call_id, schema=details_schema, risk=risk, source=source
    )
    return await run_request(_only(request, approvers), queue=queue, inbox=inbox)


def approve_sync(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    details_schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> Decision:
    """The blocking twin of ``approve``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = approval_request(
        action, details, timeout=timeout, tool_call_id=tool_call_id, schema=details_schema, risk=risk, source=source
    )
    return run_request_sync(_only(request, approvers), queue=queue, inbox=inbox)


async def ask_form(
    message: str,
    schema: Mapping[str, Any] | type[BaseModel],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> FormAnswer:
    """Ask the person to fill in a typed form and wait for the values.

    ``schema`` is a flat JSON Schema object in MCP's form subset, or a flat pydantic model
    class (then ``answer.data`` is the validated instance). A schema outside the subset is
    refused before anything is shown. ``answer.values`` are typed as the schema says;
    ``answer.action`` is "accept", "decline" (dismissed) or "cancel" (timeout, interrupt).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id, source=source)
    return await run_request(_only(request, approvers), queue=queue, inbox=inbox)


def ask_form_sync(
    message: str,
    schema: Mapping[str, Any] | type[BaseModel],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
    approvers: Sequence[str] | None = None,
) -> FormAnswer:
    """The blocking twin of ``ask_form``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id, source=source)
    return run_request_sync(_only(request, approvers), queue=queue, inbox=inbox)


def _only(request: RequestT, approvers: Sequence[str] | None) -> RequestT:
    """``request`` that only ``approvers`` may answer (a verified answer of one of them), where
    given; ValueError naming ``approvers`` and the rule for anything but a list of usernames.
    """
    if approvers is not None:
        request.approvers = checked_approvers(approvers)
    return request


def history() -> list[HistoryEntry]:
    """Every interaction that ended in this process, oldest first: what was asked and the outcome."""
    return manager().history()


def late_answers() -> list[HistoryEntry]:
    """The answers people gave after their question, approval or form had timed out, oldest
    first: each entry's outcome has ``late=True``, ``timed_out_at`` (when the call returned
    "timeout") and ``resolved_at`` (when the person answered). The call that asked had already
    returned; these never change what it returned. They are in ``nbask.history()`` too.
    """
    return manager().late_answers()


def save_history(path: str | os.PathLike[str]) -> pathlib.Path:
    """Write every interaction of this process (``nbask.history()``) to ``path`` as JSONL, one
    entry per line, oldest first; the ``replay`` policy reads it back. Returns the path.
    """
    return write_jsonl(manager().each_entry(), path)
