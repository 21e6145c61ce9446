"""What each Strands pause becomes in nbask (``nbask.integrations.strands`` drives them): a tool
call's approval and its verdict, a ``HumanInTheLoop`` confirmation, any other interrupt.

A verdict is what the approval hook applies to a ``BeforeToolCallEvent``, and what resumes its
interrupt: ``{"approve": True}``, ``{"approve": True, "input": {...}}`` (the edited input), or
``{"approve": False, "message": "..."}`` (the text the model reads in the cancelled call's
result).
"""

from __future__ import annotations

import asyncio
import concurrent.futures.thread as executor
import contextlib
import json
import re
import sys
import threading
from collections.abc import Mapping
from typing import Any

from ...contract import MAX_DETAILS_CHARS
from ...forms import FormSchemaError
from ...identity import checked_approvers
from ...kinds.form.request import form_request
from ...tools.function import DO_NOT_RETRY
from .. import _seam

#: The name of the interrupt ``Approvals(interrupt=True)`` raises for a call.
APPROVAL = "nbask:approval"
#: The name of the interrupts of Strands' vended ``HumanInTheLoop`` intervention.
HITL = "strands:human-in-the-loop"
#: ``HumanInTheLoop``'s prompt: 'Approve "<tool>"[ — <classifier reason>]?\n  Input: <JSON>'.
_HITL_PROMPT = re.compile(r'Approve "(?P<name>[^"]+)"(?: — (?P<why>.*?))?\?\n  Input: (?P<input>.*)\Z', re.DOTALL)
_HITL_NO_EDIT = "Strands' HumanInTheLoop runs a call as the model made it or not at all"

Verdict = dict[str, Any]


def approving(
    name: str,
    tool_input: Any,
    tool_use_id: str | None,
    timeout: float | None,
    schema: Mapping[str, Any] | None,
    *,
    approvers: object = None,
) -> _seam.Asking[Verdict]:
    """One call's approval (titled "Call <name>", its input as JSON, an edit checked against
    ``schema``, answerable only by ``approvers`` when named); returns its verdict.
    """
    title = _seam.call_title(name)
    only = checked_approvers(approvers)
    try:
        request = _seam.approval(
            title, _seam.arguments_text(tool_input), timeout=timeout, tool_call_id=tool_use_id, schema=schema
        )
    except ValueError as error:  # it cannot be shown (e.g. an input over the size limit)
        message = f"Not approved: {title} did not run, because it could not be shown for approval: {error}"
        return {"approve": False, "message": f"{message} {DO_NOT_RETRY}"}
    request.approvers = only
    decision = yield from _seam.ask(request)
    if decision.decision == "reject":
        return {"approve": False, "message": _seam.not_run_text(decision, title)}
    if decision.decision == "edit" and decision.edited is not None:
        try:
            return {"approve": True, "input": _seam.edited_arguments(decision)}
        except _seam.EditNotUsable as why:
            return {"approve": False, "message": _seam.not_run_text(decision, title, why)}
    return {"approve": True}


def apply(event: Any, verdict: Any) -> None:
    """Apply ``verdict`` to a ``BeforeToolCallEvent``: the edited input replaces the call's (the
    model's own call stays in the history as it made it), a rejection cancels the call with its
    message. Anything but a verdict is read as Strands' own confirmations are (True, "y", "yes").
    """
    name = event.tool_use["name"]
    if not isinstance(verdict, Mapping):
        from strands.interventions.actions import default_evaluate  # noqa: PLC0415 - imported when used

        if not default_evaluate(verdict):
            event.cancel_tool = f"Not approved: Call {name} did not run (the answer was {verdict!r}). {DO_NOT_RETRY}"
        return
    if not verdict.get("approve"):
        event.cancel_tool = str(verdict.get("message") or f"Not approved: Call {name} did not run. {DO_NOT_RETRY}")
    elif "input" in verdict:
        event.tool_use = {**event.tool_use, "input": verdict["input"]}


def approval_reason(event: Any, approvers: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The reason of an ``APPROVAL`` interrupt: what the approval shows and checks an edit
    against, and who alone may answer it (a list, so a session manager can store the reason).
    """
    tool = event.selected_tool
    schema = tool.tool_spec.get("inputSchema", {}).get("json") if tool is not None else None
    use = event.tool_use
    reason = {"tool": use["name"], "input": use["input"], "toolUseId": use["toolUseId"], "schema": schema}
    if approvers is not None:
        reason["approvers"] = list(approvers)
    return reason


def hitl_confirming(prompt: Any, timeout: float | None) -> _seam.Asking[Any]:
    """A ``HumanInTheLoop`` confirmation (its interrupt's reason, or what its ``ask`` is given):
    an approval of the call its prompt names; returns True, or the rejection's text (which its
    evaluate reads as "no"; Strands then cancels the call with its own words, not this text).
    """
    text = str(prompt)
    found = _HITL_PROMPT.match(text)
    if found is None:
        title, details = "Approve a tool call", text
    else:
        title = _seam.call_title(found["name"])
        try:
            details = _seam.arguments_text(json.loads(found["input"]))
        except json.JSONDecodeError:
            details = found["input"]
        if found["why"]:
            details = f"{details}\n\nWhy it asks: {found['why']}"
    try:
        request = _seam.approval(title, _cut(details), timeout=timeout)
    except ValueError as error:
        return f"Not approved: {title} could not be shown for approval: {error}"
    decision = yield from _seam.ask(request)
    if decision.decision == "approve":
        return True
    if decision.decision == "edit":
        return _seam.not_run_text(decision, title, _seam.EditNotUsable(_HITL_NO_EDIT))
    return _seam.not_run_text(decision, title)


def answering(interrupt: Any, timeout: float | None) -> _seam.Asking[tuple[bool, Any]]:
    """One interrupt of an interrupted result: (answered, its response)."""
    if interrupt.name == APPROVAL and isinstance(interrupt.reason, Mapping):
        reason = interrupt.reason
        verdict = yield from approving(
            str(reason.get("tool", "tool")),
            reason.get("input"),
            reason.get("toolUseId"),
            timeout,
            reason.get("schema"),
            approvers=reason.get("approvers"),
        )
        return True, verdict
    if interrupt.name == HITL:
        return True, (yield from hitl_confirming(interrupt.reason, timeout))
    return (yield from _free_text(interrupt, timeout))


def _free_text(interrupt: Any, timeout: float | None) -> _seam.Asking[tuple[bool, Any]]:
    """Any other interrupt (a hook's or a tool's own): its name and reason, answered in a text
    field; the text typed is the response. Declined, dismissed or no one to ask: left open.
    """
    reason = interrupt.reason
    if reason is None:
        shown = ""
    elif isinstance(reason, str):
        shown = reason
    else:
        shown = json.dumps(reason, indent=2, ensure_ascii=False, default=repr)
    message = _cut(f"{interrupt.name}\n\n{shown}".strip())
    schema = {"type": "object", "properties": {"response": {"type": "string", "title": "Response"}}}
    try:
        request = form_request(message, {**schema, "required": ["response"]}, timeout=timeout)
    except FormSchemaError:  # pragma: no cover - a fixed schema
        return False, None
    answer = yield from _seam.ask(request)
    if answer.action != "accept":
        return False, None
    return True, answer.values.get("response", "")


def _cut(text: str) -> str:
    return _seam.clip(text, MAX_DETAILS_CHARS)


# -- Strands' blocking call: its loop in a worker thread while the caller waits -------------------

#: How often a wait in the worker of a blocking ``agent(...)`` checks that its caller still waits.
_CALLER_CHECK_SECONDS = 0.2


async def waited(asking: _seam.Asking[Any]) -> Any:
    """``_seam.drive(asking)``; in the worker thread of a blocking ``agent(...)`` (Strands'
    ``run_async`` bridge), the wait ends, cancelled, once the calling thread stops waiting for
    the worker (a kernel interrupt there): the caller then joins the worker, which would
    otherwise wait for the answer or its timeout. No thread is left behind.
    """
    from strands._async import is_run_async_bridge  # noqa: PLC0415 - imported when used

    if not is_run_async_bridge() or threading.current_thread() is threading.main_thread():
        return await _seam.drive(asking)
    task = asyncio.ensure_future(_seam.drive(asking))
    while not (await asyncio.wait({task}, timeout=_CALLER_CHECK_SECONDS))[0]:
        if _caller_gave_up():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise asyncio.CancelledError
    return task.result()


def _caller_gave_up() -> bool:
    """Whether the main thread, which started Strands' worker, has stopped waiting for its
    result and is shutting the worker's executor down (an interrupt left ``future.result()``).
    """
    frame = sys._current_frames().get(threading.main_thread().ident or 0)  # noqa: SLF001 - no public way
    while frame is not None:
        code = frame.f_code
        if code.co_name == "shutdown" and code.co_filename == executor.__file__:
            return True
        frame = frame.f_back
    return False
