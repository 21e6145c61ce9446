"""A2A's own server, in process, for the tests of nbask.integrations.a2a: a scripted
``AgentExecutor`` behind a2a-sdk's ``DefaultRequestHandler`` and its JSON-RPC and agent-card
routes in a Starlette app, reached by a2a-sdk's ``ClientFactory`` through an
``httpx.AsyncClient`` on ``httpx.ASGITransport`` (as a2a-sdk's own end-to-end tests do): no
network port, the real protocol on both sides.

The agent (a restaurant booking) asks its ``asks`` in turn: each round it streams a working
status with text, then goes to ``input-required`` with that ask's parts; every message it gets
is recorded in ``received`` (its parts as plain data, task id, context id, metadata), every
JSON-RPC call the client makes in ``calls``, every cancel in ``cancelled``. Once all are
answered it adds an artifact of what it received and completes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.helpers import new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Part
from a2a.utils import TransportProtocol
from a2a.utils.constants import PROTOCOL_VERSION_CURRENT
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.struct_pb2 import Value
from starlette.applications import Starlette

__all__ = ["BOOKING_FORM", "Agent", "data", "form", "text"]

URL = "http://testserver"

#: A JSON Schema form the agent asks with (in a data part): date, party size, terrace.
BOOKING_FORM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "date": {"type": "string", "format": "date", "title": "Date"},
        "guests": {"type": "integer", "minimum": 1, "maximum": 12, "title": "Guests", "default": 2},
        "terrace": {"type": "boolean", "title": "Terrace", "default": False},
    },
    "required": ["date", "guests"],
}


def text(value: str) -> Part:
    return Part(text=value)


def data(value: Any) -> Part:
    return Part(data=ParseDict(value, Value()))


def form(message: str, schema: dict[str, Any]) -> list[Part]:
    """An ask of a typed form: the text, and the schema as a data part of its own."""
    return [text(message), data(schema)]


def plain(part: Part) -> dict[str, Any]:
    """A part as plain data: {"text": ...}, {"data": ...} (numbers as protobuf reads them)."""
    if part.HasField("data"):
        return {"data": MessageToDict(part.data)}
    return {"text": part.text}


@dataclass
class Agent(AgentExecutor):
    """The scripted agent; ``client()`` gives an a2a-sdk client that reaches it in process."""

    asks: Sequence[Sequence[Part]] = ()
    streaming: bool = True
    received: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        assert message is not None
        self.received.append(
            {
                "parts": [plain(part) for part in message.parts],
                "task_id": message.task_id,
                "context_id": message.context_id,
                "metadata": MessageToDict(message.metadata),
            }
        )
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        done = sum(1 for got in self.received if got["task_id"] == task.id) - 1
        await updater.start_work(updater.new_agent_message([text(f"Working on step {done + 1}.")]))
        if done < len(self.asks):
            await updater.requires_input(updater.new_agent_message(list(self.asks[done])))
            return
        await updater.add_artifact([text(f"Booked after {done} answers.")], name="booking")
        await updater.complete(updater.new_agent_message([text("Your table is booked.")]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        del event_queue  # the handler marks the task cancelled itself
        assert context.task_id is not None
        self.cancelled.append(context.task_id)

    def card(self) -> AgentCard:
        return AgentCard(
            name="Booking agent",
            description="Books restaurant tables (scripted).",
            version="1.0.0",
            capabilities=AgentCapabilities(streaming=self.streaming),
            default_input_modes=["text/plain", "application/json"],
            default_output_modes=["text/plain"],
            supported_interfaces=[
                AgentInterface(
                    protocol_binding=TransportProtocol.JSONRPC, url=URL, protocol_version=PROTOCOL_VERSION_CURRENT
                )
            ],
            skills=[AgentSkill(id="book", name="Book a table", description="Books a table.", tags=["booking"])],
        )

    def app(self) -> Starlette:
        handler = DefaultRequestHandler(agent_executor=self, task_store=InMemoryTaskStore(), agent_card=self.card())
        routes = [*create_agent_card_routes(agent_card=self.card()), *create_jsonrpc_routes(handler, rpc_url="/")]
        return Starlette(routes=routes)

    def http(self) -> httpx.AsyncClient:
        """An httpx client that reaches the app in process, recording each JSON-RPC call."""

        async def record(request: httpx.Request) -> None:
            if request.method == "POST":
                self.calls.append(json.loads(request.content))

        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app()), base_url=URL, event_hooks={"request": [record]}
        )

    def client(self) -> Client:
        return ClientFactory(ClientConfig(httpx_client=self.http())).create(self.card())

    @property
    def methods(self) -> list[str]:
        return [call["method"] for call in self.calls]
