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
  ``get_user_input`` tool of ``UserControlFlowTools``): a typed form of the fields the person
  gives: the tool's ``user_input_fields`` (known with ``agent=``, or in ``run``; without it, and
  for ``user_input_fields=[]``, the fields the model left without a value). The model's arguments
  are shown in the call, not asked. str -> text, int -> integer, float -> number,
  bool -> checkbox, a ``Literal`` of strings or a string ``Enum`` -> a choice, ``Optional[X]`` ->
  X left optional, anything else (list, dict) -> text read as JSON; a default in the tool's
  signature is the field's default (``recommended`` takes it). Submit ->
  ``requirement.provide_user_input(values)``, every value filled: a field left empty gets the
  tool's default, an argument the model left out gets its default too, and a call without a
  required argument of the model's is refused ("call it again with every required argument").
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

import inspect
import logging
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from agno.agent import Agent
from agno.models.response import ToolExecution
from agno.run.agent import RunOutput, RunPausedEvent
from agno.run.requirement import RunRequirement
from agno.tools.function import Function
from agno.tools.toolkit import Toolkit

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...kinds import QuestionRequest
from ...tools.dialects import DIALECTS, ArgumentError
from ...tools.dialects._replies import selections_for
from ...tools.function import DO_NOT_RETRY
from .. import _seam
from . import _later
from ._input import Declared, ask_input, not_run

__all__ = ["resolve", "resolve_sync", "run", "run_sync"]

log = logging.getLogger("nbask.integrations")

#: The keyword arguments of ``arun`` that every ``acontinue_run`` of the run is given again.
_RESUMED = ("user_id", "dependencies", "metadata", "knowledge_filters", "debug_mode")

Paused = RunOutput | RunPausedEvent
Tools = Mapping[str, Declared]


def _running(
    agent: Agent,
    input: Any,  # noqa: A002 - agno's own name
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    **run_kwargs: Any,
) -> _seam.Asking[RunOutput]:
    """``agent.arun(input, **run_kwargs)`` with every pause answered in the cell: while the run is
    paused, its active requirements are asked together (``timeout`` seconds each) and the run goes
    on with ``agent.acontinue_run(run_response=...)`` (given ``user_id``, ``dependencies``,
    ``metadata``, ``knowledge_filters`` and ``debug_mode`` again), until it ends; that RunOutput
    is returned. A requirement left open (see the module docstring) returns the paused run.
    ``approvers``: only these people may answer what the run asks.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    resume = _resume_kwargs(run_kwargs)
    run_kwargs.pop("stream", None)
    key = _later.key(agent, input, run_kwargs)
    result: RunOutput | None = (yield from _later.kept(agent, key)) if key is not None else None
    loaded = result is not None
    if result is None:  # no paused run of this code to go on from: a run of its own
        result = yield _seam.Work(
            partial(agent.arun, input, stream=False, **run_kwargs),
            partial(agent.run, input, stream=False, **run_kwargs),
        )
    tools = _declared(agent)
    while result.is_paused:
        with _seam.resuming.keeping(key, partial(_later.where, result)):
            left_open = yield from _asking(result.active_requirements, timeout, tools)
        if left_open:
            return result
        # A run read back from agno's db goes on by its ids and the answered requirements (its
        # tools are copies of theirs); one of this process, from itself.
        where = (
            {"run_id": result.run_id, "session_id": result.session_id, "requirements": result.requirements}
            if loaded
            else {"run_response": result}
        )
        loaded = False
        going_on = {**where, "stream": False, **resume}
        result = yield _seam.Work(partial(agent.acontinue_run, **going_on), partial(agent.continue_run, **going_on))
    _seam.resuming.resumed(key)
    return result


run, run_sync = _seam.twins(
    _running, "run", "The blocking twin of ``run``: ``agent.run`` and ``agent.continue_run``, the same requests."
)


async def resolve(
    paused: Paused,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    agent: Agent | None = None,
) -> list[RunRequirement]:
    """Answer one paused run's active requirements (a ``RunOutput`` or a streamed
    ``RunPausedEvent``), asked together, each answered in place, and return the run's
    requirements: what ``continue_run(run_id=..., requirements=...)`` takes; the paused
    ``RunOutput`` itself (``continue_run(run_response=...)``) carries them too. With ``agent``, an
    approval's edit is checked against the called tool's JSON Schema, and a form asks the tool's
    ``user_input_fields`` with its defaults. Requirements left open
    (see the module docstring) are still among ``paused.active_requirements``. ``approvers``:
    only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        await _seam.drive(_asking(paused.active_requirements, timeout, _declared(agent)))
    return list(paused.requirements or [])


def resolve_sync(
    paused: Paused,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    agent: Agent | None = None,
) -> list[RunRequirement]:
    """The blocking twin of ``resolve``; it also works in a notebook cell."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        _seam.drive_sync(_asking(paused.active_requirements, timeout, _declared(agent)))
    return list(paused.requirements or [])


def _resume_kwargs(run_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    if run_kwargs.get("stream"):
        msg = "run(..., stream=True): run drives a whole run; stream yourself and answer each pause with resolve"
        raise TypeError(msg)
    return {key: run_kwargs[key] for key in _RESUMED if key in run_kwargs}


# -- one pause: every active requirement, asked together ----------------------------------------


def _asking(
    requirements: Iterable[RunRequirement], timeout: float | None, tools: Tools
) -> _seam.Asking[list[RunRequirement]]:
    """Ask about every requirement nbask answers, together; returns the ones left open."""
    pending = list(requirements)
    asked = [(requirement, _answering(requirement, timeout, tools)) for requirement in pending]
    answered = yield from _seam.together([asking for _, asking in asked])
    return [requirement for (requirement, _), done in zip(asked, answered, strict=True) if not done]


def _answering(requirement: RunRequirement, timeout: float | None, tools: Tools) -> _seam.Asking[bool]:
    """One requirement's Asking: True once it is answered, False when it is left open."""
    tool = requirement.tool_execution or ToolExecution()
    declared = tools.get(tool.tool_name or "")
    if requirement.needs_confirmation:
        return (yield from _confirming(requirement, tool, timeout, declared or Declared()))
    if requirement.needs_user_feedback:
        return (yield from _feedback(requirement, tool, timeout))
    if requirement.needs_user_input:
        return (yield from ask_input(requirement, tool, timeout, declared))
    return False  # external execution: the caller's


def _confirming(
    requirement: RunRequirement, tool: ToolExecution, timeout: float | None, declared: Declared
) -> _seam.Asking[bool]:
    name = tool.tool_name or "tool"
    title = _seam.call_title(name)
    arguments = dict(tool.tool_args or {})
    try:
        request = _seam.approval(
            title,
            _seam.arguments_text(arguments),
            timeout=timeout,
            tool_call_id=tool.tool_call_id,
            schema=declared.schema,
            risk=declared.risk,
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
        return not_run(requirement, tool, f"{tool.tool_name or 'the question'} was not answered", answer)
    requirement.provide_user_feedback({key: selections_for(answer, plan, i) for i, key in enumerate(plan.keys)})
    return True


# -- what the agent's tools declare: JSON Schemas, user_input_fields, defaults -----------------


def _declared(agent: Agent | None) -> dict[str, Declared]:
    """Tool name -> what its Function declares, for the agent's tools agno can describe."""
    found: dict[str, Declared] = {}
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
            schema = described.parameters
            found[described.name] = Declared(
                schema if isinstance(schema, dict) and schema.get("properties") else None,
                tuple(function.user_input_fields or ()) if function.requires_user_input else (),
                _defaults(function),
                _seam.hinted_risk(function.annotations),
            )
    return found


def _defaults(function: Function) -> dict[str, Any]:
    """The defaults of the tool's own signature (agno's schema does not carry those it asks for)."""
    try:
        parameters = inspect.signature(function.entrypoint).parameters if function.entrypoint else {}
    except (TypeError, ValueError):  # a callable Python cannot introspect: no defaults known
        return {}
    return {name: p.default for name, p in parameters.items() if p.default is not inspect.Parameter.empty}
