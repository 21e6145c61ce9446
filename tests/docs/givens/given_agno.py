"""``agent``, ``input`` and ``paused`` for the README's agno line: an agno ``Agent`` on the tests'
offline scripted agno ``Model`` (tests/integrations/agno_scripted.py) that calls a
``requires_confirmation`` tool once, then answers; ``paused`` is a run of another such agent,
paused on that call; ``model``, another such model for a page's example.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agno.agent import Agent
from agno.tools import tool

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from agno_scripted import ScriptedModel

__all__ = ["DROPPED", "agent", "input", "model", "paused"]

#: Tables the tool really dropped.
DROPPED: list[str] = []


@tool(requires_confirmation=True)
def drop_table(name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        name: The table to drop.

    """
    DROPPED.append(name)
    return f"dropped {name}"


def _agent() -> Agent:
    return Agent(model=ScriptedModel(turns=[[("drop_table", {"name": "events_2023"})], "done"]), tools=[drop_table])


agent = _agent()
input = "Clean up the warehouse."  # noqa: A001 - agno's own name, as the README line uses it
paused = _agent().run(input)
assert paused.is_paused, paused.status

#: The page's example's model: calls drop_table once, then answers.
model = ScriptedModel(turns=[[("drop_table", {"name": "events_2023"})], "done"])
