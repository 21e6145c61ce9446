"""``agent`` and ``input`` for the README's OpenAI Agents SDK line: an ``agents.Agent`` whose
offline scripted ``Model`` calls a ``needs_approval`` tool once, then answers with what it read.
"""

from __future__ import annotations

import json
from typing import Any

import agents
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

__all__ = ["DROPPED", "agent", "input"]

agents.set_tracing_disabled(disabled=True)

#: Tables the tool really dropped.
DROPPED: list[str] = []


class ScriptedModel(Model):
    """Calls drop_table on its first turn; then says what the tool call's output was."""

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:  # noqa: A002
        del system_instructions, args, kwargs
        outputs = [i["output"] for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        if outputs:
            text = ResponseOutputText(text=f"I read: {outputs[-1]}", type="output_text", annotations=[])
            item: Any = ResponseOutputMessage(
                id="m_1", content=[text], role="assistant", status="completed", type="message"
            )
        else:
            item = ResponseFunctionToolCall(
                id="fc_1",
                call_id="call_1",
                name="drop_table",
                arguments=json.dumps({"name": "events_2023"}),
                type="function_call",
                status="completed",
            )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


@agents.function_tool(needs_approval=True)
def drop_table(name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        name: The table to drop.

    """
    DROPPED.append(name)
    return f"dropped {name}"


agent = agents.Agent(name="janitor", model=ScriptedModel(), tools=[drop_table])
input = "Clean up the warehouse."  # noqa: A001 - Runner.run's own name, as the README line uses it
