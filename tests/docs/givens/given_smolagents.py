"""smolagents' names the README's smolagents lines use (``ToolCallingAgent``), and ``drop_table``,
``search``, ``model``, ``agent`` and ``task``: two smolagents ``Tool``s, the tests' offline
scripted smolagents ``Model`` (tests/integrations/smolagents_scripted.py), and a
``ToolCallingAgent`` on another such model that searches once, then answers.
"""

from __future__ import annotations

import sys
from pathlib import Path

from smolagents import Tool, ToolCallingAgent

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from smolagents_scripted import ScriptedModel

__all__ = ["DROPPED", "ToolCallingAgent", "agent", "drop_table", "model", "search", "task"]

#: Tables the drop_table tool really dropped.
DROPPED: list[str] = []


class DropTable(Tool):
    name = "drop_table"
    description = "Drop a warehouse table (irreversible)."
    inputs = {"name": {"type": "string", "description": "The table to drop."}}  # noqa: RUF012 - smolagents' class attribute
    output_type = "string"

    def forward(self, name: str) -> str:
        DROPPED.append(name)
        return f"dropped {name}"


class Search(Tool):
    name = "search"
    description = "Search the warehouse's tables by name."
    inputs = {"query": {"type": "string", "description": "What to look for."}}  # noqa: RUF012 - smolagents' class attribute
    output_type = "string"

    def forward(self, query: str) -> str:
        return f"events_2023 matches {query!r}"


drop_table = DropTable()
search = Search()
model = ScriptedModel([[("drop_table", {"name": "events_2023"})], "done"])
agent = ToolCallingAgent(
    tools=[Search()], model=ScriptedModel([[("search", {"query": "events"})], "done"]), verbosity_level=0
)
task = "Find the old events table."
