"""Waiting from one thread while the receiving side runs on another.

- ``receiving_off_main``: keep comm messages flowing while a thread other than the kernel's
  main one waits -- installed on the main loop if that loop is free, else on ipykernel 7's
  shell-channel thread.
- ``LoopInstall``: the hand-off both of those use: run an install on another thread's loop,
  wait a bounded time for it, and remove it later on that same loop.
- ``EventWatcher``, ``wait_until``, ``notify``: wait on "event set OR stop" without polling.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Any

from ..errors import WaitingUnsupported
from ._base import shell_parent, taken_over
from ._blocked_main import cell_id, told_of_interrupts
from ._interrupt import HUB
from ._main_pump import MainPump
from ._main_pump import available as main_pump_available
from ._main_pump import join as join_main_pump
from ._strategy_base import Strategy

#: How long a waiting thread gives ipykernel 7's shell-channel thread to install a takeover.
SHELL_CHANNEL_GRACE = 5.0


@contextmanager
def interrupts(strategy: Strategy, on_interrupt: Callable[[], None]) -> Iterator[None]:
    """While inside, SIGINT calls ``on_interrupt`` (main thread only, as signals require)."""
    token = HUB.subscribe(on_interrupt, strategy.main_loop, strategy.kernel)
    try:
        yield
    finally:
        HUB.unsubscribe(token)


@contextmanager
def receiving_off_main(strategy: Strategy, on_interrupt: Callable[[], None]) -> Iterator[bool]:
    """From a thread other than the main one: keep comm messages flowing while we wait. Yields
    whether the main thread is blocked (then ``on_interrupt`` comes through _blocked_main, and
    the main loop runs nothing the waiter schedules on it until the cell ends).
    """
    parent = shell_parent(strategy.kernel)
    on_main = _on_main_loop(strategy, parent, on_interrupt)
    with ExitStack() as stack:
        install: LoopInstall | MainPump
        if on_main is None:
            # Told first: an interrupt while the receiving side is being set up counts too.
            stack.enter_context(told_of_interrupts(on_interrupt, cell_id(parent)))
            install = _on_shell_channel(strategy, parent)
        else:
            install = on_main
        try:
            yield on_main is None
        finally:
            install.remove()


def _on_main_loop(strategy: Strategy, parent: Any, on_interrupt: Callable[[], None]) -> LoopInstall | None:
    """The main-thread side of the wait, installed by the main loop if it is free; else None."""
    if strategy.current_subshell() is not None:
        return None
    install = LoopInstall(
        strategy.main_loop.call_soon_threadsafe,
        lambda: strategy.receiving_on_main(parent),
        lambda: interrupts(strategy, on_interrupt),
    )
    return install if install.start(strategy.main_loop_grace) else None


def _on_shell_channel(strategy: Strategy, parent: Any) -> LoopInstall | MainPump:
    """The main thread is blocked: a StreamTakeover installed on the thread that owns the stream
    (ipykernel 7's shell channel), or on ipykernel 6 the main thread's own pump (_main_pump).
    """
    off_main = strategy.off_main_stream()
    if off_main is None:
        # ipykernel 6: only the main thread may read the shell socket; a signal has it pump.
        pump = join_main_pump(strategy, parent) if main_pump_available() else None
        if pump is not None:
            return pump
        raise WaitingUnsupported(
            "nbask cannot wait from this thread: the kernel's main thread is busy in code that "
            "does not let it receive widget messages (on ipykernel 6 only that thread may). "
            "Await the question in the cell (await nbask.ask(...)), or keep the main thread "
            "free while the worker runs (await asyncio.to_thread(...)), or use ipykernel 7"
        )
    stream, io_loop, handler_stream = off_main
    install = LoopInstall(
        io_loop.add_callback, lambda: taken_over(stream, lambda: strategy.router(parent, handler_stream))
    )
    if not install.start(SHELL_CHANNEL_GRACE):
        raise WaitingUnsupported("the kernel's shell-channel thread does not respond")
    return install


class LoopInstall:
    """Enter context managers on another thread's event loop, from a thread that waits for it.

    ``call_soon`` schedules a callable on that loop from any thread
    (``loop.call_soon_threadsafe``, tornado's ``IOLoop.add_callback``); ``contexts`` make the
    context managers to enter there, in order. ``start`` waits a bounded time for the loop
    to run the install: pending -> installed | failed | abandoned. An abandoned install
    (the loop's thread is blocked) does nothing when it runs late. ``remove`` asks the loop
    to exit the contexts without waiting for it: the thread that owns that loop may be
    about to block on us (``thread.join()``), and runs the removal as soon as it is free.
    """

    def __init__(
        self, call_soon: Callable[[Callable[[], None]], Any], *contexts: Callable[[], AbstractContextManager[Any]]
    ) -> None:
        self.call_soon = call_soon
        self.contexts = contexts
        self.lock = threading.Lock()
        self.state = "pending"  # -> installed | failed | abandoned
        self.answered = threading.Event()
        self.stack: ExitStack | None = None
        self.error: BaseException | None = None

    def start(self, grace: float) -> bool:
        """True once installed; False if the loop is closed or did not run the install within
        ``grace`` seconds; raises what the install raised.
        """
        try:
            self.call_soon(self._install)
        except RuntimeError:  # the loop is closed: the kernel is shutting down
            return False
        self.answered.wait(grace)
        with self.lock:
            if self.state == "pending":  # the loop's thread is blocked; a late run does nothing
                self.state = "abandoned"
                return False
            if self.state == "failed":
                assert self.error is not None
                raise self.error
            return True

    def _install(self) -> None:  # on the loop
        with self.lock:
            if self.state != "pending":  # we gave up waiting for this loop
                return
            stack = ExitStack()
            try:
                for make in self.contexts:
                    stack.enter_context(make())
            except BaseException as err:
                stack.close()
                self.error, self.state = err, "failed"
            else:
                self.stack, self.state = stack, "installed"
        self.answered.set()

    def remove(self) -> None:
        """Ask the loop to exit the contexts; not waited for (see the class docstring)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing left to undo
            self.call_soon(self._remove)

    def _remove(self) -> None:  # on the loop
        if self.stack is not None:
            self.stack.close()
            self.stack = None


class EventWatcher:
    """A helper thread that calls ``on_set`` once ``event`` is set (unless stopped first)."""

    def __init__(self, event: threading.Event, on_set: Callable[[], None]) -> None:
        self.event = event
        self.on_set = on_set
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="nbask-event-watcher", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping and not self.event.is_set():
            wait_until(self.event, lambda: self.stopping, None)
        if not self.stopping:
            self.on_set()

    def stop(self) -> None:
        self.stopping = True
        if self.thread.is_alive():
            notify(self.event)
            self.thread.join(1.0)


def wait_until(event: threading.Event, stop: Callable[[], bool], timeout: float | None) -> None:
    """Block until ``event`` is set, or ``stop()`` holds at a ``notify(event)``, or timeout.

    ``stop()`` is checked while holding the event's own condition lock, the lock
    ``notify`` takes after the flag behind ``stop()`` was raised: a notification can never
    fall between the check and the wait. This waits on "answer OR interrupt OR stop"
    without polling.
    """
    cond = getattr(event, "_cond", None)
    if cond is None:  # not CPython's Event: fall back to waking up now and then
        if not stop():
            event.wait(0.25 if timeout is None else min(timeout, 0.25))
        return
    with cond:
        if not event.is_set() and not stop():
            cond.wait(timeout)


def notify(event: threading.Event) -> None:
    """Wake the threads blocked in ``wait_until(event, ...)`` so they re-check ``stop()``."""
    cond = getattr(event, "_cond", None)
    if cond is not None:
        with cond:
            cond.notify_all()
