"""The interaction manager: one pending request per kernel, an optional queue, the history,
and the choice of who resolves each request (a *resolver*).

The resolvers are the live widget (``nbask.live``), the terminal prompt (``nbask.console``)
and the headless policies (``nbask.policies``, which also makes the choice), all without
changing the lifecycle or the widgets.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from .errors import InteractionPending
from .lifecycle import OutcomeT, Request, Resolution
from .models import Answer, AnsweredBy, Decision, Status
from .scope import check_questions_allowed

log = logging.getLogger(__name__)


class Resolver(Protocol):
    """Brings a request to its outcome: shows it to a person, or decides it by policy."""

    def check_available(self, request: Request[Any]) -> None:
        """Raise (before anything is shown or claimed) if this resolver cannot serve here."""

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        """Settle ``resolution`` and return its outcome, inside a running cell."""

    def resolve_blocking(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        """The blocking twin of ``resolve``."""


class HistoryEntry(BaseModel):
    """One ended interaction: what was asked next to how it ended."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["question", "approval"]
    asked: dict[str, Any] = Field(description="The QuestionSet or Approval, as JSON-ready data.")
    outcome: Answer | Decision
    status: Status
    request_id: str
    tool_call_id: str | None
    asked_at: float
    resolved_at: float
    seconds_waited: float
    answered_by: AnsweredBy

    @classmethod
    def of(cls, request: Request[Any], outcome: Answer | Decision) -> HistoryEntry:
        return cls(
            kind=request.kind,
            asked=request.asked(),
            outcome=outcome,
            status=outcome.status,
            request_id=outcome.request_id,
            tool_call_id=outcome.tool_call_id,
            asked_at=outcome.asked_at,
            resolved_at=outcome.resolved_at,
            seconds_waited=outcome.seconds_waited,
            answered_by=outcome.answered_by,
        )


class InteractionManager:
    """One per kernel process: at most one request waits for the person at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: Resolution[Any] | None = None
        self._history: list[HistoryEntry] = []

    @property
    def pending(self) -> Resolution[Any] | None:
        return self._pending

    def history(self) -> list[HistoryEntry]:
        return list(self._history)

    def clear_history(self) -> None:
        self._history.clear()

    def resolver_for(self, request: Request[Any]) -> Resolver:
        """Who resolves ``request`` here, as the policy in force says (``nbask.configure``,
        ``NBASK_POLICY``); checks it can before anything is claimed or shown.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        from .policies import resolver_for  # noqa: PLC0415 - policies sit above the manager: imported when used

        resolver = resolver_for(request)
        resolver.check_available(request)
        return resolver

    # -- running a request -------------------------------------------------------

    async def run(self, request: Request[OutcomeT], *, queue: bool = False) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        check_questions_allowed(request.kind)  # inside nbask.no_questions(): refused before anything
        resolver = self.resolver_for(request)
        resolution = Resolution(request)
        await self._claim_async(resolution, queue=queue)
        try:
            return await resolver.resolve(resolution)
        finally:
            self._release(resolution)

    def run_sync(self, request: Request[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        check_questions_allowed(request.kind)
        resolver = self.resolver_for(request)
        resolution = Resolution(request)
        if not self._claim(resolution):
            raise self._busy_error()
        try:
            return resolver.resolve_blocking(resolution)
        finally:
            self._release(resolution)

    # -- the one-pending rule ----------------------------------------------------

    def _claim(self, resolution: Resolution[Any]) -> bool:
        with self._lock:
            if self._pending is not None and not self._pending.done:
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
        if outcome is not None:
            self._history.append(HistoryEntry.of(resolution.request, outcome))
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
