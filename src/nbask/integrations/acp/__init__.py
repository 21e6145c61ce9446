"""Any Agent Client Protocol (ACP) agent, started and prompted from a cell: nbask is the ACP
client. What the agent streams is printed in the cell as it comes (text, never HTML); its
permission requests are asked in the cell with the agent's own options.

    reply = await nbask.integrations.acp.prompt(["my-agent", "--acp"], "Fix the failing test", cwd=".")
    reply.stop_reason  # "end_turn", "cancelled", ...

Several prompts to one agent process::

    async with nbask.integrations.acp.Session(["my-agent", "--acp"], cwd=".") as agent:
        await agent.prompt("Find the failing test")
        await agent.prompt("Now fix it")

What maps to what:

- ``session/update``: message chunks are printed as they come, thoughts after "thinking: ",
  each tool call as a "tool: <title> [kind] (status)" line when it starts or its status
  changes, a plan as "plan:" and one "[ ]" / "[~]" / "[x]" line per entry. The turn's text,
  thoughts, plan and tool calls are kept in the returned ``Reply``.
- ``session/request_permission``: a question "Allow <title>?" (the tool kind as its chip) whose
  options are the agent's own, named as the agent sent them, in its order, each showing the
  call's kind, files and content (a diff as a unified diff) as its preview. nbask's approvals
  offer only approve / edit / reject, so the agent's options go in a question. The chosen
  option's id is sent back. The first reject option carries "(Recommended)": an unattended run
  (the ``recommended`` policy) picks it, and a policy never sends an option that allows.
  Dismissed, timed out, an Other text, no one to ask (recorded in ``nbask.history()``) -> the
  reject option (or "cancelled" when the agent offered none). A kernel interrupt while it waits
  sends ``session/cancel``, answers every pending request "cancelled", waits for the agent to
  end the turn, ends the agent process and raises ``KeyboardInterrupt`` in the cell. A replay
  miss does the same and raises ``nbask.ReplayMissing``; so does an unattended run asking again
  what a policy decided, raising ``nbask.AskedAgain``.
- ``fs/write_text_file`` / ``fs/read_text_file`` (advertised with ``files=True``, the default):
  one decision per action: the reads and writes that carry out a tool call the person allowed
  through its permission request (of a file among the call's locations and diffs) are done
  without asking again ("allow once" covers them until the call is completed or failed or the
  turn ends, the agent's "always" for the session; a call of a reading kind covers reads only).
  Any other is an approval, "Write <path>" with the new content as its details (an edit writes
  the edited content), "Read <path>" (approve or reject); not approved, the agent gets an error
  with the reason. ``files=False`` advertises neither and refuses both.
- Paths: one under the session's ``cwd`` is shown and recorded relative to it, in the
  approvals and in a permission's title, preview and transcript lines ("Allow Edit
  `notes/todo.md`?"), so a recording replays in another folder; one outside it stays absolute.
- ``terminal/*``: not advertised, refused (nbask runs no terminal for the agent).

The agent runs as a subprocess over stdio, in a process group of its own (a kernel interrupt
reaches nbask, which cancels the turn over ACP), with the ACP SDK's trimmed environment (HOME,
PATH, ...) plus ``env``; closing the session, or the end of ``prompt``, closes its stdin, then
terminates its process group if it does not exit.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import shlex
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from acp import PROTOCOL_VERSION, text_block
from acp.client.connection import ClientSideConnection
from acp.interfaces import Client
from acp.schema import ClientCapabilities, FileSystemCapabilities, Implementation, PlanEntry

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import AgentExited
from ...waiting import interruption
from ._client import NbaskClient, Permission
from ._process import agent_process
from ._text import ToolCallView

__all__ = ["AgentExited", "Permission", "Reply", "Session", "prompt"]

#: Seconds the agent has to end a cancelled turn before its process is ended anyway.
CANCEL_GRACE = 5.0


@dataclass
class Reply:
    """One prompt's end: the agent's stop reason and what it said and did on the way."""

    stop_reason: str
    text: str = ""
    thoughts: str = ""
    plan: list[PlanEntry] = field(default_factory=list)
    tool_calls: dict[str, ToolCallView] = field(default_factory=dict)
    permissions: list[Permission] = field(default_factory=list)


class Session:
    """One ACP agent process and one session of it, prompted any number of times.

    ``command`` is the agent's command line (a list, or a string split as a shell would);
    ``cwd`` its working directory and the session's (default: the current one); ``timeout``
    the seconds each request waits for the person; ``approvers`` who alone may answer; ``files``
    whether the agent may ask to read and write files (each behind an approval); ``show`` whether
    the stream is printed.
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        files: bool = True,
        show: bool = True,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            msg = "command: give the agent's command line, e.g. ['my-agent', '--acp']"
            raise ValueError(msg)
        self.cwd = str(Path(cwd if cwd is not None else Path.cwd()).resolve())
        self.env = dict(env or {})
        self.show = show
        self.client = NbaskClient(
            timeout=timeout, approvers=approvers, files=files, show=show, on_stop=self._stopping, cwd=self.cwd
        )
        self.session_id: str | None = None
        self.stderr: collections.deque[str] = collections.deque(maxlen=50)
        self.pid: int | None = None
        self._stack: AsyncExitStack | None = None
        self._conn: ClientSideConnection | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._stopped: asyncio.Event | None = None
        self._failure: BaseException | None = None

    async def __aenter__(self) -> Session:  # noqa: PYI034 - Session is final in use
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> Session:
        """Start the agent, ``initialize`` it and open a session; returns the session."""
        if self._stack is not None:
            return self
        stack = AsyncExitStack()
        try:
            conn, process = await stack.enter_async_context(
                agent_process(cast("Client", self.client), self.command, cwd=self.cwd, env=self.env)
            )
            self._stack, self._conn, self._process, self.pid = stack, conn, process, process.pid
            drain = asyncio.ensure_future(self._drain_stderr(process))
            stack.callback(drain.cancel)
            files = self.client.files
            await conn.initialize(
                protocol_version=PROTOCOL_VERSION,
                client_capabilities=ClientCapabilities(
                    fs=FileSystemCapabilities(read_text_file=files, write_text_file=files), terminal=False
                ),
                client_info=Implementation(name="nbask", title="nbask", version=_version()),
            )
            self.session_id = (await conn.new_session(cwd=self.cwd, mcp_servers=[])).session_id
        except BaseException:
            await self.close()
            raise
        return self

    async def prompt(self, text: str) -> Reply:
        """Send ``text`` as the next user message and wait for the turn to end, printing its
        stream and asking its permissions; returns the ``Reply``.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        await self.start()
        conn, session_id = self._conn, self.session_id
        assert conn is not None  # noqa: S101 - started above
        assert session_id is not None  # noqa: S101 - started above
        transcript = self.client.begin(show=self.show)
        self._stopped, self._failure = asyncio.Event(), None
        turn = asyncio.ensure_future(conn.prompt(session_id=session_id, prompt=[text_block(text)]))
        stopped = asyncio.ensure_future(self._stopped.wait())
        try:
            await asyncio.wait({turn, stopped}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # an interrupt or a cancellation of this very call
            await self._end_after_stop(turn)
            raise
        finally:
            stopped.cancel()
        if not turn.done():  # a wait was interrupted, or a replay missed: the turn is cancelled
            await self._end_after_stop(turn)
            if self._failure is not None:
                raise self._failure
            raise interruption()
        try:
            response = turn.result()
        except ConnectionError:
            raise AgentExited(self._exited()) from None
        finally:
            transcript.end()
        return Reply(
            stop_reason=response.stop_reason,
            text=transcript.text,
            thoughts=transcript.thoughts,
            plan=transcript.plan,
            tool_calls=dict(transcript.tool_calls),
            permissions=list(self.client.permissions),
        )

    async def cancel(self) -> None:
        """Send ``session/cancel`` for the turn in progress (the agent ends it as "cancelled")."""
        if self._conn is not None and self.session_id is not None:
            with contextlib.suppress(ConnectionError):
                await self._conn.cancel(session_id=self.session_id)

    async def close(self) -> None:
        """End the agent process (stdin closed, then terminated, then killed) and the session."""
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()
        self._conn = None

    async def _stopping(self, failure: BaseException | None) -> None:
        """A permission's wait was interrupted (or a replay missed): cancel the turn once."""
        if self._stopped is None or self._stopped.is_set():
            return
        self._failure = failure
        self._stopped.set()
        await self.cancel()

    async def _end_after_stop(self, turn: asyncio.Future[Any]) -> None:
        """After an interrupt: ``session/cancel``, a short wait for the agent to end the turn,
        then the process ended.
        """
        self.client.transcript.end()
        if self._stopped is not None and not self._stopped.is_set():
            self._stopped.set()
            await asyncio.shield(self.cancel())
        with contextlib.suppress(BaseException):
            await asyncio.shield(asyncio.wait({turn}, timeout=CANCEL_GRACE))
        turn.cancel()
        await asyncio.shield(self.close())

    async def _drain_stderr(self, process: asyncio.subprocess.Process) -> None:
        """Keep the last lines the agent wrote to stderr (read, so its pipe never fills)."""
        if process.stderr is None:
            return
        while line := await process.stderr.readline():
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def _exited(self) -> str:
        code = self._process.returncode if self._process is not None else None
        tail = "\n".join(self.stderr)
        return f"the agent {self.command[0]!r} closed the connection (exit code {code})" + (
            f"; its last stderr lines:\n{tail}" if tail else ""
        )


async def prompt(
    command: Sequence[str] | str,
    text: str,
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    files: bool = True,
    show: bool = True,
) -> Reply:
    """Start the agent ``command``, prompt it once with ``text`` (its stream printed, its
    permission requests asked in the cell, answerable only by ``approvers`` when named), end it,
    and return the ``Reply``.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    session = Session(command, cwd=cwd, env=env, timeout=timeout, approvers=approvers, files=files, show=show)
    async with session:
        return await session.prompt(text)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - only at start

    try:
        return version("nbask")
    except PackageNotFoundError:
        return "0"
