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
- ``wait_sync(done, timeout, on_waiting=None)`` -- the synchronous twin for ``ask_sync``: block the
  calling thread until the ``threading.Event`` ``done`` is set; returns ``False`` on
  timeout, raises ``KeyboardInterrupt`` on interrupt.
- ``WaitingUnsupported`` -- raised (never a hang) when no strategy fits.
- ``strategy_name()`` -- which strategy the current kernel uses, for diagnostics.
- ``reply_channel(request_id, deliver)`` -- where the kernel's front end cannot bring a comm
  message to a running cell at all (JupyterLite's Pyodide kernel), a side channel the widget
  also replies on: its ``name`` goes to the front end, each reply to ``deliver``; ``None``
  elsewhere (the comm is the way).
- ``check_sync()`` -- raises ``WaitingUnsupported`` where ``wait_sync`` cannot work at
  all, so a blocking call can fail before anything is shown.
- ``in_browser_kernel()`` -- True inside JupyterLite's Pyodide kernel (no ipykernel there).

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
  ``shell-stream`` (6.17+); see the module of each for the kernel behaviour it answers.
  ``pyodide-channel`` (JupyterLite's Pyodide kernel) has no strategy object: see
  ``pyodide_channel``.

Threads:

- On the kernel's main thread, ``wait_for`` awaits on the kernel's loop;
  ``wait_sync`` blocks that loop, so it polls the main shell socket itself, runs comm
  messages at once and hands every other message back to the kernel, in order, at the end.
- From any other thread (``ask_sync`` in a worker, ``wait_for`` on another thread's loop),
  the engine asks the main loop to install the receiving side (and interrupt handling).
  If the main loop does not run that within ``Strategy.main_loop_grace`` seconds, the main
  thread is blocked (e.g. ``thread.join()``): ipykernel 7 then receives on its always-free
  shell-channel thread (zmq sockets are only ever touched by the thread that owns them);
  ipykernel 6 has no such thread and only the blocked main thread may read its shell
  socket, so a signal has that thread receive from nbask's handler (``_main_pump``) until the
  wait ends, or the wait is refused (``WaitingUnsupported``) where the main thread runs C code
  that never checks for signals. In that mode an interrupt reaches the
  worker's wait through the kernel's SIGINT handler, which nbask chains from the main thread
  (``_blocked_main``: at ``import nbask`` and before every cell), and a comm message already
  forwarded to the main thread before the wait began is handled once that thread is free.
- While a wait is in progress, ``kernel_info_request`` and ``comm_info_request`` are answered
  at once as well (a front end that reconnects during the wait sends them before it can show
  the widget again); every other shell message, cells above all, still waits behind the cell.
  Each message handled this way gets its own busy/idle (the ipywidgets front end sends a
  model's next update only after the previous one's idle).
- Known limit: on 7.0-7.3 (and in ``wait_sync`` on 7.4) a comm message the kernel
  already read during an *earlier* await of the same cell is handled after the cell.

Modules: this one holds the contract and the choice of strategy and imports neither pyzmq
nor ipykernel (nor anything Pyodide lacks; the rest is loaded once a running kernel is found);
``_waits`` the waits themselves; ``_threads`` waiting on one thread while another receives;
``_base`` comm routing, stream takeover and the blocking pump; ``_interrupt`` SIGINT during a
wait; ``_blocked_main`` SIGINT for waits behind a blocked main thread; ``_strategy_base`` the
strategy interface, then one module per strategy.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import WaitingUnsupported
from . import pyodide_channel

if TYPE_CHECKING:
    import asyncio

    from ._strategy_base import Strategy

__all__ = [
    "WaitingUnsupported",
    "cancelled_by_interrupt",
    "check_sync",
    "in_browser_kernel",
    "interruption",
    "reply_channel",
    "strategy_name",
    "wait_for",
    "wait_sync",
]

T = TypeVar("T")


# This module imports neither ipykernel nor pyzmq: the strategies and the machinery they
# share are loaded by ``_strategy`` once a running ipykernel kernel has been found (so both
# are importable then), and ``import nbask`` stays cheap and works without them. (No
# submodule may be named like a function here: importing it would replace the function.)

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


def _strategies() -> tuple[type[Strategy], ...]:
    """The strategies, most specific first: the first whose capability check passes is used."""
    # Imported here, not at the top: they need pyzmq, there whenever a kernel runs.
    from .concurrent_dispatch import ConcurrentDispatch  # noqa: PLC0415
    from .shell_pipe import ShellPipe  # noqa: PLC0415
    from .shell_stream import ShellStream  # noqa: PLC0415

    return (ConcurrentDispatch, ShellPipe, ShellStream)


def _strategy() -> Strategy:
    kernel = _find_kernel()
    strategy = _cache.get(id(kernel))
    if strategy is not None and strategy.kernel is kernel:
        return strategy
    for cls in _strategies():
        if cls.fits(kernel):
            strategy = cls(kernel)
            # From the main thread (a first wait there): interrupts reach waits behind it.
            from ._blocked_main import install  # noqa: PLC0415 - with the strategies, inside a kernel

            install(kernel)
            _cache.clear()
            _cache[id(kernel)] = strategy
            return strategy
    version = getattr(sys.modules.get("ipykernel"), "__version__", "?")
    raise WaitingUnsupported(
        f"nbask does not know how to receive widget messages during a cell on ipykernel "
        f"{version} ({type(kernel).__name__}); supported: ipykernel 6.17+ and 7.x"
    )


def strategy_name() -> str:
    """The strategy the running kernel uses; raises WaitingUnsupported where none fits."""
    if pyodide_channel.running():
        return pyodide_channel.NAME
    return _strategy().name


def in_browser_kernel() -> bool:
    """True inside JupyterLite's Pyodide kernel, which is no ipykernel."""
    return pyodide_channel.running()


def reply_channel(request_id: str, deliver: Callable[[dict[str, Any]], None]) -> pyodide_channel.ReplyChannel | None:
    """A side channel for the replies to ``request_id`` where the comm cannot bring them to a
    running cell (JupyterLite), listening until closed; None where the comm can.
    """
    if not pyodide_channel.running():
        return None
    return pyodide_channel.ReplyChannel(request_id, deliver)


def interruption() -> BaseException:
    """What a wait raises on a kernel interrupt here: the one-line KeyboardInterrupt in the
    cell's own task, CancelledError in a task the cell made (asyncio would let a
    KeyboardInterrupt out of the event loop). For a caller that gathered several waits.
    """
    from ._waits import _interruption  # noqa: PLC0415 - needs pyzmq: loaded once a kernel is found

    return _interruption()


def cancelled_by_interrupt() -> bool:
    """Whether the ``CancelledError`` being handled is a kernel interrupt, not a cancellation of
    the current task.

    A framework that runs a callback in a task of its own (an MCP client's handler of a server
    request, the Claude Agent SDK's control requests) sees an interrupt of nbask's wait as
    ``CancelledError`` there; nobody asked that task to stop, so its ``cancelling()`` count is 0.
    Answered instead of re-raised, the framework hears a refusal and the cell ends rather than
    waiting for an answer that never comes. On Python 3.10 (no ``cancelling``) it is False.
    """
    import asyncio  # noqa: PLC0415 - only a cancelled callback needs it

    cancelling = getattr(asyncio.current_task(), "cancelling", None)
    return cancelling is not None and cancelling() == 0


def check_sync() -> None:
    """Raise WaitingUnsupported where a blocking wait cannot work at all (for a clear error
    before anything is shown); elsewhere ``wait_sync`` itself says what does not fit.
    """
    if pyodide_channel.running():
        pyodide_channel.check_sync()


# -- waiting --------------------------------------------------------------------------------


async def wait_for(
    future: asyncio.Future[T], timeout: float | None = None, on_waiting: Callable[[], None] | None = None
) -> T:
    """Await ``future`` inside a running cell while comm messages keep flowing."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if pyodide_channel.running():
        return await pyodide_channel.await_future(future, timeout, on_waiting)
    strategy = _strategy()
    from ._waits import await_future  # noqa: PLC0415 - needs pyzmq: loaded once a kernel is found

    return await await_future(strategy, future, timeout, on_waiting)


def wait_sync(
    done: threading.Event, timeout: float | None = None, on_waiting: Callable[[], None] | None = None
) -> bool:
    """Block until ``done`` is set; False on timeout, KeyboardInterrupt on interrupt."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if pyodide_channel.running():
        return pyodide_channel.block_until(done, timeout, on_waiting)
    strategy = _strategy()
    from ._waits import block_until  # noqa: PLC0415 - needs pyzmq: loaded once a kernel is found

    return block_until(strategy, done, timeout, on_waiting)


def _installed() -> dict[str, Any]:
    """What the engine has installed right now (for tests and diagnostics)."""
    # Nothing can be installed before the machinery was loaded; do not load it just to ask.
    base = sys.modules.get(f"{__name__}._base")
    interrupt = sys.modules.get(f"{__name__}._interrupt")
    return {
        "stream_takeovers": base.installed_takeovers() if base is not None else 0,
        "interrupt_hub": interrupt.HUB.installed if interrupt is not None else False,
    }
