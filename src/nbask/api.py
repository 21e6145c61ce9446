"""The public calls: ask questions or ask for approval, awaiting or blocking, and the history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .lifecycle import DEFAULT_TIMEOUT, ApprovalRequest, QuestionRequest
from .manager import HistoryEntry, manager
from .models import Answer, Approval, Decision, Option, Question, QuestionSet


def build_question_set(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
) -> QuestionSet:
    """The one-question shorthand of ``nbask.ask`` as a validated QuestionSet."""
    if isinstance(options, str):
        msg = "options must be a list of option labels, not a single string"
        raise TypeError(msg)
    normalised = [{"label": o} if isinstance(o, str) else o for o in options]
    return QuestionSet(
        questions=[Question(question=question, header=header, options=normalised, multi_select=multi_select)]
    )


def as_question_set(questions: Sequence[Question | dict[str, Any]] | QuestionSet) -> QuestionSet:
    """Validate a list of questions (or pass a QuestionSet through)."""
    return questions if isinstance(questions, QuestionSet) else QuestionSet(questions=list(questions))


async def ask(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
) -> Answer:
    """Ask one question with 2-4 options in the running cell and wait for the answer.

    The UI adds a free-text "Other" choice itself. ``timeout`` is in seconds (``None``
    waits forever); ``queue=True`` waits for an already pending request to end instead
    of raising InteractionPending.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    question_set = build_question_set(question, options, header=header, multi_select=multi_select)
    request = QuestionRequest(question_set=question_set, timeout=timeout, tool_call_id=tool_call_id)
    return await manager().run(request, queue=queue)


async def ask_questions(
    questions: Sequence[Question | dict[str, Any]] | QuestionSet,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
) -> Answer:
    """Ask 1-4 questions at once (the schema of ``Question``) and wait for the answers."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = QuestionRequest(question_set=as_question_set(questions), timeout=timeout, tool_call_id=tool_call_id)
    return await manager().run(request, queue=queue)


def ask_sync(
    question: str | Sequence[Question | dict[str, Any]] | QuestionSet,
    options: Sequence[str | Option | dict[str, Any]] | None = None,
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
) -> Answer:
    """The blocking twin of ``ask`` / ``ask_questions`` for synchronous code.

    ``ask_sync("Proceed?", ["Yes", "No"])`` asks one question; ``ask_sync([...])`` with
    a list of questions (and no options) asks several.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if isinstance(question, str):
        if options is None:
            msg = "ask_sync(question, options): options are required with a question text"
            raise TypeError(msg)
        question_set = build_question_set(question, options, header=header, multi_select=multi_select)
    else:
        if options is not None:
            msg = "ask_sync(questions): pass options inside each question, not separately"
            raise TypeError(msg)
        question_set = as_question_set(question)
    return manager().run_sync(QuestionRequest(question_set=question_set, timeout=timeout, tool_call_id=tool_call_id))


async def approve(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
) -> Decision:
    """Ask the person to approve, edit or reject ``action`` (a short title) with ``details``.

    Anything but an explicit approval (dismiss, timeout, interrupt) is a rejection whose
    ``reason`` says why. A kernel interrupt raises KeyboardInterrupt, as for questions.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    approval = Approval(action=action, details=details)
    request = ApprovalRequest(approval=approval, timeout=timeout, tool_call_id=tool_call_id)
    return await manager().run(request, queue=queue)


def approve_sync(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
) -> Decision:
    """The blocking twin of ``approve``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    approval = Approval(action=action, details=details)
    request = ApprovalRequest(approval=approval, timeout=timeout, tool_call_id=tool_call_id)
    return manager().run_sync(request)


def history() -> list[HistoryEntry]:
    """Every interaction that ended in this process, oldest first: what was asked and the outcome."""
    return manager().history()
