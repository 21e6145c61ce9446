"""nbask.integrations.autogen inside AutoGen AgentChat's own agents and teams, offline: an
``AssistantAgent`` on a scripted ``ChatCompletionClient`` (autogen_scripted.py) asks a
``UserProxyAgent`` whose ``input_func`` is nbask's, hands off to the user under
``HandoffTermination`` (answered by ``run`` / ``run_sync``), or writes code that a
``CodeExecutorAgent`` runs only after nbask's ``approval_func``. Each test checks what the model
read next, and what the executor really ran (nothing when not approved).

Headless under the recommended policy and a scripted person; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, edit, reject, time_out

import nbask

pytest.importorskip("autogen_agentchat")
from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent, UserProxyAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import HandoffTermination, TextMentionTermination
from autogen_agentchat.messages import HandoffMessage, TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat

import nbask.integrations.autogen as nbask_autogen
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest

sys.path.insert(0, str(Path(__file__).parent))
from autogen_scripted import RecordingExecutor, ScriptedClient, handoff

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
NOT_APPROVED = "Code execution was not approved. Reason: "
CODE = "from pathlib import Path\nPath('out.txt').write_text('hi')\nprint('wrote out.txt')"
WROTE = "```python\n" + CODE + "\n```"


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def decline() -> Any:
    """Dismiss the form."""
    return lambda request: request.decide(None)


# -- UserProxyAgent(input_func=...) --------------------------------------------------------------


def ask_team(input_func: Any = nbask_autogen.input_func) -> tuple[ScriptedClient, Any]:
    """A round robin of an assistant that asks a question and a user proxy with nbask's input."""
    model = ScriptedClient("Which city should I check?", "Sunny in Paris. TERMINATE")
    team = RoundRobinGroupChat(
        [AssistantAgent("assistant", model_client=model), UserProxyAgent("user", input_func=input_func)],
        termination_condition=TextMentionTermination("TERMINATE"),
    )
    return model, team


def test_the_person_reads_the_last_message_and_the_model_reads_their_reply(person: Person):
    person.answers(submit(reply="Paris"))
    model, team = ask_team()
    result = asyncio.run(team.run(task="What is the weather?"))
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == "Which city should I check?"  # the message before the request, as text
    assert [(f.name, f.title, f.type, f.required) for f in asked.form.fields] == [
        ("reply", "Your reply to assistant", "string", False)
    ]
    assert asked.source == "assistant"  # who asks, named on its card when several share a batch
    assert model.texts()[-1] == "Paris"  # the model's next request ends with the person's reply
    replies = [m for m in result.messages if isinstance(m, TextMessage) and m.source == "user"]
    assert [m.content for m in replies] == ["What is the weather?", "Paris"]


def test_input_func_is_async_so_autogen_awaits_it_on_its_loop():
    assert inspect.iscoroutinefunction(nbask_autogen.input_func)
    assert inspect.iscoroutinefunction(nbask_autogen.input_func_with(timeout=5))
    assert inspect.iscoroutinefunction(nbask_autogen.approval_func)
    assert inspect.iscoroutinefunction(nbask_autogen.approval_func_with(timeout=5))


def test_a_blank_reply_is_sent_as_autogen_takes_it(person: Person):
    person.answers(submit())
    model, team = ask_team()
    asyncio.run(team.run(task="What is the weather?"))
    assert model.texts()[-1] == ""


def test_input_function_asks_with_its_time_limit(person: Person):
    person.answers(submit(reply="Lyon"))
    model, team = ask_team(nbask_autogen.input_func_with(timeout=7))
    asyncio.run(team.run(task="What is the weather?"))
    assert [request.timeout for request in person.asked] == [7]
    assert model.texts()[-1] == "Lyon"


@pytest.mark.parametrize("unanswered", [decline(), time_out(), "no one"], ids=["dismissed", "timeout", "no-one-to-ask"])
def test_an_unanswered_reply_is_empty_and_kept_in_the_history(person: Person, unanswered: Any):
    if unanswered == "no one":
        person.unavailable = NoOneCanAnswer("no front end here")
    else:
        person.answers(unanswered)
    model, team = ask_team()
    asyncio.run(team.run(task="What is the weather?"))
    assert model.texts()[-1] == ""
    outcome = nbask.history()[-1].outcome
    assert outcome.status != "answered"
    if unanswered == "no one":
        assert "No one could be asked: no front end here" in outcome.note


def test_recommended_policy_sends_an_empty_reply_and_the_history_says_no_one_replied():
    nbask.configure(policy="recommended")
    model, team = ask_team()
    asyncio.run(team.run(task="What is the weather?"))
    assert model.texts()[-1] == ""
    (entry,) = nbask.history()
    assert entry.outcome.answered_by == "policy"
    assert (entry.outcome.status, entry.outcome.action) == ("dismissed", "decline")  # not "answered", "accept"
    assert "no one was asked" in entry.outcome.note


def test_unattended_the_user_proxy_tutorial_ends_instead_of_looping():
    """AutoGen's UserProxyAgent tutorial: the team ends only when the user says APPROVE, which a
    policy never does; the second empty round stops the run with nbask's reason.
    """
    nbask.configure(policy="recommended")
    model = ScriptedClient("Here is a haiku about the sea.")  # the last reply repeats
    team = RoundRobinGroupChat(
        [AssistantAgent("assistant", model_client=model), UserProxyAgent("user", input_func=nbask_autogen.input_func)],
        termination_condition=TextMentionTermination("APPROVE"),
        max_turns=40,  # without the bound, the run would go on to here
    )
    with pytest.raises(Exception, match="nbask stopped this run: it asked again") as raised:
        asyncio.run(team.run(task="Write a haiku about the sea."))
    assert "AskedAgain" in str(raised.value) or isinstance(raised.value, nbask.AskedAgain)
    assert len(model.seen) == 2  # two rounds: answered once by the policy, stopped on the second
    assert [entry.outcome.answered_by for entry in nbask.history()] == ["policy"]


def test_without_messages_the_prompt_is_asked(person: Person):
    """Called outside a UserProxyAgent, input_func has only AutoGen's prompt to show."""
    person.answers(submit(reply="yes"))
    assert asyncio.run(nbask_autogen.input_func("Enter your response: ", None)) == "yes"
    assert person.asked[0].form.message == "Enter your response"


# -- CodeExecutorAgent(approval_func=...) -------------------------------------------------------


def run_code(tmp_path: Path, reply: str = WROTE, approval_func: Any = nbask_autogen.approval_func) -> Any:
    """A CodeExecutorAgent whose model writes ``reply`` once, then reflects on the result."""
    model, executor = ScriptedClient(reply, "Done."), RecordingExecutor(tmp_path)
    agent = CodeExecutorAgent("coder", code_executor=executor, model_client=model, approval_func=approval_func)
    asyncio.run(agent.run(task="Write out.txt"))
    return model, executor


def test_approved_code_is_what_runs(person: Person, tmp_path: Path):
    person.answers(approve())
    model, executor = run_code(tmp_path)
    (asked,) = person.approvals
    assert (asked.approval.action, asked.approval.details) == ("Run python code", CODE)  # the code, unfenced
    assert executor.ran == [("python", CODE + "\n")]
    assert (tmp_path / "out.txt").read_text() == "hi"
    assert model.texts()[-1] == "wrote out.txt\n"  # the reflection reads the real output


def test_an_edit_is_a_rejection_carrying_the_edited_code(person: Person, tmp_path: Path):
    edited = "print('only look')"
    person.answers(edit(edited, reason="do not write files"))
    model, executor = run_code(tmp_path)
    assert executor.ran == []  # AutoGen's ApprovalResponse cannot carry other code: nothing ran
    assert person.approvals[0].approval.edits == "sent_back"  # so the card says the edit went back
    assert not (tmp_path / "out.txt").exists()
    assert model.texts()[-1] == (
        NOT_APPROVED + "Not approved as written: the person edited the code, so Run python code did not run. "
        "To run their version, propose it exactly as edited (it will be asked again):\n\n"
        "```python\nprint('only look')\n```\n\nTheir note: do not write files"
    )


def test_a_rejection_never_runs_and_the_model_reads_the_reason(person: Person, tmp_path: Path):
    person.answers(reject("no files today"))
    model, executor = run_code(tmp_path)
    assert executor.ran == []
    assert model.texts()[-1] == (
        NOT_APPROVED + "Not approved: Run python code did not run. The person rejected it. "
        f"Reason: no files today. {DO_NOT_RETRY}"
    )


@pytest.mark.parametrize(
    ("decision", "shown"),
    [
        (reject("no files today"), "Run python code did not run: you rejected it. Your reason: no files today"),
        (edit("print(1)"), "Run python code did not run as written: your edited code went back to the model."),
    ],
)
def test_after_a_rejection_the_person_is_asked_in_words_for_them(
    person: Person, tmp_path: Path, decision: Any, shown: str
):
    """The executor's report of a rejection is the user proxy's question; the person reads what
    became of the code, not the instructions written for the model.
    """
    person.answers(decision, submit(reply="stop"))
    executor = RecordingExecutor(tmp_path)
    coder = CodeExecutorAgent("coder", code_executor=executor, approval_func=nbask_autogen.approval_func)
    team = RoundRobinGroupChat([coder, UserProxyAgent("user", input_func=nbask_autogen.input_func)], max_turns=2)
    asyncio.run(team.run(task=WROTE))
    form = person.asked[-1]
    assert isinstance(form, FormRequest)
    assert form.form.message == shown
    assert executor.ran == []


def test_recommended_policy_rejects_and_nothing_runs(tmp_path: Path):
    nbask.configure(policy="recommended")
    model, executor = run_code(tmp_path)
    assert executor.ran == []
    assert "It was rejected by policy, not by a person." in model.texts()[-1]
    assert nbask.history()[-1].outcome.answered_by == "policy"


def test_no_one_to_ask_is_autogens_refusal_with_nbasks_reason(person: Person, tmp_path: Path):
    person.unavailable = NoOneCanAnswer("no front end here")
    model, executor = run_code(tmp_path)
    assert executor.ran == []
    assert model.texts()[-1].startswith(NOT_APPROVED + "Not approved: Run python code did not run.")
    assert "No one could be asked: no front end here" in model.texts()[-1]
    assert nbask.history()[-1].outcome.decision == "reject"


def test_several_blocks_are_shown_in_their_fences_and_run_after_one_approval(person: Person, tmp_path: Path):
    person.answers(approve())
    reply = "```python\nprint(1)\n```\nthen\n```sh\necho two\n```"
    model, executor = run_code(tmp_path, reply, nbask_autogen.approval_func_with(timeout=9))
    (asked,) = person.approvals
    assert asked.approval.action == "Run code (python, sh)"
    assert asked.approval.details == "```python\nprint(1)\n\n```\n\n```sh\necho two\n\n```"  # ApprovalRequest.code
    assert asked.timeout == 9
    assert executor.ran == [("python", "print(1)\n"), ("sh", "echo two\n")]
    assert model.texts()[-1] == "1\ntwo\n"


# -- run(team, task): a handoff to the user, resumed with the reply ------------------------------


def handoff_team(question: str = "Which city do you mean?") -> tuple[ScriptedClient, Any]:
    """AutoGen's human-in-the-loop guide: an assistant that hands off to the user, stopped by
    HandoffTermination(target="user").
    """
    model = ScriptedClient(handoff(question), "Sunny in Paris. TERMINATE")
    assistant = AssistantAgent(
        "assistant", model_client=model, handoffs=[Handoff(target="user", message="Transfer to user.")]
    )
    stop = HandoffTermination(target="user") | TextMentionTermination("TERMINATE")
    return model, RoundRobinGroupChat([assistant], termination_condition=stop)


async def run_sync_in_a_running_loop(team: Any) -> Any:
    """run_sync called where an event loop is running (as in a notebook cell)."""
    return nbask_autogen.run_sync(team, "What is the weather?")


RUNS = {
    "run": lambda team: asyncio.run(nbask_autogen.run(team, "What is the weather?")),
    "run_sync": lambda team: nbask_autogen.run_sync(team, "What is the weather?"),
    "run_sync-in-a-loop": lambda team: asyncio.run(run_sync_in_a_running_loop(team)),
}


@pytest.mark.parametrize("style", RUNS)
def test_a_handoff_to_the_user_is_resumed_with_their_reply(person: Person, style: str):
    person.answers(submit(reply="Paris, France"))
    model, team = handoff_team()
    result = RUNS[style](team)
    (asked,) = person.asked
    assert asked.form.message == "Which city do you mean?"  # what the model said with the handoff
    assert asked.form.fields[0].title == "Your reply to assistant"
    handoffs = [(m.source, m.target, m.content) for m in result.messages if isinstance(m, HandoffMessage)]
    assert handoffs == [("assistant", "user", "Transfer to user."), ("user", "assistant", "Paris, France")]
    assert model.texts()[-1] == "Paris, France"  # the resumed model reads the reply
    assert result.messages[-1].content == "Sunny in Paris. TERMINATE"
    assert "TERMINATE" in (result.stop_reason or "")


@pytest.mark.parametrize("style", ["run", "run_sync"])
def test_unattended_the_run_ends_paused_at_the_handoff(style: str):
    """The recommended policy's empty default would make the model hand off again: not resumed."""
    nbask.configure(policy="recommended")
    model, team = handoff_team()
    result = RUNS[style](team)
    assert len(model.seen) == 1
    assert result.stop_reason == "Handoff to user from assistant detected."
    assert nbask_autogen.handoff_to(result) is not None
    assert nbask.history()[-1].outcome.answered_by == "policy"


def test_a_team_left_at_the_handoff_resumes_later_with_the_reply():
    nbask.configure(policy="recommended")
    model, team = handoff_team()

    async def both() -> Any:  # a team keeps to the event loop it first ran on
        await nbask_autogen.run(team, "What is the weather?")
        return await team.run(task=HandoffMessage(source="user", target="assistant", content="Paris"))

    later = asyncio.run(both())
    assert model.texts()[-1] == "Paris"
    assert later.messages[-1].content == "Sunny in Paris. TERMINATE"


def test_a_dismissed_reply_leaves_the_team_at_the_handoff(person: Person):
    person.answers(decline())
    model, team = handoff_team()
    result = asyncio.run(nbask_autogen.run(team, "What is the weather?"))
    assert len(model.seen) == 1
    assert nbask_autogen.handoff_to(result) is not None


def test_a_replay_resumes_with_the_recorded_reply_and_a_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(submit(reply="Paris"))
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        asyncio.run(nbask_autogen.run(handoff_team()[1], "What is the weather?"))
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    model, team = handoff_team()
    asyncio.run(nbask_autogen.run(team, "What is the weather?"))
    assert model.texts()[-1] == "Paris"
    assert nbask.history()[-1].answered_by == "replay"
    model, team = handoff_team("Which country?")
    with pytest.raises(nbask.ReplayMissing):
        asyncio.run(nbask_autogen.run(team, "What is the weather?"))
    assert len(model.seen) == 1  # not resumed


# -- a real kernel, answered through the widget ------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import FRAMEWORK_KERNELS, CellResult, CommInfo, KernelHarness, kernel_fixture  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"

SETUP = rf"""
import asyncio, json, sys, tempfile
from pathlib import Path
sys.path.insert(0, {str(Path(__file__).parent)!r})
import nbask
import nbask.integrations.autogen as nbask_autogen
from autogen_scripted import RecordingExecutor, ScriptedClient, handoff
from autogen_agentchat.agents import AssistantAgent, CodeExecutorAgent, UserProxyAgent
from autogen_agentchat.base import Handoff
from autogen_agentchat.conditions import HandoffTermination, TextMentionTermination
from autogen_agentchat.teams import RoundRobinGroupChat

CODE = {CODE!r}

def build():
    global model, executor, team
    model = ScriptedClient("```python\n" + CODE + "\n```", "Sunny. TERMINATE")
    executor = RecordingExecutor(Path(tempfile.mkdtemp()))
    team = RoundRobinGroupChat(
        [
            AssistantAgent("assistant", model_client=model),
            CodeExecutorAgent("coder", code_executor=executor, approval_func=nbask_autogen.approval_func),
            UserProxyAgent("user", input_func=nbask_autogen.input_func),
        ],
        termination_condition=TextMentionTermination("TERMINATE"),
    )

def report(result):
    print(json.dumps({{"ran": executor.ran, "read": model.texts(), "last": result.messages[-1].content}}))
"""

TEAM_CELL = "build()\nreport(await team.run(task='What is the weather?'))"

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


def next_widget(k: KernelHarness, kind: str, seen: set[str]) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == kind and comm.comm_id not in seen, timeout=30
    )


def printed(result: CellResult) -> dict[str, Any]:
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def approval_reply(action: str, edited: str | None = None, reason: str = "") -> dict[str, Any]:
    return {"action": action, "edited_details": edited, "reason": reason, "view_id": "t", "sent_at_ms": 0}


def form_reply(**values: Any) -> dict[str, Any]:
    return {"action": "submit", "values": values, "view_id": "t", "sent_at_ms": 0}


@pytest.mark.kernel
@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_in_a_kernel_the_reply_and_the_code_approval_go_through_the_widget(k: KernelHarness, decision: str):
    """The executor's code is an approval widget, then the user proxy's question (the executor's
    report) a form widget; the code runs only when approved, and the reply reaches the model.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(TEAM_CELL)
    code = next_widget(k, "approval", set())
    assert (code.state["_title"], code.state["_details"]) == ("Run python code", CODE)
    k.update_widget(code.comm_id, {"_response": approval_reply(decision, reason="not now")})
    form = next_widget(k, "form", set())
    # the person reads what became of the code, not the words written for the model
    said = (
        "wrote out.txt"
        if decision == "approve"
        else "Run python code did not run: you rejected it. Your reason: not now"
    )
    assert form.state["_message"] == said if decision == "reject" else form.state["_message"].startswith(said)
    k.update_widget(form.comm_id, {"_response": form_reply(reply="Paris")})
    out = printed(k.result(cell, 60))
    assert out["read"][-1] == "Paris"
    assert out["ran"] == ([["python", CODE + "\n"]] if decision == "approve" else [])
    assert out["last"] == "Sunny. TERMINATE"


@pytest.mark.kernel
@pytest.mark.parametrize("style", ["run", "run_sync"])
def test_in_a_kernel_a_handoff_is_answered_and_the_team_resumed(k: KernelHarness, style: str):
    k.drain(0.1)
    k.iopub_log.clear()
    call = "await nbask_autogen.run(t, 'Weather?')" if style == "run" else "nbask_autogen.run_sync(t, 'Weather?')"
    cell = k.execute(
        "m = ScriptedClient(handoff('Which city do you mean?'), 'Sunny. TERMINATE')\n"
        "a = AssistantAgent('assistant', model_client=m, handoffs=[Handoff(target='user', message='To user.')])\n"
        "t = RoundRobinGroupChat([a], termination_condition=HandoffTermination(target='user')"
        " | TextMentionTermination('TERMINATE'))\n"
        f"r = {call}\n"
        "print(json.dumps({'read': m.texts(), 'last': r.messages[-1].content}))"
    )
    form = next_widget(k, "form", set())
    assert form.state["_message"] == "Which city do you mean?"
    k.update_widget(form.comm_id, {"_response": form_reply(reply="Paris")})
    out = printed(k.result(cell, 60))
    assert out["read"][-1] == "Paris"
    assert out["last"] == "Sunny. TERMINATE"


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_stops_the_team(k: KernelHarness):
    """The approval waits in a task of AutoGen's runtime: the interrupt must end the team's run
    (not leave it waiting for an answer that never comes), and the code never ran.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(TEAM_CELL)
    code = next_widget(k, "approval", set())
    k.wait_until_waiting(code)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert nbask_autogen.INTERRUPTED in result.error_text
    after = k.run_ok(
        "print(json.dumps({'ran': executor.ran, 'running': team._is_running,"
        " 'status': nbask.history()[-1].outcome.status}))"
    )
    out = json.loads(after.stdout.strip().splitlines()[-1])
    assert out == {"ran": [], "running": False, "status": "cancelled"}
