"""``nbask.integrations.ag2.run_sync``'s worker: AG2's turn runs on an event loop of its own in a
worker thread while the calling thread (a cell's) waits. The turn's hook asks the person from
there, as any nbask wait on another thread's loop does, so calls the model makes together wait
together in one batch, a late one joining it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from ag2.exceptions import HumanInputError

from ._worker_loop import WorkerLoop

__all__ = ["INTERRUPTED", "Interrupted", "run_in_thread"]

T = TypeVar("T")

#: Why a turn ended on a kernel interrupt.
INTERRUPTED: Final = "The person interrupted the run while nbask was waiting for them; the turn stops here."


class Interrupted(HumanInputError):
    """A kernel interrupt while nbask waited for the person: AG2 ends the turn with it."""

    def __init__(self) -> None:
        super().__init__(INTERRUPTED)


def run_in_thread(start: Callable[[], Awaitable[T]]) -> T:
    """``start()`` run to its end on a new event loop in a worker thread; its result, or its
    error raised here. An interrupt of this thread's wait cancels it there, waits for it to
    end, and is raised again.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    worker = WorkerLoop("nbask-ag2")
    try:
        return worker.run(start)
    finally:
        worker.close()
