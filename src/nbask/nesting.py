"""``nbask.no_questions()``: a scope in which nothing may be asked of the person.

Only the main agent may ask. A harness runs a sub-agent inside
``with nbask.no_questions():``; any question or approval the sub-agent starts there is refused
at once with ``QuestionsNotAllowed`` (the tool layer turns it into a tool error that tells the
model not to ask again), instead of interrupting the person on the sub-agent's behalf.

The scope is a context variable, so it follows the code that entered it: the coroutines and
tasks started inside it, and threads started with ``contextvars.copy_context`` or
``asyncio.to_thread``; other cells, tasks and threads are not affected.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Final

from .errors import QuestionsNotAllowed

_REASON: Final[contextvars.ContextVar[str | None]] = contextvars.ContextVar("nbask_no_questions", default=None)

DEFAULT_REASON: Final = "this code runs as a sub-agent, and only the main agent may ask the person"


@contextlib.contextmanager
def no_questions(reason: str = DEFAULT_REASON) -> Iterator[None]:
    """Refuse every question and approval started inside this block.

        with nbask.no_questions():
            result = await sub_agent.run(task)   # its AskUserQuestion calls get a tool error

    ``reason`` says why, in the refusal the caller (or the model) reads.
    """
    token = _REASON.set(reason)
    try:
        yield
    finally:
        _REASON.reset(token)


def check_questions_allowed(kind: str = "question") -> None:
    """Raise QuestionsNotAllowed inside ``no_questions()``; ``kind`` names what was refused."""
    reason = _REASON.get()
    if reason is not None:
        msg = (
            f"No {kind} may be asked here: {reason}. Do not ask again; decide with the information "
            "you have, or hand the open question back to the main agent in your result."
        )
        raise QuestionsNotAllowed(msg)
