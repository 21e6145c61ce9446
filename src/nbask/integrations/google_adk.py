"""Google ADK's own pauses answered in the cell: ``run(runner, ...)`` runs a ``Runner`` and answers
each ``adk_request_confirmation`` with an nbask approval and each ``adk_request_input`` with a form.

The ADK pauses an invocation on a long-running function call that the client must answer with a
``FunctionResponse`` of the same id. ``run`` yields every event of ``runner.run_async``; when the
run pauses on such calls it asks the person, then runs the runner again with the answers as the
new message, until the agent stops asking.

- ``adk_request_confirmation`` (a tool made with ``require_confirmation=True``, or one that calls
  ``tool_context.request_confirmation(hint=..., payload=...)``): an approval titled
  "Call <tool>" (plus the hint a tool gave); its details are the call's arguments as JSON, or,
  with a payload, ``{"arguments": ..., "payload": ...}`` of which the person may edit the payload.
  The answer is the ``ToolConfirmation`` (``confirmed``, ``payload``) the ADK reads.
- ``adk_request_input`` (the ``google.adk.tools.request_input`` tool a model calls, or a workflow's
  ``RequestInput``): a typed form of its ``response_schema``; an object schema's values are the
  response, any other schema is one field whose value is sent as ``{"result": value}``. The ADK
  checks the answer against the schema, so a declined form cannot be sent: it is left unanswered.

Silence is never consent: a dismiss, a timeout, an unattended policy, or an edit that cannot be
applied answers ``confirmed=False``, so the tool does not run; a kernel interrupt propagates. The
``ToolConfirmation`` has no field for a reason: the model reads the ADK's own "This tool call is
rejected." (or what a ``request_confirmation`` tool returns), and nbask's reason stays in the history.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from typing import Any

from google.adk.events.event import Event
from google.adk.runners import Runner
from google.genai import types

from ..api import approve, form_request, run_request
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..models import MAX_ACTION_CHARS, Decision, FormAnswer

__all__ = ["CONFIRMATION", "INPUT", "answer", "confirmation_response", "input_response", "requests_of", "run"]

#: The ADK's names for its client-answered function calls.
CONFIRMATION = "adk_request_confirmation"
INPUT = "adk_request_input"
#: How the ADK's own hint for a ``require_confirmation=True`` tool starts (written for developers,
#: not for the person, so the approval shows "Call <tool>" instead).
_ADK_DEFAULT_HINT = "Please approve or reject the tool call "
#: What a single-value input is sent as, and the field it is shown in.
_RESULT = "result"
#: The keys that a rerun must not repeat (they belong to the first message).
_FIRST_RUN_ONLY = ("invocation_id", "state_delta")


async def run(
    runner: Runner,
    *,
    user_id: str,
    session_id: str,
    new_message: types.Content | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    **kwargs: Any,
) -> AsyncIterator[Event]:
    """Yield the events of ``runner.run_async(user_id=..., session_id=..., new_message=..., **kwargs)``,
    answering the ADK's pauses in the cell: each ``adk_request_confirmation`` maps to an nbask
    approval (``confirmation_response``), each ``adk_request_input`` to a typed form
    (``input_response``). The answers go back as one user message of FunctionResponses to a new
    ``run_async`` (``run_config`` and the other options are passed again; ``invocation_id`` and
    ``state_delta`` only the first time), until a run ends without asking. Other long-running
    calls, and input the person declined, are left unanswered: the run ends paused on them, as the
    ADK leaves it for a client that has not answered. ``timeout`` (seconds) applies to each ask.

        async for event in nbask.integrations.google_adk.run(runner, user_id="u", session_id=s.id,
                                                             new_message=message):
            ...
    """
    options = dict(kwargs)
    message = new_message
    while True:
        pending: list[types.FunctionCall] = []
        stream = runner.run_async(user_id=user_id, session_id=session_id, new_message=message, **options)
        async with aclosing(stream) as events:
            async for event in events:
                yield event
                pending.extend(requests_of(event))
        answered = [await answer(call, timeout=timeout) for call in pending]
        parts = [part for part in answered if part is not None]
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


async def answer(call: types.FunctionCall, *, timeout: float | None = DEFAULT_TIMEOUT) -> types.Part | None:
    """The FunctionResponse part answering one confirmation or input request (None: left unanswered)."""
    response: dict[str, Any] | None
    if call.name == CONFIRMATION:
        response = await confirmation_response(call.args or {}, timeout=timeout)
    else:
        response = await input_response(call.args or {}, tool_call_id=call.id, timeout=timeout)
    if response is None:
        return None
    return types.Part(function_response=types.FunctionResponse(id=call.id, name=call.name, response=response))


# -- adk_request_confirmation -> an approval --------------------------------------------------


async def confirmation_response(args: Mapping[str, Any], *, timeout: float | None = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """Map an ``adk_request_confirmation`` call's args (``originalFunctionCall``,
    ``toolConfirmation``) to an nbask approval, and the Decision to the ``ToolConfirmation``
    dict the ADK reads: ``{"confirmed": bool}`` plus ``"payload"`` when the tool gave one.

    Approve confirms (with the payload as it was); an edit confirms with the edited payload; an
    edit of a call without a payload, of the arguments, or that is not a JSON object with a
    "payload", and every rejection, answer ``confirmed=False`` (the ADK then does not run the tool).
    With a payload, the approval's ``details_schema`` says so, so such an edit is refused first.
    """
    original = _mapping(args.get("originalFunctionCall"), "originalFunctionCall")
    confirmation = _mapping(args.get("toolConfirmation", {}), "toolConfirmation")
    name = original.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("adk_request_confirmation: originalFunctionCall.name must be a non-empty string")
    arguments = dict(_mapping(original.get("args") or {}, "originalFunctionCall.args"))
    has_payload = confirmation.get("payload") is not None
    payload = confirmation.get("payload")
    details = _json({"arguments": arguments, "payload": payload}) if has_payload else _json(arguments)
    call_id = original.get("id")
    decision = await approve(
        _title(name, str(confirmation.get("hint") or "")),
        details,
        timeout=timeout,
        tool_call_id=call_id if isinstance(call_id, str) else None,
        queue=True,
        details_schema=_payload_schema(arguments) if has_payload else None,
    )
    confirmed, payload = _confirmed_payload(decision, arguments, payload, has_payload=has_payload)
    response: dict[str, Any] = {"confirmed": confirmed}
    if has_payload:
        response["payload"] = payload
    return response


def _payload_schema(arguments: dict[str, Any]) -> dict[str, Any]:
    """The edits a payload approval can apply, as a JSON Schema: a "payload" of any form, and the
    arguments (if kept) exactly as shown; an edit outside it is refused and the approval stays open.
    """
    shown = json.loads(_json(arguments))
    return {"type": "object", "properties": {"arguments": {"const": shown}, "payload": {}}, "required": ["payload"]}


def _title(name: str, hint: str) -> str:
    title = f"Call {name}"
    hint = " ".join(hint.split())
    if hint and not hint.startswith(_ADK_DEFAULT_HINT):
        title = f"{title}: {hint}"
    return title if len(title) <= MAX_ACTION_CHARS else title[: MAX_ACTION_CHARS - 1] + "…"


def _confirmed_payload(
    decision: Decision, arguments: dict[str, Any], payload: Any, *, has_payload: bool
) -> tuple[bool, Any]:
    """Whether the Decision confirms the call, and the payload to send with it."""
    if decision.decision == "reject":
        return False, payload
    if decision.decision == "approve" or decision.edited is None:
        return True, payload
    # The ADK reruns a confirmed call with its original arguments: only a payload can change.
    edited = _edited_payload(decision.edited, arguments) if has_payload else None
    return (True, edited[0]) if edited is not None else (False, payload)


def _edited_payload(text: str, arguments: dict[str, Any]) -> tuple[Any] | None:
    """The payload of an edited ``{"arguments": ..., "payload": ...}``, or None when the edit is
    not valid JSON, not an object with a "payload", or changes the arguments.
    """
    try:
        edited = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(edited, dict) or "payload" not in edited or edited.get("arguments", arguments) != arguments:
        return None
    return (edited["payload"],)


# -- adk_request_input -> a form --------------------------------------------------------------


async def input_response(
    args: Mapping[str, Any], *, tool_call_id: str | None = None, timeout: float | None = DEFAULT_TIMEOUT
) -> dict[str, Any] | None:
    """Map an ``adk_request_input`` call's args (``message``, ``response_schema``) to an nbask
    form, and its FormAnswer to the response the ADK reads: an object schema's values as they
    are, any other schema (or none: free text) as one field sent as ``{"result": value}``.

    None for a declined or cancelled form: the ADK checks every answer against the schema, so
    there is no "declined" answer to send, and the request stays unanswered. A schema outside
    nbask's form subset raises FormSchemaError naming the property and the rule.
    """
    message = str(args.get("message") or "Input requested")
    schema = args.get("response_schema")
    single = not (isinstance(schema, Mapping) and schema.get("type") == "object")
    if single:
        field = dict(schema) if isinstance(schema, Mapping) else {"type": "string"}
        field.setdefault("title", "Your answer")
        schema = {"type": "object", "properties": {_RESULT: field}, "required": [_RESULT]}
    if not isinstance(schema, Mapping):
        raise TypeError("adk_request_input: response_schema must be a JSON Schema object")
    request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id)
    form_answer: FormAnswer = await run_request(request, queue=True)
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


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)
