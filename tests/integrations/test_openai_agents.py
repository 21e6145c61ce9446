"""nbask.integrations.openai_agents against the OpenAI Agents SDK's own Runner, offline: a scripted
``Model`` calls a function tool with ``needs_approval=True`` (or a hosted MCP tool with
``require_approval``), ``run`` answers the interruptions with nbask approvals and resumes. Each
test checks what the model read in its next turn and whether the tool ran (it appends to the run's
context, so the context passed to ``run`` must reach the resumed runs too).

Headless: the "recommended" policy, a scripted person (approve, edit, reject, dismiss, no one to
ask), a question from nbask's ask tool, a hosted MCP approval, and ``resolve`` for callers who run
the loop themselves. In a real kernel (one for the module, ipykernel 7.4, whose python has the SDK)
the test plays the front end: it answers the question widget, then approves, edits or rejects in
the approval widget as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest
from support.person import REPO, Person, approve, dismiss, edit, pick, reject, through_the_kernels_check

import nbask
from nbask.core.lifecycle import Resolution
from nbask.errors import NoFrontEnd
from nbask.kinds.approval import ApprovalWidget
from nbask.kinds.approval.markdown import approval_markdown

agents = pytest.importorskip("agents")
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402
from openai.types.responses.response_output_item import McpApprovalRequest  # noqa: E402

from nbask.integrations import openai_agents  # noqa: E402
from nbask.integrations.openai_agents import ALWAYS, JUST_ONCE  # noqa: E402

agents.set_tracing_disabled(disabled=True)

TITLE = "Call drop_table (edits are sent back to the model as a request to retry)"
RETRY = "Call drop_table again with these arguments instead: "
DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
QUESTION_ARGS = {
    "questions": [
        {
            "question": "Which database should the app use?",
            "header": "DB",
            "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
        }
    ]
}


class ScriptedModel(Model):
    """A model that makes the scripted calls one per turn, follows an edit's request to call
    again with the person's arguments, then answers with the last tool output it read.
    ``read`` keeps, per turn, the tool outputs (and MCP approval responses) new to that turn.
    """

    def __init__(self, *calls: tuple[str, dict[str, Any]], parallel: bool = False) -> None:
        self.calls = list(calls)
        self.parallel = parallel
        self.read: list[list[Any]] = []
        self._seen = 0
        self._ids = 0

    def _call(self, name: str, arguments: dict[str, Any]) -> ResponseFunctionToolCall:
        self._ids += 1
        return ResponseFunctionToolCall(
            id=f"fc_{self._ids}",
            call_id=f"call_{self._ids}",
            name=name,
            arguments=json.dumps(arguments),
            type="function_call",
            status="completed",
        )

    async def get_response(self, system_instructions, input, *args: Any, **kwargs: Any) -> ModelResponse:  # noqa: A002
        del system_instructions, args, kwargs
        results = [
            item["output"] if item["type"] == "function_call_output" else item
            for item in input
            if isinstance(item, dict) and item.get("type") in ("function_call_output", "mcp_approval_response")
        ]
        new, self._seen = results[self._seen :], len(results)
        if new:
            self.read.append(new)
        last = new[-1] if new else None
        if isinstance(last, str) and RETRY in last:
            return self._respond([self._call("drop_table", json.loads(last.split(RETRY, 1)[1]))])
        if self.calls and self.parallel:
            calls, self.calls = self.calls, []
            return self._respond([self._call(name, arguments) for name, arguments in calls])
        if self.calls:
            name, arguments = self.calls.pop(0)
            if name == "mcp":
                request = McpApprovalRequest(
                    id="mcpr_1",
                    arguments=json.dumps(arguments),
                    name="deploy",
                    server_label="ops",
                    type="mcp_approval_request",
                )
                return self._respond([request])
            return self._respond([self._call(name, arguments)])
        text = ResponseOutputText(text=f"I read: {last}", type="output_text", annotations=[])
        message = ResponseOutputMessage(id="m_1", content=[text], role="assistant", status="completed", type="message")
        return self._respond([message])

    @staticmethod
    def _respond(output: list[Any]) -> ModelResponse:
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


@agents.function_tool(needs_approval=True)
def drop_table(ctx: agents.RunContextWrapper[dict[str, list[str]]], name: str) -> str:
    """Drop a table from the warehouse (irreversible).

    Args:
        ctx: The run's context; the dropped tables are recorded in it.
        name: The table to drop.

    """
    ctx.context["dropped"].append(name)
    return f"dropped {name}"


def agent_for(model: ScriptedModel, *tools: Any) -> Any:
    return agents.Agent(name="janitor", model=model, tools=list(tools) or [drop_table])


def run(model: ScriptedModel, *tools: Any) -> tuple[Any, list[str]]:
    """Run the agent through nbask; return the result and the tables the tool dropped."""
    context: dict[str, list[str]] = {"dropped": []}
    result = asyncio.run(openai_agents.run(agent_for(model, *tools), "Clean up the warehouse.", context=context))
    return result, context["dropped"]


def rejected(reason: str, tool: str = "drop_table") -> str:
    """What the model reads when the person rejects a call of ``tool`` with ``reason``."""
    return f"Not approved: Call {tool} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


def drop(name: str = "events_2023") -> ScriptedModel:
    return ScriptedModel(("drop_table", {"name": name}))


def test_recommended_policy_rejects_and_the_tool_never_runs():
    nbask.configure(policy="recommended")
    model = drop()
    result, dropped = run(model)
    assert dropped == []
    ((message,),) = model.read
    assert message.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert message.endswith(DO_NOT_RETRY)
    assert result.final_output == f"I read: {message}"
    assert not result.interruptions
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.decision) == ("policy", "reject")


def test_approve_runs_the_call_as_the_model_made_it(person: Person):
    person.answers(approve())
    model = drop()
    result, dropped = run(model)
    assert dropped == ["events_2023"]
    assert model.read == [["dropped events_2023"]]
    assert result.final_output == "I read: dropped events_2023"
    (asked,) = person.approvals
    assert asked.approval.action == TITLE
    assert asked.approval.details == '{\n  "name": "events_2023"\n}'
    assert asked.tool_call_id == "call_1"
    assert asked.source == "janitor"  # the agent that asks: named on its card when agents share a batch
    assert person.questions == [], "a first approval of a tool is one click"


def test_run_sync_is_the_same_run_for_synchronous_code(person: Person):
    person.answers(reject("not today"))
    model = drop()
    context: dict[str, list[str]] = {"dropped": []}
    result = openai_agents.run_sync(agent_for(model), "Clean up the warehouse.", context=context)
    assert context["dropped"] == []
    assert model.read == [[rejected("not today")]]
    assert result.final_output == f"I read: {rejected('not today')}"
    assert openai_agents.run_sync.__name__ == "run_sync"


def test_edit_asks_the_model_to_call_again_and_the_new_call_is_approved(person: Person):
    person.answers(edit({"name": "events_2022"}, reason="2023 is still in use"), approve())
    model = drop()
    result, dropped = run(model)
    retry = (
        "Not run: the person did not approve these arguments and edited them. Their note: 2023 is still in use. "
        'Call drop_table again with these arguments instead: {"name": "events_2022"}'
    )
    assert model.read == [[retry], ["dropped events_2022"]]
    assert dropped == ["events_2022"]  # the original call never ran
    assert result.final_output == "I read: dropped events_2022"
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "events_2022"},
    ]
    # the SDK cannot run an edited call: the card and the record say it went back to the model
    first = person.approvals[0]
    assert first.approval.edits == "sent_back"
    assert ApprovalWidget(resolution=Resolution(first))._edits == "sent_back"
    summary = approval_markdown(first.approval, nbask.history()[0].outcome)
    assert "**Edited, sent back to the model" in summary
    assert "Approved with edits" not in summary


def test_the_approval_carries_the_tools_schema_and_a_bad_edit_is_refused(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 2022}, {"name": "events_2022"}, refused=refused), approve())
    model = drop()
    _, dropped = run(model)
    first = person.approvals[0].approval
    assert first.details_schema == drop_table.params_json_schema
    assert first.details_schema["properties"]["name"]["type"] == "string"
    refusal = 'The edit was not accepted: argument "name" must be a string, not an integer.'
    assert refused == [refusal + " Fix the Details, then approve again."]
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "events_2022"},
    ]
    assert dropped == ["events_2022"], "only the fixed edit's call ran"
    assert nbask.history()[0].asked["details_schema"] == drop_table.params_json_schema


def test_reject_sends_the_reason_and_the_tool_never_runs(person: Person):
    person.answers(reject("keep it for the audit"))
    model = drop()
    result, dropped = run(model)
    message = rejected("keep it for the audit")
    assert model.read == [[message]]
    assert dropped == []
    assert result.final_output == f"I read: {message}"


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"name": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["events_2022"]', "the edited arguments are a JSON array, not an object of argument names"),
    ],
    ids=["not-json", "not-an-object"],
)
def test_an_unusable_edit_is_a_rejection(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    model = drop()
    _, dropped = run(model)
    message = f"Not approved: Call drop_table did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    assert model.read == [[message]]
    assert dropped == []


def test_an_unchanged_edit_is_an_approval(person: Person):
    person.answers(edit({"name": "events_2023"}))
    model = drop()
    _, dropped = run(model)
    assert dropped == ["events_2023"]
    assert model.read == [["dropped events_2023"]]


def test_dismiss_and_no_one_to_ask_are_rejections(person: Person):
    person.answers(dismiss())
    model = drop()
    _, dropped = run(model)
    assert dropped == []
    assert model.read[0][0].startswith(
        "Not approved: Call drop_table did not run. The person dismissed the approval request without approving it."
    )

    person.unavailable = NoFrontEnd("no front end here")
    model = drop()
    _, dropped = run(model)
    assert dropped == []
    assert model.read == [
        [
            (
                "Not approved: Call drop_table did not run. It was rejected by policy, not by a person. "
                f"Reason: No one could be asked: no front end here. {DO_NOT_RETRY}"
            )
        ]
    ]
    # the refusal is in the history like any other outcome
    assert (nbask.history()[-1].answered_by, nbask.history()[-1].outcome.decision) == ("policy", "reject")


def test_a_question_and_an_approval_in_one_run(person: Person):
    """A question from nbask's own ask tool is answered mid-run; the gated call after it is approved."""
    person.answers(pick("SQLite"), approve())
    model = ScriptedModel(("AskUserQuestion", QUESTION_ARGS), ("drop_table", {"name": "events_2023"}))
    result, dropped = run(model, agents.function_tool(nbask.tools.function()), drop_table)
    assert model.read == [['{"answers": {"Which database should the app use?": "SQLite"}}'], ["dropped events_2023"]]
    assert dropped == ["events_2023"]
    assert result.final_output == "I read: dropped events_2023"


def test_resolve_decides_parallel_calls_for_a_loop_of_ones_own(person: Person):
    person.answers(approve(), reject("not that one"))
    model = ScriptedModel(("drop_table", {"name": "a"}), ("drop_table", {"name": "b"}), parallel=True)
    agent = agent_for(model)
    context: dict[str, list[str]] = {"dropped": []}

    async def loop() -> Any:
        result = await agents.Runner.run(agent, "Clean up.", context=context)
        assert [item.call_id for item in result.interruptions] == ["call_1", "call_2"]
        # a state saved as JSON and loaded back is resolved too
        state = await agents.RunState.from_json(agent, result.to_state().to_json())
        state = await openai_agents.resolve(state)
        return await agents.Runner.run(agent, state, context=context)

    result = asyncio.run(loop())
    assert not result.interruptions
    assert context["dropped"] == ["a"]
    assert model.read == [["dropped a", rejected("not that one")]]


def test_resolve_refuses_what_is_not_a_run():
    with pytest.raises(TypeError, match=r"resolve\(result\): result must be the RunResult .* not dict"):
        asyncio.run(openai_agents.resolve({"interruptions": []}))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"run\(agent, input\): agent must be an agents.Agent, not str"):
        asyncio.run(openai_agents.run("janitor", "go"))  # type: ignore[arg-type]


def test_hosted_mcp_approval_request(person: Person):
    """A hosted MCP tool with require_approval: the SDK answers the server's approval request with
    an mcp_approval_response, which carries the rejection's reason.
    """
    person.answers(reject("not on a Friday"))
    mcp_tool = agents.HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "ops",
            "server_url": "https://ops.example",
            "require_approval": "always",
        }
    )
    model = ScriptedModel(("mcp", {"service": "checkout"}))
    result, _ = run(model, mcp_tool)
    ((response,),) = model.read
    assert response["type"] == "mcp_approval_response"
    assert response["approval_request_id"] == "mcpr_1"
    assert response["approve"] is False
    assert response["reason"] == rejected("not on a Friday", "deploy")
    (asked,) = person.approvals
    assert asked.approval.details == '{\n  "service": "checkout"\n}'
    assert not result.interruptions


# -- in a real kernel, through the widget -------------------------------------------------------

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CommInfo, KernelHarness, kernel_fixture, printed_json  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"  # its python is the project's, where the Agents SDK is installed
QUESTION = "Which database should the app use?"

KERNEL_SETUP = r'''
import json, agents, nbask
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText
from nbask.integrations import openai_agents
agents.set_tracing_disabled(disabled=True)
RETRY = "Call drop_table again with these arguments instead: "
ASK = {"questions": [{"question": "Which database should the app use?", "header": "DB",
                      "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}]}]}

class Scripted(Model):
    """Asks, then drops each table in turn (or what an edit asks for), then says what it read."""
    def __init__(self, tables):
        self.read, self.turn, self.tables = [], 0, list(tables)
    async def get_response(self, system_instructions, input, *args, **kwargs):
        self.turn += 1
        outputs = [i["output"] for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        if outputs and len(outputs) > len(self.read):
            self.read.append(outputs[-1])
        if self.turn == 1:
            return self.call("AskUserQuestion", ASK)
        if RETRY in self.read[-1]:
            return self.call("drop_table", json.loads(self.read[-1].split(RETRY, 1)[1]))
        if self.tables:
            return self.call("drop_table", {"name": self.tables.pop(0)})
        text = ResponseOutputText(text="done", type="output_text", annotations=[])
        message = ResponseOutputMessage(id="m", content=[text], role="assistant", status="completed", type="message")
        return ModelResponse(output=[message], usage=Usage(), response_id=None)
    def call(self, name, arguments):
        call = ResponseFunctionToolCall(id=f"fc_{self.turn}", call_id=f"call_{self.turn}", name=name,
                                        arguments=json.dumps(arguments), type="function_call", status="completed")
        return ModelResponse(output=[call], usage=Usage(), response_id=None)
    def stream_response(self, *args, **kwargs):
        raise NotImplementedError

ran = []

@agents.function_tool(needs_approval=True)
async def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.
    """
    ran.append(name)
    return f"dropped {name}"
'''

KERNEL_RUN = """\
ran.clear()
model = Scripted(tables)
agent = agents.Agent(name="janitor", model=model, tools=[agents.function_tool(nbask.tools.function()), drop_table])
result = await openai_agents.run(agent, "Set up storage, then clean up the warehouse.")
print(json.dumps({"read": model.read, "ran": ran, "output": result.final_output}, ensure_ascii=False))
"""


k = kernel_fixture(KERNEL_SETUP)


def approval_widget(k: KernelHarness, table: str) -> CommInfo:
    """The approval widget for dropping ``table``."""

    def shows(comm: CommInfo) -> bool:
        state = comm.state
        return state.get("_kind") == "approval" and json.loads(state.get("_details") or "{}") == {"name": table}

    return k.wait_for_comm_open(predicate=shows, timeout=30)


def respond(k: KernelHarness, comm: CommInfo, action: str, edited: str | None = None, reason: str = "") -> None:
    response = {"action": action, "edited_details": edited, "reason": reason, "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})


def choose(k: KernelHarness, question: str, label: str) -> None:
    """Answer the question widget asking ``question`` with the option ``label``."""
    comm = k.wait_for_comm_open(
        predicate=lambda comm: any(q.get("question") == question for q in comm.state.get("_questions", [])), timeout=30
    )
    answer = {"action": "submit", "answers": [{"selected": [label], "other": None}], "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": answer})


ALWAYS_DROP = "Always allow drop_table in this run?"
NEVER_DROP = "Always reject drop_table in this run?"


ANSWERED = '{"answers": {"Which database should the app use?": "SQLite"}}'


@pytest.mark.kernel
@pytest.mark.parametrize("decision", ["approve", "edit", "reject", "always", "always-reject"])
def test_kernel_question_then_approval_through_the_widget(k: KernelHarness, decision: str):
    """A first approval is one click; a tool's second approval asks "always" (the third call then
    runs unasked: were it asked, the cell would wait on a widget no one answers); a second
    rejection asks "always reject" (the SDK then rejects the third call unasked).
    """
    three = decision in ("always", "always-reject")
    tables = ["events_2023", "events_2022", "events_2021"] if three else ["events_2023"]
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(f"tables = {tables!r}\n" + KERNEL_RUN)
    choose(k, QUESTION, "SQLite")
    approval = approval_widget(k, "events_2023")
    assert approval.state["_title"] == TITLE
    assert approval.state["_details"] == '{\n  "name": "events_2023"\n}'
    if decision == "approve":
        respond(k, approval, "approve")
        expected = {"read": [ANSWERED, "dropped events_2023"], "ran": ["events_2023"]}
    elif decision == "always":
        respond(k, approval, "approve")
        respond(k, approval_widget(k, "events_2022"), "approve")
        choose(k, ALWAYS_DROP, ALWAYS)
        read = [ANSWERED, *(f"dropped {table}" for table in tables)]
        expected = {"read": read, "ran": tables}
    elif decision == "always-reject":
        respond(k, approval, "reject", reason="keep it")
        respond(k, approval_widget(k, "events_2022"), "reject", reason="keep them all")
        choose(k, NEVER_DROP, ALWAYS)
        never = f"{rejected('keep them all')} The person rejected every call of drop_table for the rest of this run."
        expected = {"read": [ANSWERED, rejected("keep it"), never, never], "ran": []}
    elif decision == "edit":
        respond(k, approval, "approve", edited='{\n  "name": "events_2022"\n}')
        respond(k, approval_widget(k, "events_2022"), "approve")
        retry = (
            "Not run: the person did not approve these arguments and edited them. "
            'Call drop_table again with these arguments instead: {"name": "events_2022"}'
        )
        expected = {"read": [ANSWERED, retry, "dropped events_2022"], "ran": ["events_2022"]}
    else:
        respond(k, approval, "reject", reason="keep it for the audit")
        expected = {"read": [ANSWERED, rejected("keep it for the audit")], "ran": []}
    assert printed_json(k.result(cell, 60)) == {**expected, "output": "done"}


PARALLEL_RUN = r'''
class Parallel(Model):
    """Calls drop_table for every table in one response (parallel calls), then says what it read."""
    def __init__(self, tables):
        self.tables, self.read, self.turn = list(tables), [], 0
    async def get_response(self, system_instructions, input, *args, **kwargs):
        self.turn += 1
        if self.turn == 1:
            calls = [ResponseFunctionToolCall(id=f"fc_{i}", call_id=f"call_{i}", name="drop_table",
                                              arguments=json.dumps({"name": t}), type="function_call",
                                              status="completed") for i, t in enumerate(self.tables)]
            return ModelResponse(output=calls, usage=Usage(), response_id=None)
        outputs = [i for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        self.read = sorted(i["output"] for i in outputs)
        text = ResponseOutputText(text="done", type="output_text", annotations=[])
        message = ResponseOutputMessage(id="m", content=[text], role="assistant", status="completed", type="message")
        return ModelResponse(output=[message], usage=Usage(), response_id=None)
    def stream_response(self, *args, **kwargs):
        raise NotImplementedError
ran.clear()
model = Parallel(["t1", "t2", "t3"])
result = await openai_agents.run(agents.Agent(name="janitor", model=model, tools=[drop_table]), "Drop them.")
batches = {e.outcome.batch_id for e in nbask.history()[-4:] if e.kind == "approval"}
print(json.dumps({"read": model.read, "ran": sorted(ran), "batches": len(batches - {None})}))
'''


@pytest.mark.kernel
def test_kernel_three_parallel_calls_are_shown_together(k: KernelHarness):
    """Three parallel approval calls wait together (one batch) and are answered out of order; the
    run resumes once with all three decisions.
    """
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(PARALLEL_RUN)
    widgets = {table: approval_widget(k, table) for table in ("t1", "t2", "t3")}
    for widget in widgets.values():  # all three wait before any is answered
        k.wait_until_waiting(widget)
    respond(k, widgets["t3"], "approve")
    respond(k, widgets["t1"], "reject", reason="keep t1")
    respond(k, widgets["t2"], "approve")
    choose(k, ALWAYS_DROP, JUST_ONCE)  # asked once, after the tool's second approval in the batch
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == ["t2", "t3"]
    assert out["read"] == sorted(["dropped t2", "dropped t3", rejected("keep t1")])
    assert out["batches"] == 1
