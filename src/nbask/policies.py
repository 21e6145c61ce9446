"""Who resolves a request, by policy (see ``nbask.config``), and the headless resolvers.

``interactive`` picks the live widget in a kernel, the terminal prompt on a TTY, or fails
with NoOneCanAnswer; the others decide at once, without a person: ``recommended`` answers
each question with its "(Recommended)" option (else its first) and rejects approvals,
``replay`` answers from a recording, ``dismiss`` dismisses, ``error`` refuses. Every
outcome says who decided (``answered_by``). In a kernel, a policy's outcome is also shown in
the cell as the Markdown summary, with the machine-readable record in its metadata, so the
saved notebook shows what was answered and by whom (and can itself be replayed).
"""

from __future__ import annotations

import logging
import os
import pathlib
import threading
from typing import Any

from IPython.display import display

from . import config, frontend
from .console import ConsoleResolver, terminal_streams
from .errors import NoFrontEnd, NoOneCanAnswer
from .lifecycle import ApprovalRequest, OutcomeT, QuestionRequest, Request, Resolution
from .live import LiveWidgetResolver
from .manager import Resolver
from .models import Answer, Decision
from .responses import ApprovalResponse, QuestionReply, QuestionResponse
from .summary import approval_markdown, questions_markdown
from .transcript import RECORD_KEY, Transcript, load, record_of

log = logging.getLogger(__name__)

UNATTENDED_REJECT = (
    "Not approved: this run is unattended (policy 'recommended'), and an unattended run does not "
    "approve actions on its own. Ask again where a person can decide, or replay a recorded decision."
)
DISMISS_NOTE = "Dismissed by the 'dismiss' policy: no one was asked, so do not assume an answer."


def resolver_for(request: Request[Any]) -> Resolver:
    """The resolver the settings in force choose for ``request`` (not yet checked)."""
    del request  # every kind follows the same policy; each resolver handles both kinds
    settings = config.settings()
    if settings.policy == "interactive":
        return interactive_resolver()
    if settings.policy == "recommended":
        return RECOMMENDED
    if settings.policy == "dismiss":
        return DISMISS
    if settings.policy == "error":
        return ErrorPolicy(settings.policy_source)
    if settings.replay_file is None:
        msg = (
            f"the 'replay' policy (from {settings.policy_source}) needs a recording: set "
            f"{config.ENV_REPLAY_FILE} or nbask.configure(replay_file=...)"
        )
        raise ValueError(msg)
    return replay_policy(settings.replay_file)


def interactive_resolver() -> Resolver:
    """A person: the widget in a kernel, else the terminal prompt, else no one (an error)."""
    if frontend.in_kernel():
        return LiveWidgetResolver()
    if terminal_streams() is None:
        msg = (
            f"nbask is running in {frontend.where()} with no Jupyter front end and no terminal "
            "(stdin is not a TTY), so no one can answer its questions. " + config.how_to_set_a_policy()
        )
        raise NoFrontEnd(msg)
    return ConsoleResolver()


class PolicyResolver:
    """Decides a request at once, without a person; subclasses say how."""

    name = ""

    def check_available(self, request: Request[Any]) -> None:
        """A policy can always decide."""

    def decide_question(self, request: QuestionRequest) -> Answer:
        raise NotImplementedError

    def decide_approval(self, request: ApprovalRequest) -> Decision:
        raise NotImplementedError

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        return self.resolve_blocking(resolution)

    def resolve_blocking(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        request = resolution.request
        if isinstance(request, QuestionRequest):
            outcome: Answer | Decision = self.decide_question(request)
        elif isinstance(request, ApprovalRequest):
            outcome = self.decide_approval(request)
        else:
            msg = f"the {self.name!r} policy cannot decide {type(request).__name__}"
            raise TypeError(msg)
        resolution.settle(outcome)  # type: ignore[arg-type]
        final = resolution.outcome
        assert final is not None  # noqa: S101 - settled above
        # Only the request id: what was asked and answered may be private.
        log.debug("nbask request %s decided by the %s policy", request.request_id, self.name)
        show_in_cell(request, final)
        return final


class RecommendedPolicy(PolicyResolver):
    """Each question's "(Recommended)" option, else its first; approvals are never given."""

    name = "recommended"

    def decide_question(self, request: QuestionRequest) -> Answer:
        replies = tuple(
            QuestionReply(selected=(question.recommended_label(),), other=None)
            for question in request.question_set.questions
        )
        return request.decide(QuestionResponse(action="submit", replies=replies), answered_by="policy")

    def decide_approval(self, request: ApprovalRequest) -> Decision:
        return request.decide(ApprovalResponse(action="reject", reason=UNATTENDED_REJECT), answered_by="policy")


class DismissPolicy(PolicyResolver):
    """Every question dismissed, every approval rejected (as a dismissal)."""

    name = "dismiss"

    def decide_question(self, request: QuestionRequest) -> Answer:
        return request.ended("dismissed", DISMISS_NOTE, "policy")

    def decide_approval(self, request: ApprovalRequest) -> Decision:
        return request.ended("dismissed", DISMISS_NOTE, "policy")


class ReplayPolicy(PolicyResolver):
    """Answers from a recording; what it lacks raises ReplayMissing naming the question."""

    name = "replay"

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self._lock = threading.Lock()

    def decide_question(self, request: QuestionRequest) -> Answer:
        with self._lock:
            return self.transcript.answer(request)

    def decide_approval(self, request: ApprovalRequest) -> Decision:
        with self._lock:
            return self.transcript.decision(request)


class ErrorPolicy(PolicyResolver):
    """Refuses every request at once."""

    name = "error"

    def __init__(self, source: str) -> None:
        self.source = source

    def check_available(self, request: Request[Any]) -> None:
        where = config.ENV_POLICY if self.source == config.ENV_POLICY else "nbask.configure"
        msg = (
            f"nbask's policy is 'error' (set by {where}): no {request.kind} is shown in this run, so no one "
            "can answer. Do not ask again; proceed without the answer or stop."
        )
        raise NoOneCanAnswer(msg)


RECOMMENDED = RecommendedPolicy()
DISMISS = DismissPolicy()

_replay_lock = threading.Lock()
_replay_cache: dict[tuple[str, int, int], ReplayPolicy] = {}


def replay_policy(path: os.PathLike[str]) -> ReplayPolicy:
    """The replay policy for ``path``, loaded once per file version: its position (which
    recorded answer comes next for a question asked again) lasts while the file is unchanged.
    """
    resolved = pathlib.Path(path).expanduser().resolve()
    try:
        stat = resolved.stat()
    except OSError as error:
        msg = f"cannot read the replay file {resolved}: {error.strerror or error}"
        raise NoOneCanAnswer(msg) from None
    key = (str(resolved), stat.st_mtime_ns, stat.st_size)
    with _replay_lock:
        policy = _replay_cache.get(key)
        if policy is None:
            policy = ReplayPolicy(Transcript(load(resolved), source=str(resolved)))
            _replay_cache.clear()
            _replay_cache[key] = policy
        return policy


def show_in_cell(request: Request[Any], outcome: Answer | Decision) -> None:
    """In a kernel: the outcome's Markdown summary as cell output, the record in its metadata."""
    if not frontend.in_kernel():
        return
    if isinstance(request, QuestionRequest) and isinstance(outcome, Answer):
        text = questions_markdown(request.question_set, outcome)
    elif isinstance(request, ApprovalRequest) and isinstance(outcome, Decision):
        text = approval_markdown(request.approval, outcome)
    else:
        return
    display(  # type: ignore[no-untyped-call]
        {"text/markdown": text, "text/plain": text},
        raw=True,
        metadata={RECORD_KEY: record_of(request, outcome)},
    )
