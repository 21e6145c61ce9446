"""LangGraph's ``interrupt()`` answered in the cell: ``run`` / ``run_sync`` stream a graph and
answer every interrupt with ``Command(resume=...)`` until it ends; ``resolve`` builds that Command
for those who drive the graph themselves.

What an interrupt's value becomes, and what the graph resumes with:

- LangChain's ``HumanInTheLoopMiddleware`` requests (a batched ``HITLRequest`` or a per-call
  ``ToolApprovalRequest``): one approval per tool call, titled "Call <tool>", its details the
  arguments as JSON; the middleware's decision, only of a type the tool allows (see
  ``langgraph._hitl``). A rejection the tool cannot take raises ``ApprovalRejected``.
- ``{"question": ..., "details": ...}`` (LangGraph's approve-or-reject pattern): an approval;
  resumes ``True`` only when approved, ``False`` otherwise (rejected, dismissed, timed out, no one
  to ask, edited).
- ``{"instruction": ..., "content": "<text>"}`` (the review-and-edit pattern): an approval whose
  details are the content, editable; resumes with the text as approved, edited or not.
- ``{"action": "<tool>", ...fields, "message": ...}`` (an interrupt inside a tool): an approval
  titled with the message, the fields as JSON, editable (checked as an object of those same
  fields); resumes ``{"action": "approve", **fields}`` (as approved or edited), else
  ``{"action": "reject"}`` (rejected, dismissed, timed out, no one to ask, an unusable edit).
- ``interrupt(value, response_schema=...)``: a typed form of that schema; resumes with its values
  (a scalar schema such as ``response_schema=int``: the one value; a boolean one: an approval).
- A value in one of ``nbask.tools``' dialects (``{"questions": [...]}`` of AskUserQuestion...):
  those questions; resumes with the dialect's answer (parsed from JSON when it is JSON).
- A string: asked as ``resume_type`` says and resumed with that type. Without one, a yes/no
  question of approval or confirmation (its last sentence ends with "?", opens as a yes/no
  question does and asks to approve, confirm, proceed, allow, continue or accept: "Do you approve
  this action?", "This deletes 3 files. Proceed?", "Are you sure?") is an approval resumed as a
  ``bool``: ``True`` only when approved, so a person's "no" never reaches the node as the truthy
  string ``"no"``, and a policy never approves (``recommended`` rejects an approval); any other
  string is a one-field text form, resumed with the text as typed. ``resume_type=str``
  keeps the text form for both, ``bool`` makes every string an approval. ``int`` /
  ``float``: a number field. A pydantic model class: a form of its fields, resumed with the
  values it validated as JSON data (``interrupt(..., response_schema=Model)`` gives the node an
  instance). ``resume_type`` is one type for every string interrupt, or a mapping from a
  node's name to the type of the interrupts that node asks (stable when a node re-asks with a
  new prompt).

A form, text or review not answered raises ``InterruptNotAnswered``; the graph stays paused at it.
No one to ask (no front end, the ``error`` policy) is a rejection for an approval, and
``InterruptNotAnswered`` for the rest; a replay that lacks an answer raises ``nbask.ReplayMissing``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from langgraph.errors import is_invalid_resume
from langgraph.pregel.protocol import PregelProtocol
from langgraph.types import Command, Interrupt
from pydantic import ValidationError

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...kinds import QuestionRequest
from ...models import Answer
from ...tools.dialects import DIALECTS, ArgumentError, Dialect, Plan
from .._seam import Asking, Work, answerable_by, drive, drive_sync, resuming, together, twins
from . import _hitl as hitl
from . import _values as values
from ._values import InterruptNotAnswered, ResumeType

__all__ = ["InterruptNotAnswered", "resolve", "resolve_sync", "run", "run_sync"]

#: The key under which a LangGraph stream chunk (and ``invoke``'s result) carries interrupts.
INTERRUPT_KEY = "__interrupt__"
#: The checkpoint metadata that says which input a thread's run was started with (``later``).
INPUT_KEY = "nbask_input"
#: ``resume_type``: one type for every plain string interrupt, or one per node name.
ResumeTypes = ResumeType | Mapping[str, ResumeType] | None


# -- running a graph ------------------------------------------------------------------------


def _running(
    graph: PregelProtocol[Any, Any, Any, Any],
    input: Any,  # noqa: A002 - LangGraph's own name for it
    config: Mapping[str, Any] | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: ResumeTypes = None,
) -> Asking[Any]:
    """Stream ``graph`` (``astream``) from ``input`` and answer each interrupt in the cell,
    resuming with ``Command(resume={interrupt id: value})`` until the graph ends; returns the final
    state's values. ``config`` needs ``configurable.thread_id`` (the checkpointer's thread); None
    starts a new thread. ``resume_type`` (str, bool, int, float or a pydantic model class; or
    ``{node name: type}``) is what a plain string interrupt resumes with (str when not given).
    A rejection the tool cannot take raises ``ApprovalRejected``; a form not filled raises
    ``InterruptNotAnswered``; either way the graph stays paused and the tool never ran.
    ``approvers``: only these people may answer what the run asks.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    run_config = _thread_config(graph, config)
    _check_types(resume_type, graph)
    by_node = isinstance(resume_type, Mapping)
    next_input = input
    if config is not None and resuming.answering_later():
        # The thread may be paused at interrupts a run of this same input asked (in this process
        # or another): resume them with the inbox's answers instead of starting over.
        run_config = _with_input_key(run_config, input)
        paused = yield Work(partial(graph.aget_state, run_config), partial(graph.get_state, run_config))
        if paused.interrupts and (paused.metadata or {}).get(INPUT_KEY) == run_config["metadata"][INPUT_KEY]:
            next_input = yield from _answering(paused if by_node else list(paused.interrupts), timeout, resume_type)
    while True:
        try:
            interrupts: list[Interrupt] = yield _streamed(graph, next_input, run_config)
        except ValidationError as error:
            raise _refused(error) from error
        state: Any = None
        if not interrupts or by_node:
            state = yield Work(partial(graph.aget_state, run_config), partial(graph.get_state, run_config))
        if not interrupts:
            return state.values
        next_input = yield from _answering(state if by_node else interrupts, timeout, resume_type)


run, run_sync = twins(
    _running, "run", "The blocking twin of ``run`` (``graph.stream``), for synchronous graphs and code."
)


def _streamed(graph: PregelProtocol[Any, Any, Any, Any], input: Any, config: Any) -> Work:  # noqa: A002
    """The graph run from ``input`` to its next pause or its end: the interrupts it streamed."""

    async def streaming() -> list[Interrupt]:
        return [i async for chunk in graph.astream(input, config, stream_mode="updates") for i in _interrupts_in(chunk)]

    return Work(
        streaming,
        lambda: [i for chunk in graph.stream(input, config, stream_mode="updates") for i in _interrupts_in(chunk)],
    )


async def resolve(
    interrupts: Any,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: ResumeTypes = None,
) -> Command[Any]:
    """Ask the person about each interrupt in turn and return ``Command(resume={interrupt.id:
    value, ...})``, which resumes them all, parallel ones included. ``interrupts``: an Interrupt,
    a list of them, ``invoke``'s result (its ``"__interrupt__"``), a v2 result (``.interrupts``)
    or ``graph.get_state(config)`` (needed for a ``resume_type`` by node name). ``approvers``:
    only these people may answer.
    """
    with answerable_by(approvers):
        return await drive(_answering(interrupts, timeout, resume_type))


def resolve_sync(
    interrupts: Any,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    resume_type: ResumeTypes = None,
) -> Command[Any]:
    """The blocking twin of ``resolve``."""
    with answerable_by(approvers):
        return drive_sync(_answering(interrupts, timeout, resume_type))


def _answering(interrupts: Any, timeout: float | None, resume_type: ResumeTypes) -> Asking[Command[Any]]:
    """Every interrupt's questions, each checked before anyone is asked, shown together."""
    _check_types(resume_type, None)
    items = _unique(interrupts)
    types = _types_by_id(interrupts, items, resume_type)
    return _answer_all([(item.id, _asking(item, timeout, types.get(item.id))) for item in items])


def _answer_all(askings: list[tuple[str, Asking[Any]]]) -> Asking[Command[Any]]:
    """Parallel interrupts, shown together; the graph resumes once, with every answer."""
    answers = yield from together([asking for _, asking in askings])
    return Command(resume={interrupt_id: answer for (interrupt_id, _), answer in zip(askings, answers, strict=True)})


def _refused(error: ValidationError) -> Exception:
    """LangGraph's refusal of a resume value (an edit that does not fit the tool's arguments)."""
    if not is_invalid_resume(error):
        return error
    msg = f"the interrupt's response_schema refused the answer; nothing ran and the graph stays paused at it: {error}"
    return ValueError(msg)


def _with_input_key(config: Any, input: Any) -> Any:  # noqa: A002
    """``config`` whose checkpoints record the input's fingerprint (LangGraph keeps a config's
    ``metadata`` in every checkpoint of the run), so a later run knows whether it is the same.
    """
    metadata = {**(config.get("metadata") or {}), INPUT_KEY: resuming.input_key(input)}
    return {**config, "metadata": metadata}


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


def _check_types(resume_type: ResumeTypes, graph: object) -> None:
    """``resume_type`` is a type nbask resumes with, or a mapping of the graph's node names to them."""
    if resume_type is None:
        return
    if not isinstance(resume_type, Mapping):
        values.check_resume_type(resume_type)
        return
    nodes = getattr(graph, "nodes", None)
    for name, kind in resume_type.items():
        if isinstance(nodes, Mapping) and name not in nodes:
            known = ", ".join(repr(n) for n in nodes if not str(n).startswith("__"))
            msg = f"resume_type: {name!r} is not a node of this graph (its nodes: {known})"
            raise ValueError(msg)
        values.check_resume_type(kind, f"resume_type[{name!r}]")


def _types_by_id(pending: Any, items: list[Interrupt], resume_type: ResumeTypes) -> dict[str, ResumeType | None]:
    """Each interrupt's resume type: the one type, or its node's (from a StateSnapshot's tasks)."""
    if not isinstance(resume_type, Mapping):
        return {item.id: resume_type for item in items}
    tasks = getattr(pending, "tasks", None)
    if tasks is None:
        msg = (
            "resume_type by node name needs to know which node asked each interrupt: "
            "pass graph.get_state(config) instead of the interrupts"
        )
        raise ValueError(msg)
    return {i.id: resume_type.get(task.name) for task in tasks for i in getattr(task, "interrupts", ())}


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


def _asking(item: Interrupt, timeout: float | None, resume_type: ResumeType | None) -> Asking[Any]:
    """The questions for one interrupt, by the shape of its value (see the module docstring)."""
    value = item.value
    if hitl.is_batch(value):
        return hitl.ask_batch(value, timeout)
    if hitl.is_per_call(value):
        return hitl.ask_per_call(value, item.response_schema, timeout)
    if isinstance(item.response_schema, Mapping):
        return values.ask_schema(item, item.response_schema, timeout)
    if isinstance(value, str):
        return values.ask_typed(item, value, resume_type, timeout)
    if values.is_approval(value) or values.is_review(value) or values.is_tool_action(value):
        return values.ask_pattern(item, timeout)
    if isinstance(value, Mapping):
        dialect, found = _dialect_of(value)
        if isinstance(found, Plan):
            return _ask_questions(dialect, found, timeout)
        keys = ", ".join(repr(str(k)) for k in list(value)[:8]) or "none"
        why = f" (as {dialect.name}: {found})" if dialect is not None else f" (its keys: {keys})"
        msg = f"interrupt {item.id}: its value is not in a shape nbask can ask{why}. nbask reads: {values.SHAPES}"
        raise ValueError(msg)
    msg = f"interrupt {item.id}: its value is {type(value).__name__}. nbask reads: {values.SHAPES}"
    raise TypeError(msg)


def _dialect_of(value: Mapping[str, Any]) -> tuple[Any, Plan | str | None]:
    """The first dialect whose arguments hold every key of ``value`` and that reads it, with its
    plan; else the first such dialect's problems; (None, None) when no dialect has these keys.
    """
    keys = set(value)
    fitting = [d for d in DIALECTS.values() if keys and keys <= set(d.arguments.model_fields)]
    tried = [(dialect, _parsed(dialect, value)) for dialect in fitting]
    found = next(((d, plan) for d, plan in tried if isinstance(plan, Plan)), None)
    return found or (tried[0] if tried else (None, None))


def _parsed(dialect: Dialect, value: Mapping[str, Any]) -> Plan | str:
    try:
        return dialect.parse(dialect.load(value))
    except (ArgumentError, ValueError) as error:
        return str(error)


def _ask_questions(dialect: Dialect, plan: Plan, timeout: float | None) -> Asking[Any]:
    answer = yield QuestionRequest(
        question_set=plan.question_set, timeout=plan.timeout if plan.timeout is not None else timeout
    )
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    output = dialect.reply(answer, plan).output
    try:
        return json.loads(output)
    except json.JSONDecodeError:
        return output
