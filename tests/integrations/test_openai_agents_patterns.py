"""The OpenAI Agents SDK's own human-in-the-loop examples with nbask's one line, offline: the
SDK's ``Runner`` and its own scripted model (``agents.testing.ScriptedModel``, which records
every model call's input and streams when the run is streamed), nbask's scripted person in
place of the widget.

- examples/agent_patterns/human_in_the_loop.py: a dynamic ``needs_approval`` tool next to an
  ungated one; only the gated call is asked about.
- examples/agent_patterns/human_in_the_loop_stream.py: the same through ``Runner.run_streamed``,
  the events of both streamed runs yielded, the approval answered between them.
- examples/tools/shell_human_in_the_loop.py: a ``ShellTool(needs_approval=True)`` called three
  times: the first approval is one click; the second asks "always" -> the SDK's
  ``always_approve`` (the third call is not asked about), through ``run`` and a ``resolve`` /
  ``resolve_sync`` loop (the SDK's record of the earlier approval); a dismiss or a time-out of
  that question never chooses "always". ``run_streamed`` alike, across three streamed runs.
- examples/agent_patterns/human_in_the_loop_custom_rejection.py: the run's
  ``tool_error_formatter`` and a per-call ``rejection_message`` reach the model.
- no one to ask (the ``error`` policy) is a rejection in ``nbask.history()``; a replay miss
  raises; a recording of approvals only (no "always" question) replays to the end.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from support.person import Person, approve, dismiss, pick, reject, time_out

import nbask

agents = pytest.importorskip("agents")
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402
from openai.types.responses.response_output_item import McpApprovalRequest  # noqa: E402

from nbask.integrations import openai_agents  # noqa: E402
from nbask.integrations.openai_agents import ALWAYS, JUST_ONCE  # noqa: E402

agents.set_tracing_disabled(disabled=True)

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."


def rejected(reason: str, tool: str) -> str:
    """The text nbask gives for the person's rejection of a call of ``tool`` with ``reason``."""
    return f"Not approved: Call {tool} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


def outputs(call: Any) -> dict[str, Any]:
    """call_id -> the tool output the model read in this call's input."""
    return {
        item["call_id"]: item["output"]
        for item in call.input
        if isinstance(item, dict) and str(item.get("type", "")).endswith("_call_output")
    }


# -- examples/agent_patterns/human_in_the_loop.py ------------------------------------------------


@agents.function_tool
async def get_weather(city: str) -> str:
    """Get the weather for a given city.

    Args:
        city: The city to get weather for.

    """
    return f"The weather in {city} is sunny"


async def _needs_temperature_approval(_ctx: Any, params: dict[str, Any], _call_id: str) -> bool:
    return "Oakland" in params.get("city", "")


@agents.function_tool(needs_approval=_needs_temperature_approval)
async def get_temperature(city: str) -> str:
    """Get the temperature for a given city.

    Args:
        city: The city to get temperature for.

    """
    return f"The temperature in {city} is 20° Celsius"


def weather_model() -> ScriptedModel:
    """Calls both tools for Oakland at once, then answers."""
    return ScriptedModel(
        [
            [
                function_call("get_weather", {"city": "Oakland"}, call_id="w1"),
                function_call("get_temperature", {"city": "Oakland"}, call_id="t1"),
            ],
            [assistant_message("Sunny and 20° in Oakland.")],
        ]
    )


def weather_agent(model: ScriptedModel) -> Any:
    return agents.Agent(name="Weather Assistant", model=model, tools=[get_weather, get_temperature])


def test_human_in_the_loop_example_asks_only_about_the_gated_call(person: Person):
    person.answers(approve())
    model = weather_model()
    result = asyncio.run(openai_agents.run(weather_agent(model), "What is the weather and temperature in Oakland?"))
    (asked,) = person.approvals
    assert asked.approval.action == f"Call get_temperature {openai_agents.EDIT_NOTICE}"
    assert json.loads(asked.approval.details) == {"city": "Oakland"}
    assert outputs(model.calls[1]) == {
        "w1": "The weather in Oakland is sunny",
        "t1": "The temperature in Oakland is 20° Celsius",
    }
    assert result.final_output == "Sunny and 20° in Oakland."
    model.assert_complete()
    assert person.questions == [], "one approval asks exactly one thing"
    assert person.asked == [asked]


def test_human_in_the_loop_example_rejected(person: Person):
    person.answers(reject("no temperatures today"))
    model = weather_model()
    asyncio.run(openai_agents.run(weather_agent(model), "What is the weather and temperature in Oakland?"))
    assert outputs(model.calls[1]) == {
        "w1": "The weather in Oakland is sunny",
        "t1": rejected("no temperatures today", "get_temperature"),
    }


# -- examples/agent_patterns/human_in_the_loop_stream.py -------------------------------------------


def test_human_in_the_loop_stream_example(person: Person):
    person.answers(approve())
    model = weather_model()

    async def main() -> tuple[list[tuple[int, Any]], Any]:
        streamed = openai_agents.run_streamed(weather_agent(model), "What is the weather and temperature in Oakland?")
        runs: list[Any] = []
        events: list[tuple[int, Any]] = []
        async for event in streamed.stream_events():
            if not runs or runs[-1] is not streamed.result:
                runs.append(streamed.result)
            events.append((len(runs), event))
        return events, streamed

    events, streamed = asyncio.run(main())
    assert [call.streamed for call in model.calls] == [True, True]
    assert len(person.approvals) == 1
    items = [(run, event.name, event.item) for run, event in events if event.type == "run_item_stream_event"]
    # the first streamed run: both calls made; the second (after the approval): the gated call's output
    assert [(run, name) for run, name, _ in items if name == "tool_called"] == [(1, "tool_called")] * 2
    outputs_by_run = [(run, item.output) for run, name, item in items if name == "tool_output"]
    assert (2, "The temperature in Oakland is 20° Celsius") in outputs_by_run
    assert {run for run, _ in events} == {1, 2}
    assert streamed.final_output == "Sunny and 20° in Oakland."
    assert not streamed.result.interruptions


# -- examples/tools/shell_human_in_the_loop.py -----------------------------------------------------


def shell_call(call_id: str, *commands: str) -> dict[str, Any]:
    """A shell_call as the model makes it (the SDK's own tests build them alike)."""
    action = {"type": "exec", "commands": list(commands), "timeout_ms": 1000}
    return {"type": "shell_call", "id": call_id, "call_id": call_id, "status": "in_progress", "action": action}


def shell_run(how: str = "run") -> tuple[ScriptedModel, list[list[str]]]:
    """Three shell calls in three turns, answered ``how``; return the model and the commands that ran."""
    ran: list[list[str]] = []

    def executor(request: Any) -> str:
        ran.append(list(request.data.action.commands))
        return "ok"

    turns = [[shell_call("s1", "ls")], [shell_call("s2", "pwd")], [shell_call("s3", "whoami")]]
    model = ScriptedModel([*turns, [assistant_message("listed")]])
    tool = agents.ShellTool(executor=executor, needs_approval=True)
    agent = agents.Agent(name="Shell HITL Assistant", model=model, tools=[tool])
    task = "List the files, show the working directory and who I am."

    async def resolve_loop() -> None:  # the example's own loop, nbask deciding
        result = await agents.Runner.run(agent, task)
        while result.interruptions:
            result = await agents.Runner.run(agent, await openai_agents.resolve(result))

    def resolve_sync_loop() -> None:
        result = agents.Runner.run_sync(agent, task)
        while result.interruptions:
            result = agents.Runner.run_sync(agent, openai_agents.resolve_sync(result))

    if how == "resolve_sync":
        resolve_sync_loop()
    else:
        asyncio.run(openai_agents.run(agent, task) if how == "run" else resolve_loop())
    return model, ran


def commands(person: Person) -> list[list[str]]:
    """The commands of each shell call the person was asked to approve."""
    return [json.loads(a.approval.details)["action"]["commands"] for a in person.approvals]


@pytest.mark.parametrize("how", ["run", "resolve", "resolve_sync"])
def test_shell_always_on_the_second_approval_stops_asking_for_the_run(person: Person, how: str):
    person.answers(approve(), approve(), pick(ALWAYS))
    model, ran = shell_run(how)
    assert ran == [["ls"], ["pwd"], ["whoami"]]
    # the first approval was one click; the third call was approved by the SDK's always_approve
    assert commands(person) == [["ls"], ["pwd"]]
    (question,) = person.questions
    assert question["questions"][0]["question"] == "Always allow shell in this run?"
    assert [o["label"] for o in question["questions"][0]["options"]] == [JUST_ONCE, ALWAYS]
    assert [type(r).__name__ for r in person.asked] == ["ApprovalRequest", "ApprovalRequest", "QuestionRequest"]
    model.assert_complete()


def test_streamed_always_on_the_second_approval_across_streamed_runs(person: Person):
    person.answers(approve(), approve(), pick(ALWAYS))
    cities = ["Oakland", "Oakland Hills", "Oakland Bay"]
    turns = [[function_call("get_temperature", {"city": c}, call_id=f"t{n}")] for n, c in enumerate(cities, 1)]
    model = ScriptedModel([*turns, [assistant_message("done")]])

    async def main() -> Any:
        streamed = openai_agents.run_streamed(weather_agent(model), "Temperatures, one at a time?")
        async for _ in streamed.stream_events():
            pass
        return streamed

    streamed = asyncio.run(main())
    assert [call.streamed for call in model.calls] == [True] * 4
    assert [json.loads(a.approval.details) for a in person.approvals] == [{"city": c} for c in cities[:2]]
    assert len(person.questions) == 1
    assert outputs(model.calls[3])["t3"] == "The temperature in Oakland Bay is 20° Celsius"
    assert streamed.final_output == "done"


@pytest.mark.parametrize("answer", [pick(JUST_ONCE), dismiss(), time_out()], ids=["just-once", "dismiss", "timeout"])
def test_shell_without_an_explicit_always_asks_again(person: Person, answer: Any):
    person.answers(approve(), approve(), answer, approve(), pick(JUST_ONCE))
    _, ran = shell_run()
    assert ran == [["ls"], ["pwd"], ["whoami"]]
    assert commands(person) == [["ls"], ["pwd"], ["whoami"]]
    assert len(person.questions) == 2  # after the second and the third approval


def test_a_rejected_call_never_offers_always(person: Person):
    """Reject the first call, approve the second: neither asks "always"; the third is asked again."""
    person.answers(reject("not ls"), approve(), approve(), pick(ALWAYS))
    _, ran = shell_run()
    assert ran == [["pwd"], ["whoami"]]
    assert commands(person) == [["ls"], ["pwd"], ["whoami"]]
    assert len(person.questions) == 1  # only after whoami, the second approval


@pytest.mark.parametrize("how", ["run", "resolve"])
def test_always_in_one_batch_approves_the_same_tools_other_calls(person: Person, how: str):
    """Three parallel calls of one gated tool, shown together: the person approves each, and
    "always" is asked once, after the second call's approval.
    """
    person.answers(approve(), approve(), approve(), pick(ALWAYS))
    cities = ["Oakland", "Oakland Hills", "Oakland Bay"]
    calls = [function_call("get_temperature", {"city": c}, call_id=f"t{n}") for n, c in enumerate(cities, 1)]
    model = ScriptedModel([calls, [assistant_message("done")]])
    agent = weather_agent(model)

    async def resolve_once() -> None:
        result = await agents.Runner.run(agent, "Temperatures?")
        await agents.Runner.run(agent, await openai_agents.resolve(result))

    asyncio.run(openai_agents.run(agent, "Temperatures?") if how == "run" else resolve_once())
    assert [json.loads(a.approval.details) for a in person.approvals] == [{"city": c} for c in cities]
    assert len(person.questions) == 1
    assert outputs(model.calls[1]) == {
        f"t{n}": f"The temperature in {c} is 20° Celsius" for n, c in enumerate(cities, 1)
    }
    # The three approvals waited together: one batch in the history.
    batches = [entry.outcome.batch_id for entry in nbask.history() if entry.kind == "approval"]
    assert len(batches) == 3
    assert batches[0] is not None
    assert len(set(batches)) == 1


# -- examples/agent_patterns/human_in_the_loop_custom_rejection.py --------------------------------

FORMATTED = "Publish action was canceled because approval was rejected."
PER_CALL = "Publish action was canceled because the reviewer denied approval."


@agents.function_tool(needs_approval=True)
async def publish_announcement(title: str, body: str) -> str:
    """Simulate publishing an announcement to users."""
    return f"Published announcement '{title}' with body: {body}"


def publish_model() -> ScriptedModel:
    call = function_call("publish_announcement", {"title": "Office maintenance", "body": "6 PM"}, call_id="p1")
    return ScriptedModel([[call], [assistant_message("done")]])


def publish(model: ScriptedModel, formatter: Any = None, **kwargs: Any) -> None:
    agent = agents.Agent(name="Operations Assistant", model=model, tools=[publish_announcement])
    run_config = agents.RunConfig(tool_error_formatter=formatter) if formatter is not None else None
    asyncio.run(openai_agents.run(agent, "Publish it.", run_config=run_config, **kwargs))


def test_the_runs_tool_error_formatter_shapes_the_rejection(person: Person):
    seen: list[Any] = []

    async def formatter(args: Any) -> str | None:
        seen.append(args)
        return FORMATTED if args.kind == "approval_rejected" else None

    person.answers(reject("not before the holidays"))
    model = publish_model()
    publish(model, formatter)
    assert outputs(model.calls[1]) == {"p1": FORMATTED}
    (args,) = seen
    assert (args.kind, args.tool_name, args.call_id) == ("approval_rejected", "publish_announcement", "p1")
    # the formatter is given nbask's text (who rejected it and why) as the default message
    assert args.default_message == rejected("not before the holidays", "publish_announcement")


def test_a_formatter_returning_none_keeps_nbasks_text(person: Person):
    person.answers(reject("not before the holidays"))
    model = publish_model()
    publish(model, lambda args: None)
    assert outputs(model.calls[1]) == {"p1": rejected("not before the holidays", "publish_announcement")}


def test_a_per_call_rejection_message_overrides_the_formatter(person: Person):
    person.answers(reject("no"))
    model = publish_model()
    publish(model, lambda args: FORMATTED, rejection_message=PER_CALL)
    assert outputs(model.calls[1]) == {"p1": PER_CALL}


def test_a_rejection_message_function_is_given_the_decision(person: Person):
    person.answers(reject("wait for legal"))
    model = publish_model()
    publish(model, rejection_message=lambda item, decision: f"{item.name} held: {decision.reason}")
    assert outputs(model.calls[1]) == {"p1": "publish_announcement held: wait for legal"}


def test_resolve_with_the_run_config_leaves_the_rejection_to_its_formatter(person: Person):
    """The example's own loop, with resolve in place of its prompt: the formatter still speaks."""
    person.answers(reject("no"))
    model = publish_model()
    agent = agents.Agent(name="Operations Assistant", model=model, tools=[publish_announcement])
    run_config = agents.RunConfig(tool_error_formatter=lambda args: FORMATTED)

    async def main() -> Any:
        result = await agents.Runner.run(agent, "Publish it.", run_config=run_config)
        while result.interruptions:
            state = await openai_agents.resolve(result, run_config=run_config)
            result = await agents.Runner.run(agent, state, run_config=run_config)
        return result

    asyncio.run(main())
    assert outputs(model.calls[1]) == {"p1": FORMATTED}


def test_resolve_sync_in_a_run_sync_loop(person: Person):
    person.answers(reject("no"))
    model = publish_model()
    agent = agents.Agent(name="Operations Assistant", model=model, tools=[publish_announcement])
    result = agents.Runner.run_sync(agent, "Publish it.")
    state = openai_agents.resolve_sync(result, timeout=7, rejection_message=PER_CALL)
    agents.Runner.run_sync(agent, state)
    assert outputs(model.calls[1]) == {"p1": PER_CALL}
    assert person.approvals[0].timeout == 7


# -- no one to ask, and replay --------------------------------------------------------------------


def test_the_error_policy_is_a_rejection_in_the_history():
    nbask.configure(policy="error")
    model = publish_model()
    publish(model)
    (text,) = outputs(model.calls[1]).values()
    assert text.startswith(
        "Not approved: Call publish_announcement did not run. It was rejected by policy, not by a person. "
        "Reason: No one could be asked:"
    )
    (entry,) = nbask.history()
    assert (entry.kind, entry.answered_by, entry.outcome.decision) == ("approval", "policy", "reject")


def test_a_replay_miss_raises(monkeypatch: pytest.MonkeyPatch, tmp_path: Any):
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Person().answers(reject("no")))
    publish(publish_model())  # recorded: one rejection
    recording = nbask.save_history(tmp_path / "answers.jsonl")
    monkeypatch.undo()  # from here on the replay policy answers
    nbask.configure(policy="replay", replay_file=recording)
    model = publish_model()
    publish(model)  # the recorded call is replayed as it was
    assert outputs(model.calls[1]) == {"p1": rejected("no", "publish_announcement")}
    model = weather_model()  # asks about another call, which the recording lacks
    with pytest.raises(nbask.ReplayMissing):
        asyncio.run(openai_agents.run(weather_agent(model), "Weather?"))


def test_a_recording_of_approvals_only_replays_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Any):
    """A run answered with approvals only, as recorded before any "always" question: it replays."""
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Person().answers(approve()))
    publish(publish_model())
    asyncio.run(openai_agents.run(weather_agent(weather_model()), "What is the weather and temperature in Oakland?"))
    recording = nbask.save_history(tmp_path / "answers.jsonl")
    assert [entry.kind for entry in nbask.history()] == ["approval", "approval"]
    monkeypatch.undo()
    nbask.configure(policy="replay", replay_file=recording)
    model = publish_model()
    publish(model)
    assert outputs(model.calls[1]) == {"p1": "Published announcement 'Office maintenance' with body: 6 PM"}
    model = weather_model()
    result = asyncio.run(openai_agents.run(weather_agent(model), "What is the weather and temperature in Oakland?"))
    assert result.final_output == "Sunny and 20° in Oakland."
    model.assert_complete()
    replayed = nbask.history()[2:]
    assert [(e.kind, e.answered_by, e.outcome.decision) for e in replayed] == [("approval", "replay", "approve")] * 2


@pytest.mark.parametrize("how", ["run", "resolve"])
def test_hosted_mcp_always_approve(person: Person, how: str):
    """A hosted MCP tool with require_approval: "always" on its second approval holds for the third request."""

    def request(number: int) -> McpApprovalRequest:
        return McpApprovalRequest(
            id=f"mcpr_{number}", arguments="{}", name="deploy", server_label="ops", type="mcp_approval_request"
        )

    person.answers(approve(), approve(), pick(ALWAYS))
    model = ScriptedModel([[request(1)], [request(2)], [request(3)], [assistant_message("done")]])
    config = {"type": "mcp", "server_label": "ops", "server_url": "https://ops.example", "require_approval": "always"}
    agent = agents.Agent(name="ops", model=model, tools=[agents.HostedMCPTool(tool_config=config)])

    async def resolve_loop() -> None:
        result = await agents.Runner.run(agent, "Deploy three times.")
        while result.interruptions:
            result = await agents.Runner.run(agent, await openai_agents.resolve(result))

    asyncio.run(openai_agents.run(agent, "Deploy three times.") if how == "run" else resolve_loop())
    assert len(person.approvals) == 2
    assert len(person.questions) == 1
    responses = [i for i in model.calls[3].input if isinstance(i, dict) and i.get("type") == "mcp_approval_response"]
    assert [(r["approval_request_id"], r["approve"]) for r in responses] == [(f"mcpr_{n}", True) for n in (1, 2, 3)]
