"""pydantic-ai's names the README's one line uses, and ``result``: the run of an agent that
stopped on a ``requires_approval=True`` tool (its output a ``DeferredToolRequests``), made with
an offline ``FunctionModel``; ``model``, that model for a page's example (it calls ``drop_table``
once, then answers); ``agent``, an agent of that model with that tool, for ``run(agent, ...)``.
"""

from __future__ import annotations

from pydantic_ai import Agent, DeferredToolRequests, Tool
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

__all__ = ["Agent", "HandleDeferredToolCalls", "agent", "model", "result"]


def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    return f"dropped {name}"


def _respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    del info
    if len(messages) == 1:
        return ModelResponse(parts=[ToolCallPart("drop_table", {"name": "events_2023"}, tool_call_id="call_1")])
    return ModelResponse(parts=[TextPart("done")])


_agent = Agent(
    FunctionModel(_respond),
    tools=[Tool(drop_table, requires_approval=True)],
    output_type=[str, DeferredToolRequests],
)
result = _agent.run_sync("Clean up the warehouse.")
assert isinstance(result.output, DeferredToolRequests), result.output

#: The pages' example's model: offline, it calls drop_table once, then answers.
model = FunctionModel(_respond)

#: An agent that needs an approval for drop_table, for ``run(agent, ...)`` (no handler of its own).
agent = Agent(FunctionModel(_respond), tools=[Tool(drop_table, requires_approval=True)])
