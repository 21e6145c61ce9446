"""LlamaIndex workflows' human in the loop answered in the cell: ``run`` runs a ``Workflow`` (a
plain one, or an ``AgentWorkflow`` / ``FunctionAgent`` whose tools wait for a person), streams its
events, answers every ``InputRequiredEvent`` and sends the answer back as a ``HumanResponseEvent``,
until the workflow ends; it returns the workflow's result.

::

    result = await nbask.integrations.llama_index.run(MyWorkflow(timeout=None), topic="pirates")
    handler = agent.run("Clean up.")                      # or a handler you started
    result = await nbask.integrations.llama_index.run(handler)

Every entry point takes ``timeout=`` (the longest wait for each answer) and ``approvers=`` (who
alone may answer what the run asks).

An ``InputRequiredEvent`` is one a step returns, or the ``waiter_event`` of
``ctx.wait_for_event(HumanResponseEvent, waiter_event=InputRequiredEvent(...), requirements=...)``
(a waiter event of another type is not recognised as a question). The events that wait together
(parallel steps or tool calls, each waiting) are asked together once the workflow can go no
further by itself (LlamaIndex's ``WorkflowIdleEvent``), answered in any order. What each event's
fields ask, and the ``HumanResponseEvent`` it is answered with:

- ``prefix`` (or ``prompt``, ``message``, ``msg``) alone: a one-field text form, empty unless
  filled (so ``recommended`` answers ""); ``response`` is the text.
- that text and ``options`` (2-4 labels or ``{"label", "description"}``; ``header``,
  ``multi_select``): a question with Other; ``response`` is the answer's text.
- ``questions`` (1-4 of nbask's questions: ``question``, ``options``, ``header``,
  ``multi_select``): asked together; ``response`` is ``{question: answer}``, ``notes`` the notes.
- ``action`` (a short title), with ``details`` (text, or data shown as JSON), ``risk``
  ("low", "medium", "high") and ``details_schema`` (a JSON Schema an edit must fit): an approval;
  ``response`` is "approve", "edit" or "reject", ``approved`` a bool, ``edited`` the edited
  details (text) and ``reason`` the person's reason, or nbask's.
- ``schema`` (a flat JSON Schema object, nbask's form subset) with the text as its message: a
  typed form; ``response`` is the values, by field name.

Every response also carries ``answered_by`` (person, policy or replay) and, first, every field of
the event it answers: ``requirements`` written as fields of the waiter event (as LlamaIndex's docs
write them: ``InputRequiredEvent(prefix=..., user_name="Laurie")`` with
``requirements={"user_name": "Laurie"}``) are met. A requirement the waiter event does not carry
cannot be met from outside the workflow.

An approval that is not approved (rejected, dismissed, timed out, an unattended policy, no one to
ask) is answered ``approved=False`` with the reason: the step decides. Anything else left
unanswered (a declined form or text, a question dismissed) stops the run (``cancel_run``) and
raises ``InputNotAnswered`` saying why; a replay miss raises ``nbask.ReplayMissing`` the same way.

A workflow's ``timeout`` (45 s unless given) covers its whole run, waiting included, so each
request waits at most for what is left of it (less a second; ``timeout=`` is the longest wait
otherwise), and its card says "LlamaIndex stops this workflow 45 s after it starts" (a form's
message, a question's text, an approval's title: the same words on every run, so a recording
replays). A policy decides at once, whatever the limit. A person who does not answer in that time
ends the request as timed out, and nothing is sent: LlamaIndex's own timeout ends the run with its
``WorkflowTimeoutError``, as it does for any workflow left waiting.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from functools import partial
from typing import Any

from workflows import Workflow
from workflows.events import Event, HumanResponseEvent, InputRequiredEvent, InternalDispatchEvent, WorkflowIdleEvent
from workflows.handler import WorkflowHandler

from ...core.lifecycle import DEFAULT_TIMEOUT, Request
from ...errors import NotAnswered
from ...identity import checked_approvers
from ...kinds import QuestionRequest
from ...kinds.form.request import form_request
from ...kinds.question.request import as_question_set
from ...models import Answer, Decision, FormAnswer, Outcome, one_question_set
from .. import _bounded, _seam
from ._limit import Limit, limit_of, started, with_limit_noted

__all__ = [
    "InputNotAnswered",
    "resolve",
    "resolve_sync",
    "run",
    "run_sync",
    "stream",
]

#: The fields whose text is the question, in the order they are looked for.
TEXT_FIELDS = ("prefix", "prompt", "message", "msg")
#: The one field of a plain text prompt's form.
_TEXT_FIELD = "response"
_ENDINGS = {"dismissed": "declined", "timeout": "timed out", "cancelled": "cancelled"}


class InputNotAnswered(NotAnswered):
    """An ``InputRequiredEvent`` that is not an approval was left unanswered (declined, timed
    out, dismissed, an unattended policy, no one to ask): the run was stopped, since the step
    waiting for it has nothing to go on with.
    """

    def __init__(self, event: Event, outcome: Outcome) -> None:
        self.event = event
        self.outcome = outcome
        why = str(getattr(outcome, "note", "") or getattr(outcome, "reason", "")).strip().rstrip(".")
        ending = _ENDINGS.get(outcome.status, outcome.status)
        asked = _text(_fields(event)) or type(event).__name__
        super().__init__(
            f"{asked!r} was not answered ({ending}){': ' + why if why else ''}. "
            "The workflow waits for a HumanResponseEvent to go on, so its run was stopped"
        )


async def run(
    workflow: Workflow | WorkflowHandler,
    /,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
    **start: Any,
) -> Any:
    """Run ``workflow`` (``workflow.run(**start)``), or go on with a ``WorkflowHandler`` it
    returned, answering every ``InputRequiredEvent`` (see the module docstring) until it ends;
    returns what awaiting the handler returns. ``timeout`` is how long each answer is waited for
    (seconds; None: no limit); ``approvers``: only these people may answer; ``resume_type`` is
    the event sent back (a ``HumanResponseEvent`` subclass, for a step that waits for one).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    checked = checked_approvers(approvers)  # before the workflow starts, not at its first question
    handler = started(workflow, start)
    with _bounded.one_run():  # one run of the workflow: its rounds are bounded unattended
        async for _event in stream(handler, timeout=timeout, approvers=checked, resume_type=resume_type):
            pass
    return await handler


def run_sync(
    workflow: Workflow | WorkflowHandler,
    /,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
    **start: Any,
) -> Any:
    """The blocking twin of ``run``: the workflow runs on an event loop of its own in a worker
    thread (LlamaIndex runs workflows only on a loop), its questions asked from there.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    checked = checked_approvers(approvers)  # in the caller's thread, before the worker loop starts
    return _seam.drive_sync(
        _on_a_loop(workflow, timeout=timeout, approvers=checked, resume_type=resume_type, start=start)
    )


def _on_a_loop(
    workflow: Workflow | WorkflowHandler,
    *,
    timeout: float | None,
    approvers: Sequence[str] | None,
    resume_type: type[HumanResponseEvent],
    start: dict[str, Any],
) -> _seam.Asking[Any]:
    work = partial(run, workflow, timeout=timeout, approvers=approvers, resume_type=resume_type, **start)
    return (yield _seam.Work(work))


async def stream(
    handler: WorkflowHandler,
    /,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
) -> AsyncIterator[Event]:
    """Yield the events of ``handler.stream_events()`` (the run's own, LlamaIndex's internal
    events left out), answering its ``InputRequiredEvent``s as ``run`` does (only ``approvers``
    may answer, when named); await the handler for the result once it ends. On an error
    (``InputNotAnswered``, a replay miss, an interrupt) the run is stopped before it propagates.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    checked = checked_approvers(approvers)  # on the first step, before any event is taken
    waiting: list[Event] = []
    limit = limit_of(handler)
    try:
        async for event in handler.stream_events(expose_internal=True):
            if isinstance(event, InputRequiredEvent):
                waiting.append(event)
            if isinstance(event, WorkflowIdleEvent) and waiting:
                asked, waiting = waiting, []
                batch = _batch(asked, timeout=timeout, resume_type=resume_type, limit=limit)
                with _seam.answerable_by(checked):
                    responses = await _seam.drive(batch)
                for response in responses:
                    handler.ctx.send_event(response)
            if not isinstance(event, InternalDispatchEvent):
                yield event
    except BaseException:
        if not handler.is_done():
            await handler.cancel_run()
        raise


async def resolve(
    events: Sequence[Event],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
) -> list[HumanResponseEvent]:
    """Ask what each of ``events`` (``InputRequiredEvent``s waiting together) asks, shown at once
    and answered in any order; returns the response to send for each, in order
    (``handler.ctx.send_event(response)``). Raises ``InputNotAnswered`` for the first one left
    unanswered (see the module docstring). ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return await _seam.drive(_batch(events, timeout=timeout, resume_type=resume_type))


def resolve_sync(
    events: Sequence[Event],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
) -> list[HumanResponseEvent]:
    """The blocking twin of ``resolve``. The workflow itself runs only on an event loop, so
    there is no blocking ``run``.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return _seam.drive_sync(_batch(events, timeout=timeout, resume_type=resume_type))


def _batch(
    events: Sequence[Event],
    *,
    timeout: float | None,
    resume_type: type[HumanResponseEvent],
    limit: Limit | None = None,
) -> _seam.Asking[list[HumanResponseEvent]]:
    askings = [_answering(event, timeout=timeout, resume_type=resume_type, limit=limit) for event in events]
    answered = yield from _seam.together(askings)
    missing = next((item for item in answered if isinstance(item, InputNotAnswered)), None)
    if missing is not None:
        raise missing
    # None: the workflow's time ran out on that one, so nothing is sent for it.
    return [item for item in answered if isinstance(item, HumanResponseEvent)]


def _answering(
    event: Event,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    resume_type: type[HumanResponseEvent] = HumanResponseEvent,
    limit: Limit | None = None,
) -> _seam.Asking[HumanResponseEvent | InputNotAnswered | None]:
    """The Asking of one ``InputRequiredEvent``: the response to send, or ``InputNotAnswered``
    (returned, not raised, so the rest of a batch is still decided). Within a workflow's own
    ``limit``, the request waits only for what is left of it, and says so; None when a person
    let that time run out.
    """
    fields = _fields(event)
    waits = limit.wait(timeout) if limit is not None else timeout
    request = _request(fields, waits)
    asked = [q.question for q in request.question_set.questions] if isinstance(request, QuestionRequest) else []
    if limit is not None:  # whether or not it cuts this wait short, so every run asks the same
        request = with_limit_noted(request, limit.note())
    shown = [q.question for q in request.question_set.questions] if isinstance(request, QuestionRequest) else []
    outcome = yield request
    if waits != timeout and outcome.status == "timeout" and outcome.answered_by == "person":
        # The workflow's own time is up: leave it waiting, as LlamaIndex leaves a workflow no one
        # answers, so its WorkflowTimeoutError ends the run rather than an nbask error.
        return None
    reply: dict[str, Any] = {**fields, "answered_by": outcome.answered_by}
    if isinstance(outcome, Decision):
        reply.update(response=outcome.decision, approved=outcome.approved, edited=outcome.edited, reason=outcome.reason)
    elif outcome.status != "answered":
        return InputNotAnswered(event, outcome)
    elif isinstance(outcome, Answer):
        # By the questions as the event asked them (a note on the card is not part of them).
        noted = dict(zip(shown, asked, strict=True))
        answers = {noted.get(key, key): value for key, value in outcome.answers.items()}
        notes = {noted.get(key, key): value for key, value in outcome.notes.items()}
        single = "questions" not in fields
        reply.update(response=next(iter(answers.values())) if single else answers, notes=notes)
    elif isinstance(outcome, FormAnswer):
        values = outcome.values
        reply["response"] = values.get(_TEXT_FIELD, "") if "schema" not in fields else dict(values)
    return resume_type(**reply)


def _request(fields: Mapping[str, Any], timeout: float | None) -> Request[Any]:
    """The nbask request an event's fields describe (see the module docstring)."""
    text = _text(fields)
    if "questions" in fields:
        question_set = _questions(fields["questions"])
        return QuestionRequest(question_set=question_set, timeout=timeout)
    if "action" in fields:
        details = fields.get("details", "")
        shown = details if isinstance(details, str) else _seam.arguments_text(details)
        return _seam.approval(
            str(fields["action"]),
            shown,
            timeout=timeout,
            schema=fields.get("details_schema"),
            risk=fields.get("risk"),
        )
    if "schema" in fields:
        return form_request(text or "Fill in these values.", fields["schema"], timeout=timeout)
    if "options" in fields:
        question_set = one_question_set(
            text or "Choose one.",
            fields["options"],
            header=str(fields.get("header", "")),
            multi_select=bool(fields.get("multi_select", False)),
        )
        return QuestionRequest(question_set=question_set, timeout=timeout)
    # Empty unless filled, as LlamaIndex's own input() prompt can be: "" is also what the
    # recommended policy answers, so the docs' prompt runs unattended.
    field = {"type": "string", "title": "Your answer", "default": ""}
    schema = {"type": "object", "properties": {_TEXT_FIELD: field}}
    return form_request(text or "The workflow asks for your input.", schema, timeout=timeout)


def _questions(questions: object) -> Any:
    if not isinstance(questions, list | tuple):
        msg = f"InputRequiredEvent.questions must be a list of questions, got {type(questions).__name__}"
        raise TypeError(msg)
    return as_question_set(list(questions))


def _text(fields: Mapping[str, Any]) -> str:
    """The question's text: the first of ``TEXT_FIELDS`` that holds some, its spaces trimmed."""
    for name in TEXT_FIELDS:
        value = fields.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _fields(event: Event) -> dict[str, Any]:
    """An event's declared fields and the ones it was given (LlamaIndex events take any)."""
    declared = {name: getattr(event, name) for name in type(event).model_fields}
    return {**declared, **dict(event.items())}
