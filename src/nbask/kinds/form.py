"""The form kind: typed fields (``nbask.forms``) filled in and answered with a ``FormAnswer``, or,
in URL mode, a page the person may choose to open. Its request, widget, summary, terminal
prompt, unattended answer and replay.

Submit is MCP's "accept", Dismiss its "decline", a timeout or an interrupt its "cancel".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import traitlets
from pydantic import BaseModel, ValidationError

from ..contract import STATUS_TEXT, agent_text
from ..core.history import HistoryEntry, Recording, asked_again
from ..core.lifecycle import Ending, Request, Resolution
from ..errors import ReplayMissing
from ..forms import Form, FormField, check_values, defaults_of
from ..markdown import by_whom, code_block, escape_markdown, first_line
from ..models import AnsweredBy, FieldValue, FormAnswer
from ..replies import MalformedResponse
from ..terminal import Terminal, printable
from ..widget import ShowsRefusals
from ._form_terminal import ask_form_at_terminal
from ._kind import RequestKind, quoted

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

# -- the request ------------------------------------------------------------------------------


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


# -- the widget -------------------------------------------------------------------------------


class FormWidget(ShowsRefusals[FormAnswer]):
    """Shows a form (or a page to open) and resolves with the person's values.

    Made by ``nbask.ask_form``; its traits are mirrored by FormModel in js/contract.ts.
    """

    message = traitlets.Unicode("").tag(sync=True)
    fields = traitlets.List(traitlets.Dict()).tag(sync=True)
    url = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *, resolution: Resolution[FormAnswer], **traits: Any) -> None:
        if not isinstance(resolution.request, FormRequest):
            msg = "FormWidget shows form requests only"
            raise TypeError(msg)
        self.form = resolution.request.form
        fields = [field.model_dump() for field in self.form.fields]
        super().__init__(resolution, message=self.form.message, fields=fields, url=self.form.url, **traits)

    def result_for(self, outcome: FormAnswer) -> dict[str, Any]:
        return {"values": outcome.values, "note": outcome.note}


# -- the summary ------------------------------------------------------------------------------


def show_value(field: FormField, value: FieldValue | None) -> str:
    """A value as the person saw it: choices by their titles, booleans as Yes / No."""
    if value is None:
        return "—"
    titles = {option.value: option.title for option in field.options}
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return ", ".join(titles.get(item, item) for item in value) or "—"
    return titles.get(str(value), str(value))


def form_markdown(form: Form, answer: FormAnswer | None) -> str:
    """The message, then each field with its value (or the page's URL), and how it ended."""
    status = "pending" if answer is None else STATUS_TEXT[answer.status] + by_whom(answer)
    what = "page to open" if form.url else "form"
    lines = [f"**nbask {what}** — {escape_markdown(form.message)}: **{status}**"]
    if form.url:
        lines += ["", code_block(form.url)]
    if answer is not None and answer.status == "answered":
        lines.append("")
        for field_ in form.fields:
            shown = show_value(field_, answer.values.get(field_.name))
            lines.append(f"- {escape_markdown(field_.title)}: **{escape_markdown(shown)}**")
    if answer is not None and answer.note:
        lines += ["", escape_markdown(answer.note)]
    return "\n".join(lines)


# -- replay: the recorded values of a form with the same message and fields -------------------


def _key(asked: dict[str, Any]) -> str:
    return json.dumps([asked.get("message", ""), asked.get("fields", []), asked.get("url", "")], sort_keys=True)


def _index(entries: list[HistoryEntry]) -> dict[str, list[FormAnswer]]:
    index: dict[str, list[FormAnswer]] = {}
    for entry in entries:
        if isinstance(entry.outcome, FormAnswer):
            index.setdefault(_key(entry.asked), []).append(entry.outcome)
    return index


def replay_form(request: FormRequest, recording: Recording) -> FormAnswer:
    """The recorded outcome of a form with this message and these fields (answered_by "replay")."""
    if request.form.url:
        # Opening a page is the person's act, done then and there: replaying "accept" would tell
        # the server a page was opened when none was.
        return request.decide(None, answered_by="replay", note=URL_REPLAYED)
    key = _key(request.asked())
    records = recording.index(FormRequest.kind, _index).get(key)
    if not records:
        msg = (
            f"replay: no recorded answer for the form {request.form.message[:80]!r} with these fields in "
            f"{recording.source} ({recording.size} recorded interactions). Forms replay only for the same "
            "message and fields."
        )
        raise ReplayMissing(msg, asked=request.form.message)
    record = recording.take((FormRequest.kind, key), records)
    if record is None:
        what = f"the form {request.form.message[:80]!r}"
        raise ReplayMissing(asked_again(what, recording, len(records)), asked=request.form.message)
    if record.status == "answered":
        return request.decide(record.values, answered_by="replay", note=record.note).replayed_from(record)
    return request.ended(record.status, record.note, "replay").replayed_from(record)


# -- the kind ---------------------------------------------------------------------------------


class FormKind(RequestKind[FormRequest, FormAnswer], widget=FormWidget):
    """Forms: the widget, the summary, the prompt; unattended, the schema's defaults."""

    def summary(self, request: FormRequest, outcome: FormAnswer | None) -> str:
        return form_markdown(request.form, outcome)

    def console_prompt(self, term: Terminal, request: FormRequest) -> FormAnswer:
        values = ask_form_at_terminal(term, request.form, request.tool_call_id)
        answer = request.decide(values)
        term.say(f"  -> {printable(answer.action)}")
        return answer

    def recommended(self, request: FormRequest) -> FormAnswer:
        """Accept with the schema's defaults when every required field has one and at least one
        field has a value; else (and for a confirmation or a page to open) decline: a form with
        fields and no value in any was not answered, and the history must not say it was.
        """
        if request.form.url:
            return request.decide(None, answered_by="policy", note=URL_UNATTENDED)
        if request.confirmation:
            return request.decide(None, answered_by="policy", note=CONFIRMATION_UNATTENDED)
        values, missing = defaults_of(request.form.fields)
        if missing is not None:
            note = (
                f"Declined by the 'recommended' policy: the required field {missing!r} has no default, "
                "and no one was asked."
            )
            return request.decide(None, answered_by="policy", note=note)
        if request.form.fields and not values:
            note = "Declined by the 'recommended' policy: no field has a default, and no one was asked."
            return request.decide(None, answered_by="policy", note=note)
        note = "Accepted with the form's defaults by the 'recommended' policy; no one was asked."
        return request.decide(values, answered_by="policy", note=note)

    def request_of(self, asked: dict[str, Any]) -> FormRequest:
        return FormRequest(form=Form.model_validate(asked))

    def replayed(self, request: FormRequest, recording: Recording) -> FormAnswer:
        return replay_form(request, recording)

    def late_answer_text(self, asked: dict[str, Any], outcome: FormAnswer) -> str:
        message = quoted(str(asked.get("message", "")))
        return f"filled in the earlier form {message} after it had timed out: {quoted(outcome.values)}."
