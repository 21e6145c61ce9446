"""The interface every kernel-generation strategy implements, with the behaviour they share."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from ._base import CommRouter, taken_over


class Strategy:
    """How comm messages reach their handlers while a cell waits, for one kernel generation.

    Subclasses say where the main shell's messages arrive (``main_stream``), whether an
    await on the main loop needs that stream taken over (``takeover_on_main``), and, where a
    thread other than the main one owns the shell socket, how to receive while the main
    thread is blocked (``off_main_stream``).
    """

    name: ClassVar[str] = "?"
    #: Whether a cell awaiting on the main loop would otherwise starve comm messages.
    takeover_on_main: ClassVar[bool] = True
    #: How long a waiting non-main thread gives the main loop to run a callback before it
    #: treats the main thread as blocked. Where a fallback exists (ipykernel 7's
    #: shell-channel thread) a short grace loses nothing; without one it means an error.
    main_loop_grace: ClassVar[float] = 1.0

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        #: The asyncio loop the kernel runs cells on (tornado's IOLoop wraps it).
        self.main_loop = kernel.io_loop.asyncio_loop
        #: The thread that loop runs on; ipykernel 7.3 records it, 6.x always uses main.
        sct = getattr(kernel, "shell_channel_thread", None)
        self.main_thread: threading.Thread = getattr(sct, "parent_thread", None) or threading.main_thread()

    @classmethod
    def fits(cls, kernel: Any) -> bool:
        """Capability check: does this kernel have what the strategy relies on."""
        raise NotImplementedError

    # -- where messages arrive --------------------------------------------------------------

    def main_stream(self) -> Any:
        """The ZMQStream (on the main loop) that delivers the main shell's messages."""
        raise NotImplementedError

    def handler_stream(self) -> Any:
        """What ``dispatch_shell`` hands handlers as ``stream`` on the main thread."""
        return self.kernel.shell_stream

    def off_main_stream(self) -> tuple[Any, Any, Any] | None:
        """(stream, its IOLoop, handler stream) readable while the main thread is blocked.

        None where only the main thread ever reads the shell socket (ipykernel 6).
        """
        return None

    def current_subshell(self) -> str | None:
        """The subshell id if the calling thread runs a kernel subshell, else None."""
        return None

    def queued_comms(self) -> list[Any]:
        """Comm messages the kernel already queued behind the cell, taken out of its queue."""
        return []

    # -- shared behaviour -------------------------------------------------------------------

    def router(self, parent: tuple[Any, dict[str, Any]], handler_stream: Any = None) -> CommRouter:
        stream = self.handler_stream() if handler_stream is None else handler_stream
        return CommRouter(self.kernel, stream, parent)

    @contextmanager
    def receiving_on_main(self, parent: tuple[Any, dict[str, Any]]) -> Iterator[None]:
        """On the main thread, while its loop runs: keep comm messages flowing."""
        if not self.takeover_on_main:
            yield
            return
        with taken_over(self.main_stream(), lambda: self.router(parent)) as takeover:
            for frames in self.queued_comms():
                takeover.router.dispatch(frames)
            yield
