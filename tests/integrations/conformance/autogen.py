"""AutoGen AgentChat: a ``CodeExecutorAgent`` on the ``ScriptedClient`` of
tests/integrations/autogen_scripted.py with its ``RecordingExecutor``, the code it proposes asked
by nbask's ``approval_func_with``. AutoGen's gate is code, so the model's ``drop_table(**args)``
is a Python block binding ``args`` (what the executor really ran is read back from it); the
calls are turns of a ``RoundRobinGroupChat`` of that one agent. AutoGen's ``ApprovalResponse``
cannot carry other code: an edit is a rejection whose reason holds the edited text. The
framework's question is a handoff to the user (``HandoffTermination``) answered by ``run_sync``:
a free text reply, not typed. Several blocks are one approval, so there are no batches.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import HandoffTermination, TextMentionTermination
from autogen_agentchat.messages import HandoffMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core.models import UserMessage

from integrations.autogen_scripted import RecordingExecutor, ScriptedClient, handoff
from nbask.integrations import autogen

from .contract import ARGS, QUESTION, Integration, ToolRun, entry_kw

PREFIX = "args = "


def _block(args: dict[str, Any]) -> str:
    """The model's reply: ``drop_table(**args)`` as a Python block for the executor."""
    return f"```python\n{PREFIX}{json.dumps(args)}\nprint('dropped', args['name'])\n```"


class Adapter(Integration):
    framework = "autogen"
    carries_edits = False
    has_questions = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        model = ScriptedClient(*[_block(args), "Done."] * calls)
        with tempfile.TemporaryDirectory() as folder:
            executor = RecordingExecutor(Path(folder))
            coder = CodeExecutorAgent(
                "coder",
                code_executor=executor,
                model_client=model,
                approval_func=autogen.approval_func_with(**entry_kw(timeout, approvers)),
            )
            team = RoundRobinGroupChat([coder], max_turns=calls)
            asyncio.run(team.run(task="Clean up the warehouse."))
        ran = [json.loads(code.splitlines()[0].removeprefix(PREFIX)) for _, code in executor.ran]
        read = [str(m.content) for m in model.seen[-1] if isinstance(m, UserMessage) and m.source == "coder"]
        return ToolRun(ran=ran, read=read)

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        model = ScriptedClient(*[handoff(question)] * rounds, "Noted. TERMINATE")
        assistant = AssistantAgent(
            "assistant", model_client=model, handoffs=[Handoff(target="user", message="Transfer to user.")]
        )
        stop = HandoffTermination(target="user") | TextMentionTermination("TERMINATE")
        team = RoundRobinGroupChat([assistant], termination_condition=stop)
        result = autogen.run_sync(team, "Set up the app.", **entry_kw(timeout, approvers))
        replies = [m.content for m in result.messages if isinstance(m, HandoffMessage) and m.source == "user"]
        return replies[-1] if replies else None
