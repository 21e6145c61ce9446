"""A scripted ACP agent, written with the ACP SDK's own agent side (``acp.run_agent``) and run as
a subprocess over stdio by the tests: ``python acp_scripted_agent.py --log <file>``.

Every prompt streams a thought, a plan, message chunks and an edit tool call, then acts on the
prompt's text:

- ``permission`` (the default): asks ``session/request_permission`` for the edit with four
  options (allow once, allow always, reject once, reject always), then says which option id it
  received ("The client sent option <id>." or "The client sent cancelled.").
- ``two permissions``: asks two permissions at once (two tool calls) and reports both.
- ``write <path>`` / ``read <path>``: asks ``fs/write_text_file`` / ``fs/read_text_file`` and
  reports what came back (or the error).
- ``edit <path>``: an edit of ``<path>`` (under the session's cwd) the way coding agents make one
  (Claude Code's ACP adapter among them): a tool call titled with the file's absolute path and
  having it as its location and diff, its permission, then (when allowed) the file read through
  ``fs/read_text_file`` and the edited text written through ``fs/write_text_file``, then the
  call completed (or failed).
- ``look <path>``: a read tool call of ``<path>`` (under the session's cwd), its permission, then
  (when allowed) a write of that file, which the read's permission does not cover.
- ``terminal``: asks ``terminal/create`` and reports the error.
- ``options <n>``: asks a permission with only the first n of the four options.

What it received (the client's capabilities, each permission outcome, each cancel, each file
answer) is appended to the log file as JSON lines, with its pid, for the tests to read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
from typing import Any

from acp import (
    PROTOCOL_VERSION,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
    RequestError,
    plan_entry,
    run_agent,
    start_read_tool_call,
    start_tool_call,
    tool_diff_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    PermissionOption,
    ToolCallLocation,
    ToolCallUpdate,
)

OPTIONS = [
    PermissionOption(option_id="allow-once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="allow-always", name="Always allow edits", kind="allow_always"),
    PermissionOption(option_id="reject-once", name="Reject", kind="reject_once"),
    PermissionOption(option_id="reject-always", name="Never allow edits", kind="reject_always"),
]


class ScriptedAgent:
    """The agent side: one session at a time, a fixed script per prompt."""

    def __init__(self, log: str) -> None:
        self.log_path = log
        self.conn: Client
        self.cancelled = asyncio.Event()
        self.cwd = "."

    def log(self, **entry: Any) -> None:
        with Path(self.log_path).open("a", encoding="utf-8") as out:
            out.write(json.dumps({"pid": os.getpid(), **entry}) + "\n")

    def on_connect(self, conn: Client) -> None:
        self.conn = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        del protocol_version, kwargs
        capabilities = client_capabilities.model_dump(by_alias=True, exclude_none=True) if client_capabilities else {}
        self.log(initialize={"capabilities": capabilities, "client": client_info.name if client_info else None})
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(),
            agent_info=Implementation(name="scripted-agent", title="Scripted agent", version="1"),
        )

    async def new_session(self, cwd: str, mcp_servers: Any = None, **kwargs: Any) -> NewSessionResponse:
        del mcp_servers, kwargs
        self.log(new_session={"cwd": cwd})
        self.cwd = cwd
        return NewSessionResponse(session_id="s-1")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        del kwargs
        self.log(cancel=session_id)
        self.cancelled.set()

    async def say(self, session_id: str, text: str) -> None:
        await self.conn.session_update(session_id, update_agent_message_text(text))

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        del kwargs
        text = " ".join(getattr(block, "text", "") for block in prompt).strip()
        self.log(prompt=text)
        self.cancelled.clear()
        await self.conn.session_update(session_id, update_agent_thought_text("The test fails on a sign."))
        entries = [plan_entry("Read the test", status="completed"), plan_entry("Fix the sign", priority="high")]
        await self.conn.session_update(session_id, update_plan(entries))
        for piece in ("I will fix ", "the failing test."):
            await self.say(session_id, piece)
        if text.startswith("write "):
            return await self.write(session_id, text.removeprefix("write "))
        if text.startswith("read "):
            return await self.read(session_id, text.removeprefix("read "))
        if text.startswith("edit "):
            return await self.edit(session_id, text.removeprefix("edit "))
        if text.startswith("look "):
            return await self.look(session_id, text.removeprefix("look "))
        if text == "terminal":
            try:
                await self.conn.create_terminal(session_id=session_id, command="ls")
            except RequestError as error:
                self.log(terminal={"code": error.code, "message": str(error)})
                await self.say(session_id, f"The terminal was refused: {error}.")
            return PromptResponse(stop_reason="end_turn")
        count = int(text.removeprefix("options ")) if text.startswith("options ") else len(OPTIONS)
        calls = ["call-1", "call-2"] if text == "two permissions" else ["call-1"]
        outcomes = await asyncio.gather(*(self.ask(session_id, call, OPTIONS[:count]) for call in calls))
        cancelled = self.cancelled.is_set() or "cancelled" in outcomes
        return PromptResponse(stop_reason="cancelled" if cancelled else "end_turn")

    async def ask(self, session_id: str, call: str, options: list[PermissionOption]) -> str:
        path = f"/work/tests/test_{call[-1]}.py"
        diff = tool_diff_content(path, "assert add(1, 2) == 3\n", "assert add(1, 2) == -3\n")
        start = start_tool_call(call, f"Edit tests/test_{call[-1]}.py", kind="edit", status="pending", content=[diff])
        await self.conn.session_update(session_id, start)
        response = await self.conn.request_permission(
            session_id=session_id, tool_call=ToolCallUpdate(tool_call_id=call), options=options
        )
        outcome = response.outcome
        received = getattr(outcome, "option_id", None) or outcome.outcome
        self.log(
            permission={"call": call, "outcome": outcome.outcome, "option_id": getattr(outcome, "option_id", None)}
        )
        status = "completed" if received.startswith("allow") else "failed"
        await self.conn.session_update(session_id, update_tool_call(call, status=status))
        await self.say(
            session_id, f"\nThe client sent {'option ' + received if received != 'cancelled' else received}."
        )
        return received

    async def edit(self, session_id: str, relative: str) -> PromptResponse:
        path = str(Path(self.cwd) / relative)
        diff = tool_diff_content(path, "fixed = True\n", "fixed = False\n")
        location = ToolCallLocation(path=path)
        start = start_tool_call(
            "edit-1", f"Edit `{path}`", kind="edit", status="pending", content=[diff], locations=[location]
        )
        await self.conn.session_update(session_id, start)
        response = await self.conn.request_permission(
            session_id=session_id, tool_call=ToolCallUpdate(tool_call_id="edit-1"), options=OPTIONS
        )
        received = getattr(response.outcome, "option_id", None) or response.outcome.outcome
        self.log(permission={"call": "edit-1", "option_id": received})
        if not received.startswith("allow"):
            await self.conn.session_update(session_id, update_tool_call("edit-1", status="failed"))
            return PromptResponse(stop_reason="end_turn")
        await self.conn.session_update(session_id, update_tool_call("edit-1", status="in_progress"))
        try:
            old = await self.conn.read_text_file(session_id=session_id, path=path)
            new = old.content.replace("fixed = False", "fixed = True")
            await self.conn.write_text_file(session_id=session_id, path=path, content=new)
        except RequestError as error:
            self.log(write={"error": str(error), "code": error.code})
            status = "failed"
        else:
            self.log(write={"ok": True})
            status = "completed"
        await self.conn.session_update(session_id, update_tool_call("edit-1", status=status))
        return PromptResponse(stop_reason="end_turn")

    async def look(self, session_id: str, relative: str) -> PromptResponse:
        path = str(Path(self.cwd) / relative)
        await self.conn.session_update(session_id, start_read_tool_call("look-1", f"Read {path}", path))
        response = await self.conn.request_permission(
            session_id=session_id, tool_call=ToolCallUpdate(tool_call_id="look-1"), options=OPTIONS
        )
        received = getattr(response.outcome, "option_id", None) or response.outcome.outcome
        self.log(permission={"call": "look-1", "option_id": received})
        if not received.startswith("allow"):
            return PromptResponse(stop_reason="end_turn")
        return await self.write(session_id, path)

    async def write(self, session_id: str, path: str) -> PromptResponse:
        try:
            await self.conn.write_text_file(session_id=session_id, path=path, content="fixed = True\n")
        except RequestError as error:
            self.log(write={"error": str(error), "code": error.code})
            await self.say(session_id, f"\nThe write was refused: {error}")
        else:
            self.log(write={"ok": True})
            await self.say(session_id, "\nThe write was done.")
        return PromptResponse(stop_reason="end_turn")

    async def read(self, session_id: str, path: str) -> PromptResponse:
        try:
            response = await self.conn.read_text_file(session_id=session_id, path=path, line=2, limit=1)
        except RequestError as error:
            self.log(read={"error": str(error), "code": error.code})
        else:
            self.log(read={"content": response.content})
        return PromptResponse(stop_reason="end_turn")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    asyncio.run(run_agent(ScriptedAgent(args.log)))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
