"""Strands' names the README's Strands lines use (``Agent``, ``HumanInTheLoop``), and ``agent``,
``prompt`` and ``result``: a Strands ``Agent`` on the tests' offline scripted ``Model``
(tests/integrations/strands_scripted.py) that calls a tool once, then answers, with Strands' own
``HumanInTheLoop()`` intervention, which interrupts before the call; ``result`` is a run of
another such agent, stopped on that interrupt; ``model``, another such model for a page's example.
"""

from __future__ import annotations

import sys
from pathlib import Path

from strands import Agent, tool
from strands.vended_interventions.hitl import HumanInTheLoop

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from strands_scripted import ScriptedModel

__all__ = ["DROPPED", "Agent", "HumanInTheLoop", "agent", "model", "prompt", "result"]

#: Tables the tool really dropped.
DROPPED: list[str] = []


@tool
def drop_table(name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        name: The table to drop.

    """
    DROPPED.append(name)
    return f"dropped {name}"


def _agent() -> Agent:
    model = ScriptedModel([("drop_table", {"name": "events_2023"})], "done")
    return Agent(model=model, tools=[drop_table], interventions=[HumanInTheLoop()], callback_handler=None)


agent = _agent()
prompt = "Clean up the warehouse."
result = _agent()(prompt)
assert result.stop_reason == "interrupt", result.stop_reason

#: The page's example's model: calls drop_table once, then answers.
model = ScriptedModel([("drop_table", {"name": "events_2023"})], "done")
