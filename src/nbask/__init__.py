"""nbask: pause a notebook cell, ask the person 1-4 structured questions, continue with the answers.

    ans = await nbask.ask("Which database?", ["PostgreSQL (Recommended)", "SQLite"])
    ans.answers  # {"Which database?": "PostgreSQL (Recommended)"}
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from .interaction import InteractionPending, build_question_set, manager
from .models import NO_PREFERENCE, Answer, Option, Question, QuestionSet
from .waiting import WaitingUnsupported
from .widget import DEFAULT_TIMEOUT, QuestionWidget

__version__ = "0.1.0"

__all__ = [
    "NO_PREFERENCE",
    "Answer",
    "InteractionPending",
    "Option",
    "Question",
    "QuestionSet",
    "QuestionWidget",
    "WaitingUnsupported",
    "ask",
    "ask_questions",
    "ask_sync",
    "history",
]

# A library never configures logging; applications decide where records go.
logging.getLogger(__name__).addHandler(logging.NullHandler())


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
    waits forever); ``queue=True`` waits for an already pending question to end instead
    of raising InteractionPending.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    question_set = build_question_set(question, options, header=header, multi_select=multi_select)
    return await manager().ask(question_set, timeout=timeout, tool_call_id=tool_call_id, queue=queue)


async def ask_questions(
    questions: Sequence[Question | dict[str, Any]] | QuestionSet,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
) -> Answer:
    """Ask 1-4 questions at once (the schema of ``Question``) and wait for the answers."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    question_set = questions if isinstance(questions, QuestionSet) else QuestionSet(questions=list(questions))
    return await manager().ask(question_set, timeout=timeout, tool_call_id=tool_call_id, queue=queue)


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
            raise TypeError("ask_sync(question, options): options are required with a question text")
        question_set = build_question_set(question, options, header=header, multi_select=multi_select)
    else:
        if options is not None:
            raise TypeError("ask_sync(questions): pass options inside each question, not separately")
        question_set = question if isinstance(question, QuestionSet) else QuestionSet(questions=list(question))
    return manager().ask_sync(question_set, timeout=timeout, tool_call_id=tool_call_id)


def history() -> list[Answer]:
    """Every interaction that ended in this process, oldest first."""
    return manager().history()
