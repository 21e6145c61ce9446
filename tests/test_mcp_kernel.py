"""nbask.mcp in a real kernel: a cell connects to a real MCP server (fixtures/elicit_server.py,
the MCP SDK's ``MCPServer`` as a stdio subprocess of the kernel) through the MCP SDK's
``Client``, fastmcp's ``Client`` or a pydantic-ai agent's ``MCPToolset``; the server elicits,
nbask shows its form widget, and the test answers it the way the browser does (a comm "update"
of the widget's ``response`` trait, tests/support/kernel.py). Each tool returns what the server
received, which the cell prints.

"legacy" sessions carry each elicitation as an ``elicitation/create`` request from the server;
"auto" negotiates 2026-07-28 with this server, where the client fulfils input-required rounds
and retries the call. Both reach nbask's callback from a task the MCP client created, not the
cell's own.

Runs on the ipykernel 7.4 kernel, which uses the project environment's python (where mcp,
fastmcp and pydantic-ai are installed); one kernel serves the module.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from support.person import FIXTURES, REPO

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CellResult, CommInfo, KernelHarness, kernel_fixture, printed_json

pytest.importorskip("mcp")
pytestmark = pytest.mark.kernel

MESSAGE = "Configure the deployment of the checkout service"
LOGIN_MESSAGE = "Sign in to the deployment dashboard"
LOGIN_URL = "https://deploy.example.com/login?session=abc123"
MODES = {"legacy": ("2025-11-25", "elicitation/create"), "auto": ("2026-07-28", "input_required")}

SETUP = f"""
import json, sys, nbask, nbask.mcp, mcp
from mcp import StdioServerParameters
SERVER_SCRIPT = {str(FIXTURES / "elicit_server.py")!r}
SERVER = StdioServerParameters(command=sys.executable, args=[SERVER_SCRIPT])

def show(result):
    assert not result.is_error, result.content
    print(json.dumps(json.loads(result.content[0].text)))
"""

#: The MCP SDK's Client in the cell, answering through nbask.mcp.elicitation_callback.
SDK_CELL = """\
async with mcp.Client(SERVER, mode={mode!r}, elicitation_callback=nbask.mcp.elicitation_callback) as client:
    result = await client.call_tool({tool!r}, {{}})
show(result)
"""

#: What the form shows for configure_deployment's schema: name -> the field's rendering.
FIELDS: dict[str, dict[str, Any]] = {
    "service_name": {"type": "string", "title": "Service name", "required": True, "min_length": 3, "max_length": 30},
    "owner_email": {"type": "string", "title": "Owner email", "required": True, "format": "email"},
    "docs_url": {"type": "string", "title": "Runbook", "format": "uri"},
    "release_date": {"type": "string", "title": "Release date", "format": "date", "default": "2026-12-01"},
    "window_start": {"type": "string", "title": "Window opens", "format": "date-time"},
    "replicas": {"type": "integer", "title": "Replicas", "required": True, "minimum": 1, "maximum": 10, "default": 2},
    "cpu_share": {"type": "number", "title": "CPU share", "minimum": 0, "maximum": 1, "default": 0.5},
    "canary": {"type": "boolean", "title": "Canary first", "default": True},
    "region": {
        "type": "choice",
        "title": "Region",
        "required": True,
        "default": "eu-west-1",
        "options": [("eu-west-1", "eu-west-1"), ("us-east-1", "us-east-1"), ("ap-south-1", "ap-south-1")],
    },
    "tier": {"type": "choice", "title": "Tier", "options": [("basic", "Basic"), ("pro", "Professional")]},
    "log_level": {
        "type": "choice",
        "title": "Log level",
        "default": "info",
        "options": [("debug", "Debug"), ("info", "Info"), ("warn", "Warning")],
    },
    "channels": {
        "type": "multi_choice",
        "title": "Notify",
        "required": True,
        "default": ["email"],
        "min_items": 1,
        "max_items": 2,
        "options": [("email", "Email"), ("slack", "Slack"), ("pager", "Pager")],
    },
}
#: The person's reply: a typed value for every field.
VALUES: dict[str, Any] = {
    "service_name": "checkout",
    "owner_email": "ops@example.com",
    "docs_url": "https://wiki.example.com/checkout",
    "release_date": "2026-12-24",
    "window_start": "2026-12-24T08:30:00Z",
    "replicas": 3,
    "cpu_share": 0.25,
    "canary": False,
    "region": "us-east-1",
    "tier": "pro",
    "log_level": "warn",
    "channels": ["email", "slack"],
}
TYPES = {"replicas": int, "cpu_share": float, "canary": bool, "channels": list}


# A kernel as Jupyter starts it: mcp's stdio_client gives the server its sys.stderr's fileno().
k = kernel_fixture(SETUP, outside_pytest=True)


@pytest.fixture(autouse=True)
def fresh_log(k: KernelHarness) -> None:
    """The widgets of earlier tests are not this one's."""
    k.drain(0.1)
    k.iopub_log.clear()


def form_widget(k: KernelHarness, message: str = MESSAGE, *, after: tuple[str, ...] = ()) -> CommInfo:
    """The comm_open of nbask's form widget showing ``message`` (other than those in ``after``)."""

    def shows(comm: CommInfo) -> bool:
        state = comm.state
        return state.get("_kind") == "form" and state.get("_message") == message and comm.comm_id not in after

    return k.wait_for_comm_open(predicate=shows, timeout=30)


def reply(k: KernelHarness, comm: CommInfo, action: str, values: dict[str, Any] | None = None) -> None:
    """What the front end sends on Submit / Dismiss: the widget's ``response`` trait."""
    response = {"action": action, "values": values or {}, "view_id": "test-view", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})


def statuses(k: KernelHarness, comm: CommInfo) -> list[str]:
    return [state["_status"] for state in k.widget_states(comm.comm_id) if "_status" in state]


def received(result: CellResult) -> dict[str, Any]:
    """What the server received, as the cell printed it."""
    return printed_json(result)


def types_of(content: dict[str, Any]) -> dict[str, type]:
    return {name: type(value) for name, value in content.items()}


# -- form mode ---------------------------------------------------------------------------------


def test_form_shows_every_field_refuses_an_invalid_reply_then_sends_typed_values(k: KernelHarness):
    cell = k.execute(SDK_CELL.format(mode="auto", tool="configure_deployment"))
    comm = form_widget(k)
    state = comm.state
    assert (state["_status"], state["_url"], state["_error"]) == ("pending", "", "")
    shown = {field["name"]: field for field in state["_fields"]}
    assert list(shown) == list(FIELDS)
    assert {field["type"] for field in state["_fields"]} == {
        "string",
        "integer",
        "number",
        "boolean",
        "choice",
        "multi_choice",
    }
    assert {field["format"] for field in state["_fields"]} == {"", "email", "uri", "date", "date-time"}
    for name, expected in FIELDS.items():
        field = shown[name]
        want = {"required": False, "default": None, "format": "", "options": [], **expected}
        want["options"] = [{"value": value, "title": title} for value, title in want["options"]]
        assert {key: field[key] for key in want} == want, name
    assert shown["service_name"]["description"] == "Lower-case, 3 to 30 characters"

    # An integer above its maximum: refused by the kernel, the form stays open with the reason.
    reply(k, comm, "submit", {**VALUES, "replicas": 11})
    error = k.wait_for_state(comm.comm_id, lambda state: bool(state.get("_error")))["_error"]
    assert "'replicas'" in error
    assert "at most 10" in error
    assert statuses(k, comm) == []  # still pending
    assert not k.has_reply(cell)

    reply(k, comm, "submit", VALUES)
    server = received(k.result(cell, 30))
    assert server == {"action": "accept", "content": VALUES, "via": "input_required", "protocol": "2026-07-28"}
    assert types_of(server["content"]) == {name: TYPES.get(name, str) for name in VALUES}
    assert statuses(k, comm) == ["answered"]


def test_dismiss_declines(k: KernelHarness):
    cell = k.execute(SDK_CELL.format(mode="legacy", tool="configure_deployment"))
    reply(k, form_widget(k), "dismiss")
    assert received(k.result(cell, 30)) == {
        "action": "decline",
        "content": None,
        "via": "elicitation/create",
        "protocol": "2025-11-25",
    }


@pytest.mark.parametrize("mode", MODES)
def test_a_kernel_interrupt_cancels_and_the_cell_carries_on(k: KernelHarness, mode: str):
    cell = k.execute(SDK_CELL.format(mode=mode, tool="configure_deployment"))
    comm = form_widget(k)
    k.wait_until_waiting(comm)
    k.interrupt()
    result = k.result(cell, 30)
    assert received(result) == {"action": "cancel", "content": None, "via": MODES[mode][1], "protocol": MODES[mode][0]}
    assert statuses(k, comm) == ["cancelled"]
    assert k.run_ok("print(nbask.history()[-1].status)").stdout.strip() == "cancelled"


# -- URL mode ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "action", "expected"), [("auto", "submit", "accept"), ("legacy", "dismiss", "decline")]
)
def test_url_mode_open_accepts_and_decline_declines(k: KernelHarness, mode: str, action: str, expected: str):
    cell = k.execute(SDK_CELL.format(mode=mode, tool="open_login"))
    comm = form_widget(k, LOGIN_MESSAGE)
    assert (comm.state["_url"], comm.state["_fields"]) == (LOGIN_URL, [])
    reply(k, comm, action)
    assert received(k.result(cell, 30)) == {
        "action": expected,
        "content": None,
        "via": MODES[mode][1],
        "protocol": MODES[mode][0],
    }


# -- input-required rounds ---------------------------------------------------------------------


def test_input_required_rounds_are_answered_through_the_widget(k: KernelHarness):
    """The environment and the window come in one round: the client dispatches both at once and
    nbask shows them together (one batch), answered in any order; the go-ahead comes in the next
    round.
    """
    cell = k.execute(SDK_CELL.format(mode="auto", tool="confirm_with_rounds"))
    answers = {
        "Which environment?": {"environment": "production"},
        "How long may the deployment window stay open?": {"hours": 4},
    }
    window = form_widget(k, "How long may the deployment window stay open?")
    environment = form_widget(k, "Which environment?")
    for comm in (window, environment):  # both wait before either is answered
        k.wait_until_waiting(comm)
    reply(k, window, "submit", answers["How long may the deployment window stay open?"])
    reply(k, environment, "submit", answers["Which environment?"])
    confirm = form_widget(k, "Deploy to production now?")
    assert [field["name"] for field in confirm.state["_fields"]] == ["confirm", "reason"]
    reply(k, confirm, "submit", {"confirm": True, "reason": "ship it"})
    assert received(k.result(cell, 30)) == {
        "calls": 3,
        "target": {"action": "accept", "data": {"environment": "production"}},
        "window": {"action": "accept", "data": {"hours": 4}},
        "confirm": {"action": "accept", "data": {"confirm": True, "reason": "ship it"}},
        "protocol": "2026-07-28",
        "retried": True,
    }
    # The history keeps the first round's two forms as one batch; the next round's waited alone.
    batches = printed_json(
        k.run_ok("print(json.dumps({e.asked['message']: e.outcome.batch_id for e in nbask.history()[-3:]}))")
    )
    assert set(batches) == {*answers, "Deploy to production now?"}
    assert batches["Which environment?"] is not None
    assert batches["Which environment?"] == batches["How long may the deployment window stay open?"]
    assert batches["Deploy to production now?"] is None


# -- fastmcp and pydantic-ai in the kernel -----------------------------------------------------


def test_fastmcp_client_in_the_cell(k: KernelHarness):
    cell = k.execute(
        "import fastmcp\n"
        "from fastmcp.client.transports import StdioTransport\n"
        "transport = StdioTransport(command=sys.executable, args=[SERVER_SCRIPT])\n"
        "async with fastmcp.Client(transport, elicitation_handler=nbask.mcp.fastmcp_handler) as client:\n"
        "    result = await client.call_tool('configure_deployment', {})\n"
        "show(result)\n"
    )
    reply(k, form_widget(k), "submit", VALUES)
    server = received(k.result(cell, 30))
    assert (server["action"], server["content"]) == ("accept", VALUES)
    assert types_of(server["content"]) == {name: TYPES.get(name, str) for name in VALUES}


PYDANTIC_AI_CELL = """\
import warnings
from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel

read_back = []

def respond(messages, info):
    returns = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
    if not returns:
        return ModelResponse(parts=[ToolCallPart("configure_deployment", {}, tool_call_id="call_1")])
    read_back.extend(p.content for p in returns)
    return ModelResponse(parts=[TextPart("configured")])

# init_timeout=None: pydantic-ai bounds the connect by 5 s by default, and that bound covers the
# server process's start (a cold Python importing the MCP SDK: 2.5-5 s on a loaded machine);
# none of nbask runs in it. The other clients in this file have no connect bound either.
toolset = MCPToolset(StdioTransport(command=sys.executable, args=[SERVER_SCRIPT]),
                     elicitation_handler=nbask.mcp.fastmcp_handler, init_timeout=None)
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "`elicitation_handler` will never be called")
    run = await Agent(FunctionModel(respond), toolsets=[toolset]).run("Deploy the checkout service.")
assert run.output == "configured", run.output
print(json.dumps(read_back))
"""


def test_pydantic_ai_agent_in_the_cell(k: KernelHarness):
    pytest.importorskip("pydantic_ai")
    cell = k.execute(PYDANTIC_AI_CELL)
    reply(k, form_widget(k), "submit", VALUES)
    result = k.result(cell, 60)
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    (content,) = json.loads(result.stdout.strip().splitlines()[-1])
    server = json.loads(content)
    assert (server["action"], server["content"]) == ("accept", VALUES)
    assert types_of(server["content"]) == {name: TYPES.get(name, str) for name in VALUES}
