"""Google ADK's own pauses answered in the cell: ``run(runner, ...)`` runs a ``Runner`` and answers
each ``adk_request_confirmation`` with an nbask approval (or, when the tool asks for values, a
form) and each ``adk_request_input`` with a form.

The ADK pauses an invocation on a long-running function call that the client must answer with a
``FunctionResponse`` of the same id. ``run`` yields every event of ``runner.run_async``; when the
run pauses on such calls it asks the person, then runs the runner again with the answers as the
new message, until the agent stops asking.

- ``adk_request_confirmation`` of a tool made with ``require_confirmation=True``: an approval
  titled "Call <tool>", its details the call's arguments as JSON. The answer is the
  ``ToolConfirmation`` (``confirmed``) the ADK reads.
- ``adk_request_confirmation`` of a tool that calls ``tool_context.request_confirmation(hint=...,
  payload=...)`` with a flat payload (``{"approved_days": 0}``): the payload's values are what the
  tool asks for, so, as in the ADK's own web UI, they are asked as a typed form prefilled with the
  payload (an integer stays an integer field, a boolean a checkbox, text a text field), the hint
  as its message and the call below it. Submit confirms with the values as typed. A payload the
  form cannot show (nested, a list, null) is asked as an approval of ``{"arguments": ...,
  "payload": ...}`` whose payload the person may edit.
- ``adk_request_input`` (the ``google.adk.tools.request_input`` tool a model calls, or a workflow's
  ``RequestInput``): a typed form of its ``response_schema``; an object schema's values are the
  response, any other schema is one field whose value is sent as ``{"result": value}``. The ADK
  checks the answer against the schema, so a declined form cannot be sent: it is left unanswered.

Silence is never consent: a reject, a dismiss, a timeout, an unattended policy (``recommended``
never submits a confirmation's form, defaults or not), no one to ask, or an edit that cannot be
applied answers ``confirmed=False``, so the tool does not run; a replay miss raises
``nbask.ReplayMissing``; a kernel interrupt propagates. The ``ToolConfirmation`` has no field for
a reason: the model reads the ADK's own "This tool call is rejected." (or what a
``request_confirmation`` tool returns), and nbask's reason stays in the history.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import aclosing
from typing import Any

from google.adk.events.event import Event
from google.adk.runners import Runner
from google.genai import types

from ..contract import MAX_DETAILS_CHARS
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..forms import FormSchemaError
from ..identity import checked_approvers
from ..kinds import FormRequest
from ..kinds.form.request import form_request
from ..models import MAX_ACTION_CHARS, Decision
from . import _seam
from ._seam import Asking, EditNotUsable, answerable_by, approval, drive, drive_sync, edited_arguments, together

__all__ = [
    "CONFIRMATION",
    "INPUT",
    "confirmation_response",
    "input_response",
    "requests_of",
    "resolve",
    "resolve_sync",
    "run",
]

log = logging.getLogger("nbask.integrations")

#: The ADK's names for its client-answered function calls.
CONFIRMATION = "adk_request_confirmation"
#: The ADK's name for a request for input (``request_input``), answered with a typed form.
INPUT = "adk_request_input"
#: How the ADK's own hint for a ``require_confirmation=True`` tool starts (written for developers,
#: not for the person, so nbask shows "Call <tool>" instead).
_ADK_DEFAULT_HINT = "Please approve or reject the tool call "
#: What a single-value input is sent as, and the field it is shown in.
_RESULT = "result"
#: The keys that a rerun must not repeat (they belong to the first message).
_FIRST_RUN_ONLY = ("invocation_id", "state_delta")
#: A payload value's JSON Schema type in a confirmation's form (bool before int: bool is an int).
_FIELD_TYPES: tuple[tuple[type, str], ...] = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


async def run(
    runner: Runner,
    *,
    user_id: str,
    session_id: str,
    new_message: types.Content | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    **kwargs: Any,
) -> AsyncIterator[Event]:
    """Yield the events of ``runner.run_async(...)``, answering the ADK's pauses in the cell.

    ``runner.run_async(user_id=..., session_id=..., new_message=..., **kwargs)`` runs; each
    ``adk_request_confirmation`` maps to an nbask
    approval or form (``confirmation_response``), each ``adk_request_input`` to a typed form
    (``input_response``). The answers go back as one user message of FunctionResponses to a new
    ``run_async`` (``run_config`` and the other options are passed again; ``invocation_id`` and
    ``state_delta`` only the first time), until a run ends without asking. Other long-running
    calls, and input the person declined, are left unanswered: the run ends paused on them, as the
    ADK leaves it for a client that has not answered. ``timeout`` (seconds) applies to each ask;
    ``approvers``: only these people may answer them::

        async for event in nbask.integrations.google_adk.run(
            runner, user_id="u", session_id=s.id, new_message=message
        ):
            ...
    """
    checked = checked_approvers(approvers)
    options = dict(kwargs)
    message = new_message
    while True:
        pending: list[types.FunctionCall] = []
        stream = runner.run_async(user_id=user_id, session_id=session_id, new_message=message, **options)
        async with aclosing(stream) as events:
            async for event in events:
                yield event
                pending.extend(requests_of(event))
        parts = await resolve(pending, timeout=timeout, approvers=checked)
        if not parts:
            return
        message = types.Content(role="user", parts=parts)
        options = {key: value for key, value in options.items() if key not in _FIRST_RUN_ONLY}


def requests_of(event: Event) -> list[types.FunctionCall]:
    """The calls of ``event`` that ``run`` answers: confirmations and input requests the ADK
    marked long-running (an ``adk_request_input`` also without the mark, as the ADK accepts).
    """
    waiting = set(event.long_running_tool_ids or ())
    return [
        call
        for call in event.get_function_calls()
        if call.id and ((call.name == CONFIRMATION and call.id in waiting) or call.name == INPUT)
    ]


async def resolve(
    calls: list[types.FunctionCall],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> list[types.Part]:
    """The FunctionResponse parts answering ``calls`` (``requests_of`` an event), asked together:
    a pause's parallel confirmations and input requests are shown at once and answered in any
    order; a call left unanswered (declined input, another long-running call) gets no part.
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with answerable_by(approvers):
        return _parts(calls, await drive(together([_answering(call, timeout=timeout) for call in calls])))


def resolve_sync(
    calls: list[types.FunctionCall],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> list[types.Part]:
    """The blocking twin of ``resolve``, for ``Runner.run``'s synchronous loop."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with answerable_by(approvers):
        return _parts(calls, drive_sync(together([_answering(call, timeout=timeout) for call in calls])))


def _parts(calls: list[types.FunctionCall], responses: list[dict[str, Any] | None]) -> list[types.Part]:
    return [
        types.Part(function_response=types.FunctionResponse(id=call.id, name=call.name, response=response))
        for call, response in zip(calls, responses, strict=True)
        if response is not None
    ]


def _answering(call: types.FunctionCall, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[dict[str, Any] | None]:
    """The Asking of one confirmation or input request: what the ADK is sent (None: nothing)."""
    if call.name == CONFIRMATION:
        return (yield from _confirming(call.args or {}, timeout=timeout))
    return (yield from _inputting(call.args or {}, tool_call_id=call.id, timeout=timeout))


# -- adk_request_confirmation -> an approval, or a form of the payload --------------------------


async def confirmation_response(
    args: Mapping[str, Any], *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
) -> dict[str, Any]:
    """Map an ``adk_request_confirmation`` call's args (``originalFunctionCall``,
    ``toolConfirmation``) to an nbask approval or form, and its outcome to the
    ``ToolConfirmation`` dict the ADK reads: ``{"confirmed": bool}`` plus ``"payload"`` when the
    tool gave one (the submitted values when confirmed, the tool's own payload when not).
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with answerable_by(approvers):
        return await drive(_confirming(args, timeout=timeout))


def _confirming(args: Mapping[str, Any], *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[dict[str, Any]]:
    """The Asking behind ``confirmation_response``."""
    original = _mapping(args.get("originalFunctionCall"), "originalFunctionCall")
    confirmation = _mapping(args.get("toolConfirmation", {}), "toolConfirmation")
    name = original.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("adk_request_confirmation: originalFunctionCall.name must be a non-empty string")
    arguments = dict(_mapping(original.get("args") or {}, "originalFunctionCall.args"))
    payload = confirmation.get("payload")
    hint = " ".join(str(confirmation.get("hint") or "").split())
    call_id = original.get("id") if isinstance(original.get("id"), str) else None
    form = _payload_form(name, hint, arguments, payload, timeout=timeout, tool_call_id=call_id)
    if form is not None:
        submitted = yield from _seam.ask(form)
        if submitted.action != "accept":
            return {"confirmed": False, "payload": payload}
        # A text field left blank is sent as "", so the tool finds every key of its payload.
        typed = {field.name: submitted.values.get(field.name, "") for field in form.form.fields}
        return {"confirmed": True, "payload": typed}
    has_payload = payload is not None
    details = _json({"arguments": arguments, "payload": payload}) if has_payload else _json(arguments)
    schema = _payload_schema(arguments) if has_payload else None
    asked = approval(_title(name, hint), details, timeout=timeout, tool_call_id=call_id, schema=schema)
    decision = yield from _seam.ask(asked)
    confirmed, payload = _confirmed_payload(decision, arguments, payload, has_payload=has_payload)
    response: dict[str, Any] = {"confirmed": confirmed}
    if has_payload:
        response["payload"] = payload
    return response


def _payload_form(
    name: str,
    hint: str,
    arguments: dict[str, Any],
    payload: object,
    *,
    timeout: float | None,
    tool_call_id: str | None,
) -> FormRequest | None:
    """The form asking for a flat payload's values, prefilled with them (a FormRequest that the
    'recommended' policy never submits), or None when the payload is not a flat object of
    numbers, booleans and text that a form can show.
    """
    if not isinstance(payload, Mapping) or not payload:
        return None
    properties: dict[str, Any] = {}
    for key, value in payload.items():
        kind = next((kind for type_, kind in _FIELD_TYPES if isinstance(value, type_)), None)
        if not isinstance(key, str) or kind is None:
            return None
        properties[key] = {"type": kind, "title": key.replace("_", " ").strip().capitalize() or key, "default": value}
    # Text may be left blank (sent as ""); a number must be given; a checkbox always has a value.
    required = [key for key, prop in properties.items() if prop["type"] in ("integer", "number")]
    heading = hint if hint and not hint.startswith(_ADK_DEFAULT_HINT) else f"{name} asks for these values to run."
    message = f"{heading}\n\nCall {name}({_json(arguments, indent=None)})"
    message = _seam.clip(message, MAX_DETAILS_CHARS)
    try:
        schema = {"type": "object", "properties": properties, "required": required}
        request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id)
    except FormSchemaError as error:
        log.info("nbask: the payload of %s is asked as an approval: %s", name, error)
        return None
    request.confirmation = True
    return request


def _payload_schema(arguments: dict[str, Any]) -> dict[str, Any]:
    """The edits a payload approval can apply, as a JSON Schema: a "payload" of any form, and the
    arguments (if kept) exactly as shown; an edit outside it is refused and the approval stays open.
    """
    shown = json.loads(_json(arguments))
    return {"type": "object", "properties": {"arguments": {"const": shown}, "payload": {}}, "required": ["payload"]}


def _title(name: str, hint: str) -> str:
    title = f"Call {name}"
    if hint and not hint.startswith(_ADK_DEFAULT_HINT):
        title = f"{title}: {hint}"
    return _seam.clip(title, MAX_ACTION_CHARS)


def _confirmed_payload(
    decision: Decision, arguments: dict[str, Any], payload: Any, *, has_payload: bool
) -> tuple[bool, Any]:
    """Whether the Decision confirms the call, and the payload to send with it."""
    if decision.decision == "reject":
        return False, payload
    if decision.decision == "approve" or decision.edited is None:
        return True, payload
    # The ADK reruns a confirmed call with its original arguments: only a payload can change.
    if not has_payload:
        log.info("nbask: an edit of a call without a payload cannot be applied; not confirmed")
        return False, payload
    try:
        edited = edited_arguments(decision)
    except EditNotUsable as why:
        log.info("nbask: the edited confirmation is not confirmed: %s", why)
        return False, payload
    if "payload" not in edited or edited.get("arguments", arguments) != arguments:
        log.info("nbask: the edited confirmation changes the arguments or has no payload; not confirmed")
        return False, payload
    return True, edited["payload"]


# -- adk_request_input -> a form --------------------------------------------------------------


async def input_response(
    args: Mapping[str, Any],
    *,
    tool_call_id: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> dict[str, Any] | None:
    """Map an ``adk_request_input`` call's args (``message``, ``response_schema``) to an nbask
    form, and its FormAnswer to the response the ADK reads: an object schema's values as they
    are, any other schema (or none: free text) as one field sent as ``{"result": value}``.

    None for a declined or cancelled form (and when no one can be asked): the ADK checks every
    answer against the schema, so there is no "declined" answer to send, and the request stays
    unanswered. A schema outside nbask's form subset raises FormSchemaError naming the property
    and the rule. ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with answerable_by(approvers):
        return await drive(_inputting(args, tool_call_id=tool_call_id, timeout=timeout))


def _inputting(
    args: Mapping[str, Any], *, tool_call_id: str | None = None, timeout: float | None = DEFAULT_TIMEOUT
) -> Asking[dict[str, Any] | None]:
    """The Asking behind ``input_response``."""
    message = str(args.get("message") or "Input requested")
    schema = args.get("response_schema")
    single = not (isinstance(schema, Mapping) and schema.get("type") == "object")
    if single:
        field = dict(schema) if isinstance(schema, Mapping) else {"type": "string"}
        field.setdefault("title", "Your answer")
        schema = {"type": "object", "properties": {_RESULT: field}, "required": [_RESULT]}
    if not isinstance(schema, Mapping):
        raise TypeError("adk_request_input: response_schema must be a JSON Schema object")
    form_answer = yield from _seam.ask(form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id))
    if form_answer.action != "accept":
        return None
    if single:
        return {_RESULT: form_answer.values.get(_RESULT)}
    return dict(form_answer.values)


# -- helpers ----------------------------------------------------------------------------------


def _mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"adk_request_confirmation: {field} must be an object, got {type(value).__name__}")
    return value


def _json(value: object, indent: int | None = 2) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=False, default=repr)
