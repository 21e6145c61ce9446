"""The waits behind ``wait_for`` and ``wait_sync``, once a strategy has been chosen.

- ``await_future``: an await on the kernel's main loop (the strategy's receiving side and
  interrupt handling installed right there) or on another thread's loop (both installed
  from afar, see ``_threads.receiving_off_main``).
- ``block_until`` on the main thread: the kernel's loop is blocked by the caller, so the
  pump reads the main shell socket itself (``_base.pump_socket``).
- ``block_until`` on any other thread: waits on the event while the receiving side runs
  elsewhere (``_threads.receiving_off_main``).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import TypeVar

from ..errors import WaitingUnsupported
from ._base import empty, poke, pump_socket, shell_parent
from ._interrupt import HUB
from ._strategy_base import Strategy
from ._threads import EventWatcher, interrupts, notify, receiving_off_main, wait_until

T = TypeVar("T")


async def await_future(
    strategy: Strategy,
    future: asyncio.Future[T],
    timeout: float | None,
    on_waiting: Callable[[], None] | None,
) -> T:
    """``wait_for``: await ``future`` on the running loop while comm messages keep flowing."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    loop = asyncio.get_running_loop()
    if future.get_loop() is not loop:
        raise ValueError("wait_for needs a future of the running event loop")
    on_main = threading.current_thread() is strategy.main_thread
    if on_main and loop is not strategy.main_loop:
        raise WaitingUnsupported(
            "the cell runs its own event loop on the kernel's main thread, which blocks the "
            "kernel's loop; await nbask directly in the cell instead"
        )
    waiter = loop.create_future()
    interrupted = False

    def wake(*_: object) -> None:
        if not waiter.done():
            waiter.set_result(None)

    def on_interrupt() -> None:  # signal context: only a flag and a thread-safe wake-up
        nonlocal interrupted
        interrupted = True
        loop.call_soon_threadsafe(wake)

    with ExitStack() as stack:
        if on_main:
            stack.enter_context(strategy.receiving_on_main(shell_parent(strategy.kernel)))
            stack.enter_context(interrupts(strategy, on_interrupt))
        else:
            stack.enter_context(receiving_off_main(strategy, on_interrupt))
        if on_waiting is not None:
            on_waiting()
        future.add_done_callback(wake)
        timer = loop.call_later(timeout, wake) if timeout is not None else None
        try:
            await waiter
        finally:
            future.remove_done_callback(wake)
            if timer is not None:
                timer.cancel()
    if interrupted:
        raise _interruption()
    if future.done():
        return future.result()
    raise TimeoutError(f"no answer within {timeout} seconds")


def block_until(
    strategy: Strategy, done: threading.Event, timeout: float | None, on_waiting: Callable[[], None] | None
) -> bool:
    """``wait_sync``: block until ``done`` is set; False on timeout."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    deadline = None if timeout is None else time.monotonic() + timeout
    if threading.current_thread() is strategy.main_thread:
        return _pump_on_main(strategy, done, deadline, on_waiting)
    return _wait_off_main(strategy, done, deadline, on_waiting)


def _pump_on_main(
    strategy: Strategy, done: threading.Event, deadline: float | None, on_waiting: Callable[[], None] | None
) -> bool:
    # The kernel's loop is blocked by our caller, so nothing reads the shell for us:
    # measured on 7.4, a plain Event wait here deadlocks even with concurrent dispatch.
    interrupted = False

    def on_interrupt() -> None:  # the wakeup fd already woke the poll below
        nonlocal interrupted
        interrupted = True

    wake_r, wake_w = socket.socketpair()
    wake_r.setblocking(False)
    wake_w.setblocking(False)
    # ``done`` may be set on another thread (a comm handled on a subshell thread): a watcher
    # thread turns that into a readable socket for the poll.
    watcher = EventWatcher(done, lambda: poke(wake_w))
    try:
        with interrupts(strategy, on_interrupt):
            router = strategy.router(shell_parent(strategy.kernel))
            for frames in strategy.queued_comms():
                router.dispatch(frames)
            if on_waiting is not None:
                on_waiting()
            watcher.start()
            hub_socket = HUB.wake_socket
            wake_sockets = [wake_r] + ([hub_socket] if hub_socket is not None else [])
            pump_socket(
                strategy.main_stream(),
                router,
                finished=lambda: interrupted or done.is_set(),
                deadline=deadline,
                wake_sockets=wake_sockets,
                on_wake=lambda s: HUB.drain() if s is hub_socket else empty(s),
            )
    finally:
        watcher.stop()
        wake_r.close()
        wake_w.close()
    if interrupted:
        raise _interruption()
    return done.is_set()


#: How often a wait behind a blocked main thread looks for an interrupt (seconds).
BLOCKED_MAIN_CHECK = 0.2


def _wait_off_main(
    strategy: Strategy, done: threading.Event, deadline: float | None, on_waiting: Callable[[], None] | None
) -> bool:
    interrupted = False

    def on_interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        # Runs in signal context on the main thread: taking ``done``'s lock here could
        # deadlock with a set() in progress, so wake this thread from the main loop instead.
        strategy.main_loop.call_soon_threadsafe(notify, done)

    with receiving_off_main(strategy, on_interrupt) as main_blocked:
        if on_waiting is not None:
            on_waiting()
        while not interrupted and not done.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            # Behind a blocked main thread the wake-up above never runs (it goes through the
            # main loop): the flag an interrupt raises is read a few times a second instead.
            if main_blocked:
                left = BLOCKED_MAIN_CHECK if left is None else min(left, BLOCKED_MAIN_CHECK)
            wait_until(done, lambda: interrupted, left)
    if interrupted:
        raise interrupted_error()
    return done.is_set()


#: What the cell shows when the kernel is interrupted while it waits for an answer: one line
#: for the person instead of a traceback through the waiting machinery.
INTERRUPTED_LINE = (
    "KeyboardInterrupt: you interrupted the kernel while it waited for an answer; "
    "the request is marked Cancelled and the agent got no answer."
)


def interrupted_error() -> KeyboardInterrupt:
    """The KeyboardInterrupt a wait raises when the kernel is interrupted. IPython shows an
    exception's ``_render_traceback_()`` instead of its traceback, so the cell gets one line.
    """
    error = KeyboardInterrupt("the wait for an answer was interrupted")
    error._render_traceback_ = lambda: [INTERRUPTED_LINE]  # type: ignore[attr-defined]
    return error


def _interruption() -> BaseException:
    """KeyboardInterrupt where IPython catches it, CancelledError inside user-made tasks.

    asyncio's Task.__step re-raises a KeyboardInterrupt out of the event loop, which would
    stop the kernel. The cell itself runs in a task whose coroutine is IPython's
    (``run_cell_async``: ipykernel wraps an async cell in ``asyncio.ensure_future``) or
    ipykernel's own (a sync cell runs inside ``dispatch_queue`` in 6.x, ``shell_main`` in
    7.x); there IPython's ``run_code`` catches the KeyboardInterrupt and reports it.
    """
    interrupt = interrupted_error()
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop in this thread
        return interrupt
    if task is None:
        return interrupt
    frame = getattr(task.get_coro(), "cr_frame", None)
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    if module.startswith(("IPython.", "ipykernel.")):
        return interrupt
    return asyncio.CancelledError("the wait for an answer was interrupted by the kernel")
