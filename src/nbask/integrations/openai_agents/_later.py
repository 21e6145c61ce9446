"""A paused run kept for the next run of the same code, under the ``later`` policy: when the
person is to answer later, the run's ``RunState`` (``to_string``) is kept in the inbox beside
its pending approvals; the next ``run(agent, input)`` of the same agent and input goes on from
it, with the inbox's answers, and the model is not asked again for the steps already taken.

"The same": the agent's name, its tools' names, the notebook, and the input's fingerprint; any
other agent or input starts its own run. A run started from a ``RunState`` is never kept (the
caller keeps that state).
"""

from __future__ import annotations

from typing import Any

from agents import Agent, RunState

from ... import host
from .._seam import resuming


def key(agent: Agent[Any], input: Any) -> str | None:  # noqa: A002 - Runner.run's own name
    """The key the paused run of ``agent`` on ``input`` is kept under; None when not kept."""
    if not resuming.answering_later() or isinstance(input, RunState):
        return None
    tools = sorted(str(getattr(tool, "name", tool)) for tool in agent.tools)
    return "openai_agents:" + resuming.input_key([agent.name, tools, host.notebook_path(), input])
