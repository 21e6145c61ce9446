"""What the widget stack puts on the wire, in every kernel the tests know (Google Colab's
ipywidgets 7.7 / anywidget 0.9.21 included): one output, updated in place; an anywidget model
that carries its own front end; a typed form answered through the comm, in both waits.

The test plays the front end with the harness (see harness.py), as in test_ask.py.
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

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

SETUP = r"""
import json, nbask, anywidget, ipywidgets
SCHEMA = {
    "type": "object",
    "properties": {
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 20},
        "region": {"type": "string", "title": "Region", "enum": ["eu-west", "us-east"]},
        "canary": {"type": "boolean", "title": "Canary first", "default": True},
    },
    "required": ["replicas", "region"],
}
def show_form(a):
    print(json.dumps({"status": a.status, "action": a.action, "values": a.values, "by": a.answered_by}))
"""


k = kernel_fixture(SETUP, every_kernel=True)


def widget_of_kind(k: KernelHarness, kind: str, marker: str) -> CommInfo:
    """The nbask widget of ``kind`` whose state mentions ``marker`` (ipywidgets 7 opens a
    Layout model's comm first, so the first comm_open is not always the widget's).
    """
    return k.wait_for_comm_open(
        predicate=lambda c: c.state.get("_kind") == kind and marker in json.dumps(c.state), timeout=20
    )


def outputs(k: KernelHarness, cell: str) -> list[tuple[str, dict]]:
    return [(m["msg_type"], m["content"]) for m in k.iopub_for(cell) if "display_data" in m["msg_type"]]


def test_one_output_shown_then_updated_in_place(k: KernelHarness) -> None:
    cell = k.execute("ans = await nbask.ask('Which cache?', ['Redis', 'Memcached'])\nprint(ans.answers)")
    comm = widget_of_kind(k, "question", "Which cache?")
    k.update_widget(
        comm.comm_id,
        {"_response": {"action": "submit", "answers": [{"selected": ["Redis"], "other": None}], "view_id": "t"}},
    )
    result = k.result(cell, 20)
    assert result.ok, result.error_text
    shown = outputs(k, cell)
    # One display, then one update of that display: no second copy of the widget in the cell.
    assert [kind for kind, _ in shown] == ["display_data", "update_display_data"], shown
    (_, first), (_, update) = shown
    assert first["data"][WIDGET_VIEW]["model_id"] == comm.comm_id
    assert first["data"]["text/plain"].startswith("**nbask** (pending)")
    assert update["transient"]["display_id"] == first["transient"]["display_id"]
    assert update["data"][WIDGET_VIEW]["model_id"] == comm.comm_id
    assert "Which cache? — **Redis**" in update["data"]["text/markdown"]
    assert update["metadata"]["nbask"]["outcome"]["answers"] == {"Which cache?": "Redis"}


def test_the_comm_is_an_anywidget_model_with_its_front_end(k: KernelHarness) -> None:
    versions = k.run_ok("print(anywidget.__version__, ipywidgets.__version__)").stdout.split()
    cell = k.execute("d = await nbask.approve('Rotate keys', 'all of them', timeout=30)\nprint(d.decision)")
    comm = widget_of_kind(k, "approval", "Rotate keys")
    assert comm.target_name == "jupyter.widget"
    state = comm.state
    assert (state["_model_name"], state["_view_name"], state["_model_module"]) == ("AnyModel", "AnyView", "anywidget")
    # The front end asks anywidget's own front end of the kernel's version (Colab fetches it).
    major_minor = ".".join(versions[0].split(".")[:2])
    assert state["_model_module_version"] == f"~{major_minor}.*"
    assert "export" in state["_esm"]  # the bundle itself, not a path or a URL
    assert "nbask" in state["_css"]  # the stylesheet itself
    assert comm.msg["metadata"]["version"].startswith("2.")
    k.update_widget(comm.comm_id, {"_response": {"action": "reject", "edited_details": None, "reason": "no"}})
    result = k.result(cell, 20)
    assert result.stdout.strip() == "reject", result.error_text


@pytest.mark.parametrize("call", ["await nbask.ask_form", "nbask.ask_form_sync"])
def test_form_values_arrive_typed_and_a_bad_value_is_refused(k: KernelHarness, call: str) -> None:
    message = f"Deploy settings ({call.rsplit('.', maxsplit=1)[-1]})"
    cell = k.execute(f"a = {call}({message!r}, SCHEMA, timeout=60)\nshow_form(a)")
    comm = widget_of_kind(k, "form", message)
    assert [f["name"] for f in comm.state["_fields"]] == ["replicas", "region", "canary"]
    # Out of range: the kernel refuses it, says why, and clears the reply so the form stays open.
    k.update_widget(comm.comm_id, {"_response": {"action": "submit", "values": {"replicas": 99, "region": "eu-west"}}})
    refused = k.wait_for_state(comm.comm_id, lambda state: state.get("_response") == {})
    assert "replicas" in refused["_error"]
    assert not k.has_reply(cell), "the cell still waits"
    values = {"replicas": 3, "region": "us-east", "canary": False}
    k.update_widget(comm.comm_id, {"_response": {"action": "submit", "values": values}})
    out = printed_json(k.result(cell, 20))
    assert out == {"status": "answered", "action": "accept", "values": values, "by": "person"}


def test_a_draft_sent_as_a_message_of_its_own_is_kept(k: KernelHarness) -> None:
    """A page being left sends its last draft as a custom message (the trait's update may still
    be held in the page): the kernel keeps it as the draft, echoing it to every view.
    """
    cell = k.execute("ans = await nbask.approve('Draft by message', 'DROP TABLE t', timeout=60)")
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_title") == "Draft by message", timeout=20)
    k.wait_until_waiting(comm)
    draft = {"request_id": comm.state["_request_id"], "key": "k", "view_id": "v", "data": {"details": "new"}}
    k.send_comm_msg(comm.comm_id, {"method": "custom", "content": {"draft": draft}})
    kept = k.wait_for_state(comm.comm_id, lambda state: state.get("_draft", {}).get("data") == {"details": "new"})
    assert kept["_draft"]["view_id"] == "v"
    response = {"action": "reject", "edited_details": None, "reason": "", "view_id": "v", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})
    k.result(cell, 20)
