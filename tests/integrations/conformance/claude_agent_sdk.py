"""The Claude Agent SDK: ``query()`` against the scripted Claude Code side of the control protocol
(tests/support/fixtures/claude_code_cli.py), its permission requests answered by nbask's
``can_use_tool_with`` and streamed by nbask's ``query`` (the SDK's, raising a replay miss at its
end); ``AskUserQuestion`` is the framework's question. An edit is carried
(``updatedInput``). Claude Code asks one permission at a time: no batches.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions
from support.person import FIXTURES

from nbask.integrations import claude_agent_sdk

from .contract import ARGS, OPTIONS, QUESTION, TOOL, Integration, ToolRun, entry_kw

sys.path.insert(0, str(FIXTURES))
from claude_code_cli import ClaudeCodeCLI, ToolCall


def _run(calls: list[ToolCall], timeout: float | None, approvers: list[str] | None = None) -> ClaudeCodeCLI:
    cli = ClaudeCodeCLI(calls)
    options = ClaudeAgentOptions(can_use_tool=claude_agent_sdk.can_use_tool_with(**entry_kw(timeout, approvers)))

    async def main() -> None:
        async for _ in claude_agent_sdk.query(prompt="Clean up the warehouse.", options=options, transport=cli):
            pass

    asyncio.run(main())
    return cli


class Adapter(Integration):
    framework = "claude_agent_sdk"
    has_questions = True
    question_options = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        cli = _run([ToolCall(TOOL, args) for _ in range(calls)], timeout, approvers)
        read = [response.get("message") or response.get("error", "") for response in cli.responses]
        return ToolRun(ran=[ran for name, ran in cli.ran if name == TOOL], read=read)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        asked = {
            "questions": [
                {
                    "question": question,
                    "header": "DB",
                    "multiSelect": False,
                    "options": [{"label": label, "description": label} for label in OPTIONS],
                }
            ]
        }
        cli = _run([ToolCall("AskUserQuestion", asked) for _ in range(rounds)], timeout, approvers)
        last = cli.responses[-1]
        return last["updatedInput"]["answers"] if last["behavior"] == "allow" else last["message"]
