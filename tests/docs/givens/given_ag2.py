"""AG2's names the README's AG2 lines use (``Agent``, ``tool``), and ``agent`` and ``fn``: an
``ag2.Agent`` on AG2's own offline scripted model (``ag2.testing.TestConfig``, through
tests/integrations/ag2_scripted.py) that calls a tool gated by AG2's own ``approval_required()``
once, then answers; ``fn``, a plain function to gate.

``config`` is another such scripted model, for a page's example: it calls ``drop_table`` once,
then answers.

``Agent`` is AG2's ``Agent`` with the arguments the README line leaves out (``...``) given: a
name, the scripted model and the gated tool.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from ag2 import Agent as _Agent
from ag2 import tool
from ag2.middleware.builtin.tools import approval_required

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from ag2_scripted import call, scripted

__all__ = ["DROPPED", "Agent", "agent", "config", "fn", "tool"]

#: Tables the tool really dropped.
DROPPED: list[str] = []


def fn(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    DROPPED.append(name)
    return f"dropped {name}"


def _agent() -> _Agent:
    config = scripted(call("fn", name="events_2023"), "done")
    return _Agent("ops", config=config, tools=[tool(fn, middleware=[approval_required()])])


#: AG2's Agent, its name, model and tools given (the README line's ``...``).
Agent = functools.partial(_Agent, "ops", config=scripted("done"), tools=[tool(fn, middleware=[approval_required()])])
agent = _agent()

#: The page's example's model: calls drop_table once, then answers.
config = scripted(call("drop_table", name="events_2023"), "done")
