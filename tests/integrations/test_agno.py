"""nbask.integrations.agno inside agno's own Agent loop, offline: an ``Agent`` driven by a
scripted agno ``Model`` (tests/integrations/agno_scripted.py) calls a ``requires_confirmation``
tool, a ``requires_user_input`` tool or ``UserFeedbackTools.ask_user``, the run pauses, and nbask
answers its ``active_requirements`` before agno's ``continue_run``. Each test checks what the
tool really ran with (or that it never ran) and what the model read back.

Headless under a scripted person and the unattended policies; then in a real kernel whose
requests the test answers through the widget's comm, as the browser does.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest
from support.person import REPO, Person, approve, edit, pick, reject, through_the_kernels_check

import nbask

pytest.importorskip("agno")
from agno.agent import Agent
from agno.db.in_memory import InMemoryDb
from agno.run.agent import RunOutput
from agno.tools import tool
from agno.tools.user_control_flow import UserControlFlowTools
from agno.tools.user_feedback import UserFeedbackTools

from integrations.agno_scripted import ScriptedModel, Turn
from nbask.errors import NoOneCanAnswer
from nbask.kinds import FormRequest

nbask_agno = importlib.import_module("nbask.integrations.agno")

DO_NOT_RETRY = "Do not retry the same call; choose another way, or ask the person what they want instead."
POLICY_REJECTION = (
    "It was rejected by policy, not by a person. Reason: Not approved: this run is unattended (policy "
    "'recommended'), and an unattended run does not approve actions on its own. Ask again where a person "
    "can decide, or replay a recorded decision."
)


def rejected(name: str, reason: str) -> str:
    return f"Not approved: Call {name} did not run. The person rejected it. Reason: {reason}. {DO_NOT_RETRY}"


@dataclass
class Warehouse:
    """The agno tools, and a record of every call that really ran."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tools(self) -> list[Any]:
        @tool(requires_confirmation=True)
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible).

            Args:
                name: The table to drop.

            """
            self.ran.append(("drop_table", {"name": name}))
            return f"dropped {name}"

        @tool(requires_user_input=True, user_input_fields=["amount", "reason", "speed"])
        def refund(order: str, amount: int, reason: str, speed: Literal["standard", "express"] = "standard") -> str:
            """Refund an order.

            Args:
                order: The order id.
                amount: How much to refund.
                reason: Why.
                speed: How fast.

            """
            self.ran.append(("refund", {"order": order, "amount": amount, "reason": reason, "speed": speed}))
            return f"refunded {amount} on {order}"

        return [drop_table, refund, UserFeedbackTools()]


DROP = ("drop_table", {"name": "events_2023"})
REFUND = ("refund", {"order": "A-1"})
ASK = (
    "ask_user",
    {
        "questions": [
            {
                "question": "Which region first?",
                "header": "Region",
                "options": [{"label": "EU", "description": "Frankfurt"}, {"label": "US"}],
                "multi_select": False,
            }
        ]
    },
)


def agent_for(turns: list[Turn], warehouse: Warehouse) -> tuple[Agent, ScriptedModel]:
    model = ScriptedModel(turns=[*turns, "done"])
    return Agent(model=model, tools=warehouse.tools()), model


def by_run(agent: Agent) -> RunOutput:
    return asyncio.run(nbask_agno.run(agent, "Clean up."))


def by_run_sync(agent: Agent) -> RunOutput:
    return nbask_agno.run_sync(agent, "Clean up.")  # type: ignore[no-any-return]


def by_resolve(agent: Agent) -> RunOutput:
    paused = agent.run("Clean up.")
    assert paused.is_paused
    requirements = asyncio.run(nbask_agno.resolve(paused, agent=agent))
    assert requirements == paused.requirements
    return agent.continue_run(run_response=paused)


def by_resolve_sync(agent: Agent) -> RunOutput:
    paused = agent.run("Clean up.")
    nbask_agno.resolve_sync(paused, agent=agent)
    return agent.continue_run(run_response=paused)


STYLES: dict[str, Callable[[Agent], RunOutput]] = {
    "run": by_run,
    "run_sync": by_run_sync,
    "resolve": by_resolve,
    "resolve_sync": by_resolve_sync,
}


# -- a scripted person: confirmations --------------------------------------------------------------

CASES = [
    pytest.param(approve(), [DROP], ("dropped events_2023", False), id="approve"),
    pytest.param(
        edit({"name": "events_2022"}),
        [("drop_table", {"name": "events_2022"})],
        ("dropped events_2022", False),
        id="edit",
    ),
    pytest.param(
        reject("keep it for the audit"), [], (rejected("drop_table", "keep it for the audit"), True), id="reject"
    ),
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("decide", "ran", "seen"), CASES)
def test_person_decides_a_confirmation(person: Person, style: str, decide: Any, ran: list[Any], seen: Any):
    person.answers(decide)
    warehouse = Warehouse()
    agent, model = agent_for([[DROP]], warehouse)
    result = STYLES[style](agent)
    assert (result.status.value, result.content) == ("COMPLETED", "done")
    assert warehouse.ran == ran  # what the tool really received; nothing when rejected
    assert model.seen == [("drop_table", *seen)]  # what the model read back
    (asked,) = person.approvals
    assert (asked.approval.action, asked.tool_call_id) == ("Call drop_table", "call_1_1")
    assert json.loads(asked.approval.details) == {"name": "events_2023"}
    schema = asked.approval.details_schema
    assert schema is not None
    assert (schema["properties"]["name"]["type"], schema["required"]) == ("string", ["name"])
    assert nbask.history()[-1].answered_by == "person"


@pytest.mark.parametrize(
    ("edited", "why"),
    [
        ('{"name": ', "the edited arguments are not valid JSON (Expecting value: line 1 column 10 (char 9))"),
        ('["events_2022"]', "the edited arguments are a JSON array, not an object of argument names"),
    ],
    ids=["not-json", "not-an-object"],
)
def test_an_edit_that_is_not_a_json_object_is_a_rejection(person: Person, edited: str, why: str):
    person.answers(edit(edited))
    warehouse = Warehouse()
    agent, model = agent_for([[DROP]], warehouse)
    by_run(agent)
    assert warehouse.ran == []
    text = f"Not approved: Call drop_table did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    assert model.seen == [("drop_table", text, True)]


def test_an_edit_that_does_not_fit_the_tools_schema_is_refused_before_the_run(person: Person):
    refused: list[str] = []
    person.answers(through_the_kernels_check({"name": 7}, {"name": "events_2022"}, refused=refused))
    warehouse = Warehouse()
    agent, _ = agent_for([[DROP]], warehouse)
    by_run(agent)
    refusal = 'The edit was not accepted: argument "name" must be a string, not an integer.'
    assert refused == [f"{refusal} Fix the Details, then approve again."]
    assert warehouse.ran == [("drop_table", {"name": "events_2022"})], "only the fixed edit ran"


def test_two_confirmations_of_one_pause_are_asked_together(person: Person):
    """Agno pauses once on both calls: both approvals form one batch, each decided on its own,
    and the run continues once with both answers.
    """
    person.answers(reject("keep it"), approve())
    warehouse = Warehouse()
    agent, model = agent_for([[DROP, ("drop_table", {"name": "tmp_scratch"})]], warehouse)
    result = by_run(agent)
    assert result.content == "done"
    assert [json.loads(a.approval.details) for a in person.approvals] == [
        {"name": "events_2023"},
        {"name": "tmp_scratch"},
    ]
    assert warehouse.ran == [("drop_table", {"name": "tmp_scratch"})]
    assert model.seen == [
        ("drop_table", rejected("drop_table", "keep it"), True),
        ("drop_table", "dropped tmp_scratch", False),
    ]
    first, second = nbask.history()
    assert first.outcome.batch_id is not None
    assert first.outcome.batch_id == second.outcome.batch_id
    assert model.calls == 2  # one pause, one continuation: the model was called twice in all


def test_the_tools_own_behaviour_hints_set_the_approvals_risk(person: Person):
    """Agno's ``@tool(annotations=...)`` carries MCP's behaviour hints: a tool that declares it may
    destroy is asked as high risk, one that only reads as low.
    """
    ran: list[str] = []

    @tool(requires_confirmation=True, annotations={"destructiveHint": True, "readOnlyHint": False})
    def purge(name: str) -> str:
        """Purge a table."""
        ran.append(f"purge {name}")
        return "purged"

    @tool(requires_confirmation=True, annotations={"readOnlyHint": True})
    def peek(name: str) -> str:
        """Show a table's first rows."""
        ran.append(f"peek {name}")
        return "rows"

    person.answers(approve(), approve())
    model = ScriptedModel(turns=[[("purge", {"name": "t"}), ("peek", {"name": "t"})], "done"])
    assert by_run(Agent(model=model, tools=[purge, peek])).content == "done"
    assert {a.approval.action: a.approval.risk for a in person.approvals} == {"Call purge": "high", "Call peek": "low"}
    assert ran == ["purge t", "peek t"]


# -- a scripted person: user input and feedback ------------------------------------------------------


def test_user_input_is_a_typed_form_and_the_tool_runs_with_its_values(person: Person):
    person.answers(lambda request: request.decide({"amount": 120, "reason": "damaged", "speed": "express"}))
    warehouse = Warehouse()
    agent, model = agent_for([[REFUND]], warehouse)
    result = by_run(agent)
    assert result.content == "done"
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.tool_call_id == "call_1_1"
    assert asked.form.message == 'refund asks for these values to run.\n\nCall refund({"order": "A-1"})'
    fields = {f.name: (f.type, f.required, f.default, f.description) for f in asked.form.fields}
    assert fields == {  # the order is the model's, shown in the call: not asked again
        "amount": ("integer", True, None, "How much to refund."),
        "reason": ("string", True, None, "Why."),
        "speed": ("choice", False, "standard", "How fast."),  # the tool's own default
    }
    assert [o.value for o in asked.form.fields[2].options] == ["standard", "express"]
    assert warehouse.ran == [("refund", {"order": "A-1", "amount": 120, "reason": "damaged", "speed": "express"})]
    assert model.seen == [("refund", "refunded 120 on A-1", False)]


def test_a_declined_form_ends_the_call_unrun_and_the_model_reads_why(person: Person):
    person.answers(lambda request: request.decide(None))
    warehouse = Warehouse()
    agent, model = agent_for([[REFUND]], warehouse)
    result = by_run(agent)
    assert not result.is_paused
    assert result.content == "done"
    assert warehouse.ran == []  # never run with None for the values no one gave
    ((name, said, error),) = model.seen
    assert (name, error) == ("refund", True)
    assert said.startswith("Not done: refund did not run: it needs values no one gave")


def test_ask_user_feedback_is_nbasks_questions(person: Person):
    person.answers(pick("US"))
    warehouse = Warehouse()
    agent, model = agent_for([[ASK]], warehouse)
    result = by_run(agent)
    assert result.content == "done"
    (shown,) = person.questions
    (question,) = shown["questions"]
    assert (question["question"], question["header"], question["multi_select"]) == (
        "Which region first?",
        "Region",
        False,
    )
    assert [(o["label"], o["description"]) for o in question["options"]] == [("EU", "Frankfurt"), ("US", "")]
    read = 'User feedback received: [{"question": "Which region first?", "selected": ["US"]}]'
    assert model.seen == [("ask_user", read, False)]


def test_get_user_input_fields_the_model_names_are_a_form(person: Person):
    """``UserControlFlowTools.get_user_input``: the fields the model asks for, typed as it names them."""
    person.answers(lambda request: request.decide({"budget": 300, "tags": '["a", "b"]', "urgent": True}))
    fields = [
        {"field_name": "budget", "field_type": "int", "field_description": "Spend at most"},
        {"field_name": "tags", "field_type": "list", "field_description": "Labels"},
        {"field_name": "urgent", "field_type": "bool", "field_description": "Rush it"},
    ]
    model = ScriptedModel(turns=[[("get_user_input", {"user_input_fields": fields})], "done"])
    result = by_run(Agent(model=model, tools=[UserControlFlowTools()]))
    assert result.content == "done"
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == "The agent asks for these values."
    assert [(f.name, f.type, f.description) for f in asked.form.fields] == [
        ("budget", "integer", "Spend at most"),
        ("tags", "string", "Labels (JSON)"),
        ("urgent", "boolean", "Rush it"),
    ]
    values = (
        '[{"name": "budget", "value": 300}, {"name": "tags", "value": ["a", "b"]}, {"name": "urgent", "value": true}]'
    )
    assert model.seen == [("get_user_input", f"User inputs retrieved: {values}", False)]


# -- unattended ---------------------------------------------------------------------------------------


def test_recommended_policy_rejects_and_the_tool_never_runs():
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    agent, model = agent_for([[DROP]], warehouse)
    assert by_run(agent).content == "done"
    assert warehouse.ran == []
    text = f"Not approved: Call drop_table did not run. {POLICY_REJECTION} {DO_NOT_RETRY}"
    assert model.seen == [("drop_table", text, True)]
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.tool_call_id, entry.outcome.decision) == ("policy", "call_1_1", "reject")


def test_recommended_policy_answers_questions_and_never_runs_a_tool_without_its_values():
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    agent, model = agent_for([[ASK, REFUND]], warehouse)
    result = by_run(agent)
    assert not result.is_paused
    assert warehouse.ran == []  # the refund's amount has no default: declined, the call not run
    assert [(e.kind, e.answered_by, e.outcome.status) for e in nbask.history()] == [
        ("question", "policy", "answered"),
        ("form", "policy", "dismissed"),
    ]
    refund = [said for name, said, _ in model.seen if name == "refund"]
    assert len(refund) == 1
    assert "the required field 'amount' has no default" in refund[0]


def test_the_docs_user_input_loop_under_a_policy_never_calls_the_tool_with_none():
    """Agno's own user_input_required example: the authors' loop answers each pause (here with
    nbask's resolve_sync) and continues the run, whatever was answered.
    """
    nbask.configure(policy="recommended")
    warehouse = Warehouse()
    agent, model = agent_for([[REFUND]], warehouse)
    run_response = agent.run("Refund order A-1.")
    while run_response.is_paused:
        nbask_agno.resolve_sync(run_response, agent=agent)
        run_response = agent.continue_run(run_response=run_response)
    assert warehouse.ran == []
    assert run_response.content == "done"
    ((name, said, error),) = model.seen
    assert name == "refund"
    assert error
    # the model reads nbask's reason, not agno's failed call with None for each value
    assert said.startswith("Not done: refund did not run: it needs values no one gave (Declined by the 'recommended'")
    assert "None" not in said


def test_only_the_fields_agno_asks_for_are_in_the_form(person: Person):
    person.answers(lambda request: request.decide({"amount": 7, "reason": "late", "speed": "standard"}))
    warehouse = Warehouse()
    agent, _ = agent_for([[REFUND]], warehouse)
    by_run(agent)
    (asked,) = person.asked
    assert [field.name for field in asked.form.fields] == ["amount", "reason", "speed"]  # not the model's order
    assert warehouse.ran == [("refund", {"order": "A-1", "amount": 7, "reason": "late", "speed": "standard"})]


# -- agno's documented user_input_required example ----------------------------------------------------

EMAIL = "Send an email with the subject 'Hello' and the body 'Hello, world!'"
SEND = ("send_email", {"subject": "Hello", "body": "Hello, world!"})
NO_ADDRESS = (
    "Not done: send_email did not run: it needs values no one gave (Declined by the 'recommended' policy: "
    f"the required field 'to_address' has no default, and no one was asked.). {DO_NOT_RETRY}"
)


@dataclass
class Outbox:
    """agno's documented ``send_email`` (its ``user_input_required`` example) in the variants the
    tests need, and every call any of them really received.
    """

    calls: list[dict[str, Any]] = field(default_factory=list)

    def documented(self) -> Any:
        @tool(requires_user_input=True, user_input_fields=["to_address"])
        def send_email(subject: str, body: str, to_address: str) -> str:
            """Send an email.

            Args:
                subject (str): The subject of the email.
                body (str): The body of the email.
                to_address (str): The address to send the email to.

            """
            return self._sent(subject=subject, body=body, to_address=to_address)

        return send_email

    def with_priority(self) -> Any:
        @tool(requires_user_input=True, user_input_fields=["to_address"])
        def send_email(subject: str, body: str, to_address: str, priority: int = 3) -> str:
            """Send an email.

            Args:
                subject (str): The subject of the email.
                body (str): The body of the email.
                to_address (str): The address to send the email to.
                priority (int): How urgent it is.

            """
            return self._sent(subject=subject, body=body, to_address=to_address, priority=priority)

        return send_email

    def to_the_team(self) -> Any:
        @tool(requires_user_input=True, user_input_fields=["to_address", "cc"])
        def send_email(subject: str, body: str, to_address: str = "team@example.com", cc: str | None = "a@b.c") -> str:
            """Send an email.

            Args:
                subject (str): The subject of the email.
                body (str): The body of the email.
                to_address (str): The address to send the email to.
                cc (str): Who gets a copy.

            """
            return self._sent(subject=subject, body=body, to_address=to_address, cc=cc)

        return send_email

    def _sent(self, **call: Any) -> str:
        self.calls.append(call)
        return f"Sent email to {call['to_address']} with subject {call['subject']} and body {call['body']}"


def mailer(tool_: Any, turn: Turn) -> tuple[Agent, ScriptedModel]:
    model = ScriptedModel(turns=[turn, "done"])
    return Agent(model=model, tools=[tool_], markdown=True, db=InMemoryDb()), model


def docs_loop(agent: Agent, *, told: bool = True) -> RunOutput:
    """The documented loop, each pause answered by nbask (``told``: given ``agent=``), then
    continue_run by run id and requirements.
    """
    run_response = agent.run(EMAIL)
    while run_response.is_paused:
        nbask_agno.resolve_sync(run_response, agent=agent if told else None)
        run_response = agent.continue_run(run_id=run_response.run_id, requirements=run_response.requirements)
    return run_response


async def docs_loop_async(agent: Agent) -> RunOutput:
    run_response = await agent.arun(EMAIL)
    while run_response.is_paused:
        await nbask_agno.resolve(run_response, agent=agent)
        run_response = await agent.acontinue_run(run_id=run_response.run_id, requirements=run_response.requirements)
    return run_response


MAILING: dict[str, Callable[[Agent], RunOutput]] = {
    "run": lambda agent: asyncio.run(nbask_agno.run(agent, EMAIL)),
    "run_sync": lambda agent: nbask_agno.run_sync(agent, EMAIL),
    "resolve": lambda agent: asyncio.run(docs_loop_async(agent)),
    "resolve_sync": docs_loop,
}


@pytest.mark.parametrize("style", [*MAILING, "resolve_sync without agent"])
def test_the_documented_example_under_recommended_never_calls_the_tool_with_none(style: str):
    nbask.configure(policy="recommended")
    outbox = Outbox()
    agent, model = mailer(outbox.documented(), [SEND])
    result = docs_loop(agent, told=False) if style == "resolve_sync without agent" else MAILING[style](agent)
    assert outbox.calls == []  # never with to_address=None
    assert (result.is_paused, result.content) == (False, "done")
    assert model.seen == [("send_email", NO_ADDRESS, True)]  # the model read why


@pytest.mark.parametrize("style", MAILING)
def test_under_recommended_an_address_the_model_made_up_is_not_taken_for_the_persons(style: str):
    """to_address is the person's (agno keeps it out of the model's schema); a model that sends
    one anyway does not fill it in for them.
    """
    nbask.configure(policy="recommended")
    outbox = Outbox()
    agent, model = mailer(outbox.documented(), [("send_email", {**SEND[1], "to_address": "x@evil.example"})])
    MAILING[style](agent)
    assert outbox.calls == []
    assert model.seen == [("send_email", NO_ADDRESS, True)]


@pytest.mark.parametrize("style", MAILING)
def test_under_recommended_the_fields_the_tool_defaults_get_their_defaults(style: str):
    nbask.configure(policy="recommended")
    outbox = Outbox()
    agent, model = mailer(outbox.to_the_team(), [SEND])
    MAILING[style](agent)
    assert outbox.calls == [
        {"subject": "Hello", "body": "Hello, world!", "to_address": "team@example.com", "cc": "a@b.c"}
    ]
    assert model.seen == [
        ("send_email", "Sent email to team@example.com with subject Hello and body Hello, world!", False)
    ]


@pytest.mark.parametrize("style", MAILING)
def test_the_form_asks_only_the_user_input_fields_and_the_tool_gets_the_typed_value(person: Person, style: str):
    """The priority is not the person's and the model left it out: the tool's default, not a field."""
    person.answers(lambda request: request.decide({"to_address": "ana@example.com"}))
    outbox = Outbox()
    agent, model = mailer(outbox.with_priority(), [SEND])
    MAILING[style](agent)
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert [(f.name, f.type, f.required) for f in asked.form.fields] == [("to_address", "string", True)]
    assert "Call send_email" in asked.form.message  # the model's subject and body are shown in the call
    expected = {"subject": "Hello", "body": "Hello, world!", "to_address": "ana@example.com", "priority": 3}
    assert outbox.calls == [expected]
    assert model.seen == [
        ("send_email", "Sent email to ana@example.com with subject Hello and body Hello, world!", False)
    ]


def test_an_optional_field_left_empty_gets_the_tools_default_not_none(person: Person):
    person.answers(lambda request: request.decide({"to_address": "ana@example.com"}))
    outbox = Outbox()
    agent, _ = mailer(outbox.to_the_team(), [SEND])
    docs_loop(agent)
    (asked,) = person.asked
    assert [(f.name, f.required, f.default) for f in asked.form.fields] == [
        ("to_address", False, "team@example.com"),
        ("cc", False, "a@b.c"),
    ]
    assert outbox.calls == [
        {"subject": "Hello", "body": "Hello, world!", "to_address": "ana@example.com", "cc": "a@b.c"}
    ]


def test_a_call_without_an_argument_that_is_not_the_persons_is_refused_not_run_with_none(person: Person):
    outbox = Outbox()
    agent, model = mailer(outbox.documented(), [("send_email", {"subject": "Hello"})])
    docs_loop(agent)
    assert person.asked == []  # the model's to give, not the person's
    assert outbox.calls == []
    text = (
        "Not done: send_email did not run: the call gave no value for body. Call it again with every required argument."
    )
    assert model.seen == [("send_email", text, True)]


def test_no_one_to_ask_is_agnos_rejection_with_nbasks_reason(person: Person):
    person.unavailable = NoOneCanAnswer("no front end here")
    warehouse = Warehouse()
    agent, model = agent_for([[DROP]], warehouse)
    by_run(agent)
    assert warehouse.ran == []
    ((name, text, error),) = model.seen
    assert (name, error) == ("drop_table", True)
    assert text.startswith("Not approved: Call drop_table did not run. It was rejected by policy, not by a person.")
    assert "No one could be asked: no front end here" in text
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.reason) == ("policy", "No one could be asked: no front end here")


def test_a_replay_miss_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(approve())
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        by_run(agent_for([[DROP]], Warehouse())[0])
    nbask.configure(policy="replay", replay_file=nbask.save_history(tmp_path / "answers.jsonl"))
    warehouse = Warehouse()
    by_run(agent_for([[DROP]], warehouse)[0])  # the recorded approval
    assert warehouse.ran == [DROP]
    assert nbask.history()[-1].answered_by == "replay"
    with pytest.raises(nbask.ReplayMissing):
        by_run(agent_for([[("drop_table", {"name": "users"})]], warehouse)[0])
    assert warehouse.ran == [DROP]


def test_run_refuses_stream_true_and_takes_stream_false(person: Person):
    agent, _ = agent_for([[DROP]], Warehouse())
    with pytest.raises(TypeError, match="stream=True"):
        asyncio.run(nbask_agno.run(agent, "Clean up.", stream=True))
    person.answers(approve())
    assert asyncio.run(nbask_agno.run(agent, "Clean up.", stream=False, user_id="u")).content == "done"


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
from agno.agent import Agent
from agno.tools import tool
from agno_scripted import ScriptedModel
import nbask.integrations.agno as nbask_agno

ran = []

@tool(requires_confirmation=True)
def drop_table(name: str) -> str:
    '''Drop a warehouse table (irreversible).'''
    ran.append(["drop_table", name])
    return f"dropped {{name}}"

def agent():
    calls = [("drop_table", {{"name": "events_2023"}}), ("drop_table", {{"name": "tmp_scratch"}})]
    return Agent(model=ScriptedModel(turns=[calls, "done"]), tools=[drop_table])

def report(result, model):
    print(json.dumps({{"ran": ran, "seen": model.seen, "content": result.content}}))
"""

RUN = {
    "run": "ran.clear(); a = agent(); report(await nbask_agno.run(a, 'Clean up.'), a.model)",
    "run_sync": "ran.clear(); a = agent(); report(nbask_agno.run_sync(a, 'Clean up.'), a.model)",
}

k = kernel_fixture(SETUP, kernels=FRAMEWORK_KERNELS)


@pytest.mark.kernel
@pytest.mark.parametrize("style", RUN)
def test_in_a_kernel_both_approvals_wait_together_and_are_answered_through_the_widget(k: KernelHarness, style: str):
    """Agno pauses on two confirmations: both widgets wait at once; the second is edited first,
    the first rejected, and the run continues once: the edited call runs, the rejected one never does.
    """
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN[style])
    first = next_approval(k, set())
    second = next_approval(k, {first.comm_id})
    for widget in (first, second):  # both waiting before either is answered
        k.wait_until_waiting(widget)
    by_table = {json.loads(w.state["_details"])["name"]: w for w in (first, second)}
    assert {w.state["_title"] for w in by_table.values()} == {"Call drop_table"}
    k.update_widget(by_table["tmp_scratch"].comm_id, {"_response": approval_response("approve", {"name": "tmp_old"})})
    k.update_widget(by_table["events_2023"].comm_id, {"_response": approval_response("reject", reason="keep it")})
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == [["drop_table", "tmp_old"]]  # what the tool received: the edit
    assert out["seen"] == [
        ["drop_table", rejected("drop_table", "keep it"), True],
        ["drop_table", "dropped tmp_old", False],
    ]
    assert out["content"] == "done"
    history = k.run_ok("print(json.dumps([[e.answered_by, e.outcome.batch_id] for e in nbask.history()[-2:]]))")
    (by_1, batch_1), (by_2, batch_2) = json.loads(history.stdout)
    assert (by_1, by_2) == ("person", "person")
    assert batch_1 is not None
    assert batch_1 == batch_2
