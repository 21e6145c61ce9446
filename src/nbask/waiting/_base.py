"""Shared machinery of the strategies: route comm messages straight to their handlers, take
over a shell stream's receive callback, and pump a shell socket while the event loop is blocked.

Every strategy is built from three pieces defined here:

- ``CommRouter`` runs a ``comm_open``/``comm_msg``/``comm_close``, and the read-only
  ``kernel_info_request``/``comm_info_request`` a reconnecting front end sends first, the way
  the kernel's ``dispatch_shell`` would (HMAC checked by the kernel's own session, parent
  header set for the handler and restored after it, busy/idle under the message's own
  parent), at once instead of behind the waiting cell.
- ``StreamTakeover`` swaps the receive callback of the ZMQStream that feeds a shell: routed
  messages go to the router, everything else (cells above all) to the kernel's own callback,
  in arrival order, so queued cells later run exactly as they would have.
- ``pump_socket`` does the same job with the loop blocked (``ask_sync`` on the kernel's
  main thread): it polls the stream's socket itself and hands the held messages back to the
  kernel's callback when the wait ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import zmq
from zmq.eventloop.zmqstream import ZMQStream

from ..errors import WaitingUnsupported

log = logging.getLogger("nbask.waiting")

COMM_MSG_TYPES = frozenset({"comm_open", "comm_msg", "comm_close"})
#: What a front end that (re)connects during a wait sends before it can show the widget again:
#: a VS Code window reload sends kernel_info_request and waits for its reply before anything
#: else, then asks which widget comms exist. Both only read the kernel's state.
INFO_MSG_TYPES = frozenset({"kernel_info_request", "comm_info_request"})
#: Everything a wait handles at once; every other shell message waits behind the cell.
ROUTED_MSG_TYPES = COMM_MSG_TYPES | INFO_MSG_TYPES

# asyncio keeps only weak references to tasks: hold the ones we start until they finish.
_tasks: set[asyncio.Future[Any]] = set()


def _keep(task: asyncio.Future[Any]) -> None:
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def peek_msg_type(session: Any, frames: list[Any]) -> str | None:
    """The message type, read from the header frame without verifying anything.

    Only peeks: ``Session.deserialize`` records every signature it has seen and rejects a
    second sighting ("Duplicate Signature"), so a full deserialize here would break the
    kernel's own later handling of the messages we pass on. Comm messages are verified in
    full before their handler runs (``CommRouter.dispatch``).
    """
    try:
        copy = not isinstance(frames[0], zmq.Frame)
        _, msg_list = session.feed_identities(frames, copy=copy)
        header = msg_list[1] if copy else msg_list[1].bytes
        msg_type = session.unpack(header).get("msg_type")
        return msg_type if isinstance(msg_type, str) else None
    except Exception:  # not a protocol message (e.g. ipykernel 7's b"stop aborting")
        return None


def shell_parent(kernel: Any) -> tuple[Any, dict[str, Any]]:
    """The (ident, parent message) the kernel currently attributes shell output to.

    Read in the caller's context: ipykernel 7 keeps both in ContextVars (the cell's context
    has them; 7.1+ fall back to the last context set), 6.x in plain dicts. ``_parent_ident``
    is the one accessor every version has (7.x keeps it as a compatibility view).
    """
    try:
        return kernel._parent_ident["shell"], kernel.get_parent("shell")
    except LookupError:  # ipykernel 7.0, from a thread that never saw a parent
        return b"", {}


class CommRouter:
    """Runs routed messages' handlers at once, as ``dispatch_shell`` would."""

    def __init__(self, kernel: Any, handler_stream: Any, parent: tuple[Any, dict[str, Any]]) -> None:
        self.kernel = kernel
        # What dispatch_shell passes handlers as ``stream`` on this thread (comm handlers
        # ignore it today, but a reply must never go out on another thread's socket).
        self.handler_stream = handler_stream
        # The cell's parent, captured in the waiter's context: restored after each handler
        # so the cell's own output, input() and display calls keep going to the cell.
        self.parent = parent

    def msg_type(self, frames: list[Any]) -> str | None:
        return peek_msg_type(self.kernel.session, frames)

    def dispatch(self, frames: list[Any]) -> None:
        kernel = self.kernel
        copy = not isinstance(frames[0], zmq.Frame)
        try:
            idents, msg_list = kernel.session.feed_identities(frames, copy=copy)
            # Verifies the HMAC signature (and replay) exactly as the kernel would.
            msg = kernel.session.deserialize(msg_list, content=True, copy=copy)
        except Exception:
            kernel.log.error("nbask: invalid comm message dropped", exc_info=True)
            return
        handler = kernel.shell_handlers.get(msg["header"]["msg_type"])
        if handler is None:
            return
        # A fresh context keeps the handler's ContextVar changes (ipykernel 7 keeps the
        # parent in ContextVars) away from whoever called us.
        contextvars.copy_context().run(self._run, handler, idents, msg)

    def _run(self, handler: Callable[..., Any], idents: Any, msg: dict[str, Any]) -> None:
        kernel = self.kernel
        # Output, echo updates and replies from the handler belong to the routed message.
        kernel.set_parent(idents, msg, channel="shell")
        # busy/idle under the message's own parent (never the cell's, so the cell still looks
        # busy to a front end that follows its execute request): the ipywidgets front end
        # holds back a model's next update until the idle of the previous one arrives, so
        # without it every draft or answer after the first would stay in the browser.
        kernel._publish_status("busy", "shell", parent=msg)
        stream = self.handler_stream
        if msg["header"]["msg_type"] in INFO_MSG_TYPES and isinstance(stream, ZMQStream):
            # ipykernel 6's shell stream queues sends for its loop, which the blocking pump
            # blocks; the socket belongs to this thread, so reply through it at once.
            stream = stream.socket
        result = None
        try:
            result = handler(stream, idents, msg)
        except Exception:
            kernel.log.error("Exception in message handler:", exc_info=True)
        if inspect.isawaitable(result) and not _finished_now(result):
            # No ipykernel up to 7.4 has a comm or info handler that really suspends.

            async def finish() -> None:
                try:
                    await result
                except Exception:
                    kernel.log.error("Exception in message handler:", exc_info=True)
                finally:
                    self._done(msg)

            _keep(asyncio.ensure_future(finish()))
            return
        self._done(msg)

    def _done(self, msg: dict[str, Any]) -> None:
        self.kernel._publish_status("idle", "shell", parent=msg)
        self.kernel.set_parent(*self.parent, channel="shell")


def _finished_now(awaitable: Any) -> bool:
    """Run a coroutine that never suspends (ipykernel's ``async def`` info handlers) to its end
    right here: the blocking pump has no running loop to run it as a task. False (and the
    coroutine left to be awaited) if it is not a coroutine or does suspend.
    """
    if not inspect.iscoroutine(awaitable):
        return False
    try:
        awaitable.send(None)
    except StopIteration:
        return True
    except Exception:
        log.error("nbask: a routed message's handler failed", exc_info=True)
        return True
    # It suspended: a coroutine cannot be resumed by a task after a manual send.
    awaitable.close()
    log.error("nbask: a routed message's handler suspended and was stopped")
    return True


class StreamTakeover:
    """While installed, routed messages on ``stream`` go to ``router``; the rest to the kernel.

    Only ever touch it on the thread of the stream's IOLoop: a ZMQStream and its socket
    belong to that thread.
    """

    def __init__(self, stream: Any, router: CommRouter) -> None:
        self.stream = stream
        self.router = router
        self.original: Callable[..., Any] | None = None
        self.copy = False

    def install(self) -> None:
        stream = self.stream
        if stream.closed() or stream._recv_callback is None:
            raise WaitingUnsupported("the kernel's shell stream is closed")
        self.original = stream._recv_callback
        self.copy = stream._recv_copy
        stream.on_recv(self._on_recv, copy=self.copy)

    def _on_recv(self, frames: list[Any]) -> Any:
        if self.router.msg_type(frames) in ROUTED_MSG_TYPES:
            self.router.dispatch(frames)
            return None
        # The kernel's own path, unchanged: ZMQStream runs a returned coroutine as a task.
        assert self.original is not None
        return self.original(frames)

    def uninstall(self) -> None:
        stream = self.stream
        if stream.closed():
            return
        if stream._recv_callback == self._on_recv:
            # on_recv also re-arms the stream if messages are already waiting in the socket.
            stream.on_recv(self.original, copy=self.copy)
        else:  # someone replaced our callback meanwhile: leave theirs, it chains to ours
            log.warning("nbask: shell stream callback was replaced during a wait; left as is")


# One takeover per stream, shared by overlapping waits (e.g. two questions awaited with
# asyncio.gather): the first installs it, the last one out restores the kernel's callback.
_takeovers: dict[int, tuple[StreamTakeover, int]] = {}
_takeovers_lock = threading.Lock()


@contextmanager
def taken_over(stream: Any, make_router: Callable[[], CommRouter]) -> Iterator[StreamTakeover]:
    """Context manager around a shared StreamTakeover of ``stream`` (on its loop's thread)."""
    key = id(stream)
    with _takeovers_lock:
        entry = _takeovers.get(key)
        if entry is None:
            takeover = StreamTakeover(stream, make_router())
            takeover.install()
            _takeovers[key] = (takeover, 1)
        else:
            takeover = entry[0]
            _takeovers[key] = (takeover, entry[1] + 1)
    try:
        yield takeover
    finally:
        with _takeovers_lock:
            takeover, count = _takeovers[key]
            if count == 1:
                del _takeovers[key]
                takeover.uninstall()
            else:
                _takeovers[key] = (takeover, count - 1)


def installed_takeovers() -> int:
    """How many streams are taken over right now (diagnostics and tests)."""
    with _takeovers_lock:
        return len(_takeovers)


def pump_socket(
    stream: Any,
    router: CommRouter,
    *,
    finished: Callable[[], bool],
    deadline: float | None,
    wake_sockets: list[Any],
    on_wake: Callable[[Any], None],
) -> bool:
    """Receive on ``stream``'s socket ourselves while its event loop is blocked.

    Routed messages (comms, info requests) are dispatched at once; every other message is held and, when the wait
    ends, handed to the stream's callback in arrival order -- the kernel then queues it
    exactly as if it had read it itself, ahead of anything still unread in the socket.
    ``wake_sockets`` are extra sockets that end a poll early (signal wakeup, event set on
    another thread); ``on_wake`` drains each. Returns ``finished()`` at the end; False means
    the deadline passed.
    """
    sock = stream.socket
    copy = stream._recv_copy
    poller = zmq.Poller()
    poller.register(sock, zmq.POLLIN)
    for ws in wake_sockets:
        poller.register(ws, zmq.POLLIN)
    held: list[Any] = []
    try:
        while not finished():
            timeout_ms = None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                timeout_ms = max(1, int(left * 1000))
            events = dict(poller.poll(timeout_ms))
            if sock in events:
                while True:
                    try:
                        frames = sock.recv_multipart(zmq.NOBLOCK, copy=copy)
                    except zmq.Again:
                        break
                    if router.msg_type(frames) in ROUTED_MSG_TYPES:
                        router.dispatch(frames)
                        if finished():
                            break
                    else:
                        held.append(frames)
            for ws in wake_sockets:
                if ws in events or ws.fileno() in events:
                    on_wake(ws)
        return True
    finally:
        _give_back(stream, held)


def _give_back(stream: Any, held: list[Any]) -> None:
    """Hand held messages to the stream's callback, in order, as ZMQStream would have."""
    callback = stream._recv_callback
    for frames in held:
        try:
            result = callback(frames)
            if inspect.isawaitable(result):
                # ipykernel 7's callback is a coroutine: ZMQStream would run it as a task.
                # Tasks start in creation order, so the kernel's lock sees them in order.
                _keep(asyncio.ensure_future(result, loop=stream.io_loop.asyncio_loop))
        except Exception:
            log.error("nbask: could not hand a held shell message back", exc_info=True)
    if not stream.closed():
        # Our reads may have consumed the edge of the socket's edge-triggered FD: re-arming
        # makes the stream check for messages that are still waiting (ipykernel 7.4 notes
        # the same "wedge" in SubshellManager._send_on_shell_channel).
        stream.on_recv(callback, copy=stream._recv_copy)


def poke(sock: socket.socket) -> None:
    """Make ``sock``'s peer readable (never blocks, never raises)."""
    with contextlib.suppress(OSError):
        sock.send(b"x")


def empty(sock: socket.socket) -> None:
    """Read whatever is waiting in a non-blocking ``sock``."""
    try:
        while sock.recv(4096):
            pass
    except OSError:
        pass
