"""Microsoft Agent Framework's names the README's lines use, and ``agent``, ``input``, ``session``
and ``response``: an ``Agent`` on the tests' offline scripted chat client (the framework's own
``BaseChatClient`` and layers, tests/integrations/agent_framework_scripted.py) that calls an
``approval_mode="always_require"`` tool once, then answers; a session of it; ``response``, a run
of another such agent, stopped on that call's approval request.

``client`` is another such chat client, for a page's example.

``Agent`` is the framework's ``Agent`` with the arguments the README line leaves out (``...``)
given: the scripted client and the tool.
"""

from __future__ import annotations

import asyncio
import functools
import sys
from pathlib import Path

from agent_framework import Agent as _Agent
from agent_framework import tool

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from agent_framework_scripted import ScriptedChatClient

__all__ = ["DROPPED", "Agent", "agent", "client", "input", "response", "session"]

#: Tables the tool really dropped.
DROPPED: list[str] = []


@tool(approval_mode="always_require")
def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    DROPPED.append(name)
    return f"dropped {name}"


def _client() -> ScriptedChatClient:
    return ScriptedChatClient([[("drop_table", {"name": "events_2023"})], "done"])


def _agent() -> _Agent:
    return _Agent(_client(), tools=[drop_table])


#: The framework's Agent, its client and tools given (the README line's ``...``).
Agent = functools.partial(_Agent, _client(), tools=[drop_table])
agent = _agent()
session = agent.create_session()
input = "Clean up the warehouse."  # noqa: A001 - the framework's own name, as the README line uses it
response = asyncio.run(_agent().run(input))
assert response.user_input_requests, response

#: The page's example's chat client: calls drop_table once, then answers.
client = _client()
