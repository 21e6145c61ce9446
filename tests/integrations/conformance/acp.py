"""ACP: nbask as the client of the scripted agent of tests/integrations/acp_scripted_agent.py (the
ACP SDK's own agent side, a subprocess over stdio), in one ``Session``. ACP's gate for a tool's
effect without a permission request of its own is ``fs/write_text_file``: the model's
``drop_table(name=...)`` is the agent's ``write <cwd>/<name>``, an approval "Write <name>" with
the content as its details (an edit writes the edited content, at the path the agent chose), and
the agent reads the refusal as the request's error. ``calls`` are prompts of the same session.
The agent's ``session/request_permission`` is a question of the agent's own fixed options (an
answer outside them is its reject option), so there is no question of the contract's, no typed
reply, and its permissions asked at once are questions, not a batch of approvals.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from nbask.integrations import acp

from .contract import ARGS, Integration, ToolRun, entry_kw

AGENT = Path(__file__).parents[1] / "acp_scripted_agent.py"


async def _prompts(
    folder: Path, log: Path, texts: list[str], timeout: float | None, approvers: list[str] | None = None
) -> None:
    command = [sys.executable, str(AGENT), "--log", str(log)]
    async with acp.Session(command, cwd=folder, show=False, **entry_kw(timeout, approvers)) as session:
        for text in texts:
            await session.prompt(text)


class Adapter(Integration):
    framework = "acp"

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        with tempfile.TemporaryDirectory() as folder:
            log, target = Path(folder) / "agent.jsonl", Path(folder) / args["name"]
            asyncio.run(_prompts(Path(folder), log, [f"write {target}"] * calls, timeout, approvers))
            lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
        writes = [line["write"] for line in lines if "write" in line]
        ran = [{"name": target.name} for write in writes if write.get("ok")]
        return ToolRun(ran=ran, read=[str(write.get("error", "written")) for write in writes])
