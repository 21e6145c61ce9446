"""The agent's process: started in a process group of its own, so a kernel interrupt (which
Jupyter sends to the kernel's whole process group) reaches nbask, not the agent, and nbask can
cancel the turn over ACP; ended with its whole group, so nothing it started is left behind.

The ACP SDK's ``spawn_agent_process`` cannot start a new session; this is its shape (stdio
pipes, a ``ClientSideConnection``, stdin closed first, then SIGTERM, then SIGKILL).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from acp.client.connection import ClientSideConnection
from acp.core import DEFAULT_STDIO_BUFFER_LIMIT_BYTES
from acp.interfaces import Client
from acp.transports import default_environment

__all__ = ["agent_process"]

#: Seconds the agent has to exit after its stdin closes, then after SIGTERM.
SHUTDOWN_GRACE = 2.0


@asynccontextmanager
async def agent_process(
    client: Client, command: Sequence[str], *, cwd: str, env: Mapping[str, str]
) -> AsyncIterator[tuple[ClientSideConnection, asyncio.subprocess.Process]]:
    """The agent ``command`` running in ``cwd`` with the ACP SDK's trimmed environment plus
    ``env``, and the connection to it; on exit the connection is closed and the process ended.
    """
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**default_environment(), **env},
        cwd=cwd,
        limit=DEFAULT_STDIO_BUFFER_LIMIT_BYTES,
        start_new_session=os.name == "posix",
    )
    try:
        assert process.stdin is not None  # noqa: S101 - asked for above
        assert process.stdout is not None  # noqa: S101 - asked for above
        conn = ClientSideConnection(client, process.stdin, process.stdout)
        try:
            yield conn, process
        finally:
            await conn.close()
    finally:
        await asyncio.shield(_end(process))


async def _end(process: asyncio.subprocess.Process) -> None:
    """Close the agent's stdin and let it exit; else SIGTERM, then SIGKILL, to its whole group."""
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            process.stdin.close()
    for sent in (None, signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
        if sent is not None:
            _signal(process, sent)
        try:
            await asyncio.wait_for(process.wait(), timeout=SHUTDOWN_GRACE)
        except asyncio.TimeoutError:
            continue
        break
    if os.name == "posix":  # what the agent started and left behind goes with it
        _signal(process, signal.SIGKILL, only_group=True)


def _signal(process: asyncio.subprocess.Process, sent: Any, *, only_group: bool = False) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.name == "posix":
            os.killpg(process.pid, sent)
        elif not only_group:
            process.send_signal(sent)
