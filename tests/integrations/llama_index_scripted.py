"""LlamaIndex's own workflows for the tests of nbask.integrations.llama_index, offline: plain
``Workflow``s whose steps ask for a person (an ``InputRequiredEvent`` a step returns, or the
waiter event of ``ctx.wait_for_event``), and a ``FunctionAgent`` driven by llama_index.core's own
``MockFunctionCallingLLM`` with a scripted reply, whose tool waits for the person's approval.

Each workflow records what really ran in ``ran``, so a test can tell a rejected step did not run.
"""

from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.llms import ChatMessage, MessageRole
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool, ToolSelection
from workflows import Context, Workflow, step
from workflows.events import Event, HumanResponseEvent, InputRequiredEvent, StartEvent, StopEvent

__all__ = ["Approves", "Asks", "HumanInTheLoopWorkflow", "Parallel", "agent", "scripted_llm"]


class HumanInTheLoopWorkflow(Workflow):
    """LlamaIndex's own human-in-the-loop example, as its workflow docs write it ("Human in the
    Loop"): no timeout given, so LlamaIndex's 45 s.
    """

    @step
    async def step1(self, ev: StartEvent) -> InputRequiredEvent:
        del ev  # LlamaIndex routes a step by the type of its event
        return InputRequiredEvent(prefix="Enter a number: ")

    @step
    async def step2(self, ev: HumanResponseEvent) -> StopEvent:
        return StopEvent(result=ev.response)


class Asks(Workflow):
    """Returns the ``InputRequiredEvent`` of its start event's ``ask`` fields; its result is
    every field of the ``HumanResponseEvent`` it got back.
    """

    @step
    async def ask(self, ev: StartEvent) -> InputRequiredEvent:
        return InputRequiredEvent(**ev.get("ask"))

    @step
    async def answer(self, ev: HumanResponseEvent) -> StopEvent:
        return StopEvent(result=dict(ev.items()))


class Approves(Workflow):
    """Waits (``ctx.wait_for_event``) for approval to drop a table, then drops it only if approved."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ran: list[str] = []

    @step
    async def drop(self, ctx: Context, ev: StartEvent) -> StopEvent:
        table = ev.get("table")
        asked = InputRequiredEvent(action=f"Drop table {table}", details={"table": table}, risk="high", table=table)
        reply = await ctx.wait_for_event(HumanResponseEvent, waiter_event=asked, requirements={"table": table})
        if not reply.approved:
            return StopEvent(result=f"kept {table}: {reply.reason}")
        self.ran.append(table)
        return StopEvent(result=f"dropped {table}")


class Branch(Event):
    asks: dict[str, Any]


class Done(Event):
    name: str
    response: Any


class Parallel(Workflow):
    """Asks each of its start event's ``asks`` (name -> fields) in a step of its own, all waiting
    at once (each waiter's requirement is its ``name``); its result is ``{name: response}``.
    """

    @step
    async def fan_out(self, ctx: Context, ev: StartEvent) -> Branch | None:
        asks: dict[str, dict[str, Any]] = ev.get("asks")
        await ctx.store.set("count", len(asks))
        for name, fields in asks.items():
            ctx.send_event(Branch(asks={"name": name, **fields}))
        return None

    @step(num_workers=4)
    async def wait(self, ctx: Context, ev: Branch) -> Done:
        name = ev.asks["name"]
        reply = await ctx.wait_for_event(
            HumanResponseEvent, waiter_event=InputRequiredEvent(**ev.asks), requirements={"name": name}
        )
        return Done(name=name, response=reply.response)

    @step
    async def join(self, ctx: Context, ev: Done) -> StopEvent | None:
        count = await ctx.store.get("count")
        done = ctx.collect_events(ev, [Done] * count)
        if done is None:
            return None
        return StopEvent(result={d.name: d.response for d in done})


# -- a FunctionAgent whose tool waits for the person -------------------------------------------


def scripted_llm(calls: Sequence[tuple[str, dict[str, Any]]]) -> MockFunctionCallingLLM:
    """llama_index.core's MockFunctionCallingLLM replying with ``calls`` (parallel tool calls)
    first, then, once the tools answered, with what each tool returned, one per line.
    """

    def reply(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        del kwargs
        results = [m.content for m in messages if m.role == MessageRole.TOOL]
        if results:
            return ChatMessage(role="assistant", content="\n".join(str(r) for r in results))
        selections = [
            ToolSelection(tool_id=f"call_{i}", tool_name=name, tool_kwargs=args)
            for i, (name, args) in enumerate(calls, 1)
        ]
        return ChatMessage(role="assistant", content="", additional_kwargs={"tool_calls": selections})

    return MockFunctionCallingLLM(response_generator=reply)


def agent(calls: Sequence[tuple[str, dict[str, Any]]], ran: list[str], timeout: float | None = 60) -> FunctionAgent:
    """A FunctionAgent with ``drop_table`` (waits for the person's approval; runs only when
    approved) and ``ask_person`` (waits for a text answer), scripted to make ``calls``; its
    ``timeout`` ends a run that waits for an answer that never comes.
    """

    async def drop_table(ctx: Context, name: str) -> str:
        """Drop a warehouse table (irreversible)."""
        asked = InputRequiredEvent(action=f"Drop table {name}", details={"name": name}, risk="high", table=name)
        reply = await ctx.wait_for_event(
            HumanResponseEvent, waiter_id=f"drop-{name}", waiter_event=asked, requirements={"table": name}
        )
        if not reply.approved:
            return f"not dropped {name}: {reply.reason}"
        ran.append(name)
        return f"dropped {name}"

    async def ask_person(ctx: Context, question: str) -> str:
        """Ask the person a question and return their answer."""
        reply = await ctx.wait_for_event(
            HumanResponseEvent,
            waiter_id=question,
            waiter_event=InputRequiredEvent(prefix=question, asked=question),
            requirements={"asked": question},
        )
        return f"the person said {reply.response}"

    tools = [FunctionTool.from_defaults(async_fn=drop_table), FunctionTool.from_defaults(async_fn=ask_person)]
    return FunctionAgent(llm=scripted_llm(calls), tools=tools, streaming=False, timeout=timeout)
