"""nbask's side of an ACP connection (``acp.Client``): the agent's stream printed as text, its
``session/request_permission`` asked as a question of the agent's own options, its file reads and
writes each behind an approval, its terminals refused.

One decision per action: ACP's file requests carry no tool call id, yet an agent that asked
permission for a tool call carries it out with ``fs/read_text_file`` / ``fs/write_text_file`` on
the files that call names (Claude Code's adapter reads the file, then writes it). So a read or
write of a file among an allowed call's locations and diffs is done without asking again while
that call runs ("allow once": until it is completed or failed, or the turn ends; the agent's
"always": for the session); a call of a reading kind covers reads only. Any other file request
is its own approval.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from acp import RequestError, schema

from ...contract import RECOMMENDED
from ...core.lifecycle import DEFAULT_TIMEOUT
from ...errors import AskedAgain, ReplayMissing
from ...identity import checked_approvers
from ...kinds import QuestionRequest
from ...models import MAX_ACTION_CHARS, Answer, Decision, Option, Question, QuestionSet
from ...waiting import cancelled_by_interrupt
from .. import _seam
from ._text import ToolCallView, Transcript, shown_path

__all__ = ["NbaskClient", "Permission", "option_labels", "permission_asking"]

log = logging.getLogger("nbask.integrations")

#: What each kind of permission option means, shown under its name.
KIND_TEXT = {
    "allow_once": "Allow this time",
    "allow_always": "Allow, and do not ask again",
    "reject_once": "Reject this time",
    "reject_always": "Reject, and do not ask again",
}
#: The JSON-RPC error code of a file request the person did not approve.
NOT_APPROVED = -32603
#: What the agent hears for a terminal request: nbask offers none.
NO_TERMINALS = "nbask does not run terminals for the agent (the terminal capability is not advertised)"
#: The statuses after which an allowed tool call no longer covers its files.
ENDED = ("completed", "failed")
#: Tool kinds that only look: allowing one covers reading its files, never writing them.
LOOKING = ("read", "search", "fetch", "think")


@dataclass(frozen=True)
class Allowed:
    """A tool call the person allowed: its title, the files it names, whether it may write them
    (not a call of a looking kind), and whether the agent's "always" was chosen (kept for the
    session, not only until the call ends).
    """

    title: str
    paths: frozenset[Path]
    writes: bool
    always: bool


@dataclass(frozen=True)
class Permission:
    """One permission request and what the agent was sent: an option id, or None ("cancelled")."""

    title: str
    option_id: str | None
    option_name: str | None
    answered_by: str | None


def option_labels(options: Sequence[schema.PermissionOption]) -> list[str]:
    """Each option's name as shown, in the agent's order: made distinct, and the first reject
    option marked "(Recommended)" (what an unattended run picks; any other mark is left out).
    """
    reject = _reject_option(options)
    labels: list[str] = []
    seen: set[str] = set()
    for option in options:
        label = RECOMMENDED.sub("", option.name).strip() or option.option_id
        if label.casefold() in seen or label.casefold() == "other":
            label = f"{label} ({option.option_id})"
        seen.add(label.casefold())
        labels.append(f"{label} (Recommended)" if option is reject else label)
    return labels


def _reject_option(options: Sequence[schema.PermissionOption]) -> schema.PermissionOption | None:
    """The option a rejection sends: the first "reject_once", else the first "reject_always"."""
    for kind in ("reject_once", "reject_always"):
        found = next((option for option in options if option.kind == kind), None)
        if found is not None:
            return found
    return None


def permission_asking(
    view: ToolCallView, options: Sequence[schema.PermissionOption], timeout: float | None, cwd: str | None = None
) -> _seam.Asking[tuple[schema.PermissionOption | None, Answer | None]]:
    """Ask which of the agent's ``options`` to send for the tool call ``view``: returns the
    option (None: "cancelled") and the answer it was read from (None when nothing was asked).
    Paths under the session's folder ``cwd`` are shown (and so recorded) relative to it.

    The chosen option is sent. Anything else (dismissed, timed out, an Other text, no one to
    ask, an option that allows chosen by a policy) sends the reject option, or "cancelled" when
    the agent offered none; an interrupt of the wait sends "cancelled".
    """
    labels = option_labels(options)
    previews = view.details(cwd)
    try:
        question = Question(
            question=f"Allow {view.name(cwd)}?",
            header=(view.kind or "permission")[:12],
            options=[
                Option(label=label, description=KIND_TEXT.get(option.kind, ""), preview=previews)
                for label, option in zip(labels, options, strict=True)
            ],
        )
    except ValueError as error:  # not 2-4 options: it cannot be shown
        log.warning("nbask: the permission request for %s cannot be shown (%s); it is rejected", view.name(cwd), error)
        return _reject_option(options), None
    request = QuestionRequest(
        question_set=QuestionSet(questions=[question]), timeout=timeout, tool_call_id=view.tool_call_id
    )
    answer: Answer = yield request
    if answer.status == "cancelled":
        return None, answer
    chosen = answer.selections.get(question.question, []) if answer.status == "answered" else []
    by_label = dict(zip(labels, options, strict=True))
    option = by_label.get(chosen[0]) if len(chosen) == 1 else None
    if option is None or (answer.answered_by == "policy" and option.kind.startswith("allow")):
        option = _reject_option(options)
    return option, answer


class NbaskClient:
    """The ``acp.Client`` of one session: prints its stream, asks its permissions and file
    requests, and tells the session when an interrupt or a replay miss ended a wait.
    """

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        files: bool = True,
        show: bool = True,
        on_stop: Callable[[BaseException | None], Awaitable[None]] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)
        self.files = files
        #: The session's working directory: a path under it is shown (and recorded) relative to it.
        self.cwd = cwd
        self.transcript = Transcript(show=show, cwd=cwd)
        self.permissions: list[Permission] = []
        self.on_stop = on_stop
        #: The tool calls the person allowed whose file requests are not asked again, by id.
        self.allowed: dict[str, Allowed] = {}

    def begin(self, *, show: bool) -> Transcript:
        """A new turn's transcript; the tool calls seen so far are kept."""
        known = self.transcript.tool_calls
        self.transcript = Transcript(show=show, cwd=self.cwd, tool_calls=known)
        self.permissions = []
        # What was allowed once belongs to the turn that asked it; the agent's "always" stays.
        self.allowed = {call: allowed for call, allowed in self.allowed.items() if allowed.always}
        return self.transcript

    # -- the stream ------------------------------------------------------------------------------

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        del session_id, kwargs
        self.transcript.update(update)
        if isinstance(update, (schema.ToolCallStart, schema.ToolCallProgress)) and update.status in ENDED:
            # An allowed call that ended is carried out: a later request for its files is new.
            allowed = self.allowed.get(update.tool_call_id)
            if allowed is not None and not allowed.always:
                del self.allowed[update.tool_call_id]

    # -- permissions -----------------------------------------------------------------------------

    async def request_permission(
        self, session_id: str, tool_call: schema.ToolCallUpdate, options: list[schema.PermissionOption], **kwargs: Any
    ) -> schema.RequestPermissionResponse:
        del session_id, kwargs
        known = self.transcript.tool_calls.get(tool_call.tool_call_id)
        view = ToolCallView(tool_call.tool_call_id) if known is None else replace(known)
        view.update(tool_call)  # what the request says on top of what the stream said
        option, answer = await self._asked(permission_asking(view, options, self.timeout, self.cwd))
        who = answer.answered_by if answer is not None else None
        name = view.name(self.cwd)
        if option is not None and option.kind.startswith("allow"):
            # The file requests that carry out this call are the action just allowed: not asked again.
            writes = view.kind not in LOOKING
            paths = frozenset(view.paths(self.cwd))
            self.allowed[tool_call.tool_call_id] = Allowed(name, paths, writes, option.kind == "allow_always")
        self.permissions.append(Permission(name, option and option.option_id, option and option.name, who))
        sent = f"{option.name} ({option.option_id})" if option is not None else "cancelled"
        self.transcript.line(f"permission: {name} -> {sent}" + (f", answered by {who}" if who else ""))
        if option is None:
            return schema.RequestPermissionResponse(outcome=schema.DeniedOutcome(outcome="cancelled"))
        return schema.RequestPermissionResponse(
            outcome=schema.AllowedOutcome(outcome="selected", option_id=option.option_id)
        )

    async def _asked(self, asking: _seam.Asking[Any]) -> Any:
        """``drive(asking)``; an interrupt of the wait, or a replay miss, stops the turn (the
        session sends ``session/cancel``) and reads as "cancelled" (None, None).
        """
        try:
            with _seam.answerable_by(self.approvers):
                return await _seam.drive(asking)
        except asyncio.CancelledError:
            if not cancelled_by_interrupt():
                raise
            await self._stop(None)
        except (ReplayMissing, AskedAgain) as error:  # the turn stops, and the cell hears why
            await self._stop(error)
        return None, None

    async def _stop(self, error: BaseException | None) -> None:
        if self.on_stop is not None:
            await self.on_stop(error)

    # -- files, each behind an approval ----------------------------------------------------------

    async def write_text_file(
        self, session_id: str, path: str, content: str, **kwargs: Any
    ) -> schema.WriteTextFileResponse:
        del session_id, kwargs
        target, shown = self._file(path, "write"), shown_path(path, self.cwd)
        allowed_by = self._allowed_by(target, write=True)
        text = content
        if allowed_by is None:
            title = _action("Write", shown)
            decision = await self._decided(_seam.approval(title, content, timeout=self.timeout))
            if decision is None or not decision.approved:
                raise RequestError(NOT_APPROVED, _not_run(decision, title))
            text = decision.edited if decision.decision == "edit" and decision.edited is not None else content
        target.write_text(text, encoding="utf-8")
        self.transcript.line(f"file: wrote {shown} ({len(text)} characters){_by(allowed_by)}")
        return schema.WriteTextFileResponse()

    async def read_text_file(
        self, session_id: str, path: str, line: int | None = None, limit: int | None = None, **kwargs: Any
    ) -> schema.ReadTextFileResponse:
        del session_id, kwargs
        target, shown = self._file(path, "read"), shown_path(path, self.cwd)
        lines = "" if line is None and limit is None else f"\nlines: from {line or 1}, at most {limit or 'all'}"
        title = _action("Read", shown)
        allowed_by = self._allowed_by(target, write=False)
        if allowed_by is None:
            # what is read is not edited here: approve or reject
            asked = _seam.approval(title, f"{shown}{lines}", timeout=self.timeout, edits="off")
            decision = await self._decided(asked)
            if decision is None or decision.decision != "approve":
                why = "the request to read a file cannot be edited; approve it as it is or reject it"
                edit = decision is not None and decision.decision == "edit"
                raise RequestError(NOT_APPROVED, _not_run(decision, title, why if edit else None))
        text = target.read_text(encoding="utf-8")
        if line is not None or limit is not None:
            start = max((line or 1) - 1, 0)
            kept = text.splitlines(keepends=True)[start:]
            text = "".join(kept[:limit] if limit is not None else kept)
        self.transcript.line(f"file: read {shown}{_by(allowed_by)}")
        return schema.ReadTextFileResponse(content=text)

    def _file(self, path: str, verb: str) -> Path:
        if not self.files:
            raise RequestError.method_not_found(f"fs/{verb}_text_file")
        if not Path(path).is_absolute():
            msg = f"fs/{verb}_text_file: path must be absolute, not {path!r}"
            raise RequestError.invalid_params({"path": msg})
        return Path(path)

    def _allowed_by(self, target: Path, *, write: bool) -> str | None:
        """The title of an allowed tool call that names ``target`` and covers this request (a
        write only under a call that changes files); None: none does, the request is asked.
        """
        wanted = Path(os.path.normpath(target))
        covering = (a for a in self.allowed.values() if wanted in a.paths and (a.writes or not write))
        return next((allowed.title for allowed in covering), None)

    async def _decided(self, request: Any) -> Decision | None:
        decision = await self._asked(_seam.ask(request))
        return decision if isinstance(decision, Decision) else None

    # -- refused ---------------------------------------------------------------------------------

    async def create_terminal(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - refused whatever it asks
        raise RequestError.method_not_found(f"terminal/create: {NO_TERMINALS}")

    async def terminal_output(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - refused whatever it asks
        raise RequestError.method_not_found(f"terminal/output: {NO_TERMINALS}")

    async def release_terminal(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - refused whatever it asks
        raise RequestError.method_not_found(f"terminal/release: {NO_TERMINALS}")

    async def wait_for_terminal_exit(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - refused whatever it asks
        raise RequestError.method_not_found(f"terminal/wait_for_exit: {NO_TERMINALS}")

    async def kill_terminal(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ARG002 - refused whatever it asks
        raise RequestError.method_not_found(f"terminal/kill: {NO_TERMINALS}")

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        del params
        raise RequestError.method_not_found(f"_{method}")

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        del method, params


def _action(verb: str, path: str) -> str:
    """The action "<verb> <path>", the path shortened from the left to fit an approval's title."""
    room = MAX_ACTION_CHARS - len(verb) - 1
    shown = path if len(path) <= room else "…" + path[-(room - 1) :]
    return f"{verb} {shown}"


def _by(allowed_by: str | None) -> str:
    """What the transcript adds to a file request done under an allowed tool call."""
    return f", allowed with {allowed_by}" if allowed_by is not None else ""


def _not_run(decision: Decision | None, title: str, why: str | None = None) -> str:
    if decision is None:
        return f"Not approved: {title} was not done; the wait for the person was interrupted."
    if why is not None:
        return f"Not approved: {title} was not done: {why}."
    return _seam.not_run_text(decision, title)
