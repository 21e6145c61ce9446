"""The Claude Agent SDK's permission callback, answered in the cell.

    options = ClaudeAgentOptions(can_use_tool=nbask.integrations.claude_agent_sdk.can_use_tool)

Claude Code asks the SDK before each tool call it may not make on its own (``can_use_tool``
control requests). ``can_use_tool`` maps each one onto nbask:

- ``AskUserQuestion`` is nbask's question set, read by the AskUserQuestion dialect of
  ``nbask.tools`` (the same validation and limits as ``nbask.tools.call``). The answers go back
  as ``PermissionResultAllow(updated_input={**input, "answers": {question text: answer}})``, the
  way Claude Code's own dialog fills them in. ``annotations[question text]`` carries, as Claude
  Code's dialog does, ``"notes"`` (the person's note on that question, then their note on the
  set and nbask's own notes: who answered when no person did, questions left unanswered) and
  ``"preview"`` (the preview of the option chosen, when it had one). An option's ``preview`` is
  shown beside the options. A dismiss, a timeout or no one to ask is a ``PermissionResultDeny``
  whose message says no one answered, and what the model should do.
- Any other tool is an approval titled with the permission prompt's ``title`` (else
  "Call <tool>"), its details the ``Bash`` command text or the input as pretty JSON. Approve
  allows the input as it is; Edit allows the edited command (``Bash``) or the edited JSON
  object; Reject, a dismiss, a timeout, the ``recommended`` policy or no one to ask denies with
  a message naming the reason. An edit that is not a JSON object denies too: nothing runs on a
  guess.
- "Don't ask again": nbask's approval has no such button. When Claude Code suggests permission
  rules (``ToolPermissionContext.suggestions``) and the person approved the call as it was, one
  follow-up question asks "Allow <rule> from now on?" with "Just this once (Recommended)" and
  "Don't ask again"; only "Don't ask again" returns the suggestions as ``updated_permissions``.
  After an edit nothing is offered: the suggested rule matches the call as proposed, not as edited.
- A kernel interrupt while waiting denies with ``interrupt=True``, which stops Claude Code's run,
  so the cell ends instead of Claude Code waiting for an answer that never comes.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

from claude_agent_sdk import (
    PermissionResult,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionUpdate,
    ToolPermissionContext,
)

from ..api import approve, ask
from ..contract import MAX_PREVIEW_CHARS
from ..errors import ApprovalRejected, NoOneCanAnswer
from ..models import MAX_ACTION_CHARS, Decision
from ..tools import call
from ..tools.function import DO_NOT_RETRY, rejection_text, unasked_text
from ..waiting import WaitingUnsupported, cancelled_by_interrupt

__all__ = ["ASK_USER_QUESTION", "JUST_ONCE", "REMEMBER", "can_use_tool", "describe_suggestions"]

#: Claude Code's "ask the user" tool: asked as questions, not approved.
ASK_USER_QUESTION: Final = "AskUserQuestion"
#: The options of the follow-up question that offers Claude Code's suggested permission rules.
JUST_ONCE: Final = "Just this once (Recommended)"
REMEMBER: Final = "Don't ask again"
#: The longest note Claude Code accepts in an AskUserQuestion annotation.
MAX_NOTES_CHARS: Final = 8192
#: The deny a kernel interrupt sends (with ``interrupt=True``: Claude Code stops the run).
INTERRUPTED: Final = "The person interrupted the run while this was waiting for them: the tool did not run. Stop here."
#: Fields of Claude Code's AskUserQuestion input that are not questions: analytics metadata,
#: and annotations a caller may already have filled in (kept as they are).
_NOT_ASKED: Final = ("metadata", "annotations")


async def can_use_tool(
    tool_name: str,
    input: dict[str, Any],  # noqa: A002 - the SDK's parameter name
    context: ToolPermissionContext,
) -> PermissionResult:
    """The ``can_use_tool`` callback: ``AskUserQuestion`` -> nbask's questions -> allow with
    ``answers`` (deny when no one answered); any other tool -> nbask's approval -> allow (with
    the edited input) or deny with the reason. See the module docstring for the details.
    """
    try:
        if tool_name == ASK_USER_QUESTION:
            return await _answer_questions(input, context)
        return await _approve_call(tool_name, input, context)
    except asyncio.CancelledError:
        if not cancelled_by_interrupt():
            raise  # the SDK cancelled the request (Claude Code withdrew it): no answer is sent
        return PermissionResultDeny(message=INTERRUPTED, interrupt=True)


# -- AskUserQuestion ---------------------------------------------------------------------------


def _questions_of(tool_input: dict[str, Any]) -> dict[str, Any]:
    """The part of the input nbask's dialect reads: everything but the fields that are not questions."""
    return {key: value for key, value in tool_input.items() if key not in _NOT_ASKED}


def _previews_of(tool_input: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(question text, option label) -> the option's preview, for the options that have one."""
    found: dict[tuple[str, str], str] = {}
    for question in tool_input.get("questions") or []:
        if not isinstance(question, dict) or not isinstance(question.get("options"), list):
            continue
        for option in question["options"]:
            if isinstance(option, dict) and isinstance(option.get("preview"), str) and option["preview"]:
                found[str(question.get("question")), str(option.get("label"))] = option["preview"]
    return found


def _annotations(tool_input: dict[str, Any], payload: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """Per question: the notes (the person's on it, then the set's) and the chosen option's preview."""
    notes: dict[str, str] = payload.get("notes") or {}
    shared = str(payload.get("note") or "").strip()
    previews = _previews_of(tool_input)
    annotations: dict[str, Any] = {}
    for key, given in answers.items():
        entry: dict[str, str] = {}
        text = "\n\n".join(part for part in (notes.get(key, ""), shared) if part)[:MAX_NOTES_CHARS]
        if text:
            entry["notes"] = text
        # A single choice whose option had a preview: Claude Code reports the preview chosen.
        preview = previews.get((key, given))
        if preview is not None and len(preview) <= MAX_PREVIEW_CHARS:
            entry["preview"] = preview
        if entry:
            annotations[key] = entry
    return annotations


async def _answer_questions(tool_input: dict[str, Any], context: ToolPermissionContext) -> PermissionResult:
    result = await call(_questions_of(tool_input), tool_name=ASK_USER_QUESTION, tool_call_id=context.tool_use_id)
    if result.is_error:
        return PermissionResultDeny(message=result.output)
    payload = json.loads(result.output)
    if result.status != "answered":
        note = str(payload.get("note") or "").strip()
        return PermissionResultDeny(message=f"No one answered the question(s). {note}".strip())
    answers: dict[str, str] = payload["answers"]
    updated: dict[str, Any] = {**tool_input, "answers": answers}
    annotations = _annotations(tool_input, payload, answers)
    if annotations and "annotations" not in tool_input:
        updated["annotations"] = annotations
    return PermissionResultAllow(updated_input=updated)


# -- approvals -----------------------------------------------------------------------------------


def _title(tool_name: str, context: ToolPermissionContext) -> str:
    """The permission prompt's own sentence when Claude Code sends one, else "Call <tool>"."""
    title = " ".join((context.title or "").split()) or f"Call {tool_name}"
    return title if len(title) <= MAX_ACTION_CHARS else title[: MAX_ACTION_CHARS - 1] + "…"


def _is_command(tool_name: str, tool_input: dict[str, Any]) -> bool:
    return tool_name == "Bash" and isinstance(tool_input.get("command"), str)


def _details(tool_name: str, tool_input: dict[str, Any]) -> str:
    """A Bash command as its text; any other input as pretty JSON."""
    if _is_command(tool_name, tool_input):
        return str(tool_input["command"])
    return json.dumps(tool_input, indent=2, ensure_ascii=False, default=repr)


def _edited_input(
    tool_name: str, tool_input: dict[str, Any], edited: str, title: str
) -> dict[str, Any] | PermissionResultDeny:
    """The input as the person edited it, or the deny that says why the edit cannot run."""
    if _is_command(tool_name, tool_input):
        if not edited.strip():
            return PermissionResultDeny(message=f"Not approved: {title} did not run: the edited command is empty.")
        return {**tool_input, "command": edited}
    try:
        value = json.loads(edited)
    except json.JSONDecodeError as error:
        why = f"the person's edit of its input is not valid JSON ({error})"
        return PermissionResultDeny(message=f"Not approved: {title} did not run: {why}. {DO_NOT_RETRY}")
    if not isinstance(value, dict):
        why = "the person's edit of its input is not a JSON object of the tool's fields"
        return PermissionResultDeny(message=f"Not approved: {title} did not run: {why}. {DO_NOT_RETRY}")
    return value


async def _approve_call(tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext) -> PermissionResult:
    title = _title(tool_name, context)
    details = _details(tool_name, tool_input)
    try:
        decision: Decision = await approve(title, details, tool_call_id=context.tool_use_id, queue=True)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return PermissionResultDeny(message=unasked_text(title, error))
    except ValueError as error:  # the input is too long to show (the approval's details limit)
        return PermissionResultDeny(message=f"Not approved: {title} did not run: it cannot be shown ({error}).")
    if decision.decision == "reject":
        return PermissionResultDeny(message=rejection_text(ApprovalRejected(decision, title)))
    if decision.decision == "edit" and decision.edited is not None:
        edited = _edited_input(tool_name, tool_input, decision.edited, title)
        if isinstance(edited, PermissionResultDeny):
            return edited
        return PermissionResultAllow(updated_input=edited)
    remember = await _remember(context)
    return PermissionResultAllow(updated_input=tool_input, updated_permissions=remember)


# -- "don't ask again" -------------------------------------------------------------------------


def describe_suggestions(suggestions: list[PermissionUpdate]) -> str:
    """Claude Code's suggested permission updates as words: rules as ``Bash(npm test:*)``, a
    mode as "acceptEdits mode", directories as "access to <dir>"; joined with "and".
    """
    parts: list[str] = []
    for update in suggestions:
        if update.rules:
            parts += [f"{r.tool_name}({r.rule_content})" if r.rule_content else r.tool_name for r in update.rules]
        elif update.mode:
            parts.append(f"{update.mode} mode")
        elif update.directories:
            parts.append("access to " + ", ".join(update.directories))
    return " and ".join(parts) or "this kind of call"


async def _remember(context: ToolPermissionContext) -> list[PermissionUpdate] | None:
    """Ask once whether Claude Code's suggestions should apply from now on; only an explicit
    "Don't ask again" returns them (a dismiss, a timeout, a policy or a typed answer does not).
    """
    if not context.suggestions:
        return None
    question = f"Allow {describe_suggestions(context.suggestions)} from now on?"
    try:
        answer = await ask(
            question, [JUST_ONCE, REMEMBER], header="Remember", tool_call_id=context.tool_use_id, queue=True
        )
    except (NoOneCanAnswer, WaitingUnsupported, ValueError):
        return None
    if answer.status == "answered" and answer.answers.get(question) == REMEMBER:
        return list(context.suggestions)
    return None
