"""``client_or_url`` and ``task`` for the README's A2A lines: an a2a-sdk ``Client`` that reaches the
tests' scripted A2A agent (tests/integrations/a2a_scripted_agent.py: a2a-sdk's own server and
request handler, in process over ``httpx.ASGITransport``, no network) which asks for a booking
form (a JSON Schema data part, every required field with a default) before it books; ``task``,
another such agent's task as it stands at ``input-required`` (read back with ``get_task``);
``client``, a client of another such agent, for a page's example.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from a2a.types import GetTaskRequest, Message, Part, Role, SendMessageRequest, Task, TaskState

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from a2a_scripted_agent import BOOKING_FORM, Agent, form

__all__ = ["client", "client_or_url", "task"]

#: The booking form, answerable unattended: each required field has a default.
_DETAILS = form("Which date, and where would you like to sit?", {**BOOKING_FORM, "required": ["guests"]})

client_or_url = Agent(asks=[_DETAILS]).client()
client = Agent(asks=[_DETAILS]).client()


async def _paused() -> Task:
    client = Agent(asks=[_DETAILS]).client()
    first = Message(role=Role.ROLE_USER, message_id="m-1", parts=[Part(text="Book a table for two")])
    events = [event async for event in client.send_message(SendMessageRequest(message=first))]
    task_id = next(e.status_update.task_id for e in events if e.HasField("status_update"))
    paused = await client.get_task(GetTaskRequest(id=task_id))
    await client.close()
    return paused


task = asyncio.run(_paused())
assert task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED, task.status
