"""A2A (Agent2Agent) tasks answered in the cell: ``send`` sends a message to an A2A agent with
a2a-sdk's client, streams the task, and each time the task goes to ``input-required`` asks the
agent's message in the cell and sends the answer back in the same task and context, until the
task ends; it returns the final ``Task`` (artifacts, history) as the agent's server holds it.

::

    task = await nbask.integrations.a2a.send("http://localhost:9999", "Book a table for two")
    task = nbask.integrations.a2a.send_sync(client, "Book a table for two")  # blocking

``agent`` is an a2a-sdk ``Client`` (``ClientFactory(...).create(card)``, ``create_client``), an
``AgentCard`` or the agent's URL (its card read from ``/.well-known/agent-card.json``; the
client made with ``client_config=`` and closed at the end). The status text the task streams
(``working`` updates and the like) is printed in the cell as text (``show=False``: quiet).

What an ``input-required`` status message asks:

- A data part that carries a JSON Schema object is a typed form: the data is the schema itself
  (``{"type": "object", "properties": {...}}``), or holds it under ``"schema"`` or
  ``"requestedSchema"`` (``"message"`` its text), or is the A2A samples' form (``{"type":
  "form", "form": schema, "form_data": values, "instructions": text}``, the values prefilled).
  The message's text parts are the form's message. Only the first such part is asked; nbask's
  form subset applies (a flat object of simple fields); a schema outside it is asked as text,
  saying so. The answer is one data part: the values by field name.
- Anything else is a text question: the text parts (other data shown as JSON, files by name)
  and one text box. The answer is one text part.

Every reply goes in the same task (``task_id``) and context (``context_id``), its metadata
``{"nbask": {"answered_by": "person" | "policy" | "replay"}}``. Each request is recorded in
``nbask.history()`` with the task id as its ``tool_call_id``.

Not answered (the person dismissed it, a timeout, a headless policy that declines, no one to
ask): with ``unanswered="cancel"`` (the default) the task is cancelled (``tasks/cancel``, its
metadata ``{"nbask": {"reason": ..., "status": ..., "answered_by": ...}}``) and the cancelled
task returned; with ``unanswered="reply"`` a refusal goes back in the task instead (a text part
"Not answered: <why>", metadata ``answered: false``, ``status``, ``reason``) and the agent
decides, and if the agent then asks again and that is not answered either, the task is
cancelled (so a headless run never loops). Under the ``recommended`` policy a form whose
required fields all have defaults is sent with them; a text question is declined. An agent
that refuses to cancel leaves the task ``input-required``; that task is returned.

A replay miss raises ``nbask.ReplayMissing``, and an interrupt raises ``KeyboardInterrupt``:
both cancel the task first. ``resolve`` / ``resolve_sync`` answer one ``input-required`` task
(or ``TaskStatusUpdateEvent``) and return the ``Message`` to send, for a caller that streams
itself.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from functools import partial

from a2a.client import Client, ClientConfig, create_client
from a2a.types import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    Task,
    TaskState,
    TaskStatusUpdateEvent,
)
from a2a.utils.errors import A2AError

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import AskedAgain
from .. import _seam
from ._parts import METADATA_KEY, Reply, Unanswered, answering, check_unanswered, reply_message, text_of

__all__ = ["resolve", "resolve_sync", "send", "send_sync"]

log = logging.getLogger("nbask.integrations")

#: The states a task does not leave.
ENDED = (
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
)
INTERRUPTED = "The person interrupted the kernel while the task was running."


def _sending(
    agent: Client | AgentCard | str,
    message: str | Message,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    unanswered: Unanswered = "cancel",
    context_id: str | None = None,
    show: bool = True,
    client_config: ClientConfig | None = None,
) -> _seam.Asking[Task | Message]:
    """Send ``message`` to ``agent`` and answer every ``input-required`` of its task in the cell
    (``timeout`` seconds each) until the task ends; returns the final ``Task`` (an agent that
    answers with a ``Message`` and no task returns that message). ``context_id`` continues a
    conversation; ``approvers``: only these people may answer; see the module docstring for the
    rest.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    first, unanswered = _first(message, context_id), check_unanswered(unanswered)
    session: _Session = yield _seam.Work(partial(_Session.open, agent, client_config, show=show))
    try:
        ended = yield from _conversation(session, first, timeout, unanswered)
    except GeneratorExit:
        raise
    except BaseException as error:
        try:
            yield _seam.Work(partial(session.stop, error))
        finally:
            yield _seam.Work(session.close)
        raise
    yield _seam.Work(session.close)
    return ended


send, send_sync = _seam.twins(
    _sending,
    "send",
    """The blocking twin of ``send``: the client runs on an event loop of its own in a worker
    thread (so it works inside a cell's running loop too), and the person is asked from this
    thread, in the cell. A ``Client`` given here must not have been used on another loop yet.
    """,
)


async def resolve(
    task: Task | TaskStatusUpdateEvent,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    unanswered: Unanswered = "cancel",
) -> Message | None:
    """Ask what one ``input-required`` task (or status update) asks and return the ``Message``
    that answers it in the same task and context, for ``client.send_message``. Not answered:
    None (``unanswered="cancel"``: cancel the task yourself) or the refusal (``"reply"``).
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    asked = _as_task(task)
    with _seam.answerable_by(approvers):
        reply = await _seam.drive(answering(asked, timeout))
    return _resolved(asked, reply, check_unanswered(unanswered))


def resolve_sync(
    task: Task | TaskStatusUpdateEvent,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    unanswered: Unanswered = "cancel",
) -> Message | None:
    """The blocking twin of ``resolve``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    asked = _as_task(task)
    with _seam.answerable_by(approvers):
        reply = _seam.drive_sync(answering(asked, timeout))
    return _resolved(asked, reply, check_unanswered(unanswered))


def _resolved(task: Task, reply: Reply, unanswered: Unanswered) -> Message | None:
    if reply.parts is None and unanswered == "cancel":
        return None
    return reply_message(task, reply)


def _as_task(task: Task | TaskStatusUpdateEvent) -> Task:
    if isinstance(task, Task):
        return task
    if isinstance(task, TaskStatusUpdateEvent):
        return Task(id=task.task_id, context_id=task.context_id, status=task.status)
    msg = f"task must be an a2a Task or TaskStatusUpdateEvent, got {type(task).__name__}"
    raise TypeError(msg)


# -- the conversation ------------------------------------------------------------------------------


def _conversation(
    session: _Session, first: Message, timeout: float | None, unanswered: Unanswered
) -> _seam.Asking[Task | Message]:
    """Send ``first``; while the task is ``input-required``, ask and answer in the same task;
    not answered, cancel (or refuse once, then cancel). Returns the final task (or message).
    """
    result: Task | Message = yield _seam.Work(partial(session.round, first))
    refused = False
    while isinstance(result, Task) and result.status.state == TaskState.TASK_STATE_INPUT_REQUIRED:
        try:
            reply: Reply = yield from answering(result, timeout)
        except AskedAgain as again:  # unattended, the agent asked again what a policy refused
            why = {"reason": str(again), "status": "dismissed", "answered_by": "policy"}
            stopped: Task = yield _seam.Work(partial(session.cancel, result, why))
            return stopped
        if reply.parts is None and (unanswered == "cancel" or refused):
            ended: Task = yield _seam.Work(partial(session.cancel, result, reply.reason()))
            return ended
        refused = reply.parts is None
        result = yield _seam.Work(partial(session.round, reply_message(result, reply)))
    return result


def _first(message: str | Message, context_id: str | None) -> Message:
    if isinstance(message, str):
        if not message.strip():
            msg = "message must not be empty"
            raise ValueError(msg)
        first = Message(role=Role.ROLE_USER, parts=[Part(text=message)])
    elif isinstance(message, Message):
        first = Message()
        first.CopyFrom(message)
        if first.role == Role.ROLE_UNSPECIFIED:
            first.role = Role.ROLE_USER
    else:
        msg = f"message must be text or an a2a Message, got {type(message).__name__}"
        raise TypeError(msg)
    first.message_id = first.message_id or str(uuid.uuid4())
    if context_id is not None:
        first.context_id = context_id
    return first


# -- the client side: one round of streaming, a cancel ------------------------------------------


class _Session:
    """An a2a-sdk client and the task it is on (its id and last known state)."""

    def __init__(self, client: Client, *, owned: bool, show: bool) -> None:
        self.client, self.owned, self.show = client, owned, show
        self.task_id = ""
        self.state: TaskState = TaskState.TASK_STATE_UNSPECIFIED

    @classmethod
    async def open(cls, agent: Client | AgentCard | str, config: ClientConfig | None, *, show: bool) -> _Session:
        if isinstance(agent, Client):
            return cls(agent, owned=False, show=show)
        if isinstance(agent, AgentCard | str):
            return cls(await create_client(agent, client_config=config), owned=True, show=show)
        msg = f"agent must be an a2a Client, an AgentCard or the agent's URL, got {type(agent).__name__}"
        raise TypeError(msg)

    async def round(self, message: Message) -> Task | Message:
        """Send ``message`` and stream until the agent stops (an ended or interrupted state);
        returns the task as the agent holds it then (or the agent's message, without a task).
        """
        self.state = TaskState.TASK_STATE_WORKING
        async for event in self.client.send_message(SendMessageRequest(message=message)):
            kind = event.WhichOneof("payload")
            if kind == "message":
                return event.message
            if kind == "task":
                self.task_id, status = event.task.id, event.task.status
            elif kind == "status_update":
                self.task_id, status = event.status_update.task_id, event.status_update.status
            else:
                continue
            self.state = status.state
            if self.show and status.state != TaskState.TASK_STATE_INPUT_REQUIRED and status.HasField("message"):
                shown = text_of(status.message)
                if shown:
                    print(shown, flush=True)  # noqa: T201 - the agent's status, as text in the cell
        task = await self.client.get_task(GetTaskRequest(id=self.task_id or message.task_id))
        self.task_id, self.state = task.id, task.status.state
        return task

    async def cancel(self, task: Task, why: dict[str, str]) -> Task:
        """Cancel ``task``, saying ``why`` in its metadata; returns the task as it then is."""
        try:
            ended = await self.client.cancel_task(CancelTaskRequest(id=task.id, metadata={METADATA_KEY: why}))
        except A2AError as error:
            log.warning("nbask: the agent did not cancel task %s (%s); it is left input-required", task.id, error)
            return task
        self.state = ended.status.state
        return ended

    async def stop(self, error: BaseException) -> None:
        """On an error or interrupt: cancel the task if it is still going (best effort)."""
        if not self.task_id or self.state in ENDED:
            return
        reason = INTERRUPTED if isinstance(error, KeyboardInterrupt) else f"{type(error).__name__}: {error}"
        metadata = {METADATA_KEY: {"reason": reason[:500], "status": "cancelled"}}
        try:
            await self.client.cancel_task(CancelTaskRequest(id=self.task_id, metadata=metadata))
        except Exception as failed:  # noqa: BLE001 - the error being raised matters more
            log.warning("nbask: could not cancel task %s: %s", self.task_id, failed)
        else:
            self.state = TaskState.TASK_STATE_CANCELED

    async def close(self) -> None:
        if self.owned:
            await self.client.close()
