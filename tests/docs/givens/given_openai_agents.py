"""``agent`` and ``input`` for the README's OpenAI Agents SDK lines: an ``agents.Agent`` on the
SDK's own offline scripted model (``agents.testing.ScriptedModel``, which also streams) that
calls a ``needs_approval`` tool once, then answers; ``model``, another such model for a page's
example.
"""

from __future__ import annotations

import agents
from agents.testing import ScriptedModel, assistant_message, function_call

__all__ = ["DROPPED", "agent", "input", "model"]

agents.set_tracing_disabled(disabled=True)

#: Tables the tool really dropped.
DROPPED: list[str] = []


@agents.function_tool(needs_approval=True)
def drop_table(name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        name: The table to drop.

    """
    DROPPED.append(name)
    return f"dropped {name}"


_model = ScriptedModel(
    [[function_call("drop_table", {"name": "events_2023"}, call_id="call_1")], [assistant_message("done")]]
)
agent = agents.Agent(name="janitor", model=_model, tools=[drop_table])
input = "Clean up the warehouse."  # noqa: A001 - Runner.run's own name, as the README line uses it

#: The page's example's model: calls drop_table once, then answers.
model = ScriptedModel(
    [[function_call("drop_table", {"name": "events_2023"}, call_id="call_1")], [assistant_message("done")]]
)
