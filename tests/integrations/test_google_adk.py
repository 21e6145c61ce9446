"""nbask.integrations.google_adk with the ADK's own ``InMemoryRunner`` and an offline scripted
``BaseLlm`` (tests/tools/adk_scripted.py): ``adk_request_confirmation`` of a
``require_confirmation=True`` tool and of a tool that calls ``tool_context.request_confirmation``
with a nested payload (asked as an approval; a flat payload is a form, see
test_google_adk_form.py), and ``adk_request_input`` of the ADK's ``request_input`` tool. Headless under the
recommended policy and with a scripted person, then in a real kernel through the widgets. Each
test checks what the model read, what the ADK was sent, and whether (and how) the tool ran.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest
from support.person import REPO, Person, approve, dismiss, edit, reject, through_the_kernels_check

import nbask
from nbask.forms import FormSchemaError
from nbask.kinds import FormRequest

pytest.importorskip("google.adk")
from integrations import google_adk_scripted as adk_scripted
from integrations.google_adk_scripted import DROP_ARGS, INPUT_MESSAGE, TRANSFER_ARGS

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from google.adk.agents import LlmAgent
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from support.kernel import CommInfo, KernelHarness, kernel_fixture, printed_json

from nbask.integrations import google_adk

REJECTED_BY_ADK = {"error": "This tool call is rejected."}
DROPPED = {"result": "dropped events_2023"}
NOT_SENT = {"status": "not sent: the person did not confirm"}
TRANSFER_PAYLOAD = {"transfer": {"amount": 100, "currency": "EUR"}}
TRANSFER_DETAILS = {"arguments": TRANSFER_ARGS, "payload": TRANSFER_PAYLOAD}


def drive(tool: str) -> dict[str, Any]:
    return asyncio.run(adk_scripted.drive(tool))


def read(out: dict[str, Any]) -> list[Any]:
    """The function responses the model read, in order."""
    return [seen["response"] for seen in out["seen"]]


def sent(out: dict[str, Any]) -> list[Any]:
    """The answers sent back to the ADK (name, response)."""
    return [(answer["name"], answer["response"]) for answer in out["answers"]]


def payload(amount: int) -> dict[str, Any]:
    return {"transfer": {"amount": amount, "currency": "EUR"}}


def edited_transfer(amount: int, **changes: Any) -> str:
    return json.dumps({**TRANSFER_DETAILS, "payload": payload(amount), **changes}, indent=2)


# -- headless: the recommended policy ------------------------------------------------------------


def test_recommended_policy_rejects_a_require_confirmation_tool_and_it_never_runs():
    nbask.configure(policy="recommended")
    out = drive("drop_table")
    assert out["ran"] == []
    assert sent(out) == [("adk_request_confirmation", {"confirmed": False})]
    assert read(out) == [REJECTED_BY_ADK]
    assert out["final"] == 'I read: {"error": "This tool call is rejected."}'
    (entry,) = nbask.history()
    assert (entry.answered_by, entry.outcome.decision) == ("policy", "reject")
    assert entry.asked == {"action": "Call drop_table", "details": json.dumps(DROP_ARGS, indent=2)}


def test_recommended_policy_does_not_confirm_a_request_confirmation_tool():
    nbask.configure(policy="recommended")
    out = drive("transfer")
    assert out["ran"] == []
    assert sent(out) == [("adk_request_confirmation", {"confirmed": False, "payload": TRANSFER_PAYLOAD})]
    assert read(out) == [NOT_SENT]


def test_recommended_policy_accepts_an_input_with_its_default_and_declines_one_without():
    nbask.configure(policy="recommended")
    out = drive("yes_no")
    assert sent(out) == [("adk_request_input", {"result": True})]
    assert read(out) == [{"result": True}]
    # A required field without a default: declined, and a decline cannot be sent to the ADK
    # (it checks the answer against the schema), so the run ends paused on the request.
    out = drive("input")
    assert (out["seen"], out["answers"], out["final"], out["paused"]) == ([], [], None, True)
    assert [e.outcome.status for e in nbask.history()] == ["answered", "dismissed"]


# -- headless: a scripted person --------------------------------------------------------------


@pytest.mark.parametrize(
    ("decide", "confirmed"),
    [(approve(), True), (reject("keep it for the audit"), False), (dismiss(), False)],
    ids=["approve", "reject", "dismiss"],
)
def test_require_confirmation_tool_runs_only_when_approved(person: Person, decide, confirmed: bool):
    person.answers(decide)
    out = drive("drop_table")
    (asked,) = person.approvals
    assert asked.approval.action == "Call drop_table"
    assert json.loads(asked.approval.details) == DROP_ARGS
    assert asked.tool_call_id == "call_1"
    assert sent(out) == [("adk_request_confirmation", {"confirmed": confirmed})]
    assert out["ran"] == ([{"tool": "drop_table", "name": "events_2023"}] if confirmed else [])
    assert read(out) == [DROPPED if confirmed else REJECTED_BY_ADK]


def test_an_edit_of_a_call_without_payload_is_a_rejection(person: Person):
    """The ADK reruns a confirmed call with its original arguments: an edit cannot be honoured."""
    person.answers(edit({"name": "events_2022"}))
    out = drive("drop_table")
    assert out["ran"] == []
    assert sent(out) == [("adk_request_confirmation", {"confirmed": False})]
    assert read(out) == [REJECTED_BY_ADK]


def test_request_confirmation_with_a_payload_approved_as_it_is(person: Person):
    person.answers(approve())
    out = drive("transfer")
    (asked,) = person.approvals
    assert asked.approval.action == "Call transfer: Send 100 EUR to ACME GmbH?"
    assert json.loads(asked.approval.details) == TRANSFER_DETAILS
    assert sent(out) == [("adk_request_confirmation", {"confirmed": True, "payload": TRANSFER_PAYLOAD})]
    assert out["ran"] == [{"tool": "transfer", "amount": 100, "to": "ACME GmbH"}]
    assert read(out) == [{"status": "sent", "amount": 100}]


def test_an_edited_payload_is_what_the_tool_runs_with(person: Person):
    person.answers(edit(edited_transfer(40)))
    out = drive("transfer")
    assert sent(out) == [("adk_request_confirmation", {"confirmed": True, "payload": payload(40)})]
    assert out["ran"] == [{"tool": "transfer", "amount": 40, "to": "ACME GmbH"}]
    assert read(out) == [{"status": "sent", "amount": 40}]


@pytest.mark.parametrize(
    "text",
    [
        '{"payload": {"amount": 40}',  # not valid JSON
        "[40]",  # not an object
        '{"transfer": {"amount": 40}}',  # no "payload"
        edited_transfer(40, arguments={"amount": 100, "to": "Mallory Ltd"}),  # the arguments changed
    ],
    ids=["invalid-json", "not-an-object", "no-payload", "arguments-changed"],
)
def test_an_edit_that_cannot_be_applied_is_a_rejection(person: Person, text: str):
    person.answers(edit(text))
    out = drive("transfer")
    assert out["ran"] == []
    assert sent(out) == [("adk_request_confirmation", {"confirmed": False, "payload": TRANSFER_PAYLOAD})]
    assert read(out) == [NOT_SENT]


def test_a_payload_approval_refuses_an_edit_it_could_not_apply_and_stays_open(person: Person):
    refused: list[str] = []
    changed = edited_transfer(40, arguments={"amount": 100, "to": "Mallory Ltd"})
    person.answers(through_the_kernels_check(changed, '{"transfer": {}}', edited_transfer(40), refused=refused))
    out = drive("transfer")
    (asked,) = person.approvals
    assert asked.approval.details_schema == {
        "type": "object",
        "properties": {"arguments": {"const": TRANSFER_ARGS}, "payload": {}},
        "required": ["payload"],
    }
    assert [r.split(". Fix")[0] for r in refused] == [
        f'The edit was not accepted: argument "arguments" must be {json.dumps(TRANSFER_ARGS)}',
        'The edit was not accepted: missing required argument "payload"',
    ]
    assert sent(out) == [("adk_request_confirmation", {"confirmed": True, "payload": payload(40)})]
    assert out["ran"] == [{"tool": "transfer", "amount": 40, "to": "ACME GmbH"}]


def test_a_call_without_payload_has_no_schema_since_no_edit_applies(person: Person):
    person.answers(approve())
    drive("drop_table")
    (asked,) = person.approvals
    assert asked.approval.details_schema is None


def test_request_confirmation_rejected(person: Person):
    person.answers(reject("too much"))
    out = drive("transfer")
    assert out["ran"] == []
    assert read(out) == [NOT_SENT]
    assert nbask.history()[-1].outcome.reason == "too much"


def test_request_input_is_a_typed_form_and_its_values_are_the_response(person: Person):
    person.answers(lambda request: request.decide({"region": "us-east", "replicas": 3}))
    out = drive("input")
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.form.message == INPUT_MESSAGE
    assert [(f.name, f.type, f.required) for f in asked.form.fields] == [
        ("region", "choice", True),
        ("replicas", "integer", False),
    ]
    assert sent(out) == [("adk_request_input", {"region": "us-east", "replicas": 3})]
    assert read(out) == [{"region": "us-east", "replicas": 3}]
    assert out["final"] == 'I read: {"region": "us-east", "replicas": 3}'


def test_a_single_value_input_is_one_field_sent_as_result(person: Person):
    person.answers(lambda request: request.decide({"result": False}))
    out = drive("yes_no")
    (asked,) = person.asked
    assert [(f.name, f.type, f.title) for f in asked.form.fields] == [("result", "boolean", "Proceed?")]
    assert read(out) == [{"result": False}]


def test_a_dismissed_input_is_left_unanswered(person: Person):
    person.answers(lambda request: request.decide(None))  # the form's Dismiss
    out = drive("input")
    assert (out["seen"], out["answers"], out["paused"]) == ([], [], True)


def test_a_schema_outside_the_form_subset_is_refused_naming_the_property():
    nested = {"type": "object", "properties": {"where": {"type": "object", "properties": {}}}}
    with pytest.raises(FormSchemaError, match="where"):
        asyncio.run(google_adk.input_response({"message": "Where?", "response_schema": nested}))


def test_a_malformed_confirmation_request_names_the_field():
    with pytest.raises(TypeError, match="originalFunctionCall must be an object"):
        asyncio.run(google_adk.confirmation_response({"toolConfirmation": {}}))


# -- a real kernel, answered through the widgets ------------------------------------------------

KERNEL = "nbask-ipykernel-7.4"
SETUP = f"""
import json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import google_adk_scripted as adk_scripted
"""
RUN = "print(json.dumps(await adk_scripted.drive({tool!r})))"


k = kernel_fixture(SETUP)


def widget(k: KernelHarness, kind: str, title: str) -> CommInfo:
    def shows(comm: CommInfo) -> bool:
        state = comm.state
        return state.get("_kind") == kind and title in (state.get("_title"), state.get("_message"))

    return k.wait_for_comm_open(predicate=shows, timeout=30)


def answer_approval(k: KernelHarness, comm: CommInfo, action: str, edited: str | None = None) -> None:
    response = {"action": action, "edited_details": edited, "reason": "", "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("action", "edited", "expected_run", "expected_read"),
    [
        ("approve", None, [{"tool": "transfer", "amount": 100, "to": "ACME GmbH"}], {"status": "sent", "amount": 100}),
        ("approve", edited_transfer(25), [{"tool": "transfer", "amount": 25, "to": "ACME GmbH"}], None),
        ("reject", None, [], NOT_SENT),
    ],
    ids=["approve", "edit", "reject"],
)
def test_kernel_request_confirmation_through_the_approval_widget(
    k: KernelHarness, action: str, edited: str | None, expected_run: list[Any], expected_read: Any
):
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN.format(tool="transfer"))
    comm = widget(k, "approval", "Call transfer: Send 100 EUR to ACME GmbH?")
    assert json.loads(comm.state["_details"]) == TRANSFER_DETAILS
    answer_approval(k, comm, action, edited)
    out = printed_json(k.result(cell, 60))
    assert out["ran"] == expected_run
    assert read(out) == [expected_read or {"status": "sent", "amount": 25}]


@pytest.mark.kernel
@pytest.mark.parametrize("action", ["approve", "reject"])
def test_kernel_require_confirmation_through_the_approval_widget(k: KernelHarness, action: str):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN.format(tool="drop_table"))
    comm = widget(k, "approval", "Call drop_table")
    assert json.loads(comm.state["_details"]) == DROP_ARGS
    answer_approval(k, comm, action)
    out = printed_json(k.result(cell, 60))
    approved = action == "approve"
    assert out["ran"] == ([{"tool": "drop_table", "name": "events_2023"}] if approved else [])
    assert read(out) == [DROPPED if approved else REJECTED_BY_ADK]


@pytest.mark.kernel
def test_kernel_request_input_through_the_form_widget(k: KernelHarness):
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(RUN.format(tool="input"))
    comm = widget(k, "form", INPUT_MESSAGE)
    assert [field["name"] for field in comm.state["_fields"]] == ["region", "replicas"]
    response = {"action": "submit", "values": {"region": "eu-west", "replicas": 5}, "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})
    out = printed_json(k.result(cell, 60))
    assert sent(out) == [("adk_request_input", {"region": "eu-west", "replicas": 5})]
    assert read(out) == [{"region": "eu-west", "replicas": 5}]


def test_two_confirmations_of_one_pause_are_asked_together(person: Person):
    """The model calls a confirmation-gated tool twice at once: both approvals wait together (one
    batch), each decided on its own, and the ADK is sent both answers in one message.
    """

    class TwoCalls(adk_scripted.ScriptedLlm):
        async def generate_content_async(self, llm_request, stream=False):
            if not any(p.function_response for p in llm_request.contents[-1].parts or []):
                calls = [
                    types.Part(function_call=types.FunctionCall(name="drop_table", args={"name": t}, id=f"call_{t}"))
                    for t in ("t1", "t2")
                ]
                yield LlmResponse(content=types.Content(role="model", parts=calls))
                return
            async for response in super().generate_content_async(llm_request, stream):
                yield response

    sent_messages: list[types.Content] = []
    confirmations: dict[str, str] = {}  # the ADK's confirmation call id -> the table it asks about

    async def main() -> None:
        tool, _ = adk_scripted.TOOLS["drop_table"]
        model = TwoCalls(call_name="drop_table", call_args={})
        runner = InMemoryRunner(agent=LlmAgent(name="agent", model=model, tools=[tool]), app_name="nbask-test")
        run_async = runner.run_async

        def recorded(**kwargs: Any) -> Any:  # every message the ADK is sent, the answers included
            sent_messages.append(kwargs["new_message"])
            return run_async(**kwargs)

        runner.run_async = recorded  # type: ignore[method-assign]
        session = await runner.session_service.create_session(app_name="nbask-test", user_id="u")
        message = types.Content(role="user", parts=[types.Part(text="Drop both.")])
        async for event in google_adk.run(runner, user_id="u", session_id=session.id, new_message=message):
            for call in event.get_function_calls():
                if call.name == "adk_request_confirmation":
                    confirmations[call.id] = call.args["originalFunctionCall"]["args"]["name"]

    adk_scripted.RAN.clear()
    person.answers(reject("keep t1"), approve())
    asyncio.run(main())
    assert [json.loads(a.approval.details) for a in person.approvals] == [{"name": "t1"}, {"name": "t2"}]
    assert adk_scripted.RAN == [{"tool": "drop_table", "name": "t2"}]
    # After the person's own message, one message carries both answers.
    assert len(sent_messages) == 2
    answers = {part.function_response.id: part.function_response for part in sent_messages[1].parts}
    assert len(answers) == len(sent_messages[1].parts) == 2
    assert set(answers) == set(confirmations)
    confirmed = {confirmations[i]: r.response["confirmed"] for i, r in answers.items()}
    assert confirmed == {"t1": False, "t2": True}
    assert {r.name for r in answers.values()} == {"adk_request_confirmation"}
    batches = {entry.outcome.batch_id for entry in nbask.history() if entry.kind == "approval"}
    assert len(batches) == 1
    assert None not in batches
