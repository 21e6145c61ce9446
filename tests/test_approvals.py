"""nbask.approve and @nbask.requires_approval in real kernels; the test plays the front end by
sending the very comm message js/kinds/approval/view.ts sends (a traitlets "update" of `response`).
"""

from __future__ import annotations

import json

import pytest
from support.kernel import (
    CommInfo,
    KernelHarness,
    kernel_fixture,
    printed_json,
)

pytestmark = [pytest.mark.kernel, pytest.mark.colab]

SETUP = r"""
import asyncio, json, nbask
def show(d):
    print(json.dumps({"decision": d.decision, "status": d.status, "edited": d.edited, "reason": d.reason,
                      "tool_call_id": d.tool_call_id, "answered_by": d.answered_by}, ensure_ascii=False))
"""


k = kernel_fixture(SETUP, every_kernel=True)


def approval_widget(k: KernelHarness, title: str) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "approval" and comm.state.get("_title") == title, timeout=20
    )


def respond(k: KernelHarness, comm: CommInfo, action: str, edited: str | None = None, reason: str = "") -> None:
    response = {"action": action, "edited_details": edited, "reason": reason, "view_id": "test-view", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})


printed = printed_json


@pytest.mark.parametrize(
    ("action", "edited", "reason", "expected"),
    [
        ("approve", None, "", {"decision": "approve", "edited": None}),
        ("approve", "ls -la build/", "", {"decision": "edit", "edited": "ls -la build/"}),
        ("reject", None, "not today", {"decision": "reject", "reason": "not today"}),
    ],
)
def test_approve_edit_reject_round_trip(k: KernelHarness, action, edited, reason, expected) -> None:
    title = f"Run shell command ({action}{'+edit' if edited else ''})"
    cell = k.execute(f"d = await nbask.approve({title!r}, 'rm -rf build/', tool_call_id='call_9')\nshow(d)")
    comm = approval_widget(k, title)
    assert comm.state["_details"] == "rm -rf build/"
    assert comm.state["_status"] == "pending"
    respond(k, comm, action, edited, reason)
    out = printed(k.result(cell, 20))
    assert out["status"] == "answered"
    assert out["tool_call_id"] == "call_9"
    assert out["answered_by"] == "person"
    assert {key: out[key] for key in expected} == expected
    bundles = [m["content"]["data"] for m in k.iopub_for(cell) if m["msg_type"] == "update_display_data"]
    assert bundles, "the resolved output is re-published"
    assert "nbask approval" in bundles[-1]["text/markdown"]


def test_interrupt_rejects_and_raises(k: KernelHarness) -> None:
    cell = k.execute("d = await nbask.approve('Drop table', 'DROP TABLE users', timeout=3600)")
    comm = approval_widget(k, "Drop table")
    k.wait_until_waiting(comm)
    k.interrupt()
    assert k.result(cell, 20).ename == "KeyboardInterrupt"
    last = k.run_ok("e = nbask.history()[-1]; print(e.kind, e.outcome.decision, e.status)").stdout.split()
    assert last == ["approval", "reject", "cancelled"]


def test_timeout_is_a_rejection(k: KernelHarness) -> None:
    out = printed(k.run("d = await nbask.approve('Send email', 'to: all', timeout=0.5)\nshow(d)", 20))
    assert (out["decision"], out["status"]) == ("reject", "timeout")
    assert "No answer within 0.5 seconds" in out["reason"]


def test_requires_approval_gates_sync_and_async_tools(k: KernelHarness) -> None:
    cell = k.execute(
        "@nbask.requires_approval(action='Delete rows')\n"
        "def delete(table: str, limit: int = 10):\n"
        "    return f'deleted {limit} from {table}'\n"
        "@nbask.requires_approval(action='Fetch URL')\n"
        "async def fetch(url: str):\n"
        "    return 'fetched ' + url\n"
        "print(delete('users'))\n"
        "print(await fetch('http://a'))\n"
        "try:\n"
        "    delete('users')\n"
        "except nbask.ApprovalRejected as e:\n"
        "    print('rejected:', e.reason)\n"
    )
    first = approval_widget(k, "Delete rows")
    assert json.loads(first.state["_details"]) == {"table": "users", "limit": 10}
    respond(k, first, "approve", edited=json.dumps({"table": "staging", "limit": 1}))
    second = approval_widget(k, "Fetch URL")
    respond(k, second, "approve")
    third = k.wait_for_comm_open(
        predicate=lambda c: c.state.get("_title") == "Delete rows" and c.comm_id != first.comm_id, timeout=20
    )
    respond(k, third, "reject", reason="wrong table")
    result = k.result(cell, 30)
    assert result.ok, result.error_text
    assert result.stdout.splitlines() == ["deleted 1 from staging", "fetched http://a", "rejected: wrong table"]


def test_approval_then_question_in_one_cell(k: KernelHarness) -> None:
    cell = k.execute(
        "d = await nbask.approve('Train model', 'epochs=3')\n"
        "a = await nbask.ask('Which metric?', ['AUC (Recommended)', 'F1'])\n"
        "print(d.decision, a.answers['Which metric?'])\n"
    )
    respond(k, approval_widget(k, "Train model"), "approve")
    question = k.wait_for_comm_open(predicate=lambda c: c.state.get("_kind") == "question", timeout=20)
    k.update_widget(
        question.comm_id,
        {
            "_response": {
                "action": "submit",
                "answers": [{"selected": ["F1"], "other": None}],
                "view_id": "v",
                "sent_at_ms": 0,
            }
        },
    )
    assert k.result(cell, 20).stdout.strip() == "approve F1"


def test_a_bad_edit_of_a_gated_function_is_refused_and_stays_open(k: KernelHarness) -> None:
    cell = k.execute(
        "@nbask.requires_approval\n"
        "def resize(name: str, replicas: int):\n"
        "    return f'{name} has {replicas} replicas'\n"
        "print(resize('web', 2))\n"
    )
    comm = approval_widget(k, "Call resize")
    schema = comm.state["_details_schema"]
    assert (schema["required"], schema["additionalProperties"]) == (["name", "replicas"], False)
    assert comm.state["_error"] == ""
    respond(k, comm, "approve", edited=json.dumps({"name": "web", "replicas": "three"}))
    refused = k.wait_for_state(comm.comm_id, lambda state: "_error" in state)
    assert refused["_error"] == (
        'The edit was not accepted: argument "replicas" must be an integer, not a string. '
        "Fix the Details, then approve again."
    )
    assert refused["_response"] == {}, "sent with the error: every view leaves 'Sending…'"
    assert not k.has_reply(cell), "the approval stays open"
    respond(k, comm, "approve", edited=json.dumps({"name": "web", "replicas": 3}))
    result = k.result(cell, 20)
    assert result.ok, result.error_text
    assert result.stdout.strip() == "web has 3 replicas"
