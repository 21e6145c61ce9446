"""CrewAI's Flow providers answered in the cell: ``@human_feedback`` (``flow_config.hitl_provider``)
and ``Flow.ask`` (``flow_config.input_provider``). See nbask.integrations.crewai.

Each outermost ``kickoff`` is one run for the unattended bound (``_bounded``): CrewAI's execution
uuid is part of what makes two requests the same, so a review that goes round within one run
stops at its second identical round, and the next kickoff in the same cell starts afresh.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Final

from ...contract import MAX_DETAILS_CHARS, is_recommended
from ...core.lifecycle import DEFAULT_TIMEOUT, Request
from ...errors import AskedAgain
from ...identity import checked_approvers
from ...kinds import QuestionRequest
from ...kinds.form.request import form_request
from ...models import Answer, FormAnswer, one_question_set
from .. import _bounded
from .._seam import Asking, answerable_by, arguments_text, drive_sync

__all__ = ["ANSWER", "FEEDBACK", "OUTCOME", "FeedbackProvider", "InputProvider"]

#: The feedback form's text field, the outcome field of a form of many outcomes, Flow.ask's field.
FEEDBACK: Final = "feedback"
OUTCOME: Final = "outcome"
ANSWER: Final = "answer"
_RECOMMENDED: Final = " (Recommended)"
#: How many outcomes a question can offer (a question has 2-4 options).
_FEW: Final = range(2, 5)
_SUFFIX = re.compile(r"\s*\(recommended\)\s*$", re.IGNORECASE)
#: A JSON string's escaped line break (``\n`` not itself after an escaped backslash).
_ESCAPED_NEWLINE = re.compile(r"(?<!\\)((?:\\\\)*)\\n")

log = logging.getLogger("nbask.integrations")


def shown(text: str, output: Any) -> str:
    """What the person reads: CrewAI's message as the first paragraph (so rounds of one review
    are the same question), then the output under review as text, its line breaks real ones.
    """
    body = readable(output).strip()
    message = text.strip() or "CrewAI asks for your feedback."
    message = f"{message}\n\n{body}" if body else message
    return message if len(message) <= MAX_DETAILS_CHARS else message[: MAX_DETAILS_CHARS - 1] + "…"


def readable(output: Any) -> str:
    r"""An output as a person reads it: text as it is; a dict, a list or a Pydantic model as
    indented JSON whose strings keep their line breaks (JSON writes them as a literal ``\n``).
    """
    if isinstance(output, str):
        return output
    dump = getattr(output, "model_dump", None)
    if callable(dump):
        try:
            output = dump(mode="json")
        except Exception:  # noqa: BLE001 - a model that cannot dump itself is shown as its repr
            return repr(output)
    return _ESCAPED_NEWLINE.sub(lambda found: found.group(1) + "\n", arguments_text(output))


def this_run(*gist: object) -> str:
    """A gist for ``_bounded.same_as`` within CrewAI's run: its execution uuid (minted by the
    outermost crew or flow ``kickoff``, inherited by what it runs) and ``gist``.
    """
    from crewai.execution import get_execution_uuid  # noqa: PLC0415 - imported when used

    return "\n".join(str(part) for part in (get_execution_uuid() or "", *gist))


class FeedbackProvider:
    """``flow_config.hitl_provider``: each ``@human_feedback`` request asked in the cell.

    With 2-4 ``emit`` outcomes: a question whose options are the outcomes (``default_outcome``
    marked recommended), plus Other; the feedback is the chosen outcome (the person's note after
    it) or the Other text, which CrewAI then collapses to an outcome with its ``llm``. Otherwise a
    form: one optional text field (without ``emit``), or a choice of the outcomes and a text field.
    A policy's answer is ``""``: CrewAI's own "no feedback" (``default_outcome``, else the first
    outcome). Not answered (dismissed, timed out, no one to ask) raises CrewAI's
    ``HumanFeedbackPending`` with nbask's reason: the flow pauses and ``kickoff`` returns it.
    """

    def __init__(self, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None) -> None:
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)

    def request_feedback(self, context: Any, flow: Any) -> str:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        del flow  # the context carries what is asked
        with answerable_by(self.approvers):
            return drive_sync(_asking_feedback(context, timeout=self.timeout))


def _asking_feedback(context: Any, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[str]:
    """The Asking of one ``PendingFeedbackContext``: the feedback text CrewAI reads."""
    emit = [str(outcome) for outcome in context.emit or []]
    message = shown(str(context.message or ""), context.method_output)
    request = _feedback_request(message, emit, context.default_outcome, timeout)
    # Rounds of one review differ by the output under review: the same request in this run.
    gist = this_run(context.method_name, str(context.message or "").strip(), emit)
    outcome = yield _bounded.same_as(request, gist)
    if outcome.status != "answered":
        from crewai.flow import HumanFeedbackPending  # noqa: PLC0415 - imported when used

        why = outcome.note or getattr(outcome, "reason", "") or f"The feedback request ended: {outcome.status}."
        raise HumanFeedbackPending(
            context,
            callback_info={"nbask": why, "status": outcome.status},
            message=f"Human feedback for {context.method_name!r} was not given ({outcome.status}): {why}",
        )
    if outcome.answered_by == "policy":
        return ""  # CrewAI's own "no feedback": default_outcome, else the first outcome
    if isinstance(outcome, Answer):
        return _chosen(outcome)
    values = outcome.values if isinstance(outcome, FormAnswer) else {}
    text = str(values.get(FEEDBACK, "") or "").strip()
    chosen = str(values.get(OUTCOME, "") or "")
    return f"{chosen}\n\n{text}" if chosen and text else chosen or text


def _feedback_request(message: str, emit: Sequence[str], default: str | None, timeout: float | None) -> Request[Any]:
    text_field = {"type": "string", "title": "Your feedback (leave blank to skip)"}
    if len(emit) in _FEW and len(set(emit)) == len(emit):
        labels = [f"{name}{_RECOMMENDED}" if name == default else name for name in emit]
        question = one_question_set(message, labels, header="Feedback")
        return QuestionRequest(question_set=question, timeout=timeout)
    properties: dict[str, Any] = {}
    if len(emit) > 1:
        choice = {"type": "string", "title": "Outcome", "enum": list(emit), "default": default or emit[0]}
        properties[OUTCOME] = choice
    properties[FEEDBACK] = text_field
    schema = {"type": "object", "properties": properties, "required": [OUTCOME] if OUTCOME in properties else []}
    return form_request(message, schema, timeout=timeout)


def _chosen(answer: Answer) -> str:
    """The feedback of a question's answer: the outcome (its "(Recommended)" mark dropped) and
    the person's note after it, or the Other text.
    """
    (question, text), *_ = answer.answers.items()
    selected = answer.selections.get(question) or []
    label = _SUFFIX.sub("", text) if selected and is_recommended(text) else text
    note = (answer.notes.get(question, "") or "").strip()
    return f"{label}\n\n{note}" if note else label


class InputProvider:
    """``flow_config.input_provider``: each ``Flow.ask(message)`` a one-field text form.

    The text as typed (``""`` left blank: CrewAI's Enter); a policy, a dismissal, a timeout or no
    one to ask returns ``InputResponse(text=None)`` (CrewAI's "no input") whose metadata holds
    nbask's reason, kept in the flow's input history and its ``FlowInputReceivedEvent``. The
    same message asked again in one run after a policy's ``None`` is ``None`` at once with
    nbask's "stopped this run" reason (CrewAI keeps a provider's errors to itself, so
    ``nbask.AskedAgain`` cannot end the flow from here).
    """

    def __init__(self, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None) -> None:
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)

    def request_input(self, message: str, flow: Any, metadata: dict[str, Any] | None = None) -> Any:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        del flow, metadata  # CrewAI routes by them; nbask asks in the cell
        try:
            with answerable_by(self.approvers):
                return drive_sync(_asking_input(message, timeout=self.timeout))
        except AskedAgain as again:
            from crewai.flow.input_provider import InputResponse  # noqa: PLC0415 - imported when used

            log.warning("nbask: %s", again)
            return InputResponse(text=None, metadata={"status": "stopped", "nbask": str(again)})


def _asking_input(message: str, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[Any]:
    """The Asking of one ``Flow.ask``: the ``InputResponse`` CrewAI reads."""
    from crewai.flow.input_provider import InputResponse  # noqa: PLC0415 - imported when used

    field = {"type": "string", "title": "Your answer"}
    schema = {"type": "object", "properties": {ANSWER: field}}
    text = message.strip() or "The flow asks for your input."
    answer = yield _bounded.same_as(form_request(text, schema, timeout=timeout), this_run(text))
    assert isinstance(answer, FormAnswer)  # noqa: S101 - a form's outcome
    about = {"answered_by": answer.answered_by, "status": answer.status}
    if answer.status == "answered" and answer.answered_by != "policy":
        return InputResponse(text=str(answer.values.get(ANSWER, "") or ""), metadata=about)
    why = answer.note or (
        "Answered by policy: no one typed an answer." if answer.answered_by == "policy" else answer.status
    )
    return InputResponse(text=None, metadata={**about, "nbask": why})
