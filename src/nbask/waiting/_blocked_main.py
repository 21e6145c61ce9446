"""A kernel interrupt that reaches a thread waiting while the kernel's main thread is blocked.

A cell may block its main thread on a worker that asks (a framework's sync ``kickoff()`` joins
the thread running the agent). ipykernel 7 then brings the answer on its shell-channel thread,
but an interrupt is a SIGINT, handled on the main thread only: the kernel's handler
(``default_int_handler``, set by ``pre_handler_hook`` around each cell) raises KeyboardInterrupt
there, the cell unwinds into joining the worker, and the worker, still waiting for an answer,
would hold the cell until its time limit.

So, inside a kernel, nbask chains that handler while cells run: it first tells each thread
waiting this way, then raises KeyboardInterrupt exactly as before (with no such thread it only
raises). It also notes which cell was interrupted: a thread of that cell that starts to wait
later (its parallel tool call was slower to ask, and the cell is unwinding into joining it) is
told at once, as the interrupt was for every request of the running cell.

Python lets only the main thread set a handler, and the blocked main thread runs no nbask code,
so it is set ahead: by ``install`` when nbask is imported on the main thread, and by the
kernel's ``pre_handler_hook`` for every later cell.
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ._base import shell_parent

#: The threads waiting behind a blocked main thread: token -> what tells each one.
_waiting: dict[int, Callable[[], None]] = {}
_tokens = itertools.count()
_HOOKED = "_nbask_sigint_chained"
_kernel: Any = None
#: The msg_id of the cell the last interrupt came in (None before any).
_interrupted_cell: str | None = None


def cell_id(parent: tuple[Any, dict[str, Any]]) -> str | None:
    """The msg_id of the cell a ``shell_parent`` names, or None."""
    header = parent[1].get("header") if isinstance(parent[1], dict) else None
    msg_id = header.get("msg_id") if isinstance(header, dict) else None
    return msg_id if isinstance(msg_id, str) and msg_id else None


def _on_sigint(signum: int, frame: Any) -> None:
    global _interrupted_cell  # noqa: PLW0603 - set only here, on the main thread
    if _kernel is not None:
        _interrupted_cell = cell_id(shell_parent(_kernel))
    for tell in list(_waiting.values()):
        with contextlib.suppress(Exception):
            tell()
    signal.default_int_handler(signum, frame)


def _chain() -> None:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)


def install(kernel: Any) -> None:
    """From the kernel's main thread: chain its SIGINT handler now and for every later cell."""
    if threading.current_thread() is not threading.main_thread() or getattr(kernel, _HOOKED, False):
        return
    original = kernel.pre_handler_hook

    def pre_handler_hook() -> None:
        original()
        _chain()

    kernel.pre_handler_hook = pre_handler_hook
    setattr(kernel, _HOOKED, True)
    global _kernel  # noqa: PLW0603 - the one kernel of the process
    _kernel = kernel
    _chain()
    # ipykernel 6: a worker waiting behind the blocked main thread has it pump (_main_pump).
    from ._main_pump import install_handler  # noqa: PLC0415 - needs pyzmq, there in a kernel

    install_handler()


@contextlib.contextmanager
def told_of_interrupts(tell: Callable[[], None], cell: str | None = None) -> Iterator[None]:
    """While inside, a kernel interrupt calls ``tell()`` (on the main thread, in signal context:
    it must only set a flag or wake a loop) before the cell gets its KeyboardInterrupt. If
    ``cell`` (a msg_id) was interrupted already, ``tell()`` is called at once, on this thread.
    """
    token = next(_tokens)
    _waiting[token] = tell
    if cell is not None and cell == _interrupted_cell:
        tell()
    try:
        yield
    finally:
        _waiting.pop(token, None)
