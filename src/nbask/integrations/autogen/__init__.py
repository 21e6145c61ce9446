"""AutoGen AgentChat's own human-in-the-loop answered in the cell: the person's input for a
``UserProxyAgent``, code approvals for a ``CodeExecutorAgent``, and a team stopped by
``HandoffTermination`` resumed with the person's reply.

- ``UserProxyAgent("user", input_func=input_func)``: each time the team turns to the user, a
  one-field text form asks the last message before the request (as text; a handoff's question is
  the words the model said with it, else the handoff's own message), its field titled "Your
  reply to <sender>". AutoGen sends only a prompt to ``input_func``; nbask reads the messages the
  ``UserProxyAgent`` was given (its ``on_messages_stream`` argument) to show the question, and
  shows the prompt where there are none. The field may be left blank: AutoGen takes an empty reply
  as the console's Enter does. ``input_func_with(timeout=..., approvers=...)`` makes one with
  another time limit, or answerable only by the people named.
- ``CodeExecutorAgent(..., approval_func=approval_func)``: the code (``ApprovalRequest.code``) is
  an approval "Run <language> code", the code itself in the details (several blocks: each in its
  fence): approve -> ``ApprovalResponse(approved=True)``, reject -> ``approved=False`` with the
  reason the model reads. AutoGen's ``ApprovalResponse`` has no field for other code, so an edit
  is a rejection whose reason carries the edited code for the model to propose again (asked again
  then). ``approval_func_with(timeout=..., approvers=...)`` makes one with another time limit,
  or answerable only by the people named. Both are async: AutoGen awaits them on its loop,
  where a sync one would block it.
- ``run(team, task)`` / ``run_sync``: runs a team (or one agent) with ``HandoffTermination(target=
  "user")``; each time it stops on a handoff to ``user``, the same text form asks the person, and
  the team runs again with ``HandoffMessage(source="user", target=<the agent>, content=<reply>)``,
  as AutoGen's human-in-the-loop guide does, until it stops for another reason. Returns one
  ``TaskResult`` of every message of every run. Both take ``timeout=`` and ``approvers=``.

Unattended (a policy) or unanswered: an approval is rejected (the code never runs); a text form
is declined (no one replied, and the history says so), so ``input_func`` returns ``""`` and
``run`` ends at the handoff without resuming (the team stays paused there, to resume later). A
team that turns to the user again in the same run stops there: ``input_func`` raises
``nbask.AskedAgain`` (AutoGen ends the run with it) instead of sending empty replies for ever. No
one to ask is AutoGen's own refusal with nbask's reason (``approved=False``; for input, ``""``),
recorded in ``nbask.history()``; a replay miss raises ``nbask.ReplayMissing`` (inside a team,
AutoGen re-raises an agent's error as ``RuntimeError`` naming it). A kernel interrupt while a
callback waits stops the team: the callback raises ``Interrupted``, which AutoGen ends the run
with; ``run_sync`` cancels the run on its worker loop's thread and waits for it before re-raising.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

from autogen_agentchat.agents import ApprovalRequest, ApprovalResponse
from autogen_agentchat.base import TaskResult, TaskRunner
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage, HandoffMessage
from autogen_core import CancellationToken
from autogen_core.models import AssistantMessage

from ... import errors
from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from ...models import MAX_ACTION_CHARS, Decision, FormAnswer
from ...waiting import cancelled_by_interrupt
from .. import _seam, _texts
from .._seam import Asking, Work, answerable_by, approval, drive, drive_sync, not_run_text, replying, twins
from . import _compat

__all__ = [
    "INTERRUPTED",
    "REPLY",
    "InputFunc",
    "Interrupted",
    "approval_func",
    "approval_func_with",
    "handoff_to",
    "input_func",
    "input_func_with",
    "run",
    "run_sync",
]

T = TypeVar("T")

#: AutoGen's async ``input_func`` and ``approval_func``.
InputFunc = Callable[[str, "CancellationToken | None"], Awaitable[str]]
ApprovalFunc = Callable[[ApprovalRequest], Awaitable[ApprovalResponse]]

#: The text form's one field.
REPLY: Final = _texts.REPLY
#: Why a run stopped on a kernel interrupt.
INTERRUPTED: Final = _texts.INTERRUPTED
#: One fenced block of ``ApprovalRequest.code`` (AutoGen joins blocks as "```lang\ncode\n```").
_ONE_BLOCK = re.compile(r"```([^\n`]*)\n(.*?)\n```", re.DOTALL)
#: How ``CodeExecutorAgent`` reports code its ``approval_func`` did not approve.
_NOT_APPROVED = "Code execution was not approved. Reason: "
#: The reasons ``_approving`` gave the model, each with what the person reads of it instead: the
#: executor's report of a rejection is the last message before the user proxy asks, and it is
#: written for the model ("Do not retry ..."). Kept for the last few rejections only.
_TOLD_PERSON: dict[str, str] = {}
_TOLD_KEPT = 32


class Interrupted(errors.Interrupted):
    """A kernel interrupt while a callback waited for the person: AutoGen ends the run with it."""


# -- UserProxyAgent(input_func=...) ------------------------------------------------------------


async def input_func(prompt: str, cancellation_token: CancellationToken | None = None) -> str:
    """``UserProxyAgent``'s ``input_func``: the last message before the request, asked as a text
    form; the reply as typed (``""`` when left blank or not answered). See the module docstring.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _input(prompt, cancellation_token, DEFAULT_TIMEOUT)


def input_func_with(*, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None) -> InputFunc:
    """An ``input_func`` that waits ``timeout`` seconds for each reply (None: no limit), which
    only ``approvers`` may give when named.
    """
    checked = checked_approvers(approvers)

    async def input_func(prompt: str, cancellation_token: CancellationToken | None = None) -> str:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with answerable_by(checked):
            return await _input(prompt, cancellation_token, timeout)

    return input_func


async def _input(prompt: str, token: CancellationToken | None, timeout: float | None) -> str:
    asked = _question_of(_compat.messages_given()) or (" ".join(prompt.split()).rstrip(":") or "Your reply", None)
    answer = await _asked(replying(*asked, timeout=timeout), token)
    return _reply_text(answer) or ""


def _question_of(messages: Sequence[BaseAgentEvent | BaseChatMessage]) -> tuple[str, str] | None:
    """(what to ask, who asks it) for the last chat message of ``messages``; None without one.
    A handoff asks what the model said with it (its context's last text), else its own message.
    """
    chat = [message for message in messages if isinstance(message, BaseChatMessage)]
    if not chat:
        return None
    last = chat[-1]
    if isinstance(last, HandoffMessage):
        said = next(
            (
                text.strip()
                for item in reversed(last.context)
                if isinstance(item, AssistantMessage)
                for text in (item.thought, item.content)
                if isinstance(text, str) and text.strip()
            ),
            "",
        )
        text = said or f"{last.source} hands the conversation to you: {last.content}"
    else:
        text = last.to_text()
        if text.startswith(_NOT_APPROVED):
            text = _TOLD_PERSON.get(text.removeprefix(_NOT_APPROVED), text)
    text = text.strip() or f"{last.source} asks for your reply."
    if len(text) > MAX_DETAILS_CHARS:  # the question is at the end of a long message: keep the end
        text = "…" + text[-(MAX_DETAILS_CHARS - 1) :]
    return text, last.source


def _reply_text(answer: FormAnswer) -> str | None:
    """The reply as typed ("" left blank); None when the form was not submitted."""
    if answer.status != "answered":
        return None
    return str(answer.values.get(REPLY, ""))


# -- CodeExecutorAgent(approval_func=...) ------------------------------------------------------


async def approval_func(request: ApprovalRequest) -> ApprovalResponse:
    """``CodeExecutorAgent``'s ``approval_func``: the code as an nbask approval. See the module docstring."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _asked(_approving(request.code, timeout=DEFAULT_TIMEOUT))


def approval_func_with(
    *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
) -> ApprovalFunc:
    """An ``approval_func`` that waits ``timeout`` seconds for each decision (None: no limit),
    which only ``approvers`` may give when named.
    """
    checked = checked_approvers(approvers)

    async def approval_func(request: ApprovalRequest) -> ApprovalResponse:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with answerable_by(checked):
            return await _asked(_approving(request.code, timeout=timeout))

    return approval_func


def _approving(code: str, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[ApprovalResponse]:
    """The Asking of one ``ApprovalRequest.code``: the ``ApprovalResponse`` AutoGen reads."""
    one = _ONE_BLOCK.fullmatch(code)
    if one is not None and "```" not in one.group(2):
        language, details = one.group(1).strip(), one.group(2).rstrip("\n")
        title = f"Run {language} code" if language else "Run code"
    else:
        languages = [lang.strip() for lang in re.findall(r"^```([^\n`]*)$", code, re.MULTILINE) if lang.strip()]
        language, details = "", code
        title = f"Run code ({', '.join(dict.fromkeys(languages))})" if languages else "Run code"
    title = _seam.clip(title, MAX_ACTION_CHARS)
    try:
        request = approval(title, details, timeout=timeout, edits="sent_back")
    except ValueError as error:  # too long to show
        why = f"Not approved: {title} did not run: it cannot be shown ({error})."
        return _refused(why, f"{title} did not run: it is too long to show for approval.")
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "approve":
        by = "Approved by the person." if decision.decided_by == "person" else f"Approved ({decision.decided_by})."
        return ApprovalResponse(approved=True, reason=decision.reason.strip() or by)
    if decision.decision == "edit" and decision.edited is not None:
        reason = _edited_reason(decision, title, language, fenced_alone=one is not None)
        return _refused(reason, f"{title} did not run as written: your edited code went back to the model.")
    return _refused(not_run_text(decision, title), _person_text(decision, title))


def _refused(reason: str, person_text: str) -> ApprovalResponse:
    """A refusal whose ``reason`` the model reads; the person reads ``person_text`` in its place."""
    _TOLD_PERSON[reason] = person_text
    while len(_TOLD_PERSON) > _TOLD_KEPT:
        del _TOLD_PERSON[next(iter(_TOLD_PERSON))]
    return ApprovalResponse(approved=False, reason=reason)


def _person_text(decision: Decision, title: str) -> str:
    """What happened to the code, said to the person who decided it."""
    reason = decision.reason.strip()
    said = f" Your reason: {reason}" if reason else ""
    if decision.status == "answered" and decision.decided_by == "person":
        return f"{title} did not run: you rejected it.{said}"
    if decision.status == "timeout":
        return f"{title} did not run: no one approved it in time."
    if decision.status == "dismissed" and decision.decided_by == "person":
        return f"{title} did not run: you dismissed the approval.{said}"
    return f"{title} did not run: not approved ({decision.decided_by})."


def _edited_reason(decision: Decision, title: str, language: str, *, fenced_alone: bool) -> str:
    """An edit as AutoGen can take it: a rejection whose reason carries the edited code."""
    edited = (decision.edited or "").rstrip("\n")
    shown = f"```{language}\n{edited}\n```" if fenced_alone else edited
    note = decision.reason.strip()
    return (
        f"Not approved as written: the person edited the code, so {title} did not run. To run their "
        f"version, propose it exactly as edited (it will be asked again):\n\n{shown}"
        + (f"\n\nTheir note: {note}" if note else "")
    )


# -- HandoffTermination: run the team, answer each handoff to the user ---------------------------


def _running(
    team: TaskRunner,
    task: str | BaseChatMessage | Sequence[BaseChatMessage] | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    user: str = "user",
    cancellation_token: CancellationToken | None = None,
) -> Asking[TaskResult]:
    """Run ``team`` (a team, or one agent) on ``task``; each time it stops on a handoff to
    ``user`` (``HandoffTermination(target="user")``), ask the person and run it again with their
    reply as a ``HandoffMessage`` back to the agent that handed off, until it stops otherwise or
    the reply is not given (the team stays paused at that handoff). ``timeout`` applies to each
    ask, answerable only by ``approvers`` when named; ``cancellation_token`` (AutoGen's) cancels
    the runs (and, awaited, the asks between them).

        result = await nbask.integrations.autogen.run(team, "What is the weather in New York?")
    """
    del approvers  # applied to every request this run asks by _seam.twins
    token = cancellation_token or CancellationToken()
    result: TaskResult = yield _team_run(team, task, token)
    messages = list(result.messages)
    while (handoff := handoff_to(result, user)) is not None:
        reply = _resumed_with((yield _reply_to(handoff, timeout, token)))
        if reply is None:
            break
        result = yield _team_run(team, HandoffMessage(source=user, target=handoff.source, content=reply), token)
        messages += result.messages
    return TaskResult(messages=messages, stop_reason=result.stop_reason)


run, run_sync = twins(
    _running,
    "run",
    """The blocking twin of ``run``: the team runs on an event loop of its own, in one worker
    thread (so it works inside a cell's running loop too), and the person is asked from this
    thread between runs. An interrupt cancels the team's run and waits for it to end.""",
)


def _team_run(
    team: TaskRunner, task: str | BaseChatMessage | Sequence[BaseChatMessage] | None, token: CancellationToken
) -> Work:
    """One ``team.run``: AutoGen is async only, so the blocking twin runs it on its worker loop,
    where an interrupt cancels AutoGen's token first.
    """
    return Work(functools.partial(team.run, task=task, cancellation_token=token), on_cancel=token.cancel)


def _reply_to(handoff: HandoffMessage, timeout: float | None, token: CancellationToken) -> Work:
    """The person's reply to ``handoff``: awaited as the callbacks' are (``token`` cancels it), or
    asked blocking from the caller's own thread (where the widget's answer arrives).
    """
    return Work(lambda: _asked(_asked_for(handoff, timeout), token), lambda: drive_sync(_asked_for(handoff, timeout)))


def handoff_to(result: TaskResult, user: str = "user") -> HandoffMessage | None:
    """The handoff to ``user`` the run stopped on: its last chat message, when it is one."""
    chat = [message for message in result.messages if isinstance(message, BaseChatMessage)]
    last = chat[-1] if chat else None
    return last if isinstance(last, HandoffMessage) and last.target == user else None


def _asked_for(handoff: HandoffMessage, timeout: float | None) -> Asking[FormAnswer]:
    question, source = _question_of([handoff]) or (handoff.content, handoff.source)
    return replying(question, source, timeout=timeout)


def _resumed_with(answer: FormAnswer) -> str | None:
    """A person's reply resumes the team; a policy's empty default or no answer does not (the
    model would hand off again at once).
    """
    return None if answer.answered_by == "policy" else _reply_text(answer)


# -- waiting inside AutoGen's loop -------------------------------------------------------------


async def _asked(asking: Asking[T], token: CancellationToken | None = None) -> T:
    """``drive(asking)``, cancelled with AutoGen's ``token``; a kernel interrupt raises
    ``Interrupted``, which AutoGen ends the run with (a bare CancelledError in its task would not).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    waiting: Awaitable[T] = drive(asking)
    if token is not None:
        future = asyncio.ensure_future(waiting)
        token.link_future(future)
        waiting = future
    try:
        return await waiting
    except asyncio.CancelledError:
        if (token is not None and token.is_cancelled()) or not cancelled_by_interrupt():
            raise
        raise Interrupted(INTERRUPTED) from None
