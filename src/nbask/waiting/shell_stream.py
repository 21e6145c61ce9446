"""ipykernel 6.17+ (6.x; tested on Google Colab's 6.17.1 and on 6.29.5): while a cell waits,
take over the kernel's shell stream so comm messages reach their handlers at once instead of
queueing behind the cell.

Why: ipykernel 6's ``Kernel.start`` registers
``shell_stream.on_recv(partial(schedule_dispatch, dispatch_shell))`` and ``dispatch_queue``
awaits one ``dispatch_shell`` at a time from ``msg_queue``. A cell that awaits is still
inside its ``dispatch_shell``, so every shell message -- the widget's ``comm_msg`` included --
waits in ``msg_queue`` until the cell ends: a plain ``await`` deadlocks.

The takeover routes ``comm_*`` to the comm handlers and passes everything else to
``schedule_dispatch`` unchanged, so queued cells run afterwards, in order, with their own
busy/idle and execution counts. The same applies to ipykernel 7 kernels started without a
shell-channel thread (embedded kernels), whose shell stream feeds ``shell_main`` directly.
"""

from __future__ import annotations

from typing import Any

from zmq.eventloop.zmqstream import ZMQStream

from ._base import COMM_MSG_TYPES, peek_msg_type
from ._strategy_base import Strategy


class ShellStream(Strategy):
    """ipykernel 6.17+: take over the shell stream while a cell waits."""

    name = "shell-stream"
    takeover_on_main = True

    @classmethod
    def fits(cls, kernel: Any) -> bool:
        stream = getattr(kernel, "shell_stream", None)
        return (
            getattr(kernel, "shell_channel_thread", None) is None
            and isinstance(stream, ZMQStream)
            # read on the main loop, as in 6.x
            and getattr(stream.io_loop, "asyncio_loop", None) is kernel.io_loop.asyncio_loop
        )

    def main_stream(self) -> Any:
        return self.kernel.shell_stream

    def queued_comms(self) -> list[Any]:
        # A comm message that arrived during an earlier await of the same cell already sits
        # in msg_queue (a tornado Queue of (index, dispatch, args)); take it out so an answer
        # given before the wait began is not stuck behind the cell.
        queue = getattr(self.kernel, "msg_queue", None)
        items = getattr(queue, "_queue", None)
        if queue is None or items is None:
            return []
        dispatch_shell = self.kernel.dispatch_shell
        session = self.kernel.session
        comms, keep = [], []
        for item in list(items):
            _, dispatch, args = item
            if dispatch == dispatch_shell and len(args) == 1 and peek_msg_type(session, args[0]) in COMM_MSG_TYPES:
                comms.append(args[0])
            else:
                keep.append(item)
        if comms:
            items.clear()
            items.extend(keep)
            for _ in comms:
                queue.task_done()  # keep the queue's unfinished-task count balanced
        return comms
