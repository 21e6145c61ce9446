"""The waiting engine: how a running cell receives widget messages while it waits.

A Jupyter kernel normally queues every shell message behind the running cell, so a
cell that waits for a widget's answer would wait forever. This package owns the one
job of getting widget (comm) messages to their handlers while a cell waits, with one
strategy per ipykernel generation, chosen by capability. Nothing else in nbask knows
about kernel internals.

Public surface (used by nbask.widget / nbask.interaction, nothing else):

- ``await wait_for(future, timeout, on_waiting=None)`` -- await an asyncio future from inside a running
  cell while comm messages keep flowing. Raises ``TimeoutError`` after ``timeout``
  seconds (``None`` = forever) and ``KeyboardInterrupt`` when the kernel is interrupted.
  The future is resolved by its owner, from any thread, with
  ``loop.call_soon_threadsafe``. ``on_waiting`` is called once messages and interrupts are
  being received, so what it announces (the widget's countdown) is true from then on.
- ``wait_blocking(done, timeout, on_waiting=None)`` -- the synchronous twin for ``ask_sync``: block the
  calling thread until the ``threading.Event`` ``done`` is set; returns ``False`` on
  timeout, raises ``KeyboardInterrupt`` on interrupt.
- ``WaitingUnsupported`` -- raised (never a hang) when no strategy fits.
- ``strategy_name()`` -- which strategy the current kernel uses, for diagnostics.

Details of the contract:

- ``wait_for`` leaves the future as it is on timeout or interrupt (the owner decides what
  a timeout means); the future must belong to the running loop.
- An interrupt raises ``KeyboardInterrupt`` where IPython can catch it: in the cell's own
  task. Awaited inside a task the cell created (``asyncio.create_task``, ``gather``,
  Python 3.11's ``asyncio.wait_for``), it raises ``asyncio.CancelledError`` instead, because
  asyncio re-raises a KeyboardInterrupt out of a task's step and would stop the kernel's
  event loop.
- ``strategy_name()`` raises ``WaitingUnsupported`` where no strategy fits (no kernel, a
  non-ipykernel kernel, an in-process kernel), so callers can fail before showing anything.
- Strategies: ``concurrent-dispatch`` (ipykernel 7.4+), ``shell-pipe`` (7.0-7.3),
  ``shell-stream`` (6.29+); see the module of each for the kernel behaviour it answers.

Threads:

- On the kernel's main thread, ``wait_for`` awaits on the kernel's loop;
  ``wait_blocking`` blocks that loop, so it polls the main shell socket itself, runs comm
  messages at once and hands every other message back to the kernel, in order, at the end.
- From any other thread (``ask_sync`` in a worker, ``wait_for`` on another thread's loop),
  the engine asks the main loop to install the receiving side (and interrupt handling).
  If the main loop does not run that within ``Strategy.main_loop_grace`` seconds, the main
  thread is blocked (e.g. ``thread.join()``): ipykernel 7 then receives on its always-free
  shell-channel thread (zmq sockets are only ever touched by the thread that owns them);
  ipykernel 6 has no such thread and only the blocked main thread may read its shell
  socket, so it raises ``WaitingUnsupported``. In that mode an interrupt ends the cell
  but not the worker's wait (it ends on answer or timeout), and a comm message already
  forwarded to the main thread before the wait began is handled once that thread is free.
- Known limit: on 7.0-7.3 (and in ``wait_blocking`` on 7.4) a comm message the kernel
  already read during an *earlier* await of the same cell is handled after the cell.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

from ._base import WaitingUnsupported, installed_takeovers, pump_socket, shell_parent, taken_over
from ._interrupt import HUB
from ._strategy import Strategy
from .concurrent_dispatch import ConcurrentDispatch
from .shell_pipe import ShellPipe
from .shell_stream import ShellStream

__all__ = ["WaitingUnsupported", "strategy_name", "wait_blocking", "wait_for"]

T = TypeVar("T")

#: Most specific first: the first whose capability check passes is used.
STRATEGIES: tuple[type[Strategy], ...] = (ConcurrentDispatch, ShellPipe, ShellStream)

_cache: dict[int, Strategy] = {}


# -- choosing a strategy --------------------------------------------------------------------


def _find_kernel() -> Any:
    kernelbase = sys.modules.get("ipykernel.kernelbase")
    if kernelbase is None:
        raise WaitingUnsupported(
            "nbask can only wait for an answer inside a Jupyter notebook running an IPython "
            "kernel (ipykernel); none is running here, so no one could answer"
        )
    if not kernelbase.Kernel.initialized():
        raise WaitingUnsupported(
            "ipykernel is imported but no kernel is running in this process, so no one could answer"
        )
    kernel = kernelbase.Kernel.instance()
    if getattr(kernel, "session", None) is None or getattr(kernel, "io_loop", None) is None:
        raise WaitingUnsupported(
            f"this kernel ({type(kernel).__name__}) has no message session or event loop "
            "(an in-process kernel?), so widget answers cannot reach a waiting cell"
        )
    return kernel


def _strategy() -> Strategy:
    kernel = _find_kernel()
    strategy = _cache.get(id(kernel))
    if strategy is not None and strategy.kernel is kernel:
        return strategy
    for cls in STRATEGIES:
        if cls.fits(kernel):
            strategy = cls(kernel)
            _cache.clear()
            _cache[id(kernel)] = strategy
            return strategy
    version = getattr(sys.modules.get("ipykernel"), "__version__", "?")
    raise WaitingUnsupported(
        f"nbask does not know how to receive widget messages during a cell on ipykernel "
        f"{version} ({type(kernel).__name__}); supported: ipykernel 6.29+ and 7.x"
    )


def strategy_name() -> str:
    """The strategy the running kernel uses; raises WaitingUnsupported where none fits."""
    return _strategy().name


# -- awaiting -------------------------------------------------------------------------------


async def wait_for(
    future: asyncio.Future[T], timeout: float | None = None, on_waiting: Callable[[], None] | None = None
) -> T:
    """Await ``future`` inside a running cell while comm messages keep flowing."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    strategy = _strategy()
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
            stack.enter_context(_interrupts(strategy, on_interrupt))
        else:
            stack.enter_context(_receiving_off_main(strategy, on_interrupt))
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


def wait_blocking(
    done: threading.Event, timeout: float | None = None, on_waiting: Callable[[], None] | None = None
) -> bool:
    """Block until ``done`` is set; False on timeout, KeyboardInterrupt on interrupt."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    strategy = _strategy()
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
    watcher = _EventWatcher(done, lambda: _poke(wake_w))
    try:
        with _interrupts(strategy, on_interrupt):
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
                on_wake=lambda s: HUB.drain() if s is hub_socket else _empty(s),
            )
    finally:
        watcher.stop()
        wake_r.close()
        wake_w.close()
    if interrupted:
        raise _interruption()
    return done.is_set()


def _wait_off_main(
    strategy: Strategy, done: threading.Event, deadline: float | None, on_waiting: Callable[[], None] | None
) -> bool:
    interrupted = False

    def on_interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        # Runs in signal context on the main thread: taking ``done``'s lock here could
        # deadlock with a set() in progress, so wake this thread from the main loop instead.
        strategy.main_loop.call_soon_threadsafe(_notify, done)

    with _receiving_off_main(strategy, on_interrupt):
        if on_waiting is not None:
            on_waiting()
        while not interrupted and not done.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            _wait_until(done, lambda: interrupted, left)
    if interrupted:
        raise KeyboardInterrupt
    return done.is_set()


# -- pieces ---------------------------------------------------------------------------------


@contextmanager
def _interrupts(strategy: Strategy, on_interrupt: Callable[[], None]) -> Iterator[None]:
    token = HUB.subscribe(on_interrupt, strategy.main_loop, strategy.kernel)
    try:
        yield
    finally:
        HUB.unsubscribe(token)


@contextmanager
def _receiving_off_main(strategy: Strategy, on_interrupt: Callable[[], None]) -> Iterator[None]:
    """From a thread other than the main one: keep comm messages flowing while we wait."""
    parent = shell_parent(strategy.kernel)
    if strategy.current_subshell() is None:
        install = _MainLoopInstall(strategy, on_interrupt, parent)
        if install.start():
            try:
                yield
            finally:
                install.remove()
            return
    off_main = strategy.off_main_stream()
    if off_main is None:
        raise WaitingUnsupported(
            "nbask cannot wait from this thread: the kernel's main thread is busy running "
            "code (for example thread.join()), and on ipykernel 6 only that thread may receive "
            "widget messages. Await the question in the cell (await nbask.ask(...)), or keep "
            "the main thread free while the worker runs (await asyncio.to_thread(...)), or "
            "use ipykernel 7"
        )
    stream, io_loop, handler_stream = off_main
    with _taken_over_on(io_loop, stream, lambda: strategy.router(parent, handler_stream)):
        yield


class _MainLoopInstall:
    """Installs the main-thread side of a wait from another thread, if the main loop is free."""

    def __init__(self, strategy: Strategy, on_interrupt: Callable[[], None], parent: Any) -> None:
        self.strategy = strategy
        self.on_interrupt = on_interrupt
        self.parent = parent
        self.lock = threading.Lock()
        self.state = "pending"  # -> installed | failed | abandoned
        self.answered = threading.Event()
        self.stack: ExitStack | None = None
        self.error: BaseException | None = None

    def start(self) -> bool:
        try:
            self.strategy.main_loop.call_soon_threadsafe(self._install)
        except RuntimeError:  # the loop is closed: the kernel is shutting down
            return False
        self.answered.wait(self.strategy.main_loop_grace)
        with self.lock:
            if self.state == "pending":  # the main thread is blocked; a late run does nothing
                self.state = "abandoned"
                return False
            if self.state == "failed":
                assert self.error is not None
                raise self.error
            return True

    def _install(self) -> None:  # on the main loop
        with self.lock:
            if self.state != "pending":
                return
            stack = ExitStack()
            try:
                stack.enter_context(self.strategy.receiving_on_main(self.parent))
                stack.enter_context(_interrupts(self.strategy, self.on_interrupt))
            except BaseException as err:
                stack.close()
                self.error, self.state = err, "failed"
            else:
                self.stack, self.state = stack, "installed"
        self.answered.set()

    def remove(self) -> None:
        # Not waited for: if the main thread is about to block on us (join), it must not
        # wait for its own loop. The loop runs this as soon as it is free again.
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing left to undo
            self.strategy.main_loop.call_soon_threadsafe(self._remove)

    def _remove(self) -> None:
        if self.stack is not None:
            self.stack.close()
            self.stack = None


@contextmanager
def _taken_over_on(io_loop: Any, stream: Any, make_router: Callable[[], Any]) -> Iterator[None]:
    """A StreamTakeover of ``stream`` installed and removed on ``io_loop``'s own thread."""
    cm = taken_over(stream, make_router)
    lock = threading.Lock()
    state = ["pending"]  # -> installed | failed | abandoned
    error: list[BaseException] = []
    answered = threading.Event()

    def install() -> None:
        with lock:
            if state[0] != "pending":  # we gave up waiting for this thread
                return
            try:
                cm.__enter__()
            except BaseException as err:
                error.append(err)
                state[0] = "failed"
            else:
                state[0] = "installed"
        answered.set()

    io_loop.add_callback(install)
    answered.wait(5.0)
    with lock:
        if state[0] == "pending":
            state[0] = "abandoned"
            raise WaitingUnsupported("the kernel's shell-channel thread does not respond")
    if error:
        raise error[0]
    try:
        yield
    finally:
        io_loop.add_callback(lambda: cm.__exit__(None, None, None))


class _EventWatcher:
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
            _wait_until(self.event, lambda: self.stopping, None)
        if not self.stopping:
            self.on_set()

    def stop(self) -> None:
        self.stopping = True
        if self.thread.is_alive():
            _notify(self.event)
            self.thread.join(1.0)


def _wait_until(event: threading.Event, stop: Callable[[], bool], timeout: float | None) -> None:
    """Block until ``event`` is set, or ``stop()`` holds at a ``_notify(event)``, or timeout.

    ``stop()`` is checked while holding the event's own condition lock, the lock
    ``_notify`` takes after the flag behind ``stop()`` was raised: a notification can never
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


def _notify(event: threading.Event) -> None:
    """Wake the threads blocked in ``_wait_until(event, ...)`` so they re-check ``stop()``."""
    cond = getattr(event, "_cond", None)
    if cond is not None:
        with cond:
            cond.notify_all()


def _poke(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.send(b"x")


def _empty(sock: socket.socket) -> None:
    try:
        while sock.recv(4096):
            pass
    except OSError:
        pass


def _interruption() -> BaseException:
    """KeyboardInterrupt where IPython catches it, CancelledError inside user-made tasks.

    asyncio's Task.__step re-raises a KeyboardInterrupt out of the event loop, which would
    stop the kernel. The cell itself runs in a task whose coroutine is IPython's
    (``run_cell_async``: ipykernel wraps an async cell in ``asyncio.ensure_future``) or
    ipykernel's own (a sync cell runs inside ``dispatch_queue`` in 6.x, ``shell_main`` in
    7.x); there IPython's ``run_code`` catches the KeyboardInterrupt and reports it.
    """
    interrupt = KeyboardInterrupt("the wait for an answer was interrupted")
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


def _installed() -> dict[str, Any]:
    """What the engine has installed right now (for tests and diagnostics)."""
    return {"stream_takeovers": installed_takeovers(), "interrupt_hub": HUB.installed}
