"""The terminal prompt: asks a request's questions (or approval) as numbered choices on a
TTY, for the ``interactive`` policy outside a Jupyter kernel. What the person types is the
person's answer (``answered_by="person"``).

Questions: the options are numbered, then "Other" (type a free answer) and "Skip" (no
preference); a multi-select question takes several numbers (``1,3``); ``d`` dismisses the
whole set. Approvals: 1 Approve, 2 Edit (type new details, end with a line holding only
``.``), 3 Reject (with an optional reason). Ctrl-D dismisses, Ctrl-C cancels (the wait ends
with KeyboardInterrupt, as in a notebook), and the request's timeout applies.

Model text is untrusted: control characters (terminal escape sequences) are shown escaped.
"""

from __future__ import annotations

import os
import select
import sys
import time
from typing import Any, TextIO

from .config import how_to_set_a_policy
from .contract import MAX_DETAILS_CHARS, MAX_OTHER_CHARS, MAX_REASON_CHARS
from .errors import NoFrontEnd
from .lifecycle import (
    INTERRUPTED_NOTE,
    ApprovalRequest,
    OutcomeT,
    QuestionRequest,
    Request,
    Resolution,
    timeout_note,
)
from .models import Answer, Decision, Question
from .responses import ApprovalResponse, QuestionReply, QuestionResponse


class _TimedOut(Exception):
    pass


class _Dismissed(Exception):
    pass


def printable(text: str, *, keep_newlines: bool = False) -> str:
    r"""``text`` with every control character shown escaped (``\\x1b``), so model text cannot
    move the cursor, recolour or retitle the terminal.
    """
    out = []
    for ch in text:
        if (ch == "\n" and keep_newlines) or ch == "\t" or ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def terminal_streams() -> tuple[TextIO, TextIO] | None:
    """(input, output) when a person at a terminal can answer here, else None."""
    stdin = sys.stdin
    if not _is_terminal(stdin):
        return None
    out = next((stream for stream in (sys.stdout, sys.stderr) if _is_terminal(stream)), None)
    return (stdin, out) if out is not None else None


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or a test runner's stand-in
        return False


class ConsoleResolver:
    """Resolves a request by asking at the terminal."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._streams = (stdin, stdout) if stdin is not None and stdout is not None else None

    def _io(self) -> tuple[TextIO, TextIO] | None:
        return self._streams or terminal_streams()

    def check_available(self, request: Request[Any]) -> None:
        del request
        if self._io() is None:
            msg = "no terminal to ask at (stdin is not a TTY), so no one can answer. " + how_to_set_a_policy()
            raise NoFrontEnd(msg)

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        # A terminal has no event loop to keep serving while the person types.
        return self.resolve_blocking(resolution)

    def resolve_blocking(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        streams = self._io()
        if streams is None:
            self.check_available(resolution.request)
        assert streams is not None  # noqa: S101 - check_available raised otherwise
        request = resolution.request
        timeout = request.timeout
        term = _Terminal(*streams, deadline=None if timeout is None else time.monotonic() + timeout)
        try:
            if isinstance(request, QuestionRequest):
                outcome: Answer | Decision = _ask_questions(term, request)
            elif isinstance(request, ApprovalRequest):
                outcome = _ask_approval(term, request)
            else:
                msg = f"the terminal prompt cannot show {type(request).__name__}"
                raise TypeError(msg)
            resolution.settle(outcome)  # type: ignore[arg-type]
        except _TimedOut:
            term.say("\n(no answer in time)")
            resolution.end("timeout", timeout_note(timeout))
        except KeyboardInterrupt:
            resolution.end("cancelled", INTERRUPTED_NOTE)
            raise
        assert resolution.outcome is not None  # noqa: S101 - settled above
        return resolution.outcome


class _Terminal:
    """Line input with a deadline, on the terminal's own file descriptor where it has one."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, deadline: float | None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.deadline = deadline
        try:
            self._fd: int | None = stdin.fileno() if os.name == "posix" else None
        except (OSError, ValueError, AttributeError):
            self._fd = None

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def line(self, prompt: str) -> str:
        """One line (without its newline); EOFError on end of input, _TimedOut past the deadline."""
        self.stdout.write(prompt)
        self.stdout.flush()
        if self.deadline is not None and self._fd is not None:
            left = self.deadline - time.monotonic()
            ready = select.select([self._fd], [], [], max(0.0, left))[0] if left > 0 else []
            if not ready:
                raise _TimedOut
        text = self.stdin.readline()
        if not text:
            raise EOFError
        return text.rstrip("\r\n")


def _ask_questions(term: _Terminal, request: QuestionRequest) -> Answer:
    questions = request.question_set.questions
    term.say("")
    term.say(f"nbask: the agent asks {len(questions)} question{'s' * (len(questions) > 1)}" + _ids(request))
    replies = []
    try:
        for number, question in enumerate(questions, start=1):
            replies.append(_ask_one(term, question, number, len(questions)))
    except (_Dismissed, EOFError):
        term.say("(dismissed)")
        return request.decide(QuestionResponse(action="dismiss"))
    answer = request.decide(QuestionResponse(action="submit", replies=tuple(replies)))
    for text, given in answer.answers.items():
        term.say(f"  {printable(text)} -> {printable(given)}")
    return answer


def _ids(request: Request[Any]) -> str:
    return f" (tool call {printable(request.tool_call_id)})" if request.tool_call_id else ""


def _ask_one(term: _Terminal, question: Question, number: int, count: int) -> QuestionReply:
    header = f" [{printable(question.header)}]" if question.header else ""
    term.say("")
    term.say(f"({number}/{count}){header} {printable(question.question)}")
    for index, option in enumerate(question.options, start=1):
        description = f" - {printable(option.description)}" if option.description else ""
        term.say(f"  {index}. {printable(option.label)}{description}")
    other, skip = len(question.options) + 1, len(question.options) + 2
    term.say(f"  {other}. Other (type your own answer)")
    term.say(f"  {skip}. Skip (no preference)")
    how = f"one or more of 1-{skip}, e.g. 1,{other}" if question.multi_select else f"1-{skip}"
    while True:
        raw = term.line(f"Choose {how} (d dismisses): ").strip().lower()
        if raw in ("d", "dismiss"):
            raise _Dismissed
        picks = _numbers(raw)
        if picks is None or not picks or any(not 1 <= pick <= skip for pick in picks):
            term.say(f"Please type {'numbers' if question.multi_select else 'a number'} from 1 to {skip}, or d.")
            continue
        if skip in picks:
            if len(picks) > 1:
                term.say("Skip cannot be combined with other choices.")
                continue
            return QuestionReply(selected=(), other=None)
        if not question.multi_select and len(picks) > 1:
            term.say("This question takes one choice.")
            continue
        text = _other_text(term) if other in picks else None
        chosen = {question.options[pick - 1].label for pick in picks if pick != other}
        selected = tuple(option.label for option in question.options if option.label in chosen)
        if other in picks and text is None and not selected:
            continue  # an empty Other and nothing else: ask again
        return QuestionReply(selected=selected, other=text)


def _numbers(raw: str) -> list[int] | None:
    parts = [part for part in raw.replace(",", " ").split() if part]
    if not all(part.isdigit() for part in parts):
        return None
    return sorted({int(part) for part in parts})


def _other_text(term: _Terminal) -> str | None:
    while True:
        text = term.line("Your answer: ").strip()
        if len(text) > MAX_OTHER_CHARS:
            term.say(f"That is {len(text)} characters; the limit is {MAX_OTHER_CHARS}.")
            continue
        return text or None


def _ask_approval(term: _Terminal, request: ApprovalRequest) -> Decision:
    approval = request.approval
    term.say("")
    term.say(f"nbask: the agent asks for approval{_ids(request)}: {printable(approval.action)}")
    for line in printable(approval.details, keep_newlines=True).splitlines():
        term.say(f"    {line}")
    term.say("  1. Approve")
    term.say("  2. Edit the details, then approve")
    term.say("  3. Reject")
    try:
        while True:
            raw = term.line("Choose 1-3: ").strip().lower()
            if raw in ("1", "a", "approve"):
                decision = request.decide(ApprovalResponse(action="approve"))
            elif raw in ("2", "e", "edit"):
                edited = _edited_details(term)
                decision = request.decide(ApprovalResponse(action="approve", edited_details=edited))
            elif raw in ("3", "r", "reject"):
                reason = _limited(term, "Reason (optional): ", MAX_REASON_CHARS)
                decision = request.decide(ApprovalResponse(action="reject", reason=reason))
            else:
                term.say("Please type 1, 2 or 3.")
                continue
            break
    except EOFError:
        decision = request.decide(ApprovalResponse(action="dismiss"))
    term.say(f"  -> {decision.decision}")
    return decision


def _edited_details(term: _Terminal) -> str:
    while True:
        term.say("Type the new details; end with a line that holds only a '.':")
        lines = []
        while (line := term.line("")) != ".":
            lines.append(line)
        text = "\n".join(lines)
        if len(text) <= MAX_DETAILS_CHARS:
            return text
        term.say(f"That is {len(text)} characters; the limit is {MAX_DETAILS_CHARS}.")


def _limited(term: _Terminal, prompt: str, limit: int) -> str:
    while True:
        text = term.line(prompt).strip()
        if len(text) <= limit:
            return text
        term.say(f"That is {len(text)} characters; the limit is {limit}.")
