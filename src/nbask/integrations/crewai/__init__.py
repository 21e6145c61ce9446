"""CrewAI's own human-in-the-loop answered in the cell, with one line before your usual
``crew.kickoff()`` / ``flow.kickoff()`` / ``kickoff_async()``.

    nbask.integrations.crewai.install()

It puts nbask where CrewAI reads its providers for the whole process, so it holds in every cell
and thread (CrewAI reads its human input provider from a ContextVar, which a notebook cell does
not pass on to the next one: nbask sets that variable's default instead):

- ``@human_feedback`` (``flow_config.hitl_provider``): with 2-4 ``emit`` outcomes, a question
  whose options are the outcomes (``default_outcome`` recommended) plus Other; otherwise a form
  of the output with a text field (and a choice of the outcomes, when there are more than four).
- ``Flow.ask(message)`` (``flow_config.input_provider``): a one-field text form.
- ``Task(human_input=True)`` (CrewAI's human input provider): a one-field text form showing the
  task's output; a blank answer accepts it, feedback makes the agent rework it, asked again.
- Tool calls (a global before-tool-call hook): an approval "Call <tool>" with the input as JSON,
  an edit checked against the tool's argument schema: approve runs it, edit runs it with the
  edited input, reject blocks it (the tool never runs) and the model reads why (a global
  after-tool-call hook puts nbask's text in place of CrewAI's "Tool execution blocked by hook").
  ``tools=["delete_file"]`` asks only for those tools; ``tools=False`` none.

``install(timeout=..., approvers=[...])``: how long each request waits, and who alone may answer
every one of them (``FeedbackProvider`` and ``InputProvider`` take the same two).

Unattended (a policy): tool calls are rejected, never approved; a review is accepted as it is;
a feedback question takes its recommended option (CrewAI's own "no feedback" outcome); an input
is ``None`` with nbask's reason in its metadata. No one to ask: the same, and a feedback request
raises CrewAI's ``HumanFeedbackPending`` (the flow pauses; ``kickoff`` returns it), all kept in
``nbask.history()``. Each outermost ``kickoff`` is one run: in it, asking again what a policy
decided (a review that goes round, revised each time) stops the run with ``nbask.AskedAgain``
out of ``kickoff`` (``Flow.ask``: ``None`` with nbask's reason, CrewAI keeping a provider's
errors to itself). An output that is not text (a dict, a Pydantic model) is shown as JSON
whose strings keep their line breaks. A kernel interrupt while waiting stops the run
(``KeyboardInterrupt``).
A replay miss raises ``nbask.ReplayMissing`` out of a review or a feedback request; CrewAI keeps
a hook's and an input provider's errors to itself, so there a miss blocks the call (or is
``None`` input) and is logged. A sync ``crew.kickoff()`` in a cell (inside the kernel's running
event loop, where CrewAI refuses it) runs in a worker thread while nbask is installed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import logging
import threading
from collections.abc import Collection, Sequence
from contextvars import ContextVar
from typing import Any, Final

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import ReplayMissing
from ...identity import checked_approvers
from ...models import Decision
from .._seam import (
    Asking,
    EditNotUsable,
    answerable_by,
    approval,
    arguments_text,
    call_title,
    drive_sync,
    edited_arguments,
)
from .._seam import not_run_text as _not_run_text
from ._flow import FeedbackProvider, InputProvider
from ._task import task_feedback_provider

__all__ = [
    "BLOCKED",
    "FeedbackProvider",
    "InputProvider",
    "after_tool_call",
    "before_tool_call",
    "install",
    "uninstall",
]

log = logging.getLogger("nbask.integrations")

#: How CrewAI's tool result of a call a before-tool-call hook blocked begins.
BLOCKED: Final = "Tool execution blocked by hook."

_state: dict[str, Any] = {}
_not_run: dict[int, str] = {}  # id(tool_input) -> what the model reads instead of CrewAI's text
_lock = threading.Lock()


def install(
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    tools: bool | Collection[str] = True,
) -> None:
    """Answer CrewAI's human-in-the-loop with nbask in this process (see the module docstring):
    ``timeout`` for each request; ``approvers``: who alone may answer them; ``tools`` says which
    tool calls are asked (True: every one, a list of tool names: those, False: none). Installing
    again replaces the previous settings.
    """
    checked = checked_approvers(approvers)
    from crewai import hooks  # noqa: PLC0415 - imported when used
    from crewai.core.providers import human_input  # noqa: PLC0415 - imported when used
    from crewai.flow.flow_config import flow_config  # noqa: PLC0415 - imported when used

    uninstall()
    previous = (flow_config.hitl_provider, flow_config.input_provider, human_input._provider)  # noqa: SLF001
    flow_config.hitl_provider = FeedbackProvider(timeout=timeout, approvers=checked)
    flow_config.input_provider = InputProvider(timeout=timeout, approvers=checked)
    # A ContextVar's value set in one cell is gone in the next: its default holds everywhere.
    reviewer = task_feedback_provider(timeout, checked)
    human_input._provider = ContextVar("human_input_provider", default=reviewer)  # noqa: SLF001
    _state.update(previous=previous, timeout=timeout, approvers=checked, tools=tools)
    _kickoff_in_a_cell(install=True)
    if tools is not False:
        hooks.register_before_tool_call_hook(before_tool_call)
        hooks.register_after_tool_call_hook(after_tool_call)


def uninstall() -> None:
    """Put back what ``install`` replaced (CrewAI's console providers, unless you set others)."""
    from crewai import hooks  # noqa: PLC0415 - imported when used
    from crewai.core.providers import human_input  # noqa: PLC0415 - imported when used
    from crewai.flow.flow_config import flow_config  # noqa: PLC0415 - imported when used

    hooks.unregister_before_tool_call_hook(before_tool_call)
    hooks.unregister_after_tool_call_hook(after_tool_call)
    _kickoff_in_a_cell(install=False)
    previous = _state.pop("previous", None)
    if previous is not None:
        flow_config.hitl_provider, flow_config.input_provider, human_input._provider = previous  # noqa: SLF001
    _state.clear()


def _kickoff_in_a_cell(*, install: bool) -> None:
    """A cell runs inside the kernel's event loop, where CrewAI refuses a sync ``crew.kickoff()``
    ("invoked synchronously from within a running event loop"): with nbask installed it runs in
    a worker thread instead (a copy of the cell's context), the cell blocked on it, its
    questions answered as from any thread; outside a running loop it is CrewAI's own.
    """
    from crewai import Crew  # noqa: PLC0415 - imported when used

    original = getattr(Crew.kickoff, "__wrapped_by_nbask__", None)
    if original is not None:
        Crew.kickoff = original
    if not install:
        return
    own = Crew.kickoff

    @functools.wraps(own)
    def kickoff(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return own(self, *args, **kwargs)
        context = contextvars.copy_context()
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="nbask-crewai") as pool:
            return pool.submit(context.run, own, self, *args, **kwargs).result()

    kickoff.__wrapped_by_nbask__ = own  # type: ignore[attr-defined]
    Crew.kickoff = kickoff


# -- tool calls: a before-tool-call hook, and an after one for the model's text -----------------


def before_tool_call(context: Any) -> bool | None:
    """CrewAI's before-tool-call hook: the call as an nbask approval. ``None`` lets it run (its
    input edited in place, as CrewAI's hooks must), ``False`` blocks it. CrewAI swallows a hook's
    errors and runs the tool, so every error here blocks the call instead.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    tools = _state.get("tools", True)
    if tools is not True and context.tool_name not in tools:
        return None
    try:
        with answerable_by(_state.get("approvers")):
            text = drive_sync(_approving(context, timeout=_state.get("timeout", DEFAULT_TIMEOUT)))
    except ReplayMissing as miss:
        log.exception("nbask: the replay has no answer for a CrewAI tool call; the call is blocked")
        text = f"Not run: {call_title(context.tool_name)} was blocked: {miss}"
    except Exception as error:
        log.exception("nbask: asking about a CrewAI tool call failed; the call is blocked")
        text = f"Not run: {call_title(context.tool_name)} was blocked: nbask could not ask ({error})."
    if text is None:
        return None
    with _lock:
        _not_run[id(context.tool_input)] = text
    return False


def after_tool_call(context: Any) -> str | None:
    """CrewAI's after-tool-call hook: a call nbask blocked reads nbask's text, not CrewAI's."""
    with _lock:
        text = _not_run.pop(id(context.tool_input), None)
    if text is None or not str(context.tool_result or "").startswith(BLOCKED):
        return None
    return text


def _approving(context: Any, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[str | None]:
    """The Asking of one tool call: ``None`` when it may run (an edit already applied to
    ``context.tool_input``), else the text the model reads instead of the tool's result.
    """
    title = call_title(str(context.tool_name))
    arguments = context.tool_input
    decision = yield approval(title, arguments_text(arguments), timeout=timeout, schema=_schema(context.tool))
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "approve":
        return None
    if decision.decision == "edit":
        try:
            edited = edited_arguments(decision)
        except EditNotUsable as why:
            return _not_run_text(decision, title, why)
        arguments.clear()  # CrewAI runs the tool with this very dict
        arguments.update(edited)
        return None
    return _not_run_text(decision, title)


def _schema(tool: Any) -> dict[str, Any] | None:
    """The JSON Schema of a CrewAI tool's arguments, where it has one."""
    model = getattr(tool, "args_schema", None)
    try:
        schema = model.model_json_schema() if model is not None else None
    except Exception:  # noqa: BLE001 - a schema nbask cannot read is not checked
        return None
    return schema if isinstance(schema, dict) and schema.get("properties") else None
