"""LangGraph's ``interrupt()`` answered in the cell: ``run`` / ``run_sync`` stream a graph and
answer every interrupt with ``Command(resume=...)`` until it ends; ``resume`` builds that Command
for those who drive the graph themselves.

What an interrupt's value becomes:

- LangChain's ``HumanInTheLoopMiddleware`` requests (a batched ``HITLRequest`` or a per-call
  ``ToolApprovalRequest``): one approval per tool call, titled "Call <tool>", its details the
  arguments as JSON. Approve -> ``{"type": "approve"}``, edit -> ``{"type": "edit",
  "edited_action": ...}``, anything else -> ``{"type": "reject", "message": reason}`` (or, when the
  tool allows "respond" but not "reject", ``{"type": "respond", "message": reason}``). Only the
  decisions the tool allows are sent; the approval's details say what is not allowed. A per-call
  request's edit is checked against the tool's argument schema from its ``response_schema`` (the
  batched request carries none), and a bad edit is refused with the approval left open.
- ``interrupt(value, response_schema=...)``: a typed form of that schema; resumes with its values.
- A value in one of ``nbask.tools``' dialects (``{"questions": [...]}`` of AskUserQuestion...):
  those questions; resumes with the dialect's answer (parsed from JSON when it is JSON).
- A string: a one-field text form titled with it; resumes with the text.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from langgraph.errors import is_invalid_resume
from langgraph.pregel.protocol import PregelProtocol
from langgraph.types import Command, Interrupt
from pydantic import ValidationError

from ..api import form_request, run_request, run_request_sync
from ..core.lifecycle import DEFAULT_TIMEOUT, Request
from ..errors import ApprovalRejected
from ..kinds import QuestionRequest
from ..models import Answer, Decision, FormAnswer, Outcome
from ..tools.dialects import DIALECTS, ArgumentError, Dialect, Plan
from ..tools.function import rejection_text
from ._langgraph_hitl import Review, edit_args_schema, json_text

__all__ = ["InterruptNotAnswered", "resume", "resume_sync", "run", "run_sync"]

#: The key under which a LangGraph stream chunk (and ``invoke``'s result) carries interrupts.
INTERRUPT_KEY = "__interrupt__"
#: The middleware's own description prefix; a description made of it alone says nothing new.
DEFAULT_PREFIX = "Tool execution requires approval"
ALL_DECISIONS = ("approve", "edit", "reject", "respond")
NO_EDIT_NOTE = "Editing is not allowed for this call: approve it as it is, or reject it."
NO_APPROVE_NOTE = "This call cannot be approved here (allowed: {allowed}); reject it."
RESPOND_NOTE = "Reject with a reason to reply in the tool's place: the model reads your reason as the tool's result."

#: What answering one interrupt yields (nbask requests) and returns (the resume value).
Asking = Generator[Request[Any], Outcome, Any]


class InterruptNotAnswered(RuntimeError):
    """A form or text interrupt was dismissed, timed out or cancelled: the graph stays paused at
    it (``run(graph, None, config)`` asks again; ``Command(resume=...)`` answers it yourself).
    """

    def __init__(self, interrupt: Interrupt, outcome: Outcome) -> None:
        self.interrupt = interrupt
        self.outcome = outcome
        note = str(getattr(outcome, "note", "")).strip().rstrip(".")
        super().__init__(
            f"interrupt {interrupt.id} was not answered ({outcome.status}){': ' + note if note else ''}. "
            "The graph stays paused at it: run(graph, None, config) asks again"
        )


# -- running a graph ------------------------------------------------------------------------


async def run(
    graph: PregelProtocol[Any, Any, Any, Any],
    input: Any,  # noqa: A002 - LangGraph's own name for it
    config: Mapping[str, Any] | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> Any:
    """Stream ``graph`` (``astream``) from ``input`` and answer each interrupt in the cell,
    resuming with ``Command(resume={interrupt id: value})`` until the graph ends; returns the final
    state's values. ``config`` needs ``configurable.thread_id`` (the checkpointer's thread); None
    starts a new thread. A rejection the tool cannot take raises ``ApprovalRejected``; a form not
    filled raises ``InterruptNotAnswered``; either way the graph stays paused and the tool never ran.
    """
    run_config = _thread_config(graph, config)
    next_input = input
    while True:
        interrupts: list[Interrupt] = []
        try:
            async for chunk in graph.astream(next_input, run_config, stream_mode="updates"):
                interrupts.extend(_interrupts_in(chunk))
        except ValidationError as error:
            raise _refused(error) from error
        if not interrupts:
            return (await graph.aget_state(run_config)).values
        next_input = await resume(interrupts, timeout=timeout)


def run_sync(
    graph: PregelProtocol[Any, Any, Any, Any],
    input: Any,  # noqa: A002 - LangGraph's own name for it
    config: Mapping[str, Any] | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> Any:
    """The blocking twin of ``run`` (``graph.stream``), for synchronous graphs and code."""
    run_config = _thread_config(graph, config)
    next_input = input
    while True:
        interrupts: list[Interrupt] = []
        try:
            for chunk in graph.stream(next_input, run_config, stream_mode="updates"):
                interrupts.extend(_interrupts_in(chunk))
        except ValidationError as error:
            raise _refused(error) from error
        if not interrupts:
            return graph.get_state(run_config).values
        next_input = resume_sync(interrupts, timeout=timeout)


async def resume(interrupts: Any, *, timeout: float | None = DEFAULT_TIMEOUT) -> Command[Any]:
    """Ask the person about each interrupt in turn and return ``Command(resume={interrupt.id:
    value, ...})``, which resumes them all, parallel ones included. ``interrupts``: an Interrupt,
    a list of them, ``invoke``'s result (its ``"__interrupt__"``) or a v2 result (``.interrupts``).
    """
    answers: dict[str, Any] = {}
    for item in _unique(interrupts):
        asking = _asking(item, timeout)
        try:
            request = next(asking)
            while True:
                request = asking.send(await run_request(request, queue=True))
        except StopIteration as done:
            answers[item.id] = done.value
    return Command(resume=answers)


def resume_sync(interrupts: Any, *, timeout: float | None = DEFAULT_TIMEOUT) -> Command[Any]:
    """The blocking twin of ``resume``."""
    answers: dict[str, Any] = {}
    for item in _unique(interrupts):
        asking = _asking(item, timeout)
        try:
            request = next(asking)
            while True:
                request = asking.send(run_request_sync(request))
        except StopIteration as done:
            answers[item.id] = done.value
    return Command(resume=answers)


def _refused(error: ValidationError) -> Exception:
    """LangGraph's refusal of a resume value (an edit that does not fit the tool's arguments)."""
    if not is_invalid_resume(error):
        return error
    msg = f"the interrupt's response_schema refused the answer; nothing ran and the graph stays paused at it: {error}"
    return ValueError(msg)


def _thread_config(graph: object, config: Mapping[str, Any] | None) -> Any:
    if getattr(graph, "checkpointer", True) in (None, False):
        msg = "graph: compiled without a checkpointer; interrupts need one (compile(checkpointer=InMemorySaver()))"
        raise ValueError(msg)
    if config is None:
        return {"configurable": {"thread_id": uuid.uuid4().hex}}
    configurable = config.get("configurable")
    if not isinstance(configurable, Mapping) or not configurable.get("thread_id"):
        msg = "config: needs configurable.thread_id, e.g. {'configurable': {'thread_id': '1'}} (or pass None)"
        raise ValueError(msg)
    return dict(config)


def _interrupts_in(chunk: object) -> list[Interrupt]:
    found = chunk.get(INTERRUPT_KEY) if isinstance(chunk, Mapping) else None
    return [i for i in found or () if isinstance(i, Interrupt)]


def _unique(interrupts: Any) -> list[Interrupt]:
    if isinstance(interrupts, Mapping):
        interrupts = interrupts.get(INTERRUPT_KEY, ())
    elif hasattr(interrupts, "interrupts") and not isinstance(interrupts, Interrupt):
        interrupts = interrupts.interrupts
    items = [interrupts] if isinstance(interrupts, Interrupt) else list(interrupts)
    unique: dict[str, Interrupt] = {}
    for index, item in enumerate(items):
        if not isinstance(item, Interrupt):
            msg = f"interrupts[{index}]: must be a langgraph.types.Interrupt, got {type(item).__name__}"
            raise TypeError(msg)
        unique.setdefault(item.id, item)
    return list(unique.values())


# -- what an interrupt asks -----------------------------------------------------------------


def _asking(item: Interrupt, timeout: float | None) -> Asking:
    """The questions for one interrupt, by the shape of its value (see the module docstring)."""
    value = item.value
    if isinstance(value, Mapping) and "action_requests" in value and "review_configs" in value:
        return _ask_batch(value, timeout)
    if isinstance(value, Mapping) and value.get("type") == "tool_approval":
        return _ask_per_call(value, item.response_schema, timeout)
    if isinstance(item.response_schema, Mapping):
        message = value if isinstance(value, str) and value.strip() else _json(value)
        return _ask_form(item, message, item.response_schema, timeout, lambda a: a.values)
    if isinstance(value, str):
        title = value.strip()[:200] or "Answer"
        schema = {
            "type": "object",
            "properties": {"answer": {"type": "string", "title": title}},
            "required": ["answer"],
        }
        return _ask_form(item, value.strip() or "Answer", schema, timeout, lambda a: a.values.get("answer", ""))
    if isinstance(value, Mapping):
        dialect, found = _dialect_of(value)
        if isinstance(found, Plan):
            return _ask_questions(dialect, found, timeout)
        msg = (
            f"interrupt {item.id}: its value is not in a shape nbask can ask ({found}); give a string, "
            "HumanInTheLoopMiddleware's request, a question tool's arguments, or interrupt(..., response_schema=...)"
        )
        raise ValueError(msg)
    msg = (
        f"interrupt {item.id}: its value is {type(value).__name__}; nbask asks a string, a dict "
        "(HumanInTheLoopMiddleware's request or a question tool's arguments), or a value with a response_schema"
    )
    raise TypeError(msg)


def _json(value: object) -> str:
    return json_text(value)


def _ask_form(item: Interrupt, message: str, schema: Mapping[str, Any], timeout: float | None, shape: Any) -> Asking:
    request = form_request(message, schema, timeout=timeout)
    answer = yield request
    assert isinstance(answer, FormAnswer)  # noqa: S101 - the request's own outcome type
    if answer.status != "answered":
        raise InterruptNotAnswered(item, answer)
    return shape(answer)


def _dialect_of(value: Mapping[str, Any]) -> tuple[Dialect, Plan | str]:
    """The first dialect that reads ``value``, with its plan; else the default's problems."""
    tried = [(dialect, _parsed(dialect, value)) for dialect in DIALECTS.values()]
    found = next(((d, plan) for d, plan in tried if isinstance(plan, Plan)), None)
    return found or (tried[0][0], f"as {tried[0][0].name}: {tried[0][1]}")


def _parsed(dialect: Dialect, value: Mapping[str, Any]) -> Plan | str:
    try:
        return dialect.parse(dialect.load(value))
    except (ArgumentError, ValueError) as error:
        return str(error)


def _ask_questions(dialect: Dialect, plan: Plan, timeout: float | None) -> Asking:
    answer = yield QuestionRequest(
        question_set=plan.question_set, timeout=plan.timeout if plan.timeout is not None else timeout
    )
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    output = dialect.reply(answer, plan).output
    try:
        return json.loads(output)
    except json.JSONDecodeError:
        return output


# -- HumanInTheLoopMiddleware ---------------------------------------------------------------


def _review_of(action: object, allowed: Sequence[str], where: str, tool_call_id: str | None = None) -> Review:
    if not isinstance(action, Mapping):
        raise TypeError(f"{where}: must be an object with name and args, got {type(action).__name__}")
    name, args = action.get("name"), action.get("args", {})
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}.name: must be the tool's name (non-empty text)")
    if not isinstance(args, Mapping):
        raise TypeError(f"{where}.args: must be an object of the call's arguments, got {type(args).__name__}")
    kept = tuple(d for d in allowed if d in ALL_DECISIONS)
    if not kept:
        raise ValueError(f"{where}: allowed_decisions must name some of {', '.join(ALL_DECISIONS)}")
    notes = [_description(action.get("description"), name, args)]
    if "edit" not in kept and "approve" in kept:
        notes.append(NO_EDIT_NOTE)
    if "edit" not in kept and "approve" not in kept:
        notes.append(NO_APPROVE_NOTE.format(allowed=", ".join(kept)))
    if "respond" in kept and "reject" not in kept:
        notes.append(RESPOND_NOTE)
    return Review(name, dict(args), kept, "\n".join(n for n in notes if n), tool_call_id)


def _description(description: object, name: str, args: object) -> str:
    """The middleware's description, without its default "Tool: .../Args: ..." repetition."""
    if not isinstance(description, str):
        return ""
    text = description.removesuffix(f"\n\nTool: {name}\nArgs: {args}").strip()
    return "" if text == DEFAULT_PREFIX else text


def _ask_batch(value: Mapping[str, Any], timeout: float | None) -> Asking:
    actions, configs = value.get("action_requests"), value.get("review_configs")
    if not isinstance(actions, list) or not isinstance(configs, list):
        raise TypeError("action_requests and review_configs: must both be lists (a HITLRequest)")
    allowed = {c.get("action_name"): c.get("allowed_decisions", ()) for c in configs if isinstance(c, Mapping)}
    decisions = []
    for index, action in enumerate(actions):
        name = action.get("name") if isinstance(action, Mapping) else None
        review = _review_of(action, allowed.get(name, ("approve", "reject")), f"action_requests[{index}]")
        decisions.append(_decide(review, (yield review.request(timeout))))
    return {"decisions": decisions}


def _ask_per_call(value: Mapping[str, Any], schema: object, timeout: float | None) -> Asking:
    call_id = value.get("tool_call_id")
    review = _review_of(value, _allowed_by(schema), "value", call_id if isinstance(call_id, str) else None)
    review = replace(review, args_schema=edit_args_schema(schema))
    return _decide(review, (yield review.request(timeout)))


def _allowed_by(schema: object) -> tuple[str, ...]:
    """The decision types a per-call ``response_schema`` accepts (its ``type`` consts)."""
    if not isinstance(schema, Mapping):
        return ("approve", "reject")
    mapping = (schema.get("discriminator") or {}).get("mapping")
    if isinstance(mapping, Mapping):
        return tuple(mapping)
    const = ((schema.get("properties") or {}).get("type") or {}).get("const")
    return (const,) if isinstance(const, str) else ("approve", "reject")


def _decide(review: Review, outcome: Outcome) -> dict[str, Any]:
    """The middleware's Decision for the person's: only a type the tool allows."""
    assert isinstance(outcome, Decision)  # noqa: S101 - an approval's outcome
    if outcome.decision == "approve":
        if "approve" in review.allowed:
            return {"type": "approve"}
        if "edit" in review.allowed:
            return _edit(review, review.args)
        return _refuse(review, outcome, f"approving {review.name} is not allowed here; it did not run")
    if outcome.decision == "edit":
        if "edit" not in review.allowed:
            why = f"the person edited the arguments, but editing {review.name} is not allowed here; it did not run"
            return _refuse(review, outcome, why)
        edited = _parse_edit(outcome.edited or "", review.note)
        return _refuse(review, outcome, edited) if isinstance(edited, str) else _edit(review, edited)
    return _refuse(review, outcome, None)


def _edit(review: Review, args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "edit", "edited_action": {"name": review.name, "args": args}}


def _parse_edit(text: str, note: str) -> dict[str, Any] | str:
    """The edited arguments (the note shown below them left out), or why they cannot be used."""
    text = text.rstrip()
    if note and text.endswith(note):
        text = text[: -len(note)]
    try:
        edited = json.loads(text)
    except json.JSONDecodeError as error:
        return f"the edited arguments are not valid JSON ({error}); the call did not run"
    if not isinstance(edited, dict):
        return "the edited arguments must be a JSON object of argument names; the call did not run"
    return edited


def _refuse(review: Review, outcome: Decision, why: str | None) -> dict[str, Any]:
    """A rejection as the tool allows it: reject, else respond, else ApprovalRejected."""
    if why is None and outcome.status == "answered" and outcome.decided_by == "person":
        message = outcome.reason.strip()  # the person's own words (the middleware words an empty one)
    else:
        message = why or rejection_text(ApprovalRejected(outcome, review.title))
    if "reject" in review.allowed:
        return {"type": "reject", "message": message} if message else {"type": "reject"}
    if "respond" in review.allowed:
        return {"type": "respond", "message": message or f"The person did not approve {review.name}; it did not run."}
    reason = message or "rejected, and the tool allows no rejection, so the graph stays paused"
    raise ApprovalRejected(outcome.model_copy(update={"decision": "reject", "reason": reason}), review.title)
