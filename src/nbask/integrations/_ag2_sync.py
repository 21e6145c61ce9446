"""``nbask.integrations.ag2.run_sync``'s worker: AG2's turn runs on an event loop of its own in a
worker thread while the calling thread (a cell's) waits. The turn's hook asks the person from
there, as any nbask wait on another thread's loop does, so calls the model makes together wait
together in one batch, a late one joining it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from ag2.exceptions import HumanInputError

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
    loop = asyncio.new_event_loop()

    async def turn() -> T:
        return await start()

    task = loop.create_task(turn())
    ended = threading.Event()
    outcome: dict[str, Any] = {}

    def work() -> None:
        asyncio.set_event_loop(loop)
        try:
            outcome["value"] = loop.run_until_complete(task)
        except BaseException as error:  # noqa: BLE001 - raised again in the calling thread
            outcome["error"] = error
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            ended.set()

    worker = threading.Thread(target=work, name="nbask-ag2", daemon=True)
    worker.start()
    try:
        ended.wait()
    except BaseException:  # an interrupt: the turn stops before this thread goes on
        loop.call_soon_threadsafe(task.cancel)
        ended.wait()
        raise
    finally:
        worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
