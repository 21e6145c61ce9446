"""A Google ADK confirmation that carries a payload is asked as a typed form prefilled with the
payload, as the ADK's own web UI asks it: the shape of Google's human_tool_confirmation sample
(``request_time_off`` calls ``tool_context.request_confirmation(hint=..., payload={"approved_days":
0})``), run by the ADK's own ``InMemoryRunner`` with the offline scripted model of
tests/tools/adk_scripted.py. Headless with a scripted person, under the policies and in replay,
then in a real kernel answering the form over its comm.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.person import REPO, Person, approve, time_out

import nbask
from nbask.kinds import FormRequest
from nbask.kinds.form.request import CONFIRMATION_UNATTENDED

pytest.importorskip("google.adk")
from integrations import google_adk_scripted as adk_scripted
from integrations.google_adk_scripted import TIME_OFF_HINT

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CommInfo, KernelHarness, kernel_fixture, printed_json

from nbask.integrations import google_adk

MESSAGE = 'request_time_off asks for these values to run.\n\nCall request_time_off({"days": 5})'
REFUSED = {"status": "The time off request is rejected.", "approved_days": 0}
#: What the model reads first: the tool's reply while it waits (the sample lets the model summarise it).
WAITING = {"status": "Manager approval is required."}
NOT_CONFIRMED = ("adk_request_confirmation", {"confirmed": False, "payload": {"approved_days": 0}})


def drive(tool: str = "time_off") -> dict[str, Any]:
    return asyncio.run(adk_scripted.drive(tool))


def sent(out: dict[str, Any]) -> list[Any]:
    return [(answer["name"], answer["response"]) for answer in out["answers"]]


def read(out: dict[str, Any]) -> list[Any]:
    return [seen["response"] for seen in out["seen"]]


def submit(**values: Any) -> Any:
    return lambda request: request.decide(values)


def granted(days: int) -> dict[str, Any]:
    return {"tool": "request_time_off", "approved_days": days}


# -- a scripted person ---------------------------------------------------------------------------


def test_submitting_approved_days_makes_the_tool_grant_them(person: Person):
    person.answers(submit(approved_days=3))
    out = drive()
    (asked,) = person.asked
    assert isinstance(asked, FormRequest)
    assert asked.confirmation
    # The sample's hint is written for a client developer; the person reads the call instead.
    assert asked.form.message == MESSAGE
    assert TIME_OFF_HINT not in asked.form.message
    assert [(f.name, f.title, f.type, f.required, f.default) for f in asked.form.fields] == [
        ("approved_days", "Approved days", "integer", True, 0)
    ]
    assert asked.tool_call_id == "call_1"
    assert sent(out) == [("adk_request_confirmation", {"confirmed": True, "payload": {"approved_days": 3}})]
    assert out["ran"] == [granted(3)]
    assert read(out) == [WAITING, {"status": "ok", "approved_days": 3}]
    entry = nbask.history()[-1]
    assert (entry.kind, entry.answered_by, entry.outcome.values) == ("form", "person", {"approved_days": 3})


@pytest.mark.parametrize("decide", [lambda request: request.decide(None), time_out()], ids=["dismiss", "timeout"])
def test_a_dismissed_or_timed_out_form_does_not_confirm(person: Person, decide: Any):
    person.answers(decide)
    out = drive()
    assert sent(out) == [NOT_CONFIRMED]
    assert out["ran"] == []
    assert read(out) == [WAITING, REFUSED]


def test_recommended_never_submits_a_confirmation_even_with_every_default():
    """Every field of the form has a default, which ``recommended`` accepts for any other form:
    a confirmation's form is declined, so an unattended run never approves time off.
    """
    nbask.configure(policy="recommended")
    out = drive()
    assert sent(out) == [NOT_CONFIRMED]
    assert out["ran"] == []
    (entry,) = nbask.history()
    assert (entry.kind, entry.answered_by, entry.outcome.status) == ("form", "policy", "dismissed")
    assert entry.outcome.note == CONFIRMATION_UNATTENDED


def test_no_one_to_ask_is_not_confirmed_and_recorded():
    nbask.configure(policy="error")
    out = drive()
    assert sent(out) == [NOT_CONFIRMED]
    assert out["ran"] == []
    (entry,) = nbask.history()
    assert (entry.kind, entry.answered_by, entry.outcome.action) == ("form", "policy", "decline")
    assert entry.outcome.note.startswith("No one could be asked: ")
    assert "'error'" in entry.outcome.note


def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str, decide: Any) -> Path:
    """The history of ``tool`` run with a scripted person deciding, saved as a recording."""
    person = Person().answers(decide)
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        drive(tool)
    assert person.asked
    return nbask.save_history(tmp_path / "answers.jsonl")


def test_replay_confirms_the_recorded_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    nbask.configure(policy="replay", replay_file=recorded(tmp_path, monkeypatch, "time_off", submit(approved_days=3)))
    out = drive()
    assert sent(out) == [("adk_request_confirmation", {"confirmed": True, "payload": {"approved_days": 3}})]
    assert out["ran"] == [granted(3)]
    entry = nbask.history()[-1]
    assert (entry.kind, entry.answered_by, entry.outcome.values) == ("form", "replay", {"approved_days": 3})


def test_a_replay_miss_raises_instead_of_refusing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A recording of another call's approval: the time-off form is not in it.
    nbask.configure(policy="replay", replay_file=recorded(tmp_path, monkeypatch, "drop_table", approve()))
    with pytest.raises(nbask.ReplayMissing, match="request_time_off"):
        drive()
    assert adk_scripted.RAN == []


# -- the payload's values as typed fields ---------------------------------------------------------

BOOKING = {
    "originalFunctionCall": {"name": "book_room", "args": {"hotel": "Alma"}, "id": "c9"},
    "toolConfirmation": {
        "hint": "Book the room?",
        "payload": {"nights": 2, "price": 99.5, "refundable": True, "note": "quiet room"},
    },
}


def test_each_payload_value_is_a_field_of_its_type(person: Person):
    person.answers(submit(nights=3, price=80, refundable=False))  # the note left blank
    response = asyncio.run(google_adk.confirmation_response(BOOKING))
    (asked,) = person.asked
    assert asked.form.message == 'Book the room?\n\nCall book_room({"hotel": "Alma"})'
    assert [(f.name, f.type, f.required, f.default) for f in asked.form.fields] == [
        ("nights", "integer", True, 2),
        ("price", "number", True, 99.5),
        ("refundable", "boolean", False, True),
        ("note", "string", False, "quiet room"),
    ]
    assert response == {"confirmed": True, "payload": {"nights": 3, "price": 80.0, "refundable": False, "note": ""}}
    assert [type(value) for value in response["payload"].values()] == [int, float, bool, str]


@pytest.mark.parametrize(
    "payload",
    [{"split": {"eu": 60}}, {"days": [1, 2]}, {"days": None}, {}, {"x" * 201: 1}],
    ids=["nested", "list", "null", "empty", "name-too-long"],
)
def test_a_payload_a_form_cannot_show_is_an_approval_of_the_json(person: Person, payload: dict[str, Any]):
    person.answers(approve())
    args = {**BOOKING, "toolConfirmation": {"hint": "Book the room?", "payload": payload}}
    response = asyncio.run(google_adk.confirmation_response(args))
    (asked,) = person.approvals
    assert json.loads(asked.approval.details) == {"arguments": {"hotel": "Alma"}, "payload": payload}
    assert response == {"confirmed": True, "payload": payload}


# -- a real kernel, the form answered over its comm ---------------------------------------------

KERNEL = "nbask-ipykernel-7.4"
SETUP = f"""
import json, sys
sys.path.insert(0, {str(REPO / "tests" / "integrations")!r})
import google_adk_scripted as adk_scripted
"""


k = kernel_fixture(SETUP)


def form_widget(k: KernelHarness) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "form" and comm.state.get("_message") == MESSAGE, timeout=30
    )


@pytest.mark.kernel
@pytest.mark.parametrize(("action", "days"), [("submit", 3), ("dismiss", 0)])
def test_kernel_the_time_off_form_answered_over_its_comm(k: KernelHarness, action: str, days: int):
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute("print(json.dumps(await adk_scripted.drive('time_off')))")
    comm = form_widget(k)
    assert [(f["name"], f["type"], f["default"]) for f in comm.state["_fields"]] == [("approved_days", "integer", 0)]
    response: dict[str, Any] = {"action": action, "view_id": "t", "sent_at_ms": 0}
    if action == "submit":
        response["values"] = {"approved_days": days}
    k.update_widget(comm.comm_id, {"_response": response})
    out = printed_json(k.result(cell, 60))
    assert sent(out) == [
        ("adk_request_confirmation", {"confirmed": action == "submit", "payload": {"approved_days": days}})
    ]
    assert out["ran"] == ([granted(days)] if days else [])
    assert read(out) == [WAITING, {"status": "ok", "approved_days": days} if days else REFUSED]
