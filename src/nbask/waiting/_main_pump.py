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
#: How long a worker gives the main thread to start pumping.
PUMP_GRACE = 2.0

_jobs: queue.SimpleQueue[MainPump] = queue.SimpleQueue()
_previous: Any = None


def _on_pump_signal(signum: int, frame: Any) -> None:
    ran = False
    while True:
        try:
            job = _jobs.get_nowait()
        except queue.Empty:
            break
        ran = True
        job.run()
    if not ran and callable(_previous):  # someone else's signal: theirs to handle
        _previous(signum, frame)


def install_handler() -> None:
    """From the main thread: let workers ask it to pump."""
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


class MainPump:
    """One wait's pump on the main thread: pending -> pumping -> ended, or abandoned when the
    main thread did not start it in time (a late signal then does nothing).
    """

    def __init__(self, strategy: Any, parent: Any) -> None:
        self.strategy = strategy
        self.parent = parent
        self.lock = threading.Lock()
        self.state = "pending"
        self.started = threading.Event()
        self.ended = threading.Event()
        self.stopping = False
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)

    def start(self) -> bool:
        """Ask the main thread to pump; True once it does, False if it did not in time."""
        main = threading.main_thread().ident
        if PUMP_SIGNAL is None or main is None:
            return False
        _jobs.put(self)
        signal.pthread_kill(main, PUMP_SIGNAL)
        self.started.wait(PUMP_GRACE)
        with self.lock:
            if self.state == "pending":
                self.state = "abandoned"
                self._close()
                return False
        return True

    def run(self) -> None:
        """On the main thread, in the signal handler: pump until ``remove``."""
        with self.lock:
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

    def remove(self) -> None:
        """From the waiting thread: end the pump and wait until the main thread has left the
        socket (it owns it again from then on).
        """
        self.stopping = True
        poke(self.wake_w)
        self.ended.wait()
        self._close()

    def _close(self) -> None:
        self.wake_r.close()
        self.wake_w.close()
