"""AutoGen AgentChat's names the README's lines use, and ``code_executor``, ``team`` and ``task``:
the tests' recording ``CodeExecutor`` in a temporary folder, and a team of one ``AssistantAgent``
on the tests' offline scripted ``ChatCompletionClient`` (tests/integrations/autogen_scripted.py)
that hands off to the user, stopped by ``HandoffTermination(target="user")``; ``model_client``,
another such client for a page's example.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent, UserProxyAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import HandoffTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from autogen_scripted import RecordingExecutor, ScriptedClient, handoff

__all__ = ["CodeExecutorAgent", "UserProxyAgent", "code_executor", "model_client", "task", "team"]

code_executor = RecordingExecutor(Path(tempfile.mkdtemp()))
_assistant = AssistantAgent(
    "assistant",
    model_client=ScriptedClient(handoff("Which city do you mean?"), "Sunny. TERMINATE"),
    handoffs=[Handoff(target="user", message="Transfer to user.")],
)
team = RoundRobinGroupChat(
    [_assistant], termination_condition=HandoffTermination(target="user") | TextMentionTermination("TERMINATE")
)
task = "What is the weather in New York?"

#: The page's example's model client: asks the user, then answers.
model_client = ScriptedClient(handoff("Which city do you mean?"), "Sunny. TERMINATE")
