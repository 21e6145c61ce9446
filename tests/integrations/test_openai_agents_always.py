"""The OpenAI Agents SDK's "always in this run", offline: the SDK's ``Runner`` and its own scripted
model (``agents.testing.ScriptedModel``), nbask's scripted person in place of the widget.

- Always reject: a gated tool called once per turn; the person rejects the first call (one
  click), rejects the second and is asked "Always reject <tool> in this run?"; "Always in this
  run" is the SDK's ``always_reject``: the SDK rejects the third call itself, with nbask's text,
  without asking. Through ``run``, a ``resolve`` / ``resolve_sync`` loop and ``run_streamed``.
  Just this once, a dismiss or a time-out of that question asks again on the next call; a policy,
  a dismissal of the approval or an edit sent back never offers it; the run's
  ``tool_error_formatter`` is given nbask's text for the SDK's own rejections too; a replay
  replays the question as recorded.
- One batch with both: a call decided just once keeps its decision beside another call's
  "always" (the SDK's always resets the tool's per-call decisions, so nbask records it first).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from support.person import Person, approve, dismiss, edit, pick, reject, time_out

import nbask

agents = pytest.importorskip("agents")
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

from nbask.integrations import openai_agents  # noqa: E402
from nbask.integrations.openai_agents import ALWAYS, JUST_ONCE  # noqa: E402

agents.set_tracing_disabled(disabled=True)

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
ALWAYS_REJECT = "Always reject drop_table in this run?"
ALWAYS_ALLOW = "Always allow drop_table in this run?"
TABLES = ["events_2023", "events_2022", "events_2021"]


def rejected(reason: str) -> str:
    return f"Not approved: Call drop_table did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


def rejected_for_the_run(reason: str) -> str:
    return f"{rejected(reason)} The person rejected every call of drop_table for the rest of this run."


def outputs(model: ScriptedModel) -> dict[str, Any]:
    """call_id -> the tool output the model read, over every model call of the run."""
    return {
        item["call_id"]: item["output"]
        for call in model.calls
        for item in call.input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    }


def janitor(turns: list[list[Any]]) -> tuple[Any, ScriptedModel, list[str]]:
    """An agent whose gated drop_table records the tables it dropped; its model plays ``turns``."""
    ran: list[str] = []

    @agents.function_tool(needs_approval=True)
    async def drop_table(name: str) -> str:
        """Drop a warehouse table (irreversible).

        Args:
            name: The table to drop.

        """
        ran.append(name)
        return f"dropped {name}"

    model = ScriptedModel([*turns, [assistant_message("done")]])
    return agents.Agent(name="janitor", model=model, tools=[drop_table]), model, ran


def one_per_turn(tables: list[str] = TABLES) -> list[list[Any]]:
    return [[function_call("drop_table", {"name": t}, call_id=f"d{n}")] for n, t in enumerate(tables, 1)]


def run_how(agent: Any, how: str, **kwargs: Any) -> None:
    """Run ``agent`` to its end through nbask ``how``."""
    task = "Drop the old event tables."

    async def resolve_loop() -> None:  # the SDK examples' own loop, nbask deciding
        result = await agents.Runner.run(agent, task, **kwargs)
        while result.interruptions:
            result = await agents.Runner.run(agent, await openai_agents.resolve(result, **kwargs), **kwargs)

    async def streamed() -> None:
        async for _ in openai_agents.run_streamed(agent, task, **kwargs).stream_events():
            pass

    if how == "resolve_sync":
        result = agents.Runner.run_sync(agent, task, **kwargs)
        while result.interruptions:
            result = agents.Runner.run_sync(agent, openai_agents.resolve_sync(result, **kwargs), **kwargs)
        return
    runs = {"run": lambda: openai_agents.run(agent, task, **kwargs), "resolve": resolve_loop, "streamed": streamed}
    asyncio.run(runs[how]())


def tables_asked(person: Person) -> list[str]:
    return [json.loads(asked.approval.details)["name"] for asked in person.approvals]


@pytest.mark.parametrize("how", ["run", "resolve", "resolve_sync", "streamed"])
def test_always_reject_on_the_second_rejection_rejects_the_tools_later_calls_unasked(person: Person, how: str):
    person.answers(reject("keep it"), reject("keep them all"), pick(ALWAYS))
    agent, model, ran = janitor(one_per_turn())
    run_how(agent, how)
    assert ran == []
    # the first rejection was one click; the third call was rejected by the SDK's always_reject
    assert tables_asked(person) == TABLES[:2]
    (question,) = person.questions
    assert question["questions"][0]["question"] == ALWAYS_REJECT
    assert [o["label"] for o in question["questions"][0]["options"]] == [JUST_ONCE, ALWAYS]
    assert [type(r).__name__ for r in person.asked] == ["ApprovalRequest", "ApprovalRequest", "QuestionRequest"]
    assert outputs(model) == {
        "d1": rejected("keep it"),
        "d2": rejected_for_the_run("keep them all"),
        "d3": rejected_for_the_run("keep them all"),
    }
    model.assert_complete()


@pytest.mark.parametrize("answer", [pick(JUST_ONCE), dismiss(), time_out()], ids=["just-once", "dismiss", "timeout"])
def test_always_reject_without_an_explicit_always_asks_again(person: Person, answer: Any):
    person.answers(reject("no"), reject("no"), answer, reject("no"), pick(JUST_ONCE))
    agent, model, ran = janitor(one_per_turn())
    run_how(agent, "run")
    assert ran == []
    assert tables_asked(person) == TABLES
    assert [q["questions"][0]["question"] for q in person.questions] == [ALWAYS_REJECT] * 2
    assert set(outputs(model).values()) == {rejected("no")}


@pytest.mark.parametrize(
    "first",
    [dismiss(), edit({"name": "events_2019"}), time_out()],
    ids=["dismissed", "edit-sent-back", "timeout"],
)
def test_only_the_persons_own_rejection_counts_toward_always_reject(person: Person, first: Any):
    """A dismissal, a time-out or an edit sent back before a rejection: the rejection is the
    person's first, so it is one click; the next rejection asks.
    """
    person.answers(first, reject("no"), reject("no"), pick(JUST_ONCE))
    agent, _, ran = janitor(one_per_turn())
    run_how(agent, "run")
    assert ran == []
    assert len(person.approvals) == 3
    assert [q["questions"][0]["question"] for q in person.questions] == [ALWAYS_REJECT]


@pytest.mark.parametrize("policy", ["recommended", "dismiss", "error"])
def test_a_policy_never_offers_always_reject(policy: str):
    nbask.configure(policy=policy)
    agent, model, ran = janitor(one_per_turn())
    run_how(agent, "run")
    assert ran == []
    assert [entry.kind for entry in nbask.history()] == ["approval"] * 3
    model.assert_complete()


def test_the_formatter_is_given_nbasks_text_for_the_sdks_own_rejections(person: Person):
    seen: list[tuple[str, str]] = []

    def formatter(args: Any) -> str | None:
        seen.append((args.call_id, args.default_message))
        return None  # keep nbask's text

    person.answers(reject("no"), reject("never"), pick(ALWAYS))
    agent, model, _ = janitor(one_per_turn())
    run_how(agent, "run", run_config=agents.RunConfig(tool_error_formatter=formatter))
    assert len(person.approvals) == 2
    never = rejected_for_the_run("never")
    assert seen == [("d1", rejected("no")), ("d2", never), ("d3", never)]
    assert outputs(model)["d3"] == rejected_for_the_run("never")


def test_a_replay_replays_always_reject_as_recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Any):
    scripted = Person().answers(reject("keep it"), reject("keep them"), pick(ALWAYS))
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: scripted)
    agent, recorded, _ = janitor(one_per_turn())
    run_how(agent, "run")
    recording = nbask.save_history(tmp_path / "answers.jsonl")
    monkeypatch.undo()  # from here on the replay policy answers
    nbask.configure(policy="replay", replay_file=recording)
    agent, model, ran = janitor(one_per_turn())
    run_how(agent, "run")
    assert ran == []
    assert outputs(model) == outputs(recorded)
    replayed = nbask.history()[3:]
    assert [(entry.kind, entry.answered_by) for entry in replayed] == [
        ("approval", "replay"),
        ("approval", "replay"),
        ("question", "replay"),
    ]
    model.assert_complete()


def test_a_recording_without_the_always_question_is_a_replay_miss(monkeypatch: pytest.MonkeyPatch, tmp_path: Any):
    """Two rejections by the person recorded with no "always" question after them (a different
    run): the replay asks it, the recording lacks it, and the run stops.
    """
    scripted = Person().answers(reject("no"), reject("no"))
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: scripted)
    for table in TABLES[:2]:
        agent, _, _ = janitor(one_per_turn([table]))
        run_how(agent, "run")
    recording = nbask.save_history(tmp_path / "answers.jsonl")
    monkeypatch.undo()
    nbask.configure(policy="replay", replay_file=recording)
    agent, _, ran = janitor(one_per_turn(TABLES[:2]))
    with pytest.raises(nbask.ReplayMissing):
        run_how(agent, "run")
    assert ran == []


# -- one batch ---------------------------------------------------------------------------------


def parallel(tables: list[str], start: int = 1) -> list[Any]:
    return [function_call("drop_table", {"name": t}, call_id=f"p{n}") for n, t in enumerate(tables, start)]


@pytest.mark.parametrize("how", ["run", "resolve"])
def test_a_call_rejected_once_stays_rejected_beside_always_allow_in_its_batch(person: Person, how: str):
    """Approve t1, reject t2, approve t3 and choose "always": t2 does not run (the SDK's
    always_approve, recorded after it, would have cleared its rejection).
    """
    person.answers(approve(), reject("keep t2"), approve(), pick(ALWAYS))
    agent, model, ran = janitor([parallel(["t1", "t2", "t3"]), parallel(["t4"], start=4)])
    run_how(agent, how)
    assert sorted(ran) == ["t1", "t3", "t4"]
    assert [q["questions"][0]["question"] for q in person.questions] == [ALWAYS_ALLOW]
    assert outputs(model)["p2"] == rejected("keep t2")
    assert len(person.approvals) == 3  # t4 approved by always_approve


@pytest.mark.parametrize("how", ["run", "resolve"])
def test_a_call_approved_once_runs_beside_always_reject_in_its_batch(person: Person, how: str):
    person.answers(reject("no"), approve(), reject("no"), pick(ALWAYS))
    agent, model, ran = janitor([parallel(["t1", "t2", "t3"]), parallel(["t4"], start=4)])
    run_how(agent, how)
    assert ran == ["t2"]
    # asked after the second rejection; the approval between them was the tool's first
    assert [q["questions"][0]["question"] for q in person.questions] == [ALWAYS_REJECT]
    assert len(person.approvals) == 3  # t4 rejected by always_reject
    assert outputs(model)["p4"] == rejected_for_the_run("no")


def test_a_batch_asks_always_reject_once_per_tool(person: Person):
    person.answers(reject("no"), reject("no"), reject("no"), pick(JUST_ONCE))
    agent, _, ran = janitor([parallel(["t1", "t2", "t3"])])
    run_how(agent, "run")
    assert ran == []
    assert [q["questions"][0]["question"] for q in person.questions] == [ALWAYS_REJECT]
