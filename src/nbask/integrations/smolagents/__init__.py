"""smolagents' tools answered in the cell: ``UserInputTool`` asks the model's question in the cell
(a drop-in for smolagents' own, which reads stdin), and ``approving`` puts an nbask approval in
front of the tools you name (smolagents has no approval of its own).

    from nbask.integrations.smolagents import UserInputTool, approving

    agent = ToolCallingAgent(tools=approving([drop_table, search, UserInputTool()], tools=["drop_table"]), model=model)
    agent.run("Clean up the warehouse.")  # blocking: the cell waits, the widget answers

What each becomes:

- ``user_input(question)``: a form of one text field, the question as its message; the tool
  returns the answer as typed. Not answered (declined, a timeout, a headless policy, no one to
  ask) -> the tool returns "No answer: ..." saying why, which the model reads.
- A call of a named tool: an approval titled "Call <tool>", its details the call's arguments as
  JSON, an edit checked against the tool's ``inputs`` (in the widget, and by smolagents'
  ``validate_tool_arguments``). Approve -> the tool runs as the model called it; Edit -> it runs
  with the edited arguments; Reject (and a dismiss, a timeout, a headless policy, no one to ask)
  -> the tool does not run and returns the text the model reads as its observation: why, and who
  decided. An edit that is not a JSON object of the tool's inputs is a rejection saying so.

``UserInputTool``, ``approving`` and ``ApprovalGate`` take ``timeout=`` (seconds each request
waits; None: no limit) and ``approvers=`` (only these people may answer; None: as configured).

Both work in ``ToolCallingAgent`` and ``CodeAgent`` (the code calls the tool). A kernel interrupt
ends the run. smolagents turns every ``Exception`` a tool raises into an observation the model
reads, and goes on; so a replay miss inside these tools is raised past smolagents as a
``BaseException`` (as ``KeyboardInterrupt`` is), which ends ``agent.run``; ``run(agent, task)``
is ``agent.run(task)`` raising the ``nbask.ReplayMissing`` itself (and ``nbask.AskedAgain`` when
an unattended run asks again what a policy decided). Call ``run`` rather than ``agent.run``
where a replay may miss.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from smolagents.tools import Tool, validate_tool_arguments  # type: ignore[import-untyped]

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import AskedAgain, ReplayMissing
from ...identity import checked_approvers
from ...kinds.form.request import form_request
from ...tools.function import DO_NOT_RETRY
from .. import _bounded, _seam
from . import _compat

T = TypeVar("T")

__all__ = [
    "ANSWER",
    "ApprovalGate",
    "UserInputTool",
    "approving",
    "inputs_schema",
    "run",
]

#: The user_input form's one field.
ANSWER = "answer"
_ENDINGS = {"dismissed": "declined", "timeout": "timed out", "cancelled": "cancelled"}
#: Output types smolagents decodes by type: a gate declares "any" so a refusal stays text.
_DECODED = ("image", "audio")


class _Stop(BaseException):
    """What must end ``agent.run`` from inside a tool (a replay miss, an unattended run asking
    again), raised past smolagents, which keeps a tool's ``Exception`` for the model and goes on;
    ``error`` is the nbask error.
    """

    def __init__(self, error: ReplayMissing | AskedAgain) -> None:
        super().__init__(str(error))
        self.error = error


def run(agent: Any, task: str, **run_kwargs: Any) -> Any:
    """``agent.run(task, **run_kwargs)``, one run; a replay miss, or an unattended run asking
    again what a policy decided, in one of nbask's tools raises ``nbask.ReplayMissing`` or
    ``nbask.AskedAgain``.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        with _bounded.one_run():
            return agent.run(task, **run_kwargs)
    except _Stop as stop:
        raise stop.error from None


def _asked(asking: _seam.Asking[T], approvers: tuple[str, ...] | None) -> T:
    """``drive_sync(asking)``, answerable only by ``approvers`` when named, what must end the run
    raised as ``_Stop``. smolagents may call tools from a pool of threads, so the approvers are
    applied here, where the tool asks, not around ``agent.run``.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        with _seam.answerable_by(approvers):
            return _seam.drive_sync(asking)
    except (ReplayMissing, AskedAgain) as error:
        raise _Stop(error) from error


class UserInputTool(Tool):  # type: ignore[misc]  # smolagents is untyped
    """smolagents' ``user_input`` tool, answered in the cell (see the module docstring)."""

    name = "user_input"
    description = "Asks for user's input on a specific question"
    inputs = {"question": {"type": "string", "description": "The question to ask the user"}}  # noqa: RUF012
    output_type = "string"

    def __init__(self, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None) -> None:
        super().__init__()
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)

    def forward(self, question: str) -> str:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        asking = _answering(question, timeout=self.timeout, tool_call_id=_compat.tool_call_id())
        return _asked(asking, self.approvers)


def _answering(
    question: str, *, timeout: float | None = DEFAULT_TIMEOUT, tool_call_id: str | None = None
) -> _seam.Asking[str]:
    """The Asking of one ``user_input`` question: the text the tool returns."""
    schema = {
        "type": "object",
        "properties": {ANSWER: {"type": "string", "title": "Your answer"}},
        "required": [ANSWER],
    }
    request = form_request(
        question or "The agent asks for your input.", schema, timeout=timeout, tool_call_id=tool_call_id
    )
    answer = yield from _seam.ask(request)
    if answer.status == "answered":
        return str(answer.values.get(ANSWER, ""))
    why = answer.note.strip().rstrip(".")
    who = "a policy" if answer.answered_by == "policy" else "the person"
    ending = _ENDINGS.get(answer.status, answer.status)
    return (
        f"No answer: the question was not answered ({ending}, by {who}){': ' + why if why else ''}. "
        "Go on without it if you can, or stop and say what you need."
    )


def approving(
    agent_tools: Iterable[Tool],
    *,
    tools: Collection[str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> list[Tool]:
    """``agent_tools`` with each tool named in ``tools`` (None: every one) behind an nbask
    approval (``ApprovalGate``) only ``approvers`` may answer when named, the others as they are;
    ValueError names any name that is not among them.
    """
    checked = checked_approvers(approvers)
    listed = list(agent_tools)
    if isinstance(tools, str):
        msg = f"approving(...): tools must be a collection of tool names, not one string: tools=[{tools!r}]"
        raise TypeError(msg)
    names = {tool.name for tool in listed} if tools is None else set(tools)
    unknown = sorted(names - {tool.name for tool in listed})
    if unknown:
        msg = f"approving(...): no tool named {', '.join(map(repr, unknown))} among {[tool.name for tool in listed]}"
        raise ValueError(msg)
    return [ApprovalGate(tool, timeout=timeout, approvers=checked) if tool.name in names else tool for tool in listed]


class ApprovalGate(Tool):  # type: ignore[misc]  # smolagents is untyped
    """``tool`` behind an nbask approval: the same name, description and inputs; each call is
    asked first (see the module docstring), answerable only by ``approvers`` when named.
    ``gate.tool`` is the tool itself.
    """

    skip_forward_signature_validation = True

    def __init__(
        self, tool: Tool, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
    ) -> None:
        self.name = tool.name
        self.description = tool.description
        self.inputs = tool.inputs
        self.output_type = "any" if tool.output_type in _DECODED else tool.output_type
        self.output_schema = getattr(tool, "output_schema", None)
        super().__init__()
        self.tool = tool
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        arguments = dict(kwargs)
        if args:  # smolagents passes a one-input tool's value alone
            arguments.update(zip(self.inputs, args, strict=False))
        asking = _gating(self.tool, arguments, timeout=self.timeout, tool_call_id=_compat.tool_call_id())
        decided = _asked(asking, self.approvers)
        if isinstance(decided, str):
            return decided
        return self.tool(**decided)


def _gating(
    tool: Tool,
    arguments: Mapping[str, Any],
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    tool_call_id: str | None = None,
) -> _seam.Asking[dict[str, Any] | str]:
    """The Asking of one call of ``tool``: the arguments it runs with, or the text the model
    reads when it does not run.
    """
    title = _seam.call_title(tool.name)
    try:
        request = _seam.approval(
            title,
            _seam.arguments_text(dict(arguments)),
            timeout=timeout,
            tool_call_id=tool_call_id,
            schema=inputs_schema(tool),
        )
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        return f"Not approved: {title} did not run, because it could not be shown for approval: {error} {DO_NOT_RETRY}"
    decision = yield from _seam.ask(request)
    if decision.decision == "reject":
        return _seam.not_run_text(decision, title)
    if decision.decision == "edit" and decision.edited is not None:
        try:
            edited = _seam.edited_arguments(decision)
            _check(tool, edited)
        except _seam.EditNotUsable as why:
            return _seam.not_run_text(decision, title, why)
        return edited
    return dict(arguments)


def _check(tool: Tool, edited: dict[str, Any]) -> None:
    """The call's arguments checked by smolagents' own ``validate_tool_arguments``; its complaint as EditNotUsable."""
    try:
        validate_tool_arguments(tool, edited)
    except (ValueError, TypeError) as error:
        msg = f"they do not fit the tool's inputs: {error}"
        raise _seam.EditNotUsable(msg) from None


def inputs_schema(tool: Tool) -> dict[str, Any]:
    """A tool's ``inputs`` as the JSON Schema an edit is checked against: each input's type
    ("any", "image" and "audio" unchecked), a nullable one may be null or left out.
    """
    properties: dict[str, Any] = {}
    for key, spec in tool.inputs.items():
        types = [spec["type"]] if isinstance(spec["type"], str) else list(spec["type"])
        prop: dict[str, Any] = {"description": str(spec.get("description", ""))}
        if not any(kind in ("any", *_DECODED) for kind in types):
            if spec.get("nullable"):
                types.append("null")
            prop["type"] = types[0] if len(types) == 1 else types
        properties[key] = prop
    required = [key for key, spec in tool.inputs.items() if not spec.get("nullable")]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
