"""ipykernel 7.4+: the kernel itself dispatches comm messages while a cell awaits, but not
in a way a waiting widget can live with, so a wait takes over the main pipe as on 7.0-7.3.

ipykernel 7.4's ``shell_main`` sees its shell's lock held by the running cell and runs
``comm_open``/``comm_msg``/``comm_close`` at once as a separate task
(``dispatch_shell(..., concurrent=True)``; the capability check is that keyword). Two things
are still missing there: it publishes no busy/idle for them, and the ipywidgets front end
sends a model's next update only after the idle of the previous one (a draft saved while the
person types would hold back every later update, the answer included); and a
``kernel_info_request`` still waits for the cell, so a front end that reconnects during the
wait (a VS Code window reload) never shows the widget again. nbask's router does both.

A *synchronous* wait on the main thread blocks that very loop (measured: a threading.Event
wait deadlocks), so ``wait_sync`` pumps the main pipe like 7.0-7.3; and a worker thread
waiting while the main thread is blocked uses the shell-channel thread, as in 7.0-7.3 (see
``shell_pipe``).
"""

from __future__ import annotations

from typing import Any

from .shell_pipe import ShellPipe, _accepts_concurrent


class ConcurrentDispatch(ShellPipe):
    """ipykernel 7.4+: the 7.0-7.3 takeover, on a kernel that dispatches comms concurrently."""

    name = "concurrent-dispatch"
    takeover_on_main = True

    @classmethod
    def fits(cls, kernel: Any) -> bool:
        return _accepts_concurrent(kernel) and getattr(kernel, "shell_stream", None) is not None

    @property
    def _threaded(self) -> bool:
        return getattr(self.kernel, "shell_channel_thread", None) is not None

    def main_stream(self) -> Any:
        if self._threaded:
            return super().main_stream()
        return self.kernel.shell_stream  # kernel started without a shell-channel thread

    def handler_stream(self) -> Any:
        return super().handler_stream() if self._threaded else self.kernel.shell_stream

    def off_main_stream(self) -> tuple[Any, Any, Any] | None:
        return super().off_main_stream() if self._threaded else None

    def current_subshell(self) -> str | None:
        return super().current_subshell() if self._threaded else None
