"""Haystack's tool confirmation answered in the cell: an ``Agent``'s pending tool calls become
nbask approvals, all the calls of one step shown together (answered in any order), before any of
them runs.

In a cell::

    from nbask.integrations.haystack import confirmation_hook

    agent = Agent(chat_generator=..., tools=[delete_file, search],
                  hooks={"before_tool": [confirmation_hook(tools=["delete_file"])]})
    result = agent.run([ChatMessage.from_user("Clean up.")])          # blocking: the cell waits
    result = await agent.run_async([ChatMessage.from_user("Clean up.")])  # the event loop stays free

``confirmation_hook(tools=..., timeout=..., approvers=...)`` is Haystack's own ``ConfirmationHook``
whose strategy for the named tools (every tool when none is named) is ``AskInCell``; it,
``AskInCell`` and ``CellConfirmationUI`` take ``timeout=`` and ``approvers=`` (only these people
may answer). ``AskInCell`` is a ``ConfirmationStrategy`` of its own, to mix with Haystack's in
one ``ConfirmationHook`` (``{"delete_file": AskInCell(), "*": BlockingConfirmationStrategy(...)}``);
there it asks one call at a time. ``CellConfirmationUI`` is a ``ConfirmationUI`` for Haystack's
``BlockingConfirmationStrategy`` (with its policies, e.g. ``AskOncePolicy``); that strategy is
blocking, so its ``run_async`` blocks the event loop while the person decides.

What each call becomes: an approval titled "Call <tool>", its details the call's arguments as
JSON, an edit checked against the tool's ``parameters`` JSON Schema. Approve -> the call runs as
the model made it; Edit -> the call runs with the edited arguments, and the model is told (a user
message, Haystack's ``MODIFICATION_FEEDBACK_TEMPLATE``, with the person's note); Reject (and a
dismiss, a timeout, a headless policy, no one to ask) -> ``ToolExecutionDecision(execute=False,
feedback=...)``: the tool does not run, and the model reads the feedback as the call's (error)
result: why, and who decided. An edit that is not a JSON object is a rejection saying so. A replay
miss raises ``nbask.ReplayMissing``; a kernel interrupt ends the run.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from haystack.components.agents.state.state import State
from haystack.core.serialization import default_from_dict, default_to_dict
from haystack.hooks.human_in_the_loop import ConfirmationHook, ConfirmationUIResult, ToolExecutionDecision
from haystack.hooks.human_in_the_loop.strategies import MODIFICATION_FEEDBACK_TEMPLATE, USER_FEEDBACK_TEMPLATE
from haystack.tools.tool import Tool
from typing_extensions import NotRequired, TypedDict, Unpack

from ..core.lifecycle import DEFAULT_TIMEOUT
from ..identity import checked_approvers
from ..tools.function import DO_NOT_RETRY
from . import _seam

__all__ = ["AskInCell", "CellConfirmationHook", "CellConfirmationUI", "ToolCall", "confirmation_hook"]

Schemas = Mapping[str, Mapping[str, Any]]


class ToolCall(TypedDict):
    """What Haystack passes a ``ConfirmationStrategy``'s ``run`` and ``run_async`` (by keyword)."""

    tool_name: str
    tool_description: str
    tool_params: dict[str, Any]
    tool_call_id: NotRequired[str | None]
    confirmation_strategy_context: NotRequired[dict[str, Any] | None]


_Key = tuple[str | None, str, str]


def confirmation_hook(
    *,
    tools: Collection[str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> CellConfirmationHook:
    """A ``before_tool`` hook asking the person about every call of the tools named in ``tools``
    (None: every tool), the calls of one step together; ``timeout`` seconds each (None: no limit),
    answerable only by ``approvers`` when named.
    """
    if isinstance(tools, str):
        msg = f"tools must be a collection of tool names, not one string: tools=[{tools!r}]"
        raise TypeError(msg)
    names = tuple(tools or ())
    key: str | tuple[str, ...] = "*" if not names else names[0] if len(names) == 1 else names
    return CellConfirmationHook({key: AskInCell(timeout=timeout, approvers=approvers)})


class AskInCell:
    """Haystack's ``ConfirmationStrategy``: each call it is given is an nbask approval (see the
    module docstring). ``tool_definitions``: the tools whose ``parameters`` an edit is checked against (in a
    ``CellConfirmationHook`` the Agent's own are used); ``approvers``: who alone may answer.
    """

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        tool_definitions: Iterable[Tool] = (),
    ) -> None:
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)
        self._schemas: dict[str, Mapping[str, Any]] = {tool.name: tool.parameters for tool in tool_definitions}
        #: Decisions asked ahead by a CellConfirmationHook (one step's calls together), by call.
        self._decided: dict[_Key, ToolExecutionDecision] = {}

    def run(self, **call: Unpack[ToolCall]) -> ToolExecutionDecision:
        """Ask the person (blocking) and return Haystack's decision."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        decided = self._asked_ahead(call)
        return decided if decided is not None else _seam.drive_sync(self._asking_call(call))

    async def run_async(self, **call: Unpack[ToolCall]) -> ToolExecutionDecision:
        """Ask the person, awaiting (the event loop goes on), and return Haystack's decision."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        decided = self._asked_ahead(call)
        return decided if decided is not None else await _seam.drive(self._asking_call(call))

    def _asked_ahead(self, call: ToolCall) -> ToolExecutionDecision | None:
        """The decision a ``CellConfirmationHook`` asked ahead for this call, once."""
        return self._decided.pop(_key(call.get("tool_call_id"), call["tool_name"], call["tool_params"]), None)

    def _asking_call(self, call: ToolCall) -> _seam.Asking[ToolExecutionDecision]:
        return self.asking(call["tool_name"], call["tool_params"], call.get("tool_call_id"))

    def asking(
        self,
        tool_name: str,
        tool_params: Mapping[str, Any],
        tool_call_id: str | None = None,
        schema: Mapping[str, Any] | None = None,
    ) -> _seam.Asking[ToolExecutionDecision]:
        """The Asking of one call: its ``ToolExecutionDecision``."""
        schema = schema or self._schemas.get(tool_name)
        return _confirming(
            tool_name, tool_params, tool_call_id, timeout=self.timeout, approvers=self.approvers, schema=schema
        )

    def to_dict(self) -> dict[str, Any]:
        """Haystack's serialization: the timeout and approvers (tools are the Agent's, given again)."""
        approvers = list(self.approvers) if self.approvers is not None else None
        return default_to_dict(self, timeout=self.timeout, approvers=approvers)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AskInCell:
        return default_from_dict(cls, data)


class CellConfirmationHook(ConfirmationHook):
    """Haystack's ``ConfirmationHook``: the calls of one step whose strategy is ``AskInCell`` are
    asked together first (each edit checked against its tool's ``parameters``); then Haystack
    applies every strategy's decision as it does.
    """

    def run(self, state: State) -> None:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        _seam.drive_sync(self._asking(state))
        super().run(state)

    async def run_async(self, state: State) -> None:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        await _seam.drive(self._asking(state))
        await super().run_async(state)

    def _asking(self, state: State) -> _seam.Asking[None]:
        messages = state.data.get("messages") or []
        tools = {tool.name: tool for tool in state.data.get("tools") or []}
        asked: list[tuple[AskInCell, _Key, _seam.Asking[ToolExecutionDecision]]] = []
        for call in messages[-1].tool_calls if messages else []:
            strategy = _strategy_for(call.tool_name, self.confirmation_strategies)
            tool = tools.get(call.tool_name)
            if isinstance(strategy, AskInCell) and tool is not None:  # an unknown tool: Haystack reports it
                arguments = dict(call.arguments)
                asking = strategy.asking(call.tool_name, arguments, call.id, tool.parameters)
                asked.append((strategy, _key(call.id, call.tool_name, arguments), asking))
        if not asked:
            return
        decisions = yield from _seam.together([asking for _, _, asking in asked])
        for (strategy, key, _), decision in zip(asked, decisions, strict=True):
            strategy._decided[key] = decision  # noqa: SLF001 - read back by the strategy's run


class CellConfirmationUI:
    """Haystack's ``ConfirmationUI`` for ``BlockingConfirmationStrategy``: the call as an nbask
    approval (blocking); confirm, modify (the edited arguments) or reject with the text the model
    reads. ``tool_definitions``: the tools whose ``parameters`` an edit is checked against;
    ``approvers``: who alone may answer.
    """

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        tool_definitions: Iterable[Tool] = (),
    ) -> None:
        self._strategy = AskInCell(timeout=timeout, approvers=approvers, tool_definitions=tool_definitions)

    def get_user_confirmation(
        self,
        tool_name: str,
        tool_description: str,  # noqa: ARG002 - Haystack's protocol
        tool_params: dict[str, Any],
    ) -> ConfirmationUIResult:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        decision = _seam.drive_sync(self._strategy.asking(tool_name, tool_params))
        if not decision.execute:
            return ConfirmationUIResult(action="reject", feedback=decision.feedback)
        if decision.final_tool_params != tool_params:
            return ConfirmationUIResult(action="modify", new_tool_params=decision.final_tool_params)
        return ConfirmationUIResult(action="confirm")

    def to_dict(self) -> dict[str, Any]:
        approvers = list(self._strategy.approvers) if self._strategy.approvers is not None else None
        return default_to_dict(self, timeout=self._strategy.timeout, approvers=approvers)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CellConfirmationUI:
        return default_from_dict(cls, data)


def _confirming(
    tool_name: str,
    tool_params: Mapping[str, Any],
    tool_call_id: str | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: tuple[str, ...] | None = None,
    schema: Mapping[str, Any] | None = None,
) -> _seam.Asking[ToolExecutionDecision]:
    """The Asking of one pending call: the ``ToolExecutionDecision`` Haystack applies. Its
    strategy's ``approvers`` are set on the request itself: a hook asks the calls of several
    strategies together.
    """
    title = _seam.call_title(tool_name)
    params = dict(tool_params)

    def refused(feedback: str) -> ToolExecutionDecision:
        return ToolExecutionDecision(tool_name=tool_name, execute=False, tool_call_id=tool_call_id, feedback=feedback)

    try:
        request = _seam.approval(
            title, _seam.arguments_text(params), timeout=timeout, tool_call_id=tool_call_id, schema=schema
        )
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        return refused(
            f"Not approved: {title} did not run, because it could not be shown for approval: {error} {DO_NOT_RETRY}"
        )
    if approvers is not None:
        request.approvers = approvers
    decision = yield from _seam.ask(request)
    if decision.decision == "reject":
        return refused(_seam.not_run_text(decision, title))
    if decision.decision == "edit" and decision.edited is not None:
        try:
            edited = _seam.edited_arguments(decision)
        except _seam.EditNotUsable as why:
            return refused(_seam.not_run_text(decision, title, why))
        feedback = MODIFICATION_FEEDBACK_TEMPLATE.format(tool_name=tool_name, final_tool_params=edited)
        if decision.reason.strip():
            feedback += " " + USER_FEEDBACK_TEMPLATE.format(feedback=decision.reason.strip())
        return ToolExecutionDecision(
            tool_name=tool_name, execute=True, tool_call_id=tool_call_id, feedback=feedback, final_tool_params=edited
        )
    return ToolExecutionDecision(tool_name=tool_name, execute=True, tool_call_id=tool_call_id, final_tool_params=params)


def _strategy_for(name: str, strategies: Mapping[str | tuple[str, ...], Any]) -> Any:
    """The strategy Haystack picks for tool ``name``: its own key, a tuple holding it, else "*"."""
    if name in strategies:
        return strategies[name]
    tuples: Sequence[Any] = [strategy for key, strategy in strategies.items() if isinstance(key, tuple) and name in key]
    return tuples[0] if tuples else strategies.get("*")


def _key(tool_call_id: str | None, tool_name: str, params: Mapping[str, Any]) -> _Key:
    return tool_call_id, tool_name, json.dumps(params, sort_keys=True, default=repr)
