"""The form kind's request: what is asked, and how a reply becomes its outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ValidationError

from ...contract import agent_text
from ...core.lifecycle import DEFAULT_TIMEOUT, Ending, Request
from ...errors import MalformedResponse
from ...forms import Form, check_values, read_schema
from ...markdown import first_line
from ...models import AnsweredBy, FormAnswer

DECLINED_NOTE = agent_text("form_dismissed")
URL_DECLINED_NOTE = agent_text("url_dismissed")
URL_UNATTENDED = (
    "Declined by the 'recommended' policy: an unattended run never opens a page for the server, and no one was asked."
)
URL_REPLAYED = (
    "Declined by replay: a replayed run never opens a page for the server, whatever the recording says; "
    "no one was asked."
)
CONFIRMATION_UNATTENDED = (
    "Declined by the 'recommended' policy: submitting this form confirms a call, and an unattended run "
    "never confirms one; no one was asked."
)


@dataclass
class FormRequest(Request[FormAnswer]):
    """Asks for a Form's values (or, in URL mode, whether to open its page); decides a FormAnswer."""

    kind: ClassVar[str] = "form"
    form: Form = field(kw_only=True)
    #: The pydantic model the caller gave as the schema; an accepted answer carries an instance.
    model: type[BaseModel] | None = field(default=None, kw_only=True)
    #: Submitting it confirms a call (its fields are the values the call runs with): the
    #: 'recommended' policy declines it even when every field has a default.
    confirmation: bool = field(default=False, kw_only=True)

    def asked(self) -> dict[str, Any]:
        return self.form.model_dump()

    def headline(self) -> str:
        return first_line(self.form.message)

    def asked_json(self) -> str:
        return self.form.model_dump_json()

    def parse_and_decide(self, raw: dict[str, Any]) -> FormAnswer:
        action = raw.get("action")
        if action == "dismiss":
            return self.decide(None)
        if action != "submit":
            msg = f"response.action must be 'submit' or 'dismiss', got {str(action)[:40]!r}"
            raise MalformedResponse(msg)
        try:
            return self.decide(raw.get("values", {}))
        except ValueError as error:
            raise MalformedResponse(str(error)) from None

    def decide(self, values: object | None, answered_by: AnsweredBy = "person", note: str = "") -> FormAnswer:
        """Submitted ``values`` (checked against the fields; ValueError naming the field), or None
        for a decline.
        """
        if values is None:
            why = URL_DECLINED_NOTE if self.form.url else DECLINED_NOTE
            return self.ended("dismissed", note or why, answered_by)
        checked = check_values(self.form.fields, values)
        data = None
        if self.model is not None and not self.form.url:
            try:
                data = self.model.model_validate(checked)
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(part) for part in first["loc"]) or "form"
                msg = f"field {where!r}: {first['msg']}"
                raise ValueError(msg) from None
        return FormAnswer(status="answered", values=checked, note=note, data=data, **self._ids(answered_by))

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> FormAnswer:
        return FormAnswer(status=status, note=note, **self._ids(answered_by))


def form_request(
    message: str,
    schema: Mapping[str, Any] | type[BaseModel],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    source: str | None = None,
) -> FormRequest:
    """A form request, its schema read (FormSchemaError names the property and the rule)."""
    model = schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
    form = Form(message=message, fields=read_schema(schema))
    return FormRequest(form=form, model=model, timeout=timeout, tool_call_id=tool_call_id, source=source)


def url_request(
    message: str, url: str, *, timeout: float | None = DEFAULT_TIMEOUT, tool_call_id: str | None = None
) -> FormRequest:
    """A request to open ``url`` (MCP's URL mode): Open accepts, Decline declines."""
    if not url.strip():
        msg = "url must not be empty"
        raise ValueError(msg)
    return FormRequest(form=Form(message=message, url=url), timeout=timeout, tool_call_id=tool_call_id)
