"""The Agent Framework side of nbask.integrations.agent_framework: one approval request answered
(``approving``), one workflow ``request_info`` answered (``answering``), and the middleware that
carries what the framework's own approval response cannot: the person's edited arguments and
the reason a call did not run.

The framework's ``function_approval_response`` is a bool bound to the call it was asked about,
so an approval cannot change arguments and a rejection reaches the model as the framework's
fixed "Error: Tool call invocation was rejected by user.". Both are kept here, by the call's
occurrence id (``function_call.id``, unique to one call of one run), until nbask's middleware
uses them: ``ApplyEdits`` (function middleware) gives the approved call the edited arguments (the
framework then asks a replacement approval of exactly those arguments, which nbask answers: it
is what the person approved); ``ReadReasons`` (chat middleware) puts nbask's text, with the
reason and who decided, in place of the framework's rejection text the model reads.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, cast

from agent_framework import ChatContext, ChatMiddleware, Content, FunctionInvocationContext, FunctionMiddleware
from pydantic import BaseModel, TypeAdapter

from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import Request
from ...forms import FormSchemaError
from ...kinds.form.request import form_request
from ...models import MAX_ACTION_CHARS
from ...tools.function import DO_NOT_RETRY
from .. import _seam

log = logging.getLogger("nbask.integrations")

#: The framework's own text for a rejected call, which nbask's reason replaces.
FRAMEWORK_REJECTION = "Error: Tool call invocation was rejected by user."
#: Occurrence id -> [the person's edited arguments, applied yet].
_EDITS: dict[str, list[Any]] = {}
#: Occurrence id -> the text the model reads for a call that did not run.
_REASONS: dict[str, str] = {}
#: The one field of a text answer's form.
_TEXT_FIELD = "response"


class ApplyEdits(FunctionMiddleware):
    """Function middleware: an approved call the person edited runs with the edited arguments."""

    async def process(self, context: FunctionInvocationContext, call_next: Callable[[], Awaitable[None]]) -> None:
        occurrence = context.metadata.get("function_call_occurrence_id")
        edit = _EDITS.get(occurrence) if isinstance(occurrence, str) else None
        if edit is not None and not edit[1]:
            edit[1] = True
            context.arguments = dict(edit[0])  # the framework asks a replacement approval of these
        await call_next()
        if isinstance(occurrence, str):
            _EDITS.pop(occurrence, None)  # it ran: with the edit, or (no edit) as approved


class ReadReasons(ChatMiddleware):
    """Chat middleware: the model reads nbask's text for a call that did not run."""

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> None:
        for message in context.messages:
            for content in message.contents:
                if content.type == "function_result" and content.id in _REASONS:
                    content.result = _REASONS.pop(content.id)  # kept in the session's history as well
        await call_next()


def middleware() -> list[ApplyEdits | ReadReasons]:
    """The middleware of nbask for an ``Agent`` (``Agent(..., middleware=middleware())``) or one run."""
    return [ApplyEdits(), ReadReasons()]


def has_middleware(middlewares: Sequence[object] | None) -> bool:
    """Whether nbask's middleware is among ``middlewares``."""
    found = {type(item) for item in middlewares or ()}
    return ApplyEdits in found and ReadReasons in found


# -- one approval request -------------------------------------------------------------------------


def is_approval(content: object) -> bool:
    return isinstance(content, Content) and content.type == "function_approval_request"


def approving(
    request: Content,
    timeout: float | None,
    schemas: Mapping[str, Mapping[str, Any]],
    *,
    edits: bool,
) -> _seam.Asking[Content]:
    """One ``function_approval_request``: the ``function_approval_response`` to send back.

    Approve -> approved; Edit -> approved with the edit kept for ``ApplyEdits`` (``edits``), else
    a rejection whose text tells the model the edited arguments; Reject (and whatever is not an
    approval) -> rejected, the model reading why. A replacement request of the arguments the
    person approved in an edit is approved without asking again.
    """
    call = request.function_call or Content.from_function_call(call_id="", name="tool")
    occurrence = call.id or request.id or ""
    name = call.name or "tool"
    arguments = dict(call.parse_arguments() or {})
    edit = _EDITS.get(occurrence)
    if request.additional_properties.get("_replacement_approval_request") and edit and edit[0] == arguments:
        return request.to_function_approval_response(approved=True)
    title = _seam.call_title(name)
    # A call without arguments has nothing to show or edit: no details, so the card offers no Edit
    # (not "{}" to edit).
    details = _seam.arguments_text(arguments) if arguments else ""
    try:
        asked = _seam.approval(title, details, timeout=timeout, tool_call_id=call.call_id, schema=schemas.get(name))
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        return _rejected(
            request,
            occurrence,
            f"Not approved: {title} did not run, because it could not be shown for approval: {error} {DO_NOT_RETRY}",
        )
    decision = yield from _seam.ask(asked)
    if decision.decision == "reject":
        return _rejected(request, occurrence, _seam.not_run_text(decision, title))
    if decision.decision == "edit" and decision.edited is not None:
        try:
            edited = _seam.edited_arguments(decision)
        except _seam.EditNotUsable as why:
            return _rejected(request, occurrence, _seam.not_run_text(decision, title, why))
        if not edits:
            shown = json.dumps(edited, ensure_ascii=False, default=repr)
            unused = _seam.EditNotUsable(
                f"an edited call cannot run here (no nbask middleware); they asked for {shown}"
            )
            return _rejected(request, occurrence, _seam.not_run_text(decision, title, unused))
        _EDITS[occurrence] = [edited, False]
    return request.to_function_approval_response(approved=True)


def _rejected(request: Content, occurrence: str, text: str) -> Content:
    _REASONS[occurrence] = text
    return request.to_function_approval_response(approved=False)


# -- one workflow request_info ---------------------------------------------------------------------

#: A request's value left unanswered (a declined form, no one to ask): the request stays pending.
OPEN = object()


def answering(
    data: object, response_type: Any, timeout: float | None, schemas: Mapping[str, Mapping[str, Any]], *, edits: bool
) -> _seam.Asking[Any]:
    """One ``request_info``: the response of ``response_type`` to send, or ``OPEN``."""
    if is_approval(data):
        return (yield from approving(cast("Content", data), timeout, schemas, edits=edits))
    message = _text(data)
    if response_type is bool:
        # The first line is the title; the details are what follows it, never the title again.
        first, _, rest = message.partition("\n")
        action = _seam.clip(first.strip() or "The workflow asks for approval", MAX_ACTION_CHARS)
        details = rest.strip() if len(first.strip()) <= MAX_ACTION_CHARS else message
        # a bool carries no edit: the card offers none, rather than drop one
        decision = yield from _seam.ask(_seam.approval(action, details, timeout=timeout, edits="off"))
        return decision.approved
    try:
        request = _form(message, response_type, timeout)
    except FormSchemaError as error:
        kind = getattr(response_type, "__name__", response_type)
        msg = f"request_info asks for a {kind!s}, which nbask cannot ask as a form: {error}"
        raise TypeError(msg) from None
    answer = yield from _seam.ask(request)
    if answer.action != "accept":
        return OPEN
    if isinstance(response_type, type) and issubclass(response_type, BaseModel):
        return answer.data
    if dataclasses.is_dataclass(response_type):
        return TypeAdapter(response_type).validate_python(dict(answer.values))
    return answer.values.get(_TEXT_FIELD)


def _form(message: str, response_type: Any, timeout: float | None) -> Request[Any]:
    text = message or "The workflow asks for your input."
    if isinstance(response_type, type) and issubclass(response_type, BaseModel):
        return form_request(text, response_type, timeout=timeout)
    if dataclasses.is_dataclass(response_type):
        return form_request(text, TypeAdapter(response_type).json_schema(), timeout=timeout)
    kinds = {str: "string", int: "integer", float: "number"}
    if response_type not in kinds:
        raise FormSchemaError(f"{response_type!r}: only str, int, float, bool, a pydantic model or a dataclass")
    prop = {"type": kinds[response_type], "title": "Your answer"}
    return form_request(
        text, {"type": "object", "properties": {_TEXT_FIELD: prop}, "required": [_TEXT_FIELD]}, timeout=timeout
    )


#: The fields of a request_info's data that hold what it asks, in the order they are looked for
#: (the framework's own samples send ``HumanFeedbackRequest(prompt=...)``).
PROMPT_FIELDS = ("prompt", "message", "question", "text")


def _text(data: object) -> str:
    """What a request_info's data says, as a person reads it: a string as it is; data with a
    prompt (``PROMPT_FIELDS``) that prompt, its other fields below it as "name: value" lines;
    anything else as JSON.
    """
    fields = _fields_of(data)
    if isinstance(data, str):
        text = data.strip()
    elif fields is not None and (prompt := _prompt_of(fields)) is not None:
        key, asked = prompt
        rest = [f"{name}: {_value_text(value)}" for name, value in fields.items() if name != key and _shown(value)]
        text = asked + ("\n\n" + "\n".join(rest) if rest else "")
    elif isinstance(data, BaseModel):
        text = data.model_dump_json(indent=2)
    else:
        text = _seam.arguments_text(fields if fields is not None else data)
    return _seam.clip(text, MAX_DETAILS_CHARS)


def _fields_of(data: object) -> dict[str, Any] | None:
    if isinstance(data, BaseModel):
        return data.model_dump(mode="json")
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        return dataclasses.asdict(data)
    if isinstance(data, Mapping) and all(isinstance(key, str) for key in data):
        return dict(data)
    return None


def _prompt_of(fields: Mapping[str, Any]) -> tuple[str, str] | None:
    for key in PROMPT_FIELDS:
        value = fields.get(key)
        if isinstance(value, str) and value.strip():
            return key, value.strip()
    return None


def _shown(value: object) -> bool:
    return value is not None and value not in ("", [], {})


def _value_text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)


def schemas_of(tools: object) -> dict[str, Mapping[str, Any]]:
    """Tool name -> its parameters' JSON Schema, for the framework's function tools among ``tools``."""
    found: dict[str, Mapping[str, Any]] = {}
    for tool in tools if isinstance(tools, list | tuple) else ():
        parameters = getattr(tool, "parameters", None)
        name = getattr(tool, "name", None)
        if callable(parameters) and isinstance(name, str):
            try:
                schema = parameters()
            except Exception:  # noqa: BLE001 - a tool the framework cannot describe is asked without a schema
                log.info("nbask: no JSON Schema for %s", name)
                continue
            if isinstance(schema, dict) and schema.get("properties"):
                found[name] = schema
    return found
