"""``workflow``, ``topic``, ``agent`` and ``events`` for the README's LlamaIndex line: a ``Workflow`` (no time
limit of its own) whose step waits for the person to pick a title and approve publishing it, and a
``FunctionAgent`` on llama_index.core's ``MockFunctionCallingLLM`` (the tests'
integrations/llama_index_scripted.py) whose ``drop_table`` tool waits for approval; ``events``,
what a workflow's stream showed waiting together (a question and an approval).
"""

import sys
from pathlib import Path

from workflows import Context, Workflow, step
from workflows.events import HumanResponseEvent, InputRequiredEvent, StartEvent, StopEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from llama_index_scripted import agent as _agent

__all__ = ["agent", "events", "topic", "workflow"]


class Publish(Workflow):
    """Asks for a title for ``topic``, then for approval to publish it."""

    @step
    async def publish(self, ctx: Context, ev: StartEvent) -> StopEvent:
        title = await ctx.wait_for_event(
            HumanResponseEvent,
            waiter_event=InputRequiredEvent(prefix=f"Title for {ev.topic}?", options=["Short", "Long"], ask="title"),
            requirements={"ask": "title"},
        )
        publish = await ctx.wait_for_event(
            HumanResponseEvent,
            waiter_event=InputRequiredEvent(action=f"Publish {title.response!r}", ask="publish"),
            requirements={"ask": "publish"},
        )
        return StopEvent(result=f"published {title.response}" if publish.approved else "not published")


workflow = Publish(timeout=None)
topic = "pirates"
agent = _agent([("drop_table", {"name": "events_2023"})], [], timeout=None)
events = [
    InputRequiredEvent(prefix="Which title?", options=["Short", "Long"], ask="title"),
    InputRequiredEvent(action="Publish the post", details={"title": "Short"}, ask="publish"),
]
