"""nbask.integrations.smolagents inside smolagents' own agents, offline: a ``ToolCallingAgent``
(or a ``CodeAgent``) driven by a scripted smolagents ``Model`` (tests/integrations/
smolagents_scripted.py) calls ``user_input`` (nbask's ``UserInputTool``) or a tool put behind an
approval by ``approving``. Each test checks what the tool really ran with (or that it never ran)
and what the model read back as the observation.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, edit, reject, through_the_kernels_check

import nbask

pytest.importorskip("smolagents")
from smolagents import CodeAgent, Tool, ToolCallingAgent

from integrations.smolagents_scripted import ScriptedCodeModel, ScriptedModel, Turn
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest
from nbask.replies import ApprovalResponse

nbask_smolagents = importlib.import_module("nbask.integrations.smolagents")

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)


def rejected(name: str, reason: str) -> str:
    return f"Not approved: Call {name} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


class DropTable(Tool):
    name = "drop_table"
    description = "Drop a warehouse table (irreversible)."
    inputs = {  # noqa: RUF012 - smolagents' class attribute
        "name": {"type": "string", "description": "The table to drop."},
        "keep_days": {"type": "integer", "description": "Days of backup to keep.", "nullable": True},
    }
    output_type = "string"

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[dict[str, Any]] = []

    def forward(self, name: str, keep_days: int | None = None) -> str:
        self.ran.append({"name": name, **({"keep_days": keep_days} if keep_days is not None else {})})
        return f"dropped {name}"


DROP = ("drop_table", {"name": "events_2023"})


def agent_for(turns: list[Turn], *, max_steps: int = 6) -> tuple[ToolCallingAgent, ScriptedModel, DropTable]:
    model = ScriptedModel([*turns, "done"])
    drop = DropTable()
    tools = nbask_smolagents.approving([drop, nbask_smolagents.UserInputTool()], tools=["drop_table"])
    return ToolCallingAgent(tools=tools, model=model, verbosity_level=0, max_steps=max_steps), model, drop


# -- a scripted person: approvals --------------------------------------------------------------------

CASES = [
    pytest.param(approve(), [{"name": "events_2023"}], "dropped events_2023", id="approve"),
    pytest.param(
        edit({"name": "events_2022", "keep_days": 7}),
        [{"name": "events_2022", "keep_days": 7}],
        "dropped events_2022",
        id="edit",
    ),
    pytest.param(reject("keep it for the audit"), [], rejected("drop_table", "keep it for the audit"), id="reject"),
]


@pytest.mark.parametrize(("decide", "ran", "seen"), CASES)
def test_person_decides_a_call(person: Person, decide: Any, ran: list[Any], seen: str):
    person.answers(decide)
    agent, model, drop = agent_for([[DROP]])
    assert agent.run("Clean up.") == "done"
    assert drop.ran == ran  # what the tool really received; nothing when rejected
    assert model.seen == [seen]  # what the model read back
    (asked,) = person.approvals
    assert (asked.approval.action, asked.tool_call_id) == ("Call drop_table", "call_1_1")
    assert json.loads(asked.approval.details) == {"name": "events_2023"}
    assert asked.approval.details_schema == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The table to drop."},
            "keep_days": {"type": ["integer", "null"], "description": "Days of backup to keep."},
        },
        "required": ["name"],
        "additionalProperties": False,
    }
    assert nbask.history()[-1].answered_by == "person"


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"name": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["events_2022"]', "the edited arguments are a JSON array, not an object of argument names"),
        (
            '{"table": "events_2022"}',
            "they do not fit the tool's inputs: Argument table is not in the tool's input schema",
        ),
        ('{"name": 7}', "they do not fit the tool's inputs: Argument name has type 'integer' but should be 'string'"),
    ],
    ids=["not-json", "not-an-object", "unknown-input", "wrong-type"],
)
def test_an_edit_that_does_not_fit_is_a_rejection(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    agent, model, drop = agent_for([[DROP]])
    agent.run("Clean up.")
    assert drop.ran == []
    text = f"Not approved: Call drop_table did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    assert model.seen == [text]


def test_an_edit_that_does_not_fit_the_inputs_is_refused_in_the_kernels_check(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 7}, {"name": "events_2022"}, refused=refused))
    agent, _, drop = agent_for([[DROP]])
    agent.run("Clean up.")
    refusal = 'The edit was not accepted: argument "name" must be a string, not an integer.'
    assert refused == [f"{refusal} Fix the Details, then approve again."]
    assert drop.ran == [{"name": "events_2022"}], "only the fixed edit ran"


def test_a_code_agent_calls_the_gated_tool_from_its_code(person: Person):
    person.answers(reject("not today"), approve())
    model = ScriptedCodeModel(
        [
            "print(drop_table(name='events_2023'))",
            "print(drop_table('tmp_scratch'))",
            "final_answer('done')",
        ]
    )
    drop = DropTable()
    agent = CodeAgent(tools=nbask_smolagents.approving([drop], tools=["drop_table"]), model=model, verbosity_level=0)
    assert agent.run("Clean up.") == "done"
    assert drop.ran == [{"name": "tmp_scratch"}]  # the rejected call never ran
    assert rejected("drop_table", "not today") in model.seen[0]
    assert "dropped tmp_scratch" in model.seen[1]
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "tmp_scratch"},
    ]


def test_parallel_calls_each_ask_from_smolagents_worker_threads(person: Person):
    """The calls of one step run in smolagents' worker threads: each asks its own approval."""

    def by_table(request: Any) -> Any:
        table = json.loads(request.approval.details)["name"]
        return request.decide(ApprovalResponse("reject" if table == "events_2023" else "approve", reason="keep it"))

    person.answers(by_table)
    agent, model, drop = agent_for([[DROP, ("drop_table", {"name": "tmp_scratch"})]])
    assert agent.run("Clean up.") == "done"
    assert drop.ran == [{"name": "tmp_scratch"}]
    (seen,) = model.seen  # smolagents joins a step's observations
    assert sorted(seen.split("\n")) == sorted([rejected("drop_table", "keep it"), "dropped tmp_scratch"])
    assert sorted(e.tool_call_id for e in nbask.history()) == ["call_1_1", "call_1_2"]


def test_approving_names_a_tool_that_is_not_there():
    with pytest.raises(ValueError, match=r"no tool named 'drop_tabel' among \['drop_table'\]"):
        nbask_smolagents.approving([DropTable()], tools=["drop_tabel"])


# -- user_input --------------------------------------------------------------------------------------


def test_user_input_is_answered_in_the_cell(person: Person):
    person.answers(lambda request: request.decide({"answer": "the EU one"}))
    agent, model, _ = agent_for([[("user_input", {"question": "Which region first?"})]])
    assert agent.run("Clean up.") == "done"
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert (asked.form.message, asked.tool_call_id) == ("Which region first?", "call_1_1")
    assert [(f.name, f.type, f.required) for f in asked.form.fields] == [("answer", "string", True)]
    assert model.seen == ["the EU one"]


def test_user_input_not_answered_tells_the_model_why(person: Person):
    person.answers(lambda request: request.decide(None))
    agent, model, _ = agent_for([[("user_input", {"question": "Which region first?"})]])
    agent.run("Clean up.")
    (seen,) = model.seen
    assert seen.startswith("No answer: the question was not answered (declined, by the person)")


# -- unattended ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["recommended", "dismiss", "error"])
def test_unattended_policies_reject_and_the_tool_never_runs(policy: str):
    nbask.configure(policy=policy)
    agent, model, drop = agent_for([[DROP], [("user_input", {"question": "Which region first?"})]])
    assert agent.run("Clean up.") == "done"
    assert drop.ran == []
    refusal, no_answer = model.seen
    assert refusal.startswith("Not approved: Call drop_table did not run.")
    assert refusal.endswith(DO_NOT_RETRY)
    if policy == "recommended":
        assert refusal == f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    assert no_answer.startswith("No answer: the question was not answered (")
    assert ", by a policy)" in no_answer
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("approval", "policy"), ("form", "policy")]
    assert nbask.history()[0].outcome.decision == "reject"


def test_unattended_a_model_that_asks_again_ends_the_run_instead_of_looping():
    """The model asks the person the same question after each refusal: the second round stops
    the run (past smolagents, which would hand the error to the model and go on to max_steps).
    """
    nbask.configure(policy="recommended")
    ask = ("user_input", {"question": "Which region first?"})
    agent, model, _ = agent_for([[ask]] * 10, max_steps=20)
    with pytest.raises(nbask.AskedAgain, match="Which region first"):
        nbask_smolagents.run(agent, "Clean up.")
    assert model.calls == 2
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("form", "policy")]


def test_no_one_to_ask_is_a_refusal_the_model_reads(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    agent, model, drop = agent_for([[DROP], [("user_input", {"question": "Which region first?"})]])
    agent.run("Clean up.")
    assert drop.ran == []
    refusal, no_answer = model.seen
    assert refusal.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in refusal
    assert "No one could be asked: no front end here" in no_answer
    assert [(e.answered_by, e.tool_call_id) for e in nbask.history()] == [
        ("policy", "call_1_1"),
        ("policy", "call_2_1"),
    ]


def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        agent_for([[DROP]])[0].run("Clean up.")
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    agent, _, drop = agent_for([[DROP]])
    agent.run("Clean up.")  # the recorded approval
    assert drop.ran == [{"name": "events_2023"}]
    assert nbask.history()[-1].answered_by == "replay"
    agent, _, drop = agent_for([[("drop_table", {"name": "users"})]])
    with pytest.raises(nbask.ReplayMissing):
        nbask_smolagents.run(agent, "Clean up.")
    assert drop.ran == []
    agent, model, drop = agent_for([[("user_input", {"question": "Why?"})]])
    with pytest.raises(nbask_smolagents._Stop) as raised:  # agent.run itself: past smolagents
        agent.run("Clean up.")
    assert isinstance(raised.value.error, nbask.ReplayMissing)
    assert model.calls == 1, "the run ended at the miss: the model was not called again"


# -- a real kernel, answered through the widget -------------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import (  # noqa: E402
    FRAMEWORK_KERNELS,
    KernelHarness,
    approval_response,
    kernel_fixture,
    next_approval,
    printed_json,
)

SETUP = rf"""
import json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import nbask
from smolagents import ToolCallingAgent, tool
from smolagents_scripted import ScriptedModel
from nbask.integrations.smolagents import UserInputTool, approving

ran = []

@tool
def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.
    '''
    ran.append(name)
    return f"dropped {{name}}"

def agent(turns):
    model = ScriptedModel([*turns, "done"])
    tools = approving([drop_table, UserInputTool()], tools=["drop_table"])
    return ToolCallingAgent(tools=tools, model=model, verbosity_level=0), model
"""

RUN = (
    "ran.clear(); a, m = agent([[('drop_table', {'name': 'events_2023'})], [('user_input', {'question': 'Why?'})],"
    " [('drop_table', {'name': 'tmp_scratch'})]])\n"
    "out = a.run('Clean up.')\n"
    "print(json.dumps({'ran': ran, 'seen': m.seen, 'out': out}))"
)

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


def next_form(k: KernelHarness, answered: set[str]) -> Any:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "form" and comm.comm_id not in answered, timeout=30
    )


@pytest.mark.kernel
def test_in_a_kernel_the_blocking_run_is_answered_through_the_widget(k: KernelHarness):
    """``agent.run`` holds the cell; each approval and the user_input form still show and are
    answered through the widget: a reject (the tool never runs), a typed answer, an edit.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN)
    first = next_approval(k, set())
    k.wait_until_waiting(first)
    assert (first.state["_title"], json.loads(first.state["_details"])) == ("Call drop_table", {"name": "events_2023"})
    k.update_widget(first.comm_id, {"_response": approval_response("reject", reason="keep it")})
    form = next_form(k, set())
    k.wait_until_waiting(form)
    k.update_widget(
        form.comm_id,
        {"_response": {"action": "submit", "values": {"answer": "audit"}, "view_id": "t", "sent_at_ms": 0}},
    )
    second = next_approval(k, {first.comm_id})
    k.wait_until_waiting(second)
    k.update_widget(second.comm_id, {"_response": approval_response("approve", {"name": "tmp_old"})})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == ["tmp_old"]  # the rejected call never ran; the edited one did
    assert out["seen"] == [rejected("drop_table", "keep it"), "audit", "dropped tmp_old"]
    assert out["out"] == "done"
    history = k.run_ok("print(json.dumps([[e.kind, e.answered_by] for e in nbask.history()[-3:]]))")
    assert json.loads(history.stdout) == [["approval", "person"], ["form", "person"], ["approval", "person"]]


@pytest.mark.kernel
def test_in_a_kernel_an_interrupt_stops_the_run_and_the_tool_never_runs(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN)
    widget = next_approval(k, set())
    k.wait_until_waiting(widget)
    k.interrupt()
    result = k.result(cell, 60)
    assert not result.ok
    assert result.ename == "KeyboardInterrupt"
    after = k.run_ok("print(json.dumps({'ran': ran, 'status': nbask.history()[-1].outcome.status}))")
    assert json.loads(after.stdout.strip().splitlines()[-1]) == {"ran": [], "status": "cancelled"}
