"""A thread's wait while the kernel's main thread is blocked, where only that thread may read
the shell socket (ipykernel 6, Colab's kernel included).

A cell may block its main thread on a worker that asks (``t.join()``, a framework's sync call
running the agent in a thread). ipykernel 7 then receives on its shell-channel thread; ipykernel
6 has none, and a zmq socket must be read by the thread that owns it. So the worker has the main
thread pump: it sends that thread ``PUMP_SIGNAL``, which interrupts its blocking call; nbask's
handler (set from the main thread, with the SIGINT chain of ``_blocked_main``) then reads the
shell socket there, dispatching comm messages at once and holding every other message for the
kernel, until the worker's wait ends, and the main thread's blocking call goes on. A main thread
running C code that never checks for signals does not start the pump in time, and the wait is
refused as before (``WaitingUnsupported``).

Several threads may wait at once (a framework's parallel tool calls): they share one pump, which
runs until the last of them is answered. The handler never runs inside a pump already running
(a signal that comes then finds its request taken by that pump, or by the loop that follows it),
so one pump never sits on top of another.
"""

from __future__ import annotations

import queue
import signal
import socket
import threading
from typing import Any

from ._base import empty, poke, pump_socket

#: The signal that asks the main thread to pump (none on Windows, where ipykernel 6 refuses).
PUMP_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR2", None)
#: How long a waiting thread gives the main thread to start pumping.
PUMP_GRACE = 2.0

_jobs: queue.SimpleQueue[MainPump] = queue.SimpleQueue()
_previous: Any = None
_running = False  # the main thread is inside a pump (only the main thread reads or sets this)
_lock = threading.Lock()
_shared: MainPump | None = None  # the pump the next waiting thread joins, while it serves


def _on_pump_signal(signum: int, frame: Any) -> None:
    global _running  # noqa: PLW0603 - the main thread's one flag
    if _running:  # inside a pump: the loop below takes what was asked once that pump ends
        return
    ran = False
    while True:
        _running = True
        try:
            while True:
                try:
                    job = _jobs.get_nowait()
                except queue.Empty:
                    break
                ran = True
                job.run()
        finally:
            _running = False
        if _jobs.empty():  # one asked just as the last pump ended, its signal not yet run: take it
            break
    if not ran and callable(_previous):  # someone else's signal: theirs to handle
        _previous(signum, frame)


def install_handler() -> None:
    """From the main thread: let waiting threads ask it to pump."""
    global _previous  # noqa: PLW0603 - the one handler of the process, set once
    if PUMP_SIGNAL is None or threading.current_thread() is not threading.main_thread():
        return
    current = signal.getsignal(PUMP_SIGNAL)
    if current is not _on_pump_signal:
        _previous = current
        signal.signal(PUMP_SIGNAL, _on_pump_signal)


def available() -> bool:
    """Whether the main thread would pump when asked."""
    return PUMP_SIGNAL is not None and signal.getsignal(PUMP_SIGNAL) is _on_pump_signal


def join(strategy: Any, parent: Any) -> MainPump | None:
    """A pump on the main thread for one more waiting thread: the one already serving, or a new
    one; None if the main thread did not start it in time. ``leave`` it when the wait ends.
    """
    global _shared  # noqa: PLW0603 - one pump serves every waiting thread
    with _lock:
        pump = _shared
        if pump is None or pump.stopping:
            pump = _shared = MainPump(strategy, parent)
            first = True
        else:
            first = False
        pump.users += 1
    if first:
        pump.ask()
    if pump.wait_started():
        return pump
    pump.leave()
    return None


class MainPump:
    """The main thread's pump for the threads waiting behind it: pending -> pumping -> ended, or
    abandoned when the main thread did not start it in time (a late signal then does nothing).
    """

    def __init__(self, strategy: Any, parent: Any) -> None:
        self.strategy = strategy
        self.parent = parent
        self.state = "pending"
        self.users = 0
        self.started = threading.Event()
        self.ended = threading.Event()
        self.stopping = False
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)

    def ask(self) -> None:
        """Ask the main thread to run this pump."""
        main = threading.main_thread().ident
        if PUMP_SIGNAL is None or main is None:
            return
        _jobs.put(self)
        signal.pthread_kill(main, PUMP_SIGNAL)

    def wait_started(self) -> bool:
        """True once the main thread pumps; False (abandoned) if it did not in time."""
        self.started.wait(PUMP_GRACE)
        with _lock:
            if self.state == "pending":
                self.state = "abandoned"
            return self.state == "pumping"

    def run(self) -> None:
        """On the main thread, in the signal handler: pump until the last waiting thread leaves."""
        with _lock:
            if self.state != "pending":
                return
            self.state = "pumping"
        self.started.set()
        try:
            router = self.strategy.router(self.parent)
            for frames in self.strategy.queued_comms():
                router.dispatch(frames)
            pump_socket(
                self.strategy.main_stream(),
                router,
                finished=lambda: self.stopping,
                deadline=None,
                wake_sockets=[self.wake_r],
                on_wake=empty,
            )
        finally:
            self.ended.set()

    def leave(self) -> None:
        """From a waiting thread whose wait ended: the last to leave ends the pump and waits until
        the main thread has left the socket (it owns it again from then on).
        """
        global _shared  # noqa: PLW0603 - one pump serves every waiting thread
        with _lock:
            self.users -= 1
            if self.users > 0:
                return
            self.stopping = True
            if _shared is self:
                _shared = None
            pumping = self.state == "pumping"
        poke(self.wake_w)
        if pumping:
            self.ended.wait()
        self.wake_r.close()
        self.wake_w.close()

    def remove(self) -> None:
        """``leave``, named as the other ways of receiving off the main thread end."""
        self.leave()
