"""nbask.mcp without a kernel: a real MCP server (fixtures/elicit_server.py, the MCP SDK's own
``MCPServer`` run as a stdio subprocess) elicits, and nbask's callbacks answer under the headless
policies, through the MCP SDK's ``Client``, fastmcp's ``Client`` and a pydantic-ai agent's
``MCPToolset``. Every tool returns what the server received, so each test reads the server's
side: the action, the content with its JSON types, and whether it came as an
``elicitation/create`` request ("legacy", 2025-11-25) or in 2026-07-28 input-required rounds
("auto").

One server per client kind and protocol serves the whole module: the clients stay connected
on an event loop of their own (an anyio blocking portal) and the tests call through it. The
configuration and the history are reset around each test by conftest.clean_state.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from support.person import FIXTURES, Person

import nbask
import nbask.mcp
from nbask.kinds import FormRequest
from nbask.kinds.form.request import URL_REPLAYED
from nbask.models import FormAnswer

pytestmark = pytest.mark.headless

mcp = pytest.importorskip("mcp")
fastmcp = pytest.importorskip("fastmcp")
from anyio.from_thread import BlockingPortal, start_blocking_portal  # noqa: E402
from fastmcp.client.transports import StdioTransport  # noqa: E402
from mcp import StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

pytest.importorskip("pydantic_ai")
from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.mcp import MCPToolset  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

SERVER_SCRIPT = str(FIXTURES / "elicit_server.py")
#: mode -> (the protocol the client negotiates with the server, how the elicitation travels)
MODES = {"legacy": ("2025-11-25", "elicitation/create"), "auto": ("2026-07-28", "input_required")}

#: What "recommended" answers to configure_deployment(all_defaults=True): the schema's defaults.
DEFAULTS = {
    "service_name": "checkout",
    "owner_email": "ops@example.com",
    "release_date": "2026-12-01",
    "replicas": 2,
    "cpu_share": 0.5,
    "canary": True,
    "region": "eu-west-1",
    "log_level": "info",
    "channels": ["email"],
}
#: A person's answer to every field of the form, each of its own type.
VALUES = {
    "service_name": "payments",
    "owner_email": "lead@example.org",
    "docs_url": "https://wiki.example.org/payments",
    "release_date": "2027-01-15",
    "window_start": "2027-01-15T06:00:00+00:00",
    "replicas": 7,
    "cpu_share": 0.75,
    "canary": False,
    "region": "ap-south-1",
    "tier": "pro",
    "log_level": "debug",
    "channels": ["slack", "pager"],
}
TYPES = {"replicas": int, "cpu_share": float, "canary": bool, "channels": list}


def types_of(content: dict[str, Any]) -> dict[str, type]:
    return {name: type(value) for name, value in content.items()}


def expected_types(values: dict[str, Any]) -> dict[str, type]:
    return {name: TYPES.get(name, str) for name in values}


def leaves(error: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups."""
    inner = getattr(error, "exceptions", None)  # a BaseExceptionGroup (Python 3.11+, or its backport)
    if isinstance(inner, tuple):
        return [leaf for exception in inner for leaf in leaves(exception)]
    return [error]


def last_entry() -> nbask.HistoryEntry:
    entries = nbask.history()
    assert entries, "nothing was recorded"
    return entries[-1]


# -- the connected clients -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def portal() -> Iterator[BlockingPortal]:
    with start_blocking_portal() as running:
        yield running


@pytest.fixture(scope="module")
def sdk(portal: BlockingPortal) -> Iterator[dict[str, Any]]:
    """The MCP SDK's Client, one per mode, each with its own server, answering with nbask."""
    server = StdioServerParameters(command=sys.executable, args=[SERVER_SCRIPT])
    with ExitStack() as stack:
        clients = {
            mode: stack.enter_context(
                portal.wrap_async_context_manager(
                    mcp.Client(server, mode=mode, elicitation_callback=nbask.mcp.elicitation_callback)
                )
            )
            for mode in MODES
        }
        for mode, client in clients.items():
            assert client.protocol_version == MODES[mode][0]
        yield clients


@pytest.fixture(scope="module")
def fast(portal: BlockingPortal) -> Iterator[dict[str, Any]]:
    """The fastmcp Client, one per mode, answering with nbask.mcp.fastmcp_handler."""
    with ExitStack() as stack:
        clients = {
            mode: stack.enter_context(
                portal.wrap_async_context_manager(
                    fastmcp.Client(
                        StdioTransport(command=sys.executable, args=[SERVER_SCRIPT]),
                        mode=mode,
                        elicitation_handler=nbask.mcp.fastmcp_handler,
                    )
                )
            )
            for mode in MODES
        }
        yield clients


class Caller:
    """Calls a tool through a connected client; returns what the server received."""

    def __init__(self, portal: BlockingPortal, clients: dict[str, Any]) -> None:
        self.portal, self.clients = portal, clients

    def __call__(self, tool: str, args: dict[str, Any] | None = None, *, mode: str = "legacy") -> dict[str, Any]:
        result = self.portal.call(self.clients[mode].call_tool, tool, args or {})
        assert not result.is_error, result.content
        return json.loads(result.content[0].text)

    def failing(self, tool: str, *, mode: str) -> list[BaseException]:
        """The errors the call raised, out of the client's task groups."""
        try:
            self.portal.call(self.clients[mode].call_tool, tool, {})
        except BaseException as error:  # what was raised is the result
            return leaves(error)
        pytest.fail(f"{tool} did not fail")


@pytest.fixture
def call(portal: BlockingPortal, sdk: dict[str, Any]) -> Caller:
    return Caller(portal, sdk)


@pytest.fixture
def fast_call(portal: BlockingPortal, fast: dict[str, Any]) -> Caller:
    return Caller(portal, fast)


# -- the MCP SDK's Client ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_recommended_accepts_the_defaults_when_every_required_field_has_one(call: Caller, mode: str):
    nbask.configure(policy="recommended")
    received = call("configure_deployment", {"all_defaults": True}, mode=mode)
    assert received == {"action": "accept", "content": DEFAULTS, "via": MODES[mode][1], "protocol": MODES[mode][0]}
    assert types_of(received["content"]) == expected_types(DEFAULTS)
    entry = last_entry()
    assert isinstance(entry.outcome, FormAnswer)
    assert (entry.kind, entry.answered_by, entry.outcome.values) == ("form", "policy", DEFAULTS)


@pytest.mark.parametrize("mode", MODES)
def test_recommended_declines_when_a_required_field_has_no_default(call: Caller, mode: str):
    nbask.configure(policy="recommended")
    received = call("configure_deployment", mode=mode)
    assert (received["action"], received["content"], received["via"]) == ("decline", None, MODES[mode][1])
    entry = last_entry()
    assert entry.answered_by == "policy"
    assert "the required field 'service_name' has no default" in entry.outcome.note


def test_dismiss_policy_declines(call: Caller):
    nbask.configure(policy="dismiss")
    received = call("configure_deployment", {"all_defaults": True})
    assert (received["action"], received["content"]) == ("decline", None)
    assert last_entry().outcome.status == "dismissed"


@pytest.mark.parametrize("mode", MODES)
def test_url_mode_under_recommended_declines_without_opening_the_page(call: Caller, mode: str):
    nbask.configure(policy="recommended")
    received = call("open_login", mode=mode)
    assert received == {"action": "decline", "content": None, "via": MODES[mode][1], "protocol": MODES[mode][0]}
    entry = last_entry()
    assert entry.asked["url"] == "https://deploy.example.com/login?session=abc123"
    assert "never opens a page" in entry.outcome.note


@pytest.mark.parametrize("mode", MODES)
def test_no_one_to_ask_is_mcps_decline_and_recorded_with_nbasks_reason(call: Caller, mode: str):
    """The ``error`` policy (no one can answer here): the server hears MCP's own refusal,
    "decline" with no content, and the history keeps why.
    """
    nbask.configure(policy="error")
    received = call("configure_deployment", {"all_defaults": True}, mode=mode)
    assert received == {"action": "decline", "content": None, "via": MODES[mode][1], "protocol": MODES[mode][0]}
    entry = last_entry()
    assert (entry.kind, entry.answered_by, entry.outcome.status) == ("form", "policy", "dismissed")
    assert entry.outcome.note.startswith("No one could be asked: nbask's policy is 'error'")


def empty_recording(tmp_path: Path) -> Path:
    recording = tmp_path / "empty.jsonl"
    recording.write_text("", encoding="utf-8")
    return recording


def test_a_replay_miss_is_sent_to_the_server_as_an_error(call: Caller, tmp_path: Path):
    """2025-11-25: the callback's ReplayMissing goes back to the server as the client's error
    response (the SDK's code 0 with the exception's text), and the server's call fails with it;
    the server never hears a "decline" it could go on with.
    """
    nbask.configure(policy="replay", replay_file=empty_recording(tmp_path))
    errors = call.failing("configure_deployment", mode="legacy")
    assert [type(error) for error in errors] == [MCPError]
    assert errors[0].error.code == 0
    assert errors[0].error.message.startswith("replay: no recorded answer for the form")
    assert nbask.history() == []


def test_a_replay_miss_in_an_input_required_round_raises_in_the_cell(call: Caller, tmp_path: Path):
    """2026-07-28: the client fulfils the round itself, so the miss stops the call on the client."""
    nbask.configure(policy="replay", replay_file=empty_recording(tmp_path))
    errors = call.failing("configure_deployment", mode="auto")
    assert [type(error) for error in errors] == [nbask.ReplayMissing]
    assert "Configure the deployment of the checkout service" in str(errors[0])


@pytest.mark.parametrize("mode", MODES)
def test_a_replayed_url_request_is_declined_though_the_person_opened_the_page(
    call: Caller, mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Opening a page is the person's act, done then: replaying their "accept" would tell the
    server a page was opened when none was. The replay declines, and its note says why.
    """
    person = Person().answers(lambda request: request.decide({}))  # the person pressed Open
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        live = call("open_login", mode=mode)
    assert live["action"] == "accept"
    assert last_entry().outcome.action == "accept"
    saved = nbask.save_history(tmp_path / "answers.jsonl")

    nbask.configure(policy="replay", replay_file=saved)
    replayed = call("open_login", mode=mode)
    assert replayed == {"action": "decline", "content": None, "via": MODES[mode][1], "protocol": MODES[mode][0]}
    entry = last_entry()
    assert (entry.answered_by, entry.outcome.action) == ("replay", "decline")
    assert entry.outcome.note == URL_REPLAYED


def test_a_schema_outside_the_subset_is_refused_with_the_property_named(call: Caller):
    nbask.configure(policy="recommended")
    received = call("bad_schema")
    # The server hears an error (invalid params) naming the nested property, and nothing was shown.
    assert received["error"]["code"] == -32602
    assert "nbask cannot show this elicitation" in received["error"]["message"]
    assert "'retention'" in received["error"]["message"]
    assert nbask.history() == []


def test_a_schema_outside_the_subset_stops_an_input_required_round_on_the_client(call: Caller):
    nbask.configure(policy="recommended")
    errors = call.failing("bad_schema", mode="auto")
    assert [type(error) for error in errors] == [MCPError]
    assert errors[0].error.code == -32602
    assert "'retention'" in errors[0].error.message
    assert nbask.history() == []


def test_replay_returns_the_recorded_typed_values(call: Caller, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    person = Person().answers(lambda request: request.decide(VALUES))
    with monkeypatch.context() as patched:
        patched.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        # Each recorded answer is handed out once: one recorded answer for each replayed call.
        recorded = [call("configure_deployment", mode=mode) for mode in MODES]
    assert [received["content"] for received in recorded] == [VALUES, VALUES]
    assert isinstance(person.asked[0], FormRequest)
    saved = nbask.save_history(tmp_path / "answers.jsonl")

    nbask.configure(policy="replay", replay_file=saved)
    for mode in MODES:
        replayed = call("configure_deployment", mode=mode)
        assert (replayed["action"], replayed["content"]) == ("accept", VALUES)
        assert types_of(replayed["content"]) == expected_types(VALUES)
        assert last_entry().answered_by == "replay"


@pytest.mark.parametrize(("mode", "calls"), [("legacy", 1), ("auto", 3)])
def test_resolver_elicitations_in_input_required_rounds(call: Caller, mode: str, calls: int):
    """confirm_with_rounds asks three questions through the SDK's resolvers. At 2026-07-28 the
    environment and the window are asked in one round, the go-ahead (which depends on the
    environment) in a second, and the body runs on the third call, which carries request_state;
    on a legacy session each question is a request of its own inside the one call.
    """
    nbask.configure(policy="recommended")
    received = call("confirm_with_rounds", mode=mode)
    assert received == {
        "calls": calls,
        "target": {"action": "accept", "data": {"environment": "staging"}},
        "window": {"action": "accept", "data": {"hours": 2}},
        "confirm": {"action": "accept", "data": {"confirm": False, "reason": ""}},
        "protocol": MODES[mode][0],
        "retried": mode == "auto",
    }
    asked = [entry.asked["message"] for entry in nbask.history()]
    assert sorted(asked[:2]) == ["How long may the deployment window stay open?", "Which environment?"]
    assert asked[2:] == ["Deploy to staging now?"]


# -- fastmcp's Client --------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_fastmcp_client_recommended_accepts_the_defaults(fast_call: Caller, mode: str):
    nbask.configure(policy="recommended")
    received = fast_call("configure_deployment", {"all_defaults": True}, mode=mode)
    assert (received["action"], received["content"], received["via"]) == ("accept", DEFAULTS, MODES[mode][1])
    assert types_of(received["content"]) == expected_types(DEFAULTS)


def test_fastmcp_client_declines_under_dismiss_and_in_url_mode(fast_call: Caller):
    nbask.configure(policy="dismiss")
    assert fast_call("configure_deployment", {"all_defaults": True}, mode="auto")["action"] == "decline"
    nbask.configure(policy="recommended")
    assert fast_call("configure_deployment", mode="auto")["action"] == "decline"
    assert fast_call("open_login", mode="auto")["action"] == "decline"


@pytest.mark.parametrize("mode", MODES)
def test_fastmcp_client_no_one_to_ask_declines_and_a_replay_miss_is_an_error(
    fast_call: Caller, mode: str, tmp_path: Path
):
    nbask.configure(policy="error")
    assert fast_call("configure_deployment", {"all_defaults": True}, mode=mode)["action"] == "decline"
    assert last_entry().outcome.note.startswith("No one could be asked: ")
    nbask.configure(policy="replay", replay_file=empty_recording(tmp_path))
    errors = fast_call.failing("configure_deployment", mode=mode)
    # fastmcp sends its handler's error as an internal error, in both protocols.
    assert [type(error) for error in errors] == [MCPError]
    assert errors[0].error.message.startswith("replay: no recorded answer for the form")


def test_fastmcp_client_refuses_a_schema_outside_the_subset_as_an_error(fast_call: Caller):
    """A refusal reaches the server as an error, never as an "accept" carrying the error's
    fields (fastmcp takes whatever its handler returns that is not an ElicitResult for content).
    """
    nbask.configure(policy="recommended")
    received = fast_call("bad_schema", mode="legacy")
    assert set(received) == {"error"}
    assert "'retention'" in received["error"]["message"]
    assert nbask.history() == []


# -- a pydantic-ai agent's MCPToolset ----------------------------------------------------------


@pytest.mark.filterwarnings("ignore:`elicitation_handler` will never be called:UserWarning")
def test_pydantic_ai_agent_reads_back_what_the_server_received():
    """An agent's (scripted) model calls configure_deployment on the stdio server, the policy
    answers the form through nbask.mcp.fastmcp_handler, and the model reads what the server got.

    pydantic-ai warns that the handler is never called on a modern session; it is, in the
    2026-07-28 rounds fastmcp drives.
    """
    nbask.configure(policy="recommended")
    read_back: list[Any] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        del info
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        returns = [part for part in last.parts if isinstance(part, ToolReturnPart)]
        if not returns:
            args = {"all_defaults": True}
            return ModelResponse(parts=[ToolCallPart("configure_deployment", args, tool_call_id="call_1")])
        read_back.extend(part.content for part in returns)
        return ModelResponse(parts=[TextPart("configured")])

    toolset = MCPToolset(
        StdioTransport(command=sys.executable, args=[SERVER_SCRIPT]), elicitation_handler=nbask.mcp.fastmcp_handler
    )
    result = Agent(FunctionModel(respond), toolsets=[toolset]).run_sync("Deploy the checkout service.")
    assert result.output == "configured"
    assert len(read_back) == 1
    received = json.loads(read_back[0])
    assert (received["action"], received["content"]) == ("accept", DEFAULTS)
    assert types_of(received["content"]) == expected_types(DEFAULTS)
    assert last_entry().answered_by == "policy"
