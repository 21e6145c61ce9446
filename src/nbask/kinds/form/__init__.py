"""The form kind: typed fields (``nbask.forms``) filled in and answered with a ``FormAnswer``, or,
in URL mode, a page the person may choose to open. Its request, widget, summary, terminal
prompt, unattended answer and replay.

Submit is MCP's "accept", Dismiss its "decline", a timeout or an interrupt its "cancel".
"""

from __future__ import annotations

from typing import Any

from ...core.history import Recording
from ...forms import Form, defaults_of
from ...models import FormAnswer
from ...terminal import Terminal, printable
from .._kind import RequestKind, quoted
from .markdown import form_markdown
from .replay import match_key, replay_form
from .request import CONFIRMATION_UNATTENDED, URL_UNATTENDED, FormRequest
from .terminal import ask_form_at_terminal
from .widget import FormWidget

__all__ = ["FormKind", "FormRequest", "FormWidget"]


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

    def match_key(self, asked: dict[str, Any]) -> list[Any]:
        return match_key(asked)

    def replayed(self, request: FormRequest, recording: Recording) -> FormAnswer:
        return replay_form(request, recording)

    def late_answer_text(self, asked: dict[str, Any], outcome: FormAnswer) -> str:
        message = quoted(str(asked.get("message", "")))
        return f"filled in the earlier form {message} after it had timed out: {quoted(outcome.values)}."
