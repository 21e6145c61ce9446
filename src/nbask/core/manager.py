"""The interaction manager: the requests waiting in this kernel, and the history.

One request waits at a time unless its caller opts in with ``queue=True``: such a request is
shown at once beside those already waiting, and they form a batch (one batch id, answered in
any order) until none is left waiting. A request without ``queue=True`` made while another
waits is refused (InteractionPending).

It does not know who resolves a request: whoever runs one gives it a ``ResolverChooser``
(``nbask.api`` gives the policies' choice; a widget displayed by hand gives itself), and the
manager checks the chosen resolver can serve before anything is claimed or shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import waiting
from ..errors import InteractionPending
from ..identity import refusal
from ..models import Outcome, Verification
from ..nesting import check_questions_allowed
from ..replies import account_name
from .history import CompactRecord, HistoryEntry, compact, expand
from .lifecycle import DecidesAtOnce, OutcomeT, Request, Resolution, Resolver, ResolverChooser, new_request_id


@dataclass(frozen=True)
class Batch:
    """Requests shown together: from the moment a second one joins until none waits."""

    id: str
    #: The request that waited first: its widget heads the batch.
    lead: str


#: Told a batch and its requests still waiting, each time one joins or leaves.
BatchListener = Callable[[Batch, list[Resolution[Any]]], None]

log = logging.getLogger("nbask.manager")


class InteractionManager:
    """One per kernel process: the requests that wait for the person, and how they ended."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # The requests waiting now, in the order they were shown; with two or more, a batch.
        self._waiting: list[Resolution[Any]] = []
        self._batch: Batch | None = None
        self._batch_listeners: list[BatchListener] = []
        # What was asked and how it ended, kept compact; HistoryEntry records when read.
        self._ended: list[CompactRecord] = []
        # Answers given after their request timed out (also in _ended), and how many of them
        # the agent tools have passed on to the model.
        self._late: list[CompactRecord] = []
        self._late_delivered = 0
        # Who answered (``answered_by_user``) in the history, kept as records are added.
        self._users: set[str] = set()

    @property
    def pending(self) -> Resolution[Any] | None:
        """The first request still waiting, or None."""
        waiting = self.waiting()
        return waiting[0] if waiting else None

    def waiting(self) -> list[Resolution[Any]]:
        """Every request waiting now, in the order they were shown."""
        with self._lock:
            return [resolution for resolution in self._waiting if not resolution.done]

    def batch(self) -> tuple[Batch | None, list[Resolution[Any]]]:
        """The batch now waiting (None unless two or more were shown together) and its requests."""
        with self._lock:
            return self._batch, [r for r in self._waiting if not r.done]

    def on_batch_change(self, listener: BatchListener) -> Callable[[], None]:
        """Call ``listener(batch, waiting)`` whenever a request joins or leaves a batch; returns
        the call that stops it.
        """
        with self._lock:
            self._batch_listeners.append(listener)

        def stop() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._batch_listeners.remove(listener)

        return stop

    def decide_batch(
        self, batch_id: str, request_ids: list[str], *, approve: bool, user: str | None, identity: Verification = "none"
    ) -> int:
        """Decide, as the person, each request of ``request_ids`` still waiting in batch
        ``batch_id`` whose kind can be decided in one go (approvals) and which ``user`` may
        answer (``approvers``); returns how many were.
        """
        batch, waiting = self.batch()
        if batch is None or batch.id != batch_id:
            return 0
        decided = 0
        for resolution in waiting:
            if resolution.request.request_id not in request_ids:
                continue
            why = refusal(resolution.request.approvers, user, identity)
            if why is not None:
                resolution.note_refused(user, identity, why)
                continue
            outcome = resolution.request.decided_in_batch(approve=approve)
            if outcome is None:
                continue
            outcome = outcome.model_copy(update={"answered_by_user": user, "identity": identity})
            decided += resolution.settle(outcome)
        return decided

    def history(self) -> list[HistoryEntry]:
        return [expand(record) for record in list(self._ended)]

    def each_entry(self) -> Iterator[HistoryEntry]:
        """The history's entries one at a time (of the records kept when called): writing a long
        history holds one entry at a time, not all of them at once.
        """
        return (expand(record) for record in list(self._ended))

    def clear_history(self) -> None:
        with self._lock:
            self._ended.clear()
            self._late.clear()
            self._late_delivered = 0
            self._users.clear()

    def answering_users(self) -> frozenset[str]:
        """Every ``answered_by_user`` in the history (the identities that answered here)."""
        return frozenset(self._users)

    def _keep(self, record: CompactRecord, outcome: Outcome) -> None:
        self._ended.append(record)
        if outcome.answered_by_user is not None:
            self._users.add(outcome.answered_by_user)

    def record(self, request: Request[Any], outcome: Outcome) -> None:
        """Keep an outcome decided without running ``request`` (an integration's refusal)."""
        with self._lock:
            self._keep(compact(request, outcome), outcome)

    # -- late answers ------------------------------------------------------------

    def record_late(self, request: Request[Any], outcome: Outcome) -> None:
        """Keep an answer given after ``request`` timed out: in the history, and for the agent."""
        record = compact(request, outcome)
        with self._lock:
            self._keep(record, outcome)
            self._late.append(record)
        log.info("nbask request %s answered late by %s", outcome.request_id, outcome.answered_by)

    def late_answers(self) -> list[HistoryEntry]:
        """Every late answer of this process, oldest first."""
        return [expand(record) for record in list(self._late)]

    def take_late_answers(self) -> list[HistoryEntry]:
        """The late answers not taken before (each is handed out once), oldest first."""
        with self._lock:
            fresh = self._late[self._late_delivered :]
            self._late_delivered = len(self._late)
        return [expand(record) for record in fresh]

    # -- running a request -------------------------------------------------------

    def _resolver(self, resolution: Resolution[Any], choose: ResolverChooser) -> Resolver:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        request = resolution.request
        check_questions_allowed(request.kind)  # inside nbask.no_questions(): refused before anything
        resolver = choose(request)
        resolver.check_available(request)
        return resolver

    async def run(self, resolution: Resolution[OutcomeT], choose: ResolverChooser, *, queue: bool = False) -> OutcomeT:
        """Claim a place among the waiting requests (``queue=True`` joins those waiting, else
        only an empty place will do), let the chosen resolver settle ``resolution``, record the
        outcome in the history.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolver = self._resolver(resolution, choose)
        if isinstance(resolver, DecidesAtOnce) and not self._waiting:
            outcome = await resolver.resolve(resolution)
            self._record_ended(resolution)
            return outcome
        self._claim_or_raise(resolution, queue=queue)
        try:
            return await resolver.resolve(resolution)
        finally:
            self._release(resolution)

    def run_sync(self, resolution: Resolution[OutcomeT], choose: ResolverChooser, *, queue: bool = False) -> OutcomeT:
        """The blocking twin of ``run``."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolver = self._resolver(resolution, choose)
        if isinstance(resolver, DecidesAtOnce) and not self._waiting:  # no place to claim
            outcome = resolver.resolve_sync(resolution)
            self._record_ended(resolution)
            return outcome
        self._claim_or_raise(resolution, queue=queue)
        try:
            return resolver.resolve_sync(resolution)
        finally:
            self._release(resolution)

    async def run_together(self, resolutions: list[Resolution[Any]], choose: ResolverChooser) -> list[Any]:
        """Show ``resolutions`` together (beside any already waiting), answered in any order, and
        return every outcome, in order. If one wait raises (an interrupt), every other one still
        open is cancelled, and it raises once.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolvers = self._claim_together(resolutions, choose)
        together = getattr(resolvers[0], "resolve_together", None)
        if together is not None and len({type(resolver) for resolver in resolvers}) == 1:
            # A resolver that decides them all at once (the inbox keeps a batch together).
            try:
                return list(await together(resolutions))
            finally:
                self._release_together(resolutions)
        tasks = [asyncio.ensure_future(rv.resolve(r)) for rv, r in zip(resolvers, resolutions, strict=True)]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException as error:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            interrupted = any(r.outcome is not None and r.outcome.status == "cancelled" for r in resolutions)
            if isinstance(error, asyncio.CancelledError) and interrupted:
                # The waits ran in tasks of ours, so they ended with CancelledError; the cell
                # shows the interrupt as one wait would (one line), once.
                raise waiting.interruption() from None
            raise
        finally:
            self._release_together(resolutions)

    def run_together_sync(self, resolutions: list[Resolution[Any]], choose: ResolverChooser) -> list[Any]:
        """The blocking twin of ``run_together``. A resolver that can show several at once
        (``resolve_together_sync``) does; any other resolves them one after another.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolvers = self._claim_together(resolutions, choose)
        try:
            together = getattr(resolvers[0], "resolve_together_sync", None)
            if together is not None and len({type(resolver) for resolver in resolvers}) == 1:
                return list(together(resolutions))
            return [resolver.resolve_sync(r) for resolver, r in zip(resolvers, resolutions, strict=True)]
        finally:
            self._release_together(resolutions)

    def _claim_together(self, resolutions: list[Resolution[Any]], choose: ResolverChooser) -> list[Resolver]:
        resolvers = [self._resolver(resolution, choose) for resolution in resolutions]  # all checked first
        for resolution in resolutions:
            self._claim_or_raise(resolution, queue=True)
        return resolvers

    def _release_together(self, resolutions: list[Resolution[Any]]) -> None:
        # One that is still open was never shown (a resolver that raised on an earlier one, such
        # as a replay miss): it leaves no outcome. A shown one ended in its own wait.
        for resolution in resolutions:
            self._release(resolution)

    # -- the waiting requests ----------------------------------------------------

    def _claim_or_raise(self, resolution: Resolution[Any], *, queue: bool) -> None:
        with self._lock:
            if not self._waiting:  # the usual case, on every request: nothing else waits
                self._waiting = [resolution]
                self._batch = None
                return
            waiting = [r for r in self._waiting if not r.done and r is not resolution]
            if waiting and not queue:
                raise self._busy_error(waiting[0])
            self._waiting = [*waiting, resolution]
            if not waiting:
                self._batch = None
                return  # alone: no batch (and no id to make, on every headless request)
            if self._batch is None:  # the first to wait learns here that it heads a batch
                self._batch = Batch(new_request_id(), waiting[0].request.request_id)
            batch = self._batch
            joined = [member for member in self._waiting if member.request.batch_id != batch.id]
            for member in joined:
                member.request.batch_id = batch.id
        for member in joined:  # an answer changes what the batch's heading counts, at once
            member.on_settled(lambda _outcome: self._tell_batch())
        self._tell_batch()

    def _tell_batch(self) -> None:
        """Tell the batch listeners the batch and its requests still waiting."""
        with self._lock:
            batch, waiting = self._batch, [r for r in self._waiting if not r.done]
            listeners = list(self._batch_listeners)
        if batch is not None:
            for listener in listeners:
                listener(batch, waiting)

    def _release(self, resolution: Resolution[Any]) -> None:
        with self._lock:
            if len(self._waiting) == 1 and self._waiting[0] is resolution:
                self._waiting = []
            else:
                self._waiting = [r for r in self._waiting if r is not resolution and not r.done]
        self._record_ended(resolution)

    def _record_ended(self, resolution: Resolution[Any]) -> None:
        """Keep ``resolution``'s outcome in the history, once (if it has one)."""
        with self._lock:
            outcome = resolution.outcome
            record = outcome is not None and not resolution.recorded
            resolution.recorded = resolution.recorded or record
        if record:
            assert outcome is not None  # noqa: S101 - checked just above
            self._keep(compact(resolution.request, outcome), outcome)
            # Only the request id is logged: what was asked and answered may be private.
            log.info("nbask request %s ended: %s by %s", outcome.request_id, outcome.status, outcome.answered_by)

    @staticmethod
    def _busy_error(pending: Resolution[Any]) -> InteractionPending:
        what = f"{pending.request.kind} (request {pending.request.request_id})"
        return InteractionPending(
            f"another {what} is still waiting for an answer; only one may be pending per kernel "
            "unless each caller opts in. Answer or dismiss it first, or pass queue=True to show "
            "this one beside it."
        )


_manager = InteractionManager()


def manager() -> InteractionManager:
    """The process's one InteractionManager."""
    return _manager


def who(outcome: Outcome) -> dict[str, Any]:
    """The part of a resolved block's result that names the person who answered, if known, and
    whether that name is the account the kernel runs as (a one-person server's own account,
    which the block names only once a second identity has answered).
    """
    user = outcome.answered_by_user
    if user is None:
        return {}
    mark = {"identity": outcome.identity} if outcome.identity is not None else {}
    return {"answered_by_user": user, **mark, **({"answered_by_account": True} if user == account_name() else {})}


def several_answered(*more: str | None) -> bool:
    """Whether more than one identity has answered in this kernel (the history, and ``more``)."""
    # The manager keeps the set as records are added: reading the history back would parse
    # every record, on every widget made.
    users = manager().answering_users() | {user for user in more if user is not None}
    return len(users) > 1
