"""An event loop in a worker thread, for the blocking twins of integrations whose framework is
async only (``run_sync`` in a cell, whose own loop is already running): the seam's
``drive_sync`` runs async-only ``Work`` on one (Agent Framework, A2A, AutoGen, AG2).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class WorkerLoop:
    """Runs coroutines to their end on a loop of its own; an interrupt of the caller's wait
    cancels the coroutine there (after ``on_cancel``, run on that loop: a framework's own
    cancellation token) and waits for it to end before re-raising.
    """

    def __init__(self, name: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)  # for code that asks the thread for its loop
        self._loop.run_forever()

    def run(self, start: Callable[[], Awaitable[T]], on_cancel: Callable[[], None] | None = None) -> T:
        ended = threading.Event()
        outcome: dict[str, Any] = {}

        async def running() -> None:
            try:
                outcome["value"] = await start()
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                outcome["error"] = error
            finally:
                ended.set()

        def create() -> None:
            if not outcome.get("cancelled"):
                outcome["task"] = self._loop.create_task(running())

        def cancel() -> None:
            if on_cancel is not None:
                on_cancel()
            task = outcome.get("task")
            if task is not None:
                task.cancel()
            else:  # interrupted before the task was scheduled: it never starts
                outcome["cancelled"] = True
                ended.set()

        try:
            # Inside the try: an interrupt may land while the task is being scheduled (even once
            # it runs). The loop runs callbacks in order, so ``cancel`` finds the task ``create``
            # made, or, when ``create`` was never scheduled, keeps it from starting.
            self._loop.call_soon_threadsafe(create)
            ended.wait()
        except BaseException:
            self._loop.call_soon_threadsafe(cancel)
            ended.wait()
            raise
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]  # type: ignore[no-any-return]

    def close(self) -> None:
        """Cancel what still runs there (a framework's background tasks), then end the loop."""

        async def drained() -> None:
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._loop.shutdown_asyncgens()

        asyncio.run_coroutine_threadsafe(drained(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
