"""Turns a kernel interrupt (SIGINT) into a prompt, orderly end of the waits in progress.

Why this exists: on every ipykernel (6.x and 7.x alike) SIGINT during a top-level await
does nothing until some other message wakes the event loop (ipykernel#881): the signal may
be taken by another thread, so the main thread's epoll never returns, and Python only runs
signal handlers on the main thread when it regains control. And the kernel's handler
(``default_int_handler``, installed by ``pre_handler_hook``) would raise KeyboardInterrupt
wherever the main thread happens to be -- possibly inside tornado/asyncio internals.

So while anyone waits, the hub installs (main thread only, as Python requires):
- ``signal.set_wakeup_fd`` on a socketpair the loop reads, so the C-level handler wakes the
  loop (or the blocking pump's poll) whichever thread the signal lands on;
- a SIGINT handler that never raises: it only tells each waiter it was interrupted; the
  waiter then raises KeyboardInterrupt itself, from its own frame.
Both are restored when the last waiter leaves, also on errors; bytes read from our wakeup
socket are forwarded to the previous wakeup fd (asyncio uses one for its signal handlers).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

from ._base import log


class InterruptHub:
    """Shared SIGINT handler + wakeup fd while at least one wait subscribes."""

    def __init__(self) -> None:
        self._subscribers: dict[int, Callable[[], None]] = {}
        self._next = 0
        self._rsock: socket.socket | None = None
        self._wsock: socket.socket | None = None
        self._prev_handler: Any = None
        self._prev_wakeup_fd = -1
        self._loop: Any = None
        self._kernel: Any = None

    # -- used by waits ----------------------------------------------------------------------

    @property
    def wake_socket(self) -> socket.socket | None:
        """The socket that becomes readable on a signal (for the blocking pump's poll)."""
        return self._rsock

    def subscribe(self, on_interrupt: Callable[[], None], loop: Any, kernel: Any) -> int:
        """Call ``on_interrupt`` (on the main thread, in signal context) on SIGINT."""
        _require_main_thread()
        if not self._subscribers:
            self._install(loop, kernel)
        self._next += 1
        self._subscribers[self._next] = on_interrupt
        return self._next

    def unsubscribe(self, token: int) -> None:
        _require_main_thread()
        if self._subscribers.pop(token, None) is not None and not self._subscribers:
            self._uninstall()

    def drain(self, *_: object) -> None:
        """Empty our wakeup socket; pass the signal numbers on to the previous wakeup fd."""
        if self._rsock is None:
            return
        data = b""
        while True:
            try:
                chunk = self._rsock.recv(4096)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                return
            if not chunk:
                break
            data += chunk
        if data and self._prev_wakeup_fd >= 0:
            with contextlib.suppress(OSError):
                os.write(self._prev_wakeup_fd, data)

    @property
    def installed(self) -> bool:
        return self._rsock is not None

    # -- installation -----------------------------------------------------------------------

    def _on_sigint(self, _signum: int, _frame: Any) -> None:
        # Runs between two bytecodes of the main thread, possibly inside the event loop's
        # machinery: never raise here; each waiter raises KeyboardInterrupt itself.
        for callback in list(self._subscribers.values()):
            with contextlib.suppress(Exception):
                callback()

    def _install(self, loop: Any, kernel: Any) -> None:
        rsock, wsock = socket.socketpair()
        rsock.setblocking(False)
        wsock.setblocking(False)
        try:
            prev_fd = signal.set_wakeup_fd(wsock.fileno(), warn_on_full_buffer=False)
            try:
                prev_handler = signal.signal(signal.SIGINT, self._on_sigint)
            except BaseException:
                signal.set_wakeup_fd(prev_fd)
                raise
        except BaseException:
            rsock.close()
            wsock.close()
            raise
        self._rsock, self._wsock = rsock, wsock
        self._prev_wakeup_fd, self._prev_handler = prev_fd, prev_handler
        self._loop, self._kernel = loop, kernel
        try:
            loop.add_reader(rsock.fileno(), self.drain)
        except Exception:
            self._loop = None  # the blocking pump polls wake_socket itself

    def _uninstall(self) -> None:
        rsock, wsock = self._rsock, self._wsock
        if rsock is None or wsock is None:
            return
        try:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(rsock.fileno())
        except Exception:
            log.debug("nbask: remove_reader failed", exc_info=True)
        self.drain()
        current_fd = signal.set_wakeup_fd(self._prev_wakeup_fd)
        if current_fd != wsock.fileno():  # someone else replaced ours meanwhile: keep theirs
            signal.set_wakeup_fd(current_fd)
        prev = self._prev_handler if self._prev_handler is not None else signal.SIG_DFL
        if signal.getsignal(signal.SIGINT) == self._on_sigint:
            signal.signal(signal.SIGINT, prev)
        elif getattr(self._kernel, "saved_sigint_handler", None) == self._on_sigint:
            # A shell handler started after we installed (pre_handler_hook saved ours and set
            # default_int_handler); its post_handler_hook must restore the real previous one.
            self._kernel.saved_sigint_handler = prev
        else:
            log.debug("nbask: SIGINT handler was replaced during a wait; left as is")
        rsock.close()
        wsock.close()
        self._rsock = self._wsock = None
        self._loop = self._kernel = self._prev_handler = None
        self._prev_wakeup_fd = -1


def _require_main_thread() -> None:
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("signal handling is only possible on the main thread")


HUB = InterruptHub()
