"""The Claude Agent SDK's permission callback, answered in the cell.

    options = ClaudeAgentOptions(can_use_tool=nbask.integrations.claude_agent_sdk.can_use_tool)
    # another time limit, or rules of your own that allow or deny before anyone is asked:
    callback = nbask.integrations.claude_agent_sdk.can_use_tool_with(timeout=60, allow=["Read"], deny=["WebFetch"])
    options = ClaudeAgentOptions(can_use_tool=callback)

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
  object; Reject, a dismiss, a timeout, the ``recommended`` policy or no one to ask (no front
  end, the ``error`` policy: a rejection by policy with nbask's reason, kept in
  ``nbask.history()``) denies with a message naming the reason. An edit that is not a JSON
  object denies too: nothing runs on a guess.
- "Don't ask again": nbask's approval has no such button. When Claude Code suggests permission
  rules (``ToolPermissionContext.suggestions``) and the person approved the call as it was, one
  follow-up question asks "Allow <rule> from now on?" with "Just this once (Recommended)" and
  "Don't ask again"; only "Don't ask again" returns the suggestions as ``updated_permissions``.
  After an edit nothing is offered: the suggested rule matches the call as proposed, not as edited.
- A kernel interrupt while waiting denies with ``interrupt=True``, which stops Claude Code's run,
  so the cell ends instead of Claude Code waiting for an answer that never comes.
- A replay whose recording has no answer denies with ``interrupt=True`` and nbask's message:
  the tool does not run and Claude Code stops the run, as for a kernel interrupt; nbask logs it
  as an error, naming the tool call. The SDK keeps a callback's exception to itself (it sends it
  to Claude Code as the request's error and the run goes on), so the callback cannot raise to
  your code: ``query(...)``, in place of the SDK's own, raises ``nbask.ReplayMissing`` once the
  stream has ended; around a ``ClaudeSDKClient``, ``with raise_replay_misses():`` does.

Raising a replay miss to your code::

    async for message in nbask.integrations.claude_agent_sdk.query(prompt="...", options=options):
        ...

Permission rules of your own stay yours: decide what they cover and hand only the rest to nbask,
as in the SDK's ``tool_permission_callback`` example::

    async def my_permission_callback(tool_name, input_data, context):
        if tool_name in ["Read", "Glob", "Grep"]:
            return PermissionResultAllow()
        if tool_name == "Bash" and "sudo" in input_data.get("command", ""):
            return PermissionResultDeny(message="No sudo here")
        return await nbask.integrations.claude_agent_sdk.can_use_tool(tool_name, input_data, context)

``can_use_tool_with(allow=..., deny=...)`` does the simple part of that for you: each rule is a
tool name pattern (``fnmatch``: ``"Read"``, ``"mcp__github__*"``) or a function
``(tool_name, input) -> bool``; a deny rule wins over an allow rule, and the rest is asked.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import logging
from collections.abc import Awaitable, Callable, Generator, Sequence
from typing import Any, Final

from claude_agent_sdk import (
    PermissionResult,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionUpdate,
    ToolPermissionContext,
)

from ...contract import MAX_PREVIEW_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT, Request
from ...errors import AskedAgain, ReplayMissing
from ...identity import checked_approvers
from ...kinds import QuestionRequest
from ...models import MAX_ACTION_CHARS, Answer, Decision, Outcome, one_question_set
from ...tools.dialects import DIALECTS, ArgumentError, Plan
from ...tools.function import DO_NOT_RETRY
from ...tools.late import with_late_answers
from ...waiting import cancelled_by_interrupt
from .. import _seam, _texts
from .._seam import Asking, EditNotUsable, answerable_by, approval, call_title, drive, edited_arguments, not_run_text
from ._replay import query, raise_replay_misses, remember

__all__ = [
    "ASK_USER_QUESTION",
    "JUST_ONCE",
    "REMEMBER",
    "CanUseTool",
    "Rule",
    "can_use_tool",
    "can_use_tool_with",
    "describe_suggestions",
    "query",
    "raise_replay_misses",
]

log = logging.getLogger("nbask.integrations")

#: Claude Code's "ask the user" tool: asked as questions, not approved.
ASK_USER_QUESTION: Final = "AskUserQuestion"
#: The options of the follow-up question that offers Claude Code's suggested permission rules.
JUST_ONCE: Final = _texts.JUST_ONCE
#: The option that returns the suggested rules as ``updated_permissions``.
REMEMBER: Final = _texts.REMEMBER
#: The longest note Claude Code accepts in an AskUserQuestion annotation.
MAX_NOTES_CHARS: Final = 8192
#: The deny a kernel interrupt sends (with ``interrupt=True``: Claude Code stops the run).
INTERRUPTED: Final = _texts.INTERRUPTED_TOOL
#: Fields of Claude Code's AskUserQuestion input that are not questions: analytics metadata,
#: and annotations a caller may already have filled in (kept as they are).
_NOT_ASKED: Final = ("metadata", "annotations")

#: The SDK's ``can_use_tool`` callback.
CanUseTool = Callable[[str, dict[str, Any], ToolPermissionContext], Awaitable[PermissionResult]]
#: A permission rule: a tool name pattern (``fnmatch``), or ``(tool_name, input) -> bool``.
Rule = str | Callable[[str, dict[str, Any]], bool]


async def can_use_tool(
    tool_name: str,
    input: dict[str, Any],  # noqa: A002 - the SDK's parameter name
    context: ToolPermissionContext,
) -> PermissionResult:
    """The ``can_use_tool`` callback: ``AskUserQuestion`` -> nbask's questions -> allow with
    ``answers`` (deny when no one answered); any other tool -> nbask's approval -> allow (with
    the edited input) or deny with the reason. See the module docstring for the details.
    """
    return await _answer(tool_name, input, context, DEFAULT_TIMEOUT)


def can_use_tool_with(
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    allow: Sequence[Rule] = (),
    deny: Sequence[Rule] = (),
) -> CanUseTool:
    """A ``can_use_tool`` that waits ``timeout`` seconds for each answer (None: no limit), and
    first applies your rules: a call matching a ``deny`` rule is denied, else one matching an
    ``allow`` rule is allowed as it is, without asking; the rest is asked as ``can_use_tool`` asks,
    answerable only by ``approvers`` when given.
    """
    checked = checked_approvers(approvers)

    async def callback(
        tool_name: str,
        input: dict[str, Any],  # noqa: A002 - the SDK's parameter name
        context: ToolPermissionContext,
    ) -> PermissionResult:
        if _matches(deny, tool_name, input):
            message = f"Not allowed: {tool_name} is denied by this notebook's permission rules. {DO_NOT_RETRY}"
            return PermissionResultDeny(message=message)
        if _matches(allow, tool_name, input):
            return PermissionResultAllow(updated_input=input)
        with answerable_by(checked):
            return await _answer(tool_name, input, context, timeout)

    return callback


def _matches(rules: Sequence[Rule], tool_name: str, tool_input: dict[str, Any]) -> bool:
    return any(
        fnmatch.fnmatchcase(tool_name, rule) if isinstance(rule, str) else rule(tool_name, tool_input) for rule in rules
    )


async def _answer(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext, timeout: float | None
) -> PermissionResult:
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        if tool_name == ASK_USER_QUESTION:
            return await drive(_questions(tool_input, context, timeout))
        return await drive(_approval(tool_name, tool_input, context, timeout))
    except asyncio.CancelledError:
        if not cancelled_by_interrupt():
            raise  # the SDK cancelled the request (Claude Code withdrew it): no answer is sent
        return PermissionResultDeny(message=INTERRUPTED, interrupt=True)
    except (ReplayMissing, AskedAgain) as miss:
        # Raised out of the callback, the SDK would send it to Claude Code as the request's error
        # and the run would go on: stop the run instead, keep the error for raise_replay_misses
        # (and nbask's query), and say so where the person running it looks (ids only, never text).
        remember(miss)
        log.error(  # noqa: TRY400 - the traceback's message may quote what was asked
            "nbask.%s: Claude Code's permission request (tool call %s) is not answered; the tool does "
            "not run and Claude Code is told to stop the run",
            type(miss).__name__,
            context.tool_use_id,
        )
        return PermissionResultDeny(message=f"{miss} Stop here.", interrupt=True)


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


def _questions(
    tool_input: dict[str, Any], context: ToolPermissionContext, timeout: float | None
) -> Asking[PermissionResult]:
    dialect = DIALECTS[ASK_USER_QUESTION]
    try:
        plan: Plan = dialect.read(_questions_of(tool_input))
    except ArgumentError as error:
        return PermissionResultDeny(message=dialect.invalid(error).output)
    except RecursionError:
        return PermissionResultDeny(message=dialect.invalid(ArgumentError("arguments: nested too deeply")).output)
    limit = plan.timeout if plan.timeout is not None else timeout
    if plan.wait_at_most is not None and (limit is None or plan.wait_at_most < limit):
        limit = plan.wait_at_most
    answer = yield QuestionRequest(question_set=plan.question_set, timeout=limit, tool_call_id=context.tool_use_id)
    assert isinstance(answer, Answer)  # noqa: S101 - a question's outcome
    result = with_late_answers(dialect.reply(answer, plan), in_json=dialect.replies_in_json)
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
    title = " ".join((context.title or "").split()) or call_title(tool_name)
    return _seam.clip(title, MAX_ACTION_CHARS)


def _is_command(tool_name: str, tool_input: dict[str, Any]) -> bool:
    return tool_name == "Bash" and isinstance(tool_input.get("command"), str)


def _details(tool_name: str, tool_input: dict[str, Any]) -> str:
    """A Bash command as its text; any other input as pretty JSON."""
    if _is_command(tool_name, tool_input):
        return str(tool_input["command"])
    return json.dumps(tool_input, indent=2, ensure_ascii=False, default=repr)


def _approval(
    tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext, timeout: float | None
) -> Asking[PermissionResult]:
    title, called = _title(tool_name, context), call_title(tool_name)
    try:
        request = approval(title, _details(tool_name, tool_input), timeout=timeout, tool_call_id=context.tool_use_id)
    except ValueError as error:  # the input is too long to show (the approval's details limit)
        return PermissionResultDeny(message=f"Not approved: {called} did not run: it cannot be shown ({error}).")
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "reject":
        return PermissionResultDeny(message=not_run_text(decision, called))
    if decision.decision == "edit" and decision.edited is not None:
        return _edited(tool_name, tool_input, decision, called)
    remember = yield from _remember(context, timeout)
    return PermissionResultAllow(updated_input=tool_input, updated_permissions=remember)


def _edited(tool_name: str, tool_input: dict[str, Any], decision: Decision, called: str) -> PermissionResult:
    """Allow the input as the person edited it, or deny saying why the edit cannot run."""
    edited = decision.edited or ""
    if _is_command(tool_name, tool_input):
        if not edited.strip():
            return PermissionResultDeny(message=f"Not approved: {called} did not run: the edited command is empty.")
        return PermissionResultAllow(updated_input={**tool_input, "command": edited})
    try:
        return PermissionResultAllow(updated_input=edited_arguments(decision))
    except EditNotUsable as why:
        return PermissionResultDeny(message=not_run_text(decision, called, why))


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


def _remember(
    context: ToolPermissionContext, timeout: float | None
) -> Generator[Request[Any], Outcome, list[PermissionUpdate] | None]:
    """Ask once whether Claude Code's suggestions should apply from now on; only an explicit
    "Don't ask again" returns them (a dismiss, a timeout, a policy or a typed answer does not).
    """
    if not context.suggestions:
        return None
    question = f"Allow {describe_suggestions(context.suggestions)} from now on?"
    try:
        asked = one_question_set(question, [JUST_ONCE, REMEMBER], header="Remember")
        request = QuestionRequest(question_set=asked, timeout=timeout, tool_call_id=context.tool_use_id)
    except ValueError:  # a suggestion too long to ask about: nothing is remembered
        return None
    answer = yield request
    if isinstance(answer, Answer) and answer.status == "answered" and answer.answers.get(question) == REMEMBER:
        return list(context.suggestions)
    return None
