"""agno's paused runs answered in the cell: each of a paused run's ``active_requirements`` becomes
an nbask request, all of one pause shown together (answered in any order), and the run goes on.

    result = await nbask.integrations.agno.run(agent, "Clean up the warehouse.")
    result = nbask.integrations.agno.run_sync(agent, "Clean up the warehouse.")  # blocking

Stop and resume yourself (``resolve_sync`` in synchronous code)::

    paused = await agent.arun("Clean up the warehouse.")
    if paused.is_paused:
        requirements = await nbask.integrations.agno.resolve(paused, agent=agent)
        result = await agent.acontinue_run(run_response=paused)  # answered in place
        # with a db: agent.acontinue_run(run_id=paused.run_id, requirements=requirements)

What each requirement becomes:

- Confirmation (``@tool(requires_confirmation=True)``): an approval titled "Call <tool>", its
  details the call's arguments as JSON, an edit checked against the tool's JSON Schema (with
  ``agent=``, or in ``run``). Approve -> ``requirement.confirm()``; Edit -> the call runs with the
  edited arguments; Reject (and a dismiss, a timeout, a headless policy, no one to ask) ->
  ``requirement.reject(note)``: the tool does not run and the model reads the note (why, and
  who decided). An edit that is not a JSON object is a rejection saying so.
- User input (``@tool(requires_user_input=True, user_input_fields=[...])`` or the
  ``get_user_input`` tool of ``UserControlFlowTools``): a typed form of the ``UserInputField``s
  agno asks for (those without a value; the arguments the model gave are shown in the call, not
  asked again): str -> text, int -> integer, float -> number,
  bool -> checkbox, a ``Literal`` of strings or a string ``Enum`` -> a choice, ``Optional[X]`` ->
  X left optional, anything else (list, dict) -> text read as JSON. Submit ->
  ``requirement.provide_user_input(values)``.
- User feedback (the ``ask_user`` tool of ``UserFeedbackTools``, the AskUserQuestion shape):
  nbask's questions, read by nbask's AskUserQuestion dialect; Submit ->
  ``requirement.provide_user_feedback({question: [chosen labels, typed Other text]})``. agno's
  feedback carries only the selections: a note on a question does not reach the model.
- External execution: left to the caller (``requirement.set_external_execution_result``).

agno has no refusal for input or feedback, and a caller's ``continue_run`` would run the tool
with ``None`` for each value left open. So a declined or dismissed form, a question set no one
answered, a policy that has no value to give, or no one to ask (kept in ``nbask.history()``) ends
the requirement as agno ends a rejected call: the tool does not run, and the model reads why
("Not done: <tool> did not run: ..."). Only what nbask cannot show (and an external execution)
is left open: ``run`` then returns the still-paused ``RunOutput`` for the caller. A replay miss raises
``nbask.ReplayMissing``; a kernel interrupt propagates.
"""

from __future__ import annotations

import json
import logging
import types
from collections.abc import Iterable, Mapping
from enum import Enum
from functools import partial
from typing import Any, Literal, Union, get_args, get_origin

from agno.agent import Agent
from agno.models.response import ToolExecution
from agno.run.agent import RunOutput, RunPausedEvent
from agno.run.requirement import RunRequirement
from agno.tools.function import Function, UserInputField
from agno.tools.toolkit import Toolkit

from ..api import form_request
from ..contract import MAX_DESCRIPTION_CHARS, MAX_DETAILS_CHARS, MAX_TITLE_CHARS
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..forms import FormSchemaError
from ..kinds import QuestionRequest
from ..models import Answer, FormAnswer
from ..tools.dialects import DIALECTS, ArgumentError
from ..tools.dialects._replies import selections_for
from ..tools.function import DO_NOT_RETRY
from . import _seam

__all__ = ["resolve", "resolve_sync", "run", "run_sync"]

log = logging.getLogger("nbask.integrations")

#: The keyword arguments of ``arun`` that every ``acontinue_run`` of the run is given again.
_RESUMED = ("user_id", "dependencies", "metadata", "knowledge_filters", "debug_mode")
#: A UserInputField's Python type -> its JSON Schema type (bool before int: bool is an int).
_TYPES: tuple[tuple[type, str], ...] = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))

Paused = RunOutput | RunPausedEvent
Schemas = Mapping[str, Mapping[str, Any]]


def _running(
    agent: Agent,
    input: Any,  # noqa: A002 - agno's own name
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    **run_kwargs: Any,
) -> _seam.Asking[RunOutput]:
    """``agent.arun(input, **run_kwargs)`` with every pause answered in the cell: while the run is
    paused, its active requirements are asked together (``timeout`` seconds each) and the run goes
    on with ``agent.acontinue_run(run_response=...)`` (given ``user_id``, ``dependencies``,
    ``metadata``, ``knowledge_filters`` and ``debug_mode`` again), until it ends; that RunOutput
    is returned. A requirement left open (see the module docstring) returns the paused run.
    """
    resume = _resume_kwargs(run_kwargs)
    run_kwargs.pop("stream", None)
    result: RunOutput = yield _seam.Work(
        partial(agent.arun, input, stream=False, **run_kwargs), partial(agent.run, input, stream=False, **run_kwargs)
    )
    schemas = _schemas(agent)
    while result.is_paused:
        if (yield from _asking(result.active_requirements, timeout, schemas)):
            return result
        going_on = {"run_response": result, "stream": False, **resume}
        result = yield _seam.Work(partial(agent.acontinue_run, **going_on), partial(agent.continue_run, **going_on))
    return result


run, run_sync = _seam.twins(
    _running, "run", "The blocking twin of ``run``: ``agent.run`` and ``agent.continue_run``, the same requests."
)


async def resolve(
    paused: Paused, *, timeout: float | None = DEFAULT_TIMEOUT, agent: Agent | None = None
) -> list[RunRequirement]:
    """Answer one paused run's active requirements (a ``RunOutput`` or a streamed
    ``RunPausedEvent``), asked together, each answered in place, and return the run's
    requirements: what ``continue_run(run_id=..., requirements=...)`` takes; the paused
    ``RunOutput`` itself (``continue_run(run_response=...)``) carries them too. With ``agent``, an
    approval's edit is checked against the called tool's JSON Schema. Requirements left open
    (see the module docstring) are still among ``paused.active_requirements``.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    await _seam.drive(_asking(paused.active_requirements, timeout, _schemas(agent)))
    return list(paused.requirements or [])


def resolve_sync(
    paused: Paused, *, timeout: float | None = DEFAULT_TIMEOUT, agent: Agent | None = None
) -> list[RunRequirement]:
    """The blocking twin of ``resolve``; it also works in a notebook cell."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    _seam.drive_sync(_asking(paused.active_requirements, timeout, _schemas(agent)))
    return list(paused.requirements or [])


def _resume_kwargs(run_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    if run_kwargs.get("stream"):
        msg = "run(..., stream=True): run drives a whole run; stream yourself and answer each pause with resolve"
        raise TypeError(msg)
    return {key: run_kwargs[key] for key in _RESUMED if key in run_kwargs}


# -- one pause: every active requirement, asked together ----------------------------------------


def _asking(
    requirements: Iterable[RunRequirement], timeout: float | None, schemas: Schemas
) -> _seam.Asking[list[RunRequirement]]:
    """Ask about every requirement nbask answers, together; returns the ones left open."""
    pending = list(requirements)
    asked = [(requirement, _answering(requirement, timeout, schemas)) for requirement in pending]
    answered = yield from _seam.together([asking for _, asking in asked])
    return [requirement for (requirement, _), done in zip(asked, answered, strict=True) if not done]


def _answering(requirement: RunRequirement, timeout: float | None, schemas: Schemas) -> _seam.Asking[bool]:
    """One requirement's Asking: True once it is answered, False when it is left open."""
    tool = requirement.tool_execution or ToolExecution()
    if requirement.needs_confirmation:
        return (yield from _confirming(requirement, tool, timeout, schemas.get(tool.tool_name or "")))
    if requirement.needs_user_feedback:
        return (yield from _feedback(requirement, tool, timeout))
    if requirement.needs_user_input:
        return (yield from _input(requirement, tool, timeout))
    return False  # external execution: the caller's


def _confirming(
    requirement: RunRequirement, tool: ToolExecution, timeout: float | None, schema: Mapping[str, Any] | None
) -> _seam.Asking[bool]:
    name = tool.tool_name or "tool"
    title = _seam.call_title(name)
    arguments = dict(tool.tool_args or {})
    try:
        request = _seam.approval(
            title, _seam.arguments_text(arguments), timeout=timeout, tool_call_id=tool.tool_call_id, schema=schema
        )
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        requirement.reject(
            f"Not approved: {title} did not run, because it could not be shown for approval: {error} {DO_NOT_RETRY}"
        )
        return True
    decision = yield from _seam.ask(request)
    if decision.decision == "reject":
        requirement.reject(_seam.not_run_text(decision, title))
        return True
    if decision.decision == "edit" and decision.edited is not None:
        try:
            tool.tool_args = _seam.edited_arguments(decision)
        except _seam.EditNotUsable as why:
            requirement.reject(_seam.not_run_text(decision, title, why))
            return True
    requirement.confirm()  # type: ignore[no-untyped-call]  # agno leaves it unannotated
    return True


def _feedback(requirement: RunRequirement, tool: ToolExecution, timeout: float | None) -> _seam.Asking[bool]:
    dialect = DIALECTS["AskUserQuestion"]
    questions = [
        {
            "question": question.question,
            **({"header": question.header} if question.header else {}),
            "options": [
                {"label": option.label, **({"description": option.description} if option.description else {})}
                for option in question.options or []
            ],
            "multi_select": question.multi_select,
        }
        for question in requirement.user_feedback_schema or []
    ]
    try:
        plan = dialect.read({"questions": questions})
    except ArgumentError as error:
        log.warning("nbask: the questions of %s are left open: %s", tool.tool_name, "; ".join(error.problems))
        return False
    request = QuestionRequest(question_set=plan.question_set, timeout=timeout, tool_call_id=tool.tool_call_id)
    answer = yield from _seam.ask(request)
    if answer.status != "answered":
        return _not_run(requirement, tool, f"{tool.tool_name or 'the question'} was not answered", answer)
    requirement.provide_user_feedback({key: selections_for(answer, plan, i) for i, key in enumerate(plan.keys)})
    return True


def _input(requirement: RunRequirement, tool: ToolExecution, timeout: float | None) -> _seam.Asking[bool]:
    """The values agno asks the person for (its ``user_input_fields``: the fields still without
    a value; those the model gave are shown in the call, not asked again).
    """
    name = tool.tool_name or "tool"
    fields = [field for field in requirement.user_input_schema or [] if field.value is None]
    if name == "get_user_input":
        message = "The agent asks for these values."
    else:
        shown = {key: value for key, value in (tool.tool_args or {}).items() if key != "user_input_fields"}
        call = json.dumps(shown, ensure_ascii=False, default=repr)
        message = f"{name} asks for these values to run.\n\nCall {name}({call})"
    message = _seam.clip(message, MAX_DETAILS_CHARS)
    properties = {field.name: _property(field) for field in fields}
    required = [field.name for field in fields if not _optional(field.field_type)[1]]
    try:
        request = form_request(
            message,
            {"type": "object", "properties": properties, "required": required},
            timeout=timeout,
            tool_call_id=tool.tool_call_id,
        )
    except FormSchemaError as error:
        log.warning("nbask: the input asked by %s is left open: %s", name, error)
        return False
    submitted = yield from _seam.ask(request)
    if submitted.action != "accept":
        return _not_run(requirement, tool, f"{name} did not run: it needs values no one gave", submitted)
    values = {field.name: _value(field, submitted.values.get(field.name)) for field in fields}
    missing = [field.name for field in fields if values[field.name] is None and not _optional(field.field_type)[1]]
    if missing:  # never a call half-filled: agno would run it with None
        return _not_run(requirement, tool, f"{name} did not run: no value for {', '.join(missing)}", submitted)
    requirement.provide_user_input(values)
    return True


def _not_run(requirement: RunRequirement, tool: ToolExecution, what: str, outcome: FormAnswer | Answer) -> bool:
    """End a requirement of input or feedback no one answered as agno ends a rejected call (it
    has no refusal of its own for these): the call does not run, and the model reads why. Left
    open instead, a caller's ``continue_run`` would run the tool with ``None`` for each value.
    """
    why = outcome.note.strip() or f"the request ended ({outcome.status})"
    note = f"Not done: {what} ({why}). {DO_NOT_RETRY}"
    tool.requires_confirmation, tool.confirmed, tool.confirmation_note = True, False, note
    # agno reads the call's updates more than once: once rejected, nothing may take it for input.
    tool.requires_user_input, tool.answered = False, True
    requirement.confirmation, requirement.confirmation_note = False, note
    return True


# -- UserInputField <-> a form's property -------------------------------------------------------


def _optional(kind: Any) -> tuple[Any, bool]:
    """(X, True) for ``Optional[X]`` / ``X | None``, else (kind, False)."""
    if get_origin(kind) in (Union, types.UnionType):
        rest = [arg for arg in get_args(kind) if arg is not type(None)]
        if len(rest) == 1 and len(get_args(kind)) == 2:  # noqa: PLR2004 - X and None
            return rest[0], True
    return kind, False


def _choices(kind: Any) -> list[str] | None:
    """The string choices of a ``Literal`` of strings or a string ``Enum``, else None."""
    if get_origin(kind) is Literal and all(isinstance(arg, str) for arg in get_args(kind)):
        return list(get_args(kind))
    if isinstance(kind, type) and issubclass(kind, Enum) and all(isinstance(m.value, str) for m in kind):
        return [m.value for m in kind]
    return None


def _json_type(kind: Any) -> str | None:
    return next((json_type for python, json_type in _TYPES if kind is python), None)


def _property(field: UserInputField) -> dict[str, Any]:
    kind = _optional(field.field_type)[0]
    title = field.name.replace("_", " ").strip().capitalize() or field.name
    prop: dict[str, Any] = {"title": title[:MAX_TITLE_CHARS]}
    description = " ".join((field.description or "").split())
    choices, json_type, value = _choices(kind), _json_type(kind), field.value
    if isinstance(value, Enum):
        value = value.value
    if choices is not None:
        prop.update(type="string", enum=choices)
        fits = value in choices
    elif json_type is not None:
        prop["type"] = json_type
        fits = _python_type_fits(json_type, value)
    else:  # a list, a dict, anything else: its JSON as text
        prop["type"] = "string"
        description = f"{description} (JSON)".strip()
        value, fits = json.dumps(value, ensure_ascii=False, default=repr), value is not None
    if description:
        prop["description"] = description[:MAX_DESCRIPTION_CHARS]
    if fits:
        prop["default"] = value
    return prop


def _python_type_fits(json_type: str, value: object) -> bool:
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def _value(field: UserInputField, value: Any) -> Any:
    """A submitted value as the tool takes it: an Enum's member, JSON text read, the rest as typed."""
    kind = _optional(field.field_type)[0]
    if value is None:
        return None
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(value)
    if _choices(kind) is None and _json_type(kind) is None and isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


# -- the tools' JSON Schemas, for an approval's edit --------------------------------------------


def _schemas(agent: Agent | None) -> dict[str, Mapping[str, Any]]:
    """Tool name -> its parameters' JSON Schema, for the agent's tools agno can describe."""
    found: dict[str, Mapping[str, Any]] = {}
    tools = agent.tools if agent is not None and isinstance(agent.tools, list) else []
    for tool in tools:
        functions: list[Function] = []
        if isinstance(tool, Function):
            functions = [tool]
        elif isinstance(tool, Toolkit):
            functions = list(tool.get_functions().values())
        elif callable(tool):
            functions = [Function.from_callable(tool)]
        for function in functions:
            try:
                described = function.model_copy(deep=True)
                described.process_entrypoint()
            except Exception as error:  # noqa: BLE001 - a tool agno cannot describe is asked without a schema
                log.info("nbask: no JSON Schema for %s: %s", function.name, error)
                continue
            if isinstance(described.parameters, dict) and described.parameters.get("properties"):
                found[described.name] = described.parameters
    return found
