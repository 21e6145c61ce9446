"""ipykernel 7.0-7.3: while a cell waits, take over the inproc pipe that carries the main
shell's messages from the shell-channel thread, so comm messages are handled at once.

Why: ipykernel 7 reads the shell socket on a "Shell channel" thread, which forwards each
message over an inproc PAIR socket (``SubshellManager._shell_channel_to_main``) to the main
thread, where ``shell_main`` takes ``_main_asyncio_lock`` before ``dispatch_shell``. A cell
that awaits holds that lock, so the widget's ``comm_msg`` waits for the cell to end: a plain
``await`` deadlocks. Taking over the receiving end of the pipe (a ZMQStream on the main
loop) routes ``comm_*`` to the handlers, answers ``kernel_info_request`` /
``comm_info_request`` (a front end reconnecting during the wait needs their replies before it
shows the widget again) and passes everything else to ``shell_main`` unchanged.

The shell-channel thread is always free, so when the main thread is blocked (a worker
thread's ``ask_sync`` while the cell sits in ``thread.join()``) the takeover moves there,
onto the kernel's shell stream, which only that thread ever touches.
Comm messages a front end sends on a subshell (JupyterLab 4.4+ / Notebook 7.4+ use one per
comm target) run on that subshell's own thread and need nothing from us.
"""

from __future__ import annotations

import inspect
import threading
from typing import Any

from ._strategy_base import Strategy


def _accepts_concurrent(kernel: Any) -> bool:
    try:
        return "concurrent" in inspect.signature(kernel.dispatch_shell).parameters
    except (TypeError, ValueError):
        return False


class ShellPipe(Strategy):
    """ipykernel 7.0-7.3: take over the shell-thread-to-main pipe while a cell waits."""

    name = "shell-pipe"
    takeover_on_main = True
    # Answers reaching the main pipe during the grace would wait for the main thread: keep
    # it short, the shell-channel fallback works whether the main thread is blocked or not.
    main_loop_grace = 0.05

    @classmethod
    def fits(cls, kernel: Any) -> bool:
        sct = getattr(kernel, "shell_channel_thread", None)
        manager = getattr(sct, "_manager", None)
        pipe = getattr(manager, "_shell_channel_to_main", None)
        return (
            getattr(pipe, "to_stream", None) is not None
            and getattr(kernel, "shell_stream", None) is not None
            and not _accepts_concurrent(kernel)
        )

    @property
    def _manager(self) -> Any:
        return self.kernel.shell_channel_thread._manager

    def main_stream(self) -> Any:
        return self._manager._shell_channel_to_main.to_stream

    def handler_stream(self) -> Any:
        # dispatch_shell hands main-shell handlers the main thread's end of the reply pipe.
        return self._manager.get_subshell_to_shell_channel_socket(None)

    def off_main_stream(self) -> tuple[Any, Any, Any] | None:
        sct = self.kernel.shell_channel_thread
        return self.kernel.shell_stream, sct.io_loop, self.kernel.shell_stream

    def current_subshell(self) -> str | None:
        if threading.current_thread() is self.main_thread:
            return None
        try:
            subshell_id = self._manager.subshell_id_from_thread_id(threading.get_ident())
        except Exception:  # not a subshell thread (a user's worker thread)
            return None
        return subshell_id if isinstance(subshell_id, str) else None
