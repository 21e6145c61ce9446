"""The interaction manager: one pending request per kernel, an optional queue, and the history.

It does not know who resolves a request: whoever runs one gives it a ``ResolverChooser``
(``nbask.api`` gives the policies' choice; a widget displayed by hand gives itself), and the
manager checks the chosen resolver can serve before anything is claimed or shown.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

from ..errors import InteractionPending
from ..models import Outcome
from ..scope import check_questions_allowed
from .history import CompactRecord, HistoryEntry, compact, expand
from .lifecycle import OutcomeT, Request, Resolution, Resolver, ResolverChooser

log = logging.getLogger("nbask.manager")


class InteractionManager:
    """One per kernel process: at most one request waits for the person at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: Resolution[Any] | None = None
        # What was asked and how it ended, kept compact; HistoryEntry records when read.
        self._ended: list[CompactRecord] = []
        # Answers given after their request timed out (also in _ended), and how many of them
        # the agent tools have passed on to the model.
        self._late: list[CompactRecord] = []
        self._late_delivered = 0

    @property
    def pending(self) -> Resolution[Any] | None:
        return self._pending

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

    def record(self, request: Request[Any], outcome: Outcome) -> None:
        """Keep an outcome decided without running ``request`` (an integration's refusal)."""
        with self._lock:
            self._ended.append(compact(request, outcome))

    # -- late answers ------------------------------------------------------------

    def record_late(self, request: Request[Any], outcome: Outcome) -> None:
        """Keep an answer given after ``request`` timed out: in the history, and for the agent."""
        record = compact(request, outcome)
        with self._lock:
            self._ended.append(record)
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
        """Claim the one pending place (waiting for it with ``queue=True``), let the chosen
        resolver settle ``resolution``, record the outcome in the history.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolver = self._resolver(resolution, choose)
        await self._claim_async(resolution, queue=queue)
        try:
            return await resolver.resolve(resolution)
        finally:
            self._release(resolution)

    def run_sync(self, resolution: Resolution[OutcomeT], choose: ResolverChooser) -> OutcomeT:
        """The blocking twin of ``run`` (it cannot queue: that would block the kernel)."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        resolver = self._resolver(resolution, choose)
        if not self._claim(resolution):
            raise self._busy_error()
        try:
            return resolver.resolve_blocking(resolution)
        finally:
            self._release(resolution)

    # -- the one-pending rule ----------------------------------------------------

    def _claim(self, resolution: Resolution[Any]) -> bool:
        with self._lock:
            if self._pending is not None and self._pending is not resolution and not self._pending.done:
                return False
            self._pending = resolution
            return True

    async def _claim_async(self, resolution: Resolution[Any], *, queue: bool) -> None:
        while not self._claim(resolution):
            if not queue:
                raise self._busy_error()
            pending = self._pending
            if pending is not None:
                # Wait for the current interaction to end, without timing out ourselves.
                await pending.until_settled(timeout=None)

    def _release(self, resolution: Resolution[Any]) -> None:
        with self._lock:
            if self._pending is resolution:
                self._pending = None
            outcome = resolution.outcome
            record = outcome is not None and not resolution.recorded
            resolution.recorded = resolution.recorded or record
        if record:
            assert outcome is not None  # noqa: S101 - checked just above
            self._ended.append(compact(resolution.request, outcome))
            # Only the request id is logged: what was asked and answered may be private.
            log.info("nbask request %s ended: %s by %s", outcome.request_id, outcome.status, outcome.answered_by)

    def _busy_error(self) -> InteractionPending:
        pending = self._pending
        what = f"{pending.request.kind} (request {pending.request.request_id})" if pending else "request"
        return InteractionPending(
            f"another {what} is still waiting for an answer; only one may be "
            "pending per kernel. Answer or dismiss it first, or pass queue=True to wait for your turn."
        )


_manager = InteractionManager()


def manager() -> InteractionManager:
    """The process's one InteractionManager."""
    return _manager
