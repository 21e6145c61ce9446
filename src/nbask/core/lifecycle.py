"""One interaction's lifecycle, with no widget and no kind in it: the request, its resolution
that happens exactly once, and the ``Resolver`` that brings it about.

A ``Request`` says what is asked, carries the ids and the timeout, and decides the outcome of a
parsed reply; each kind of request (``nbask.kinds``) subclasses it. A ``Resolution`` holds the
one outcome: the first of answer, dismiss, timeout or cancel wins and anything later is
ignored. Whoever resolves it (the live widget, a headless policy, a replay, the terminal) is a
``Resolver`` and only calls ``settle``; whoever waits uses ``wait`` (inside a running cell,
through ``nbask.waiting``) or ``wait_sync``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from .. import waiting
from ..contract import MAX_SOURCE_CHARS, agent_text
from ..identity import checked_approvers
from ..models import AnsweredBy, Outcome, RefusedAnswer, Verification

DEFAULT_TIMEOUT = 600.0
Ending = Literal["timeout", "cancelled"]
OutcomeT = TypeVar("OutcomeT", bound=Outcome)


def new_request_id() -> str:
    """A fresh id, unique across processes: this process's random prefix and a count (logs name
    requests by it, never by what was asked). A random id per request would cost a system call
    on every request.
    """
    return f"{_ID_PREFIX[0]}{next(_ID_COUNT):016x}"


def _new_id_prefix() -> None:
    _ID_PREFIX[0] = os.urandom(8).hex()


_ID_PREFIX = [""]
_ID_COUNT = itertools.count()
_new_id_prefix()
os.register_at_fork(after_in_child=_new_id_prefix)  # a forked child counts under its own prefix


def timeout_note(timeout: float | None) -> str:
    """Says no one answered, so an agent reading it does not take the silence as consent."""
    return agent_text("timeout", seconds=f"{timeout:g}")


INTERRUPTED_NOTE = agent_text("cancelled")


def check_timeout(timeout: float | None) -> None:
    """Reject a timeout that is not a positive number of seconds (None waits forever)."""
    if timeout is not None and not timeout > 0:
        msg = f"timeout must be a positive number of seconds or None, got {timeout!r}"
        raise ValueError(msg)


@dataclass
class Request(ABC, Generic[OutcomeT]):
    """What is asked, with its ids and time limit; subclasses decide outcomes for their kind."""

    #: The registered name of the request's kind (``nbask.kinds``): "question", "approval".
    kind: ClassVar[str]
    #: Whether the history keeps the working directory beside this kind's records: a kind whose
    #: replay reads paths in what was asked (an approval's details) needs it, others skip the
    #: system call on every request.
    keeps_workdir: ClassVar[bool] = False
    tool_call_id: str | None = None
    timeout: float | None = DEFAULT_TIMEOUT
    request_id: str = field(default_factory=new_request_id)
    asked_at: float = field(default_factory=time.time)
    #: Set by the manager when the request waits together with others (``queue=True``).
    batch_id: str | None = None
    #: Who asks ("billing agent"), where several agents ask in one cell: a batch's cards name it
    #: when its requests come from more than one source. One line of plain text; None = unsaid.
    source: str | None = None
    #: The only people whose verified answer resolves it (``nbask.identity``); None: anyone.
    approvers: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        check_timeout(self.timeout)
        self.approvers = checked_approvers(self.approvers)
        if self.tool_call_id is not None and not isinstance(self.tool_call_id, str):
            msg = f"tool_call_id must be a string or None, got {type(self.tool_call_id).__name__}"
            raise TypeError(msg)
        if self.source is not None:
            if not isinstance(self.source, str):
                msg = f"source must be a string or None, got {type(self.source).__name__}"
                raise TypeError(msg)
            self.source = " ".join(self.source.split())[:MAX_SOURCE_CHARS] or None

    def _ids(self, answered_by: AnsweredBy) -> dict[str, Any]:
        return {
            "request_id": self.request_id,
            "tool_call_id": self.tool_call_id,
            "asked_at": self.asked_at,
            "resolved_at": time.time(),
            "answered_by": answered_by,
            "batch_id": self.batch_id,
        }

    @abstractmethod
    def asked(self) -> dict[str, Any]:
        """What was asked, as JSON-ready data (kept in the history beside the outcome)."""

    def asked_json(self) -> str:
        """``asked()`` as JSON text (a kind whose payload is a pydantic model dumps it directly)."""
        return json.dumps(self.asked(), ensure_ascii=False)

    def headline(self) -> str:
        """What is asked, in one short line of plain text (a list of requests names each by it)."""
        return self.kind

    def kept_asked(self) -> str | tuple[Any, ...]:
        """What the history keeps of what was asked: ``asked_json()``, or a smaller form of the
        kind's own (a tuple of plain values, which nothing can change later) that its kind's
        ``asked_from`` turns back into ``asked()`` when the history is read.
        """
        return self.asked_json()

    @abstractmethod
    def parse_and_decide(self, raw: dict[str, Any]) -> OutcomeT:
        """The person's outcome from a front end's raw response; raises MalformedResponse."""

    @abstractmethod
    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> OutcomeT:
        """The outcome when the interaction ends without an answer."""

    def decided_in_batch(self, *, approve: bool) -> OutcomeT | None:
        """The person's outcome when they approve or reject every waiting approval of a batch at
        once; None for a kind an "all" button never answers (a question, a form).
        """
        del approve
        return None

    def refused(self, reason: str) -> OutcomeT:
        """The outcome when no one could be asked at all (an integration's refusal): dismissed
        by policy, ``reason`` as its note. A kind whose refusal reads otherwise overrides it.
        """
        return self.ended("dismissed", reason, "policy")


class Resolution(Generic[OutcomeT]):
    """The single outcome of one request, settled exactly once, safe across threads.

    Comm handlers may run on a kernel subshell thread, policies on the cell's thread and
    timeouts in the event loop: all of them go through ``settle``, and only the first counts.
    """

    def __init__(self, request: Request[OutcomeT]) -> None:
        self.request: Request[OutcomeT] = request
        #: Set by the manager once the outcome is in the history, so it is recorded once.
        self.recorded = False
        self._lock = threading.Lock()
        self._outcome: OutcomeT | None = None
        # Made when a blocking wait needs it: most requests (policies, awaits) never do.
        self._settled: threading.Event | None = None
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[OutcomeT]]] = []
        self._listeners: list[Callable[[OutcomeT], None]] = []
        #: Answers that could not resolve it (``approvers``): the outcome keeps them.
        self._refused: list[RefusedAnswer] = []

    def note_refused(self, user: str | None, identity: Verification, reason: str) -> None:
        """Keep an answer that was not allowed to resolve the request (who sent it, how that is
        known, why): the outcome carries it, so the history says who tried.
        """
        with self._lock:
            if self._outcome is None:
                self._refused.append(RefusedAnswer(user=user, identity=identity, reason=reason, at=time.time()))

    @property
    def outcome(self) -> OutcomeT | None:
        """The final outcome, or None while the request is open."""
        return self._outcome

    @property
    def done(self) -> bool:
        return self._outcome is not None

    def settled_event(self) -> threading.Event:
        """An Event set once settled, for the blocking wait."""
        with self._lock:
            if self._settled is None:
                self._settled = threading.Event()
                if self._outcome is not None:
                    self._settled.set()
            return self._settled

    def on_settled(self, listener: Callable[[OutcomeT], None]) -> None:
        """Call ``listener(outcome)`` once settled (at once if it already is)."""
        with self._lock:
            if self._outcome is None:
                self._listeners.append(listener)
                return
            outcome = self._outcome
        listener(outcome)

    def settle(self, outcome: OutcomeT) -> bool:
        """Record the outcome unless one already was; True if this call decided it."""
        with self._lock:
            if self._outcome is not None:
                return False
            if self._refused:
                outcome = outcome.model_copy(update={"refused": [*(outcome.refused or ()), *self._refused]})
            self._outcome = outcome
            if self._settled is not None:
                self._settled.set()
            waiters, self._waiters = self._waiters, []
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener(outcome)
        for loop, future in waiters:
            # The future belongs to the waiting cell's loop; this may run on another thread.
            loop.call_soon_threadsafe(_set_result_if_pending, future, outcome)
        return True

    def end(self, status: Ending, note: str) -> OutcomeT:
        """End without an answer; returns the final outcome (the person's, if it won the race)."""
        self.settle(self.request.ended(status, note))
        assert self._outcome is not None  # noqa: S101 - settle() above guarantees it
        return self._outcome

    async def until_settled(
        self, timeout: float | None = None, on_waiting: Callable[[], None] | None = None
    ) -> OutcomeT:
        """Wait for the outcome without deciding it: raises TimeoutError or KeyboardInterrupt
        and leaves the request open (used to queue behind it).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[OutcomeT] = loop.create_future()
        with self._lock:
            if self._outcome is not None:
                return self._outcome
            self._waiters.append((loop, future))
        try:
            return await waiting.wait_for(future, timeout, on_waiting)
        finally:
            with self._lock:
                self._waiters = [(lp, f) for lp, f in self._waiters if f is not future]

    async def wait(self, timeout: float | None, on_waiting: Callable[[], None] | None = None) -> OutcomeT:
        """Wait inside a running cell; a timeout settles "timeout", an interrupt settles
        "cancelled" and re-raises.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        check_timeout(timeout)
        try:
            return await self.until_settled(timeout, on_waiting)
        except TimeoutError:
            return self.end("timeout", timeout_note(timeout))
        except (KeyboardInterrupt, asyncio.CancelledError):
            self.end("cancelled", INTERRUPTED_NOTE)
            raise

    def wait_sync(self, timeout: float | None, on_waiting: Callable[[], None] | None = None) -> OutcomeT:
        """The blocking twin of ``wait``, for synchronous callers."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        check_timeout(timeout)
        try:
            finished = waiting.wait_sync(self.settled_event(), timeout, on_waiting)
        except KeyboardInterrupt:
            self.end("cancelled", INTERRUPTED_NOTE)
            raise
        if not finished:
            return self.end("timeout", timeout_note(timeout))
        assert self._outcome is not None  # noqa: S101 - the event is set only after the outcome
        return self._outcome


def wait_all_sync(resolutions: list[Resolution[Any]], on_waiting: Callable[[], None] | None = None) -> list[Any]:
    """Wait, blocking, for every one of ``resolutions`` (shown together, answered in any order).

    Each ends at its own time limit, counted from this call: the wait is always on the one whose
    limit comes first, so none passes its limit unnoticed while another is waited on. An
    interrupt cancels every one still open, then raises once. ``on_waiting`` runs once the first
    wait has begun (as for one request's wait), when an interrupt is sure to end it cleanly.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    start = time.monotonic()
    limits = [math.inf if r.request.timeout is None else start + r.request.timeout for r in resolutions]
    try:
        while True:
            open_ = [(limit, r) for limit, r in zip(limits, resolutions, strict=True) if not r.done]
            if not open_:
                break
            limit, first = min(open_, key=lambda pair: pair[0])
            left = None if limit == math.inf else limit - time.monotonic()
            finished = left is None or left > 0
            if finished:
                finished = waiting.wait_sync(first.settled_event(), left, on_waiting)
                on_waiting = None
            if not finished:
                first.end("timeout", timeout_note(first.request.timeout))
    except KeyboardInterrupt:
        for resolution in resolutions:
            if not resolution.done:
                resolution.end("cancelled", INTERRUPTED_NOTE)
        raise
    return [resolution.outcome for resolution in resolutions]


def _set_result_if_pending(future: asyncio.Future[OutcomeT], outcome: OutcomeT) -> None:
    if not future.done():
        future.set_result(outcome)


class Resolver(Protocol):
    """Brings a request to its outcome: shows it to a person, or decides it by policy."""

    def check_available(self, request: Request[Any]) -> None:
        """Raise (before anything is shown or claimed) if this resolver cannot serve here."""

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        """Settle ``resolution`` and return its outcome, inside a running cell."""

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        """The blocking twin of ``resolve``."""


class DecidesAtOnce:
    """A resolver that decides a request the moment it runs, with no one to wait for (a policy).
    While no other request waits, the manager lets it decide without claiming a place among the
    waiting requests: there is nothing to show beside, and a headless run, thousands of requests
    long, pays for the decision and its record only.
    """


#: Who resolves a request: given to the manager with each request it runs.
ResolverChooser = Callable[[Request[Any]], Resolver]
