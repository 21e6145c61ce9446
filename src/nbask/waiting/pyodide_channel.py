"""Waiting in JupyterLite's Pyodide kernel, where widget answers come on a BroadcastChannel.

JupyterLite's page sends every message to a kernel under one lock per kernel
(``@jupyterlite/services``, ``kernel/client.ts``: ``mutex.runExclusive``), held until the
running cell's reply: a widget's ``comm_msg`` reaches the Pyodide worker only once the cell has
ended. The worker itself is free while a cell awaits (its JavaScript event loop runs the asyncio
loop, ``pyodide.webloop``, and any JavaScript event), and the page and the worker share an
origin. So the kernel names a ``BroadcastChannel`` per request (the widget's ``reply_channel``
trait), the widget posts its reply there as well as on the comm, and ``ReplyChannel`` hands it
to the widget as if the comm had brought it.

Awaiting is a plain await on the loop. Blocking (``ask_sync``) suspends the WebAssembly stack
with ``pyodide.ffi.run_sync``, which needs JavaScript Promise Integration (Chromium-based
browsers); without it the blocking calls raise ``WaitingUnsupported`` before anything is shown.
An interrupt cannot stop a wait here: the Pyodide kernel raises KeyboardInterrupt only while
Python code runs, and a waiting cell runs none (the wait ends on answer or timeout).

``js`` and ``pyodide`` exist only in Pyodide: they are imported inside the functions that need
them, so this module imports anywhere.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import WaitingUnsupported

T = TypeVar("T")

NAME = "pyodide-channel"
#: The channel of request ``r`` is ``CHANNEL_PREFIX + r`` (js/shell/sidechannel.ts posts there).
CHANNEL_PREFIX = "nbask-reply-"
#: How often a blocking wait looks at its event; the answer arrives while it sleeps.
POLL_SECONDS = 0.01

SYNC_UNSUPPORTED = (
    "this browser cannot block a cell while JupyterLite's Pyodide kernel waits for an answer "
    "(that needs WebAssembly JavaScript Promise Integration, found in Chromium-based browsers), "
    "so the *_sync calls cannot work here: use `await nbask.ask(...)`, `await nbask.approve(...)` "
    "or `await nbask.ask_form(...)` in the cell instead"
)


def running() -> bool:
    """True inside JupyterLite's Pyodide kernel."""
    if sys.platform != "emscripten":
        return False
    kernel_module = sys.modules.get("pyodide_kernel")
    return getattr(kernel_module, "kernel_instance", None) is not None


class ReplyChannel:
    """Listens on one request's BroadcastChannel and hands each reply (a dict) to ``deliver``."""

    def __init__(self, request_id: str, deliver: Callable[[dict[str, Any]], None]) -> None:
        js = importlib.import_module("js")
        ffi = importlib.import_module("pyodide.ffi")
        self.name = CHANNEL_PREFIX + request_id
        self._deliver = deliver
        self._handler = ffi.create_proxy(self._on_message)
        self._channel = js.BroadcastChannel.new(self.name)
        self._channel.onmessage = self._handler
        self._open = True
        self._dispatching = False

    def _on_message(self, event: Any) -> None:
        # The front end posts JSON text: a posted object would arrive with JavaScript's null
        # as a proxy object, not None.
        self._dispatching = True
        try:
            data = event.data
            raw = _json_object(data) if isinstance(data, str) else None
            if raw is not None:
                self._deliver(raw)
        finally:
            self._dispatching = False
            if not self._open:
                self._handler.destroy()

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        self._channel.close()
        # Usually called from inside the handler (the reply settled the request): the proxy is
        # destroyed once that call has returned.
        if not self._dispatching:
            self._handler.destroy()


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


async def await_future(future: asyncio.Future[T], timeout: float | None, on_waiting: Callable[[], None] | None) -> T:
    """Await ``future``; replies arrive through ReplyChannel while the loop waits."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if on_waiting is not None:
        on_waiting()
    # shield: a timeout leaves the future to its owner, as the engine's contract says.
    try:
        return await asyncio.wait_for(asyncio.shield(future), timeout)
    except asyncio.TimeoutError:  # before Python 3.11 not the built-in TimeoutError the engine raises
        raise TimeoutError(f"no answer within {timeout} seconds") from None


def can_block() -> bool:
    """True where ``run_sync`` can suspend the running cell (JSPI in the browser)."""
    try:
        ffi = importlib.import_module("pyodide.ffi")
    except ImportError:
        return False
    can_run_sync = getattr(ffi, "can_run_sync", None)
    return bool(can_run_sync is not None and can_run_sync())


def check_sync() -> None:
    """Raise WaitingUnsupported, saying to use await, where a blocking wait cannot work."""
    if not can_block():
        raise WaitingUnsupported(SYNC_UNSUPPORTED)


def block_until(done: threading.Event, timeout: float | None, on_waiting: Callable[[], None] | None) -> bool:
    """Suspend the cell until ``done`` is set; False on timeout."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    check_sync()
    ffi = importlib.import_module("pyodide.ffi")
    deadline = None if timeout is None else time.monotonic() + timeout

    async def poll() -> bool:
        # Nothing can wake a coroutine from a threading.Event here (there are no threads), so
        # it looks every POLL_SECONDS; the JS event loop runs the reply in between.
        while not done.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            await asyncio.sleep(POLL_SECONDS)
        return True

    if on_waiting is not None:
        on_waiting()
    finished: bool = ffi.run_sync(poll())
    return finished
