"""Who resolves a request, by policy (see ``nbask.config``), and the headless resolvers.
What each policy decides for a request is its kind's to say (``nbask.kinds``).

``interactive`` picks the live widget in a kernel, the terminal prompt on a TTY, or fails
with NoOneCanAnswer (at once in a marimo notebook, which cannot answer a running cell); the
others decide at once, without a person: ``recommended`` answers each question with its
"(Recommended)" option (else its first) and rejects approvals, ``replay`` answers from a
recording, ``dismiss`` dismisses, ``error`` refuses, and ``later`` answers from the inbox or
keeps the request there and stops the run (``nbask.resolvers.later``). Every outcome says who
decided (``answered_by``). In a kernel, a policy's outcome is also shown in the cell
(``nbask.resolvers.cell``).
"""

from __future__ import annotations

import os
import pathlib
import threading
from typing import Any

from .. import config, host
from ..core.history import Recording, load
from ..core.lifecycle import DecidesAtOnce, OutcomeT, Request, Resolution, Resolver
from ..errors import NoFrontEnd, NoOneCanAnswer
from ..identity import waiting_for
from ..kinds import RequestKind, kind_of
from ..terminal import terminal_streams
from .cell import show_in_cell
from .console import ConsoleResolver
from .later import LaterPolicy
from .live import LiveWidgetResolver


def choose_resolver(request: Request[Any]) -> Resolver:
    """The resolver the settings in force choose for ``request`` (not yet checked)."""
    del request  # every kind follows the same policy; each kind says what the policy decides
    policy, source = config.policy_in_force()
    if policy == "interactive":
        return interactive_resolver()
    if policy == "recommended":
        return RECOMMENDED
    if policy == "dismiss":
        return DISMISS
    if policy == "error":
        return ErrorPolicy(source)
    if policy == "later":
        return LaterPolicy()
    replay_file = config.settings().replay_file
    if replay_file is None:
        msg = (
            f"the 'replay' policy (from {source}) needs a recording: set "
            f"{config.ENV_REPLAY_FILE} or nbask.configure(replay_file=...)"
        )
        raise ValueError(msg)
    return replay_policy(replay_file)


#: Why nbask cannot ask mid-cell in a marimo notebook, and what to do instead.
MARIMO_CANNOT_ANSWER = (
    "nbask is running in a marimo notebook, and marimo cannot deliver a widget's answer to a "
    "cell while that cell runs: it applies widget changes only between cell runs, so a "
    "question asked in the middle of a cell would wait forever. Instead, decide without a "
    "person with a policy (nbask.configure(policy='recommended'), 'replay', 'dismiss' or "
    "'error', set before asking), or let the person answer through a marimo UI element "
    "(mo.ui.radio, mo.ui.anywidget, ...) shown by one cell and read its .value in a cell that "
    "depends on it. No one will answer here, so do not ask again in this run."
)


def interactive_resolver() -> Resolver:
    """A person: the widget in a kernel, else the terminal prompt, else no one (an error)."""
    if host.in_marimo_notebook():
        # marimo's kernel is not ipykernel and runs widget messages only between cells: the
        # widget could be shown, but its answer would arrive after the cell that waits for it.
        raise NoFrontEnd(MARIMO_CANNOT_ANSWER)
    if host.in_kernel():
        return LiveWidgetResolver()
    if terminal_streams() is None:
        msg = (
            f"nbask is running in {host.describe_process()} with no Jupyter front end and no terminal "
            "(stdin is not a TTY), so no one can answer its questions. " + config.how_to_set_a_policy()
        )
        raise NoFrontEnd(msg)
    return ConsoleResolver()


class PolicyResolver(DecidesAtOnce):
    """Decides a request at once, without a person; subclasses say which of the kind's answers."""

    name = ""

    def check_available(self, request: Request[Any]) -> None:
        """A policy can always decide."""

    def decide(self, kind: RequestKind[Any, Any], request: Request[Any]) -> Any:
        raise NotImplementedError

    def unapproved(self, request: Request[Any]) -> Any:
        """A request only its approvers may answer: a policy is none of them, so it is refused
        (an approval rejected), the reason in the outcome and the history.
        """
        reason = (
            f"Only {waiting_for(request.approvers or ())} may answer this {request.kind}, and the "
            f"'{self.name}' policy answers for no one: it was not answered, so do not go ahead as if it were."
        )
        return request.refused(reason)

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        request = resolution.request
        kind = kind_of(request)
        resolution.settle(self.decide(kind, request) if not request.approvers else self.unapproved(request))
        final = resolution.outcome
        assert final is not None  # noqa: S101 - settled above
        show_in_cell(kind, request, final)
        return final


class RecommendedPolicy(PolicyResolver):
    """What each kind recommends unattended: a question's "(Recommended)" option, never an approval."""

    name = "recommended"

    def decide(self, kind: RequestKind[Any, Any], request: Request[Any]) -> Any:
        return kind.recommended(request)


class DismissPolicy(PolicyResolver):
    """Every request dismissed (an approval so rejected)."""

    name = "dismiss"

    def decide(self, kind: RequestKind[Any, Any], request: Request[Any]) -> Any:
        return kind.dismissed(request)


class ReplayPolicy(PolicyResolver):
    """Answers from a recording; what it lacks raises ReplayMissing naming what was asked."""

    name = "replay"

    def __init__(self, recording: Recording) -> None:
        self.recording = recording
        self._lock = threading.Lock()

    def decide(self, kind: RequestKind[Any, Any], request: Request[Any]) -> Any:
        with self._lock:
            return kind.replayed(request, self.recording)


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
            policy = ReplayPolicy(Recording(load(resolved), source=str(resolved)))
            _replay_cache.clear()
            _replay_cache[key] = policy
        return policy
