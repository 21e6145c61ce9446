"""What an A2A task's ``input-required`` status asks, as an nbask request, and the message its
outcome sends back in the same task (see ``nbask.integrations.a2a`` for the mapping).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from a2a.helpers import get_data_parts, new_data_part
from a2a.types import Message, Part, Role, Task

from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT
from ...forms import FormSchemaError
from ...kinds import FormRequest
from ...kinds.form.request import form_request
from ...models import FormAnswer
from .. import _seam

log = logging.getLogger("nbask.integrations")

#: The one field of a text answer's form.
TEXT_FIELD = "answer"
#: The key of nbask's own entry in a reply's (and a cancel's) metadata.
METADATA_KEY = "nbask"
#: What a typed form says when the agent's message has no text of its own.
FORM_MESSAGE = "The agent asks for these values."
#: What a text question says when the agent's message has no text at all.
TEXT_MESSAGE = "The agent needs more input to go on."

Unanswered = Literal["cancel", "reply"]
UNANSWERED: tuple[Unanswered, ...] = ("cancel", "reply")


@dataclass(frozen=True)
class Reply:
    """One ``input-required`` status answered: the parts to send back in the task (None when it
    was not answered: declined, timed out, a policy, no one to ask) and the form's outcome.
    """

    parts: list[Part] | None
    outcome: FormAnswer

    @property
    def why(self) -> str:
        """Why it was not answered, in nbask's words."""
        return self.outcome.note.strip() or f"the request ended {self.outcome.status}"

    def reason(self) -> dict[str, str]:
        """Why it was not answered, as a cancellation's metadata says it."""
        return {"reason": self.why, "status": self.outcome.status, "answered_by": self.outcome.answered_by}


def check_unanswered(unanswered: str) -> Unanswered:
    if unanswered not in UNANSWERED:
        msg = f"unanswered must be one of {', '.join(map(repr, UNANSWERED))}, got {unanswered!r}"
        raise ValueError(msg)
    return unanswered


def answering(task: Task, timeout: float | None = DEFAULT_TIMEOUT) -> _seam.Asking[Reply]:
    """The Asking of one ``input-required`` task: its status message asked as a typed form (a
    data part holding a JSON Schema) or a text question; the reply's parts once answered.
    """
    message = task.status.message if task.status.HasField("message") else Message()
    request, typed = request_for(message, timeout, task.id or None)
    outcome = yield from _seam.ask(request)
    if outcome.status != "answered":
        return Reply(None, outcome)
    if typed:
        return Reply([new_data_part(dict(outcome.values))], outcome)
    return Reply([Part(text=str(outcome.values.get(TEXT_FIELD, "")))], outcome)


def request_for(message: Message, timeout: float | None, tool_call_id: str | None) -> tuple[FormRequest, bool]:
    """The form asking what ``message`` asks, and whether it is the agent's typed form (else a
    one-field text form).
    """
    texts = [part.text.strip() for part in message.parts if part.HasField("text") and part.text.strip()]
    found = form_of(message.parts)
    problem = ""
    if found is not None:
        schema, said = found
        shown = "\n\n".join([*texts, *([said] if said else [])]) or FORM_MESSAGE
        try:
            return form_request(_fit(shown), schema, timeout=timeout, tool_call_id=tool_call_id), True
        except FormSchemaError as error:
            log.warning("nbask: the agent's form is asked as text: %s", error)
            problem = f"(The agent sent a form nbask cannot show: {error}. Answer in words.)"
    shown = "\n\n".join([*texts, *_others(message.parts, skip_forms=not problem), *([problem] if problem else [])])
    schema = {
        "type": "object",
        "properties": {TEXT_FIELD: {"type": "string", "title": "Your answer"}},
        "required": [TEXT_FIELD],
    }
    return form_request(_fit(shown or TEXT_MESSAGE), schema, timeout=timeout, tool_call_id=tool_call_id), False


def form_of(parts: Sequence[Part]) -> tuple[dict[str, Any], str] | None:
    """The first data part that carries a form: (its JSON Schema, the text it carries).

    A data part carries a form when its data is a JSON Schema object (``{"type": "object",
    "properties": {...}}``), holds one under ``"schema"`` or ``"requestedSchema"`` (with
    ``"message"`` as its text), or is the A2A samples' form (``{"type": "form", "form":
    schema, "form_data": values, "instructions": text}``, ``form_data`` prefilling the fields).
    """
    for part in parts:
        if not part.HasField("data"):
            continue
        data = _data(part)
        if not isinstance(data, dict):
            continue
        if _is_schema(data):
            return data, ""
        for key in ("schema", "requestedSchema"):
            if _is_schema(data.get(key)):
                return data[key], _said(data.get("message"))
        if data.get("type") == "form" and _is_schema(data.get("form")):
            return _prefilled(data["form"], data.get("form_data")), _said(data.get("instructions"))
    return None


def reply_message(task: Task, reply: Reply) -> Message:
    """The message that answers ``task`` in the same task and context: the reply's parts, or
    (not answered) a text part saying why; its metadata says who answered.
    """
    outcome = reply.outcome
    about: dict[str, Any] = {"answered_by": outcome.answered_by}
    parts = reply.parts
    if parts is None:
        about.update(answered=False, status=outcome.status, reason=reply.why)
        parts = [Part(text=f"Not answered: {reply.why}")]
    return Message(
        role=Role.ROLE_USER,
        message_id=str(uuid.uuid4()),
        task_id=task.id,
        context_id=task.context_id,
        parts=parts,
        metadata={METADATA_KEY: about},
    )


def text_of(message: Message) -> str:
    """A status message's text parts, for the cell (text only, never markup)."""
    return "\n".join(part.text for part in message.parts if part.HasField("text") and part.text.strip())


# -- reading the agent's data ----------------------------------------------------------------------


def _is_schema(value: object) -> bool:
    return isinstance(value, dict) and value.get("type") == "object" and isinstance(value.get("properties"), dict)


def _said(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _prefilled(schema: dict[str, Any], values: object) -> dict[str, Any]:
    """``schema`` with ``values`` (the form's current data) as its properties' defaults."""
    if not isinstance(values, dict):
        return schema
    properties = {
        name: ({**prop, "default": values[name]} if name in values and values[name] not in (None, "") else prop)
        for name, prop in schema["properties"].items()
    }
    return {**schema, "properties": properties}


def _data(part: Part) -> Any:
    (data,) = get_data_parts([part])
    return _whole(data)


def _whole(value: Any) -> Any:
    """``value`` with whole floats as ints: protobuf's ``Value`` carries every number as a
    double, so a schema's ``"minimum": 1`` arrives as 1.0.
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


def _others(parts: Sequence[Part], *, skip_forms: bool) -> list[str]:
    """The parts a text question shows besides the text: data as JSON, files by name."""
    shown: list[str] = []
    for part in parts:
        if part.HasField("data"):
            data = _data(part)
            if not (skip_forms and form_of([part]) is not None):
                shown.append(json.dumps(data, indent=2, ensure_ascii=False))
        elif part.HasField("url") or part.HasField("raw"):
            name = part.filename or (part.url if part.HasField("url") else "a file")
            shown.append(f"[file: {name}{f' ({part.media_type})' if part.media_type else ''}]")
    return shown


def _fit(text: str) -> str:
    return _seam.clip(text, MAX_DETAILS_CHARS)
