"""The public calls: ask questions or ask for approval, awaiting or blocking, and the history;
and, below them, the seams the agent tools and integrations build on (``SEAMS``).

Each call turns its arguments into a request of its kind and has the manager run it with the
policies' choice of resolver.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

from pydantic import BaseModel

from . import config
from .core.history import HistoryEntry, write_jsonl
from .core.lifecycle import DEFAULT_TIMEOUT, Request, Resolution
from .core.manager import manager
from .errors import ReplayMissing
from .forms import Form, read_schema
from .kinds import ApprovalRequest, FormRequest, QuestionRequest
from .models import (
    Answer,
    Approval,
    Decision,
    EditsMode,
    FormAnswer,
    Option,
    Outcome,
    Question,
    QuestionSet,
    Risk,
    one_question_set,
)
from .resolvers.mirror import mirrored
from .resolvers.policies import choose_resolver

# The public calls (``nbask`` re-exports them): those that ask, then those that read what ended.
__all__ = ["approve", "approve_sync", "ask", "ask_form", "ask_form_sync", "ask_questions", "ask_sync"]
__all__ += ["HistoryEntry", "history", "late_answers", "save_history"]

#: The seams ``nbask.tools``, ``nbask.mcp`` and ``nbask.integrations`` build on: a request of
#: any kind run under the policy in force, and the requests the public calls make. Not public:
#: their signatures may change with the layers above, which are changed with them.
SEAMS = (
    "approval_request",
    "as_question_set",
    "form_request",
    "refused",
    "run_request",
    "run_request_sync",
    "run_requests",
    "run_requests_sync",
    "url_request",
)

OutcomeT = TypeVar("OutcomeT", bound=Outcome)


async def run_request(request: Request[OutcomeT], *, queue: bool = False, inbox: bool = False) -> OutcomeT:
    """Run a request of any kind: the policy in force chooses who resolves it, the manager
    keeps it the only one pending (or, with ``queue=True``, shows it beside those waiting) and
    records it in the history.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await manager().run(_resolution(request, inbox=inbox), choose_resolver, queue=queue)


def run_request_sync(request: Request[OutcomeT], *, queue: bool = False, inbox: bool = False) -> OutcomeT:
    """The blocking twin of ``run_request``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return manager().run_sync(_resolution(request, inbox=inbox), choose_resolver, queue=queue)


def _resolution(request: Request[OutcomeT], *, inbox: bool) -> Resolution[OutcomeT]:
    """``request``'s resolution; with ``inbox``, waiting in the inbox too while a person may
    answer it here (the ``later`` policy keeps requests in the inbox itself).
    """
    resolution = Resolution(request)
    if inbox and config.policy_in_force()[0] == "interactive":
        mirrored(resolution)
    return resolution


async def run_requests(requests: Sequence[Request[Any]]) -> list[Any]:
    """Show ``requests`` together (beside any already waiting), answered in any order; returns
    every outcome, in order. An interrupt cancels all of them and raises once.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await manager().run_together([Resolution(request) for request in requests], choose_resolver)


def run_requests_sync(requests: Sequence[Request[Any]]) -> list[Any]:
    """The blocking twin of ``run_requests``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return manager().run_together_sync([Resolution(request) for request in requests], choose_resolver)


def refused(request: Request[OutcomeT], error: Exception) -> OutcomeT:
    """The outcome of a request no one could be asked (``error`` says why: no front end, the
    ``error`` policy, ``nbask.no_questions()``): the kind's refusal, kept in the history like any
    other outcome. A replay miss is never a refusal: ``ReplayMissing`` is raised again, so a
    replayed run that asks what its recording lacks fails instead of going on with a guess.
    """
    if isinstance(error, ReplayMissing):
        raise error
    outcome = request.refused(f"No one could be asked: {error}")
    manager().record(request, outcome)
    return outcome


def _one_question_request(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str,
    multi_select: bool,
    timeout: float | None,
    tool_call_id: str | None,
    source: str | None = None,
) -> QuestionRequest:
    """The request of a one-question ask. With options given as labels alone (text: nothing can
    change it after the ask), it carries the arguments, for the history to keep.
    """
    # Read once (an iterator would be empty the second time); a string is refused just below.
    labels = options if isinstance(options, str) else tuple(options)
    question_set = one_question_set(question, labels, header=header, multi_select=multi_select)
    shorthand = (question, labels, header, multi_select) if isinstance(labels, tuple) and _all_text(labels) else None
    return QuestionRequest(
        question_set=question_set, timeout=timeout, tool_call_id=tool_call_id, shorthand=shorthand, source=source
    )


def _all_text(values: tuple[object, ...]) -> TypeGuard[tuple[str, ...]]:
    """Whether every one of ``values`` is text: ``str.join`` takes text alone, the quickest check."""
    try:
        "".join(values)  # type: ignore[arg-type]  # what it refuses is the answer
    except TypeError:
        return False
    return True


def as_question_set(questions: Sequence[Question | dict[str, Any]] | QuestionSet) -> QuestionSet:
    """Validate a list of questions (or pass a QuestionSet through)."""
    return questions if isinstance(questions, QuestionSet) else QuestionSet(questions=list(questions))


async def ask(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
) -> Answer:
    """Ask one question with 2-4 options in the running cell and wait for the answer.

    The UI adds a free-text "Other" choice itself. An option given as ``Option(label=...,
    preview=...)`` or a dict with ``"preview"`` shows that text (a snippet, a small table, a
    diff) beside the options while it is focused or chosen. ``timeout`` is in seconds (``None``
    waits forever); ``queue=True`` shows it at once beside requests already waiting (answered
    in any order) instead of raising InteractionPending. The person's notes come back in ``Answer.notes`` (per
    question) and ``Answer.note`` (the whole set). ``source`` names who asks ("billing agent"):
    shown on the card when a batch holds requests from more than one source. ``inbox=True``
    keeps it in the inbox too while it waits (``nbask inbox``): answered there first, the cell
    goes on with that answer; every call that asks takes ``inbox=`` the same way.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = _one_question_request(
        question,
        options,
        header=header,
        multi_select=multi_select,
        timeout=timeout,
        tool_call_id=tool_call_id,
        source=source,
    )
    return await run_request(request, queue=queue, inbox=inbox)


async def ask_questions(
    questions: Sequence[Question | dict[str, Any]] | QuestionSet,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
) -> Answer:
    """Ask 1-4 questions at once (the schema of ``Question``) and wait for the answers."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = QuestionRequest(
        question_set=as_question_set(questions), timeout=timeout, tool_call_id=tool_call_id, source=source
    )
    return await run_request(request, queue=queue, inbox=inbox)


def ask_sync(
    question: str | Sequence[Question | dict[str, Any]] | QuestionSet,
    options: Sequence[str | Option | dict[str, Any]] | None = None,
    *,
    header: str = "",
    multi_select: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
) -> Answer:
    """The blocking twin of ``ask`` / ``ask_questions`` for synchronous code.

    ``ask_sync("Proceed?", ["Yes", "No"])`` asks one question; ``ask_sync([...])`` with
    a list of questions (and no options) asks several. ``queue=True`` (from a thread, say) shows
    it beside requests already waiting.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    if isinstance(question, str):
        if options is None:
            msg = "ask_sync(question, options): options are required with a question text"
            raise TypeError(msg)
        request = _one_question_request(
            question,
            options,
            header=header,
            multi_select=multi_select,
            timeout=timeout,
            tool_call_id=tool_call_id,
            source=source,
        )
    else:
        if options is not None:
            msg = "ask_sync(questions): pass options inside each question, not separately"
            raise TypeError(msg)
        request = QuestionRequest(
            question_set=as_question_set(question), timeout=timeout, tool_call_id=tool_call_id, source=source
        )
    return run_request_sync(request, queue=queue, inbox=inbox)


async def approve(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    details_schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    source: str | None = None,
    inbox: bool = False,
) -> Decision:
    """Ask the person to approve, edit or reject ``action`` (a short title) with ``details``.

    Anything but an explicit approval (dismiss, timeout, interrupt) is a rejection whose
    ``reason`` says why. A kernel interrupt raises KeyboardInterrupt, as for questions.
    With ``details_schema`` (the JSON Schema of the arguments the details hold as JSON), an
    edit that does not fit it is refused in the widget, naming the argument, and stays open.
    ``risk`` ("low", "medium" or "high"; None = no tag) tags the approval with what is at stake;
    "high" draws Approve in the danger colour (Reject is still what has focus first).
    ``source`` names who asks ("billing agent"), shown when a batch mixes sources.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = approval_request(
        action, details, timeout=timeout, tool_call_id=tool_call_id, schema=details_schema, risk=risk, source=source
    )
    return await run_request(request, queue=queue, inbox=inbox)


def approve_sync(
    action: str,
    details: str = "",
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    details_schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    source: str | None = None,
    inbox: bool = False,
) -> Decision:
    """The blocking twin of ``approve``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = approval_request(
        action, details, timeout=timeout, tool_call_id=tool_call_id, schema=details_schema, risk=risk, source=source
    )
    return run_request_sync(request, queue=queue, inbox=inbox)


def approval_request(
    action: str,
    details: str,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    schema: Mapping[str, Any] | None = None,
    risk: Risk | None = None,
    edits: EditsMode = "run",
    source: str | None = None,
) -> ApprovalRequest:
    """An approval request, its edit checked against ``schema`` (a JSON Schema) where given,
    tagged with ``risk`` (ValidationError naming ``risk`` for anything but low, medium, high);
    ``edits`` saying what an edit does ("run", "sent_back" to the model, or "off": none offered).
    """
    checked = dict(schema) if schema is not None else None
    approval = Approval(action=action, details=details, details_schema=checked, risk=risk, edits=edits)
    return ApprovalRequest(approval=approval, timeout=timeout, tool_call_id=tool_call_id, source=source)


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


async def ask_form(
    message: str,
    schema: Mapping[str, Any] | type[BaseModel],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
) -> FormAnswer:
    """Ask the person to fill in a typed form and wait for the values.

    ``schema`` is a flat JSON Schema object in MCP's form subset, or a flat pydantic model
    class (then ``answer.data`` is the validated instance). A schema outside the subset is
    refused before anything is shown. ``answer.values`` are typed as the schema says;
    ``answer.action`` is "accept", "decline" (dismissed) or "cancel" (timeout, interrupt).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id, source=source)
    return await run_request(request, queue=queue, inbox=inbox)


def ask_form_sync(
    message: str,
    schema: Mapping[str, Any] | type[BaseModel],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
    queue: bool = False,
    source: str | None = None,
    inbox: bool = False,
) -> FormAnswer:
    """The blocking twin of ``ask_form``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    request = form_request(message, schema, timeout=timeout, tool_call_id=tool_call_id, source=source)
    return run_request_sync(request, queue=queue, inbox=inbox)


def history() -> list[HistoryEntry]:
    """Every interaction that ended in this process, oldest first: what was asked and the outcome."""
    return manager().history()


def late_answers() -> list[HistoryEntry]:
    """The answers people gave after their question, approval or form had timed out, oldest
    first: each entry's outcome has ``late=True``, ``timed_out_at`` (when the call returned
    "timeout") and ``resolved_at`` (when the person answered). The call that asked had already
    returned; these never change what it returned. They are in ``nbask.history()`` too.
    """
    return manager().late_answers()


def save_history(path: str | os.PathLike[str]) -> pathlib.Path:
    """Write every interaction of this process (``nbask.history()``) to ``path`` as JSONL, one
    entry per line, oldest first; the ``replay`` policy reads it back. Returns the path.
    """
    return write_jsonl(manager().each_entry(), path)
