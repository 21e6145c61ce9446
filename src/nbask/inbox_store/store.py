"""The inbox's API: ``InboxItem``, one request kept beyond the run that asked it, and
``InboxStore``, what every backend (SQLite, PostgreSQL) does with them.

An item keeps what was asked in the kind's JSON form and, once answered, the kind's outcome:
the same two things a history record keeps (``nbask.core.history.HistoryEntry``), so an answered
item reads back as one (``InboxItem.entry``). A request asked again finds an earlier item by
its ``identity``: the kind and the parts of what was asked that its replay matches on.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import threading
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, Protocol, get_args

from ..core.history import HistoryEntry
from ..core.lifecycle import Request
from ..errors import AlreadyAnswered, InboxRequestClosed
from ..kinds import kind_named
from ..models import Outcome

InboxStatus = Literal["pending", "answered", "expired", "cancelled"]
STATUSES: Final[tuple[str, ...]] = get_args(InboxStatus)
#: How long a request waits in the inbox unless ``add(..., expires=...)`` says otherwise: a week.
DEFAULT_EXPIRES: Final = 7 * 24 * 3600.0
#: How many characters of an id are shown at a terminal (``InboxItem.short_id``); ``get`` takes
#: any unique prefix of at least ``MIN_PREFIX``.
SHORT_ID: Final = 8
MIN_PREFIX: Final = 6

Expires = float | dt.timedelta | None
#: What ``matching`` looks for unless told otherwise.
ANSWERED: Final[tuple[InboxStatus, ...]] = ("answered",)


def new_id() -> str:
    """A fresh inbox id: 32 hex digits, random, unique across processes and machines."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class InboxItem:
    """One request in the inbox: what was asked, where and when, and how it ended.

    ``answered_by`` and ``answered_at`` say who closed it and when: who answered (the username
    the answer came with, else who decided: ``person``, ``policy``), who cancelled it, or for an
    expired one nobody and its expiry time.
    """

    id: str
    kind: str
    #: What was asked, as the kind's JSON form (``Request.asked()``, ``HistoryEntry.asked``).
    asked: dict[str, Any]
    #: The id of the request that asked it (``Request.request_id``): the live kernel's id.
    request_id: str
    asked_at: float
    #: Unix time it expires if still pending; None: never.
    expires_at: float | None
    status: InboxStatus
    notebook: str | None = None
    cell_id: str | None = None
    run_id: str | None = None
    tool_call_id: str | None = None
    #: Shared by the requests asked together (``add_batch``, or the request's own batch).
    batch_id: str | None = None
    #: The working directory, for the kinds whose history keeps it (``Request.keeps_workdir``).
    workdir: str | None = None
    answered_by: str | None = None
    answered_at: float | None = None
    #: The kind's outcome once answered (None for a kind this process does not know).
    outcome: Outcome | None = None
    #: The only people whose verified answer resolves it (``Request.approvers``); None: anyone.
    approvers: tuple[str, ...] | None = None

    @property
    def short_id(self) -> str:
        """The id's first characters, enough to name it at a terminal."""
        return self.id[:SHORT_ID]

    @property
    def pending(self) -> bool:
        return self.status == "pending"

    def as_of(self, now: float) -> InboxItem:
        """The item as it reads at Unix time ``now``: a pending one past its expiry is expired."""
        if self.status == "pending" and self.expires_at is not None and self.expires_at <= now:
            return replace(self, status="expired", answered_at=self.expires_at)
        return self

    def entry(self) -> HistoryEntry | None:
        """The history record of an answered item (None until it is answered)."""
        if self.outcome is None:
            return None
        return HistoryEntry.ended(self.kind, self.asked, self.outcome, self.workdir)

    def asked_again(self) -> Request[Any] | None:
        """The request this item keeps, built again by its kind to be answered now, wherever that
        is (a terminal, a notebook): no time limit, its tool call id; None for a kind this nbask
        does not know. Raises ValueError for what this nbask no longer reads.
        """
        kind = kind_named(self.kind)
        if kind is None:
            return None
        request: Request[Any] = replace(
            kind.request_of(self.asked), timeout=None, tool_call_id=self.tool_call_id, approvers=self.approvers
        )
        return request


def identity(kind: str, asked: dict[str, Any]) -> str:
    """What a request asked again is matched by: a hash of the kind and of what the kind matches
    on (``RequestKind.match_key``, the same as its replay); an unknown kind by all it asked.
    """
    known = kind_named(kind)
    key = known.match_key(asked) if known is not None else asked
    text = json.dumps([kind, key], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def expiry_time(expires: Expires, now: float) -> float | None:
    """The Unix time a request added at ``now`` expires: ``expires`` seconds (or a timedelta)
    later, never for None.
    """
    if expires is None:
        return None
    seconds = expires.total_seconds() if isinstance(expires, dt.timedelta) else float(expires)
    if not seconds > 0:
        msg = f"expires must be a positive number of seconds, a timedelta or None, got {expires!r}"
        raise ValueError(msg)
    return now + seconds


def when(at: float | None) -> str:
    """Unix time ``at`` as ISO 8601 in UTC, to the second (for messages)."""
    if at is None:
        return "an unknown time"
    return dt.datetime.fromtimestamp(at, dt.timezone.utc).isoformat(timespec="seconds")


def closed_error(item: InboxItem, tried: str, store: str) -> InboxRequestClosed:
    """The error for trying to close ``item`` (``tried``: "answered", "cancelled") when it
    was closed before.
    """
    by, at = item.answered_by, item.answered_at
    error = AlreadyAnswered if item.status == "answered" else InboxRequestClosed
    if item.status == "answered":
        msg = (
            f"inbox request {item.id} is already answered by {by} at {when(at)} (in {store}): "
            "a request is answered once, the first answer stands"
        )
    else:
        how = f"expired at {when(at)}" if item.status == "expired" else "was cancelled"
        if item.status == "cancelled":
            how += f" by {by or 'the run that asked it'} at {when(at)}"
        msg = f"inbox request {item.id} {how} (in {store}): it can no longer be {tried}"
    return error(msg, store=store, id=item.id, status=item.status, by=by, at=at)


class InboxStore(Protocol):
    """The inbox: requests that outlive the run that asked them, pending until answered once.

    Every method is safe to call from several threads and processes at once; each request is
    answered exactly once (``answer`` raises ``nbask.errors.AlreadyAnswered`` for every later one).
    Errors are each an ``nbask.errors.InboxError``, naming the store.
    """

    #: The store as messages name it: a file path, or a URL without its password.
    name: str

    def add(
        self,
        request: Request[Any],
        *,
        notebook: str | None = None,
        cell_id: str | None = None,
        run_id: str | None = None,
        expires: Expires = DEFAULT_EXPIRES,
    ) -> InboxItem:
        """Keep ``request`` pending: what it asks, where (the notebook's path, the cell's id,
        the run's id; its tool call id is the request's) and until when (``expires`` seconds or
        a timedelta from now, None for never). The request's ``batch_id`` is kept with it.
        """
        ...

    def add_batch(
        self,
        requests: Sequence[Request[Any]],
        *,
        notebook: str | None = None,
        cell_id: str | None = None,
        run_id: str | None = None,
        expires: Expires = DEFAULT_EXPIRES,
    ) -> list[InboxItem]:
        """Keep ``requests`` pending together, all or none, under one batch id (their own if
        the first has one, else a new one).
        """
        ...

    def get(self, id: str) -> InboxItem:  # noqa: A002 - the request's id, as the store names it
        """The item with this id, or the one whose id starts with this prefix (at least
        ``MIN_PREFIX`` characters); raises ``nbask.errors.InboxRequestNotFound``.
        """
        ...

    def items(
        self,
        *,
        status: InboxStatus | None = None,
        notebook: str | None = None,
        run_id: str | None = None,
        batch_id: str | None = None,
    ) -> list[InboxItem]:
        """The items, oldest first, of one status (an expired one is ``"expired"`` whether or
        not the sweep has marked it), one notebook, run or batch; None is any.
        """
        ...

    def pending(
        self, *, notebook: str | None = None, run_id: str | None = None, batch_id: str | None = None
    ) -> list[InboxItem]:
        """The requests still waiting for an answer, oldest first."""
        ...

    def matching(
        self,
        kind: str,
        asked: dict[str, Any],
        *,
        notebook: str | None = None,
        statuses: Collection[InboxStatus] = ANSWERED,
        exclude: Collection[str] = (),
    ) -> list[InboxItem]:
        """The items that asked the same (``identity``) in the same notebook (None: asked
        outside one), of these statuses, oldest first, leaving out the ids in ``exclude``.
        """
        ...

    def find_answered(
        self, request: Request[Any], *, notebook: str | None = None, exclude: Collection[str] = ()
    ) -> InboxItem | None:
        """The oldest answered item that asked what ``request`` asks in ``notebook``, not in
        ``exclude`` (a run that asks the same twice passes the ids it has used); None if none.
        """
        ...

    def answer(self, id: str, outcome: Outcome, *, by: str | None = None) -> InboxItem:  # noqa: A002
        """Answer the pending request ``id`` with ``outcome`` (of the request's kind), once: a
        later answer, from any process, raises ``nbask.errors.AlreadyAnswered`` naming who answered and
        when; an expired or cancelled one raises ``nbask.errors.InboxRequestClosed``. ``by``: who
        answers (default: the outcome's ``answered_by_user``, else its ``answered_by``).
        """
        ...

    def cancel(self, id: str, *, by: str | None = None) -> InboxItem:  # noqa: A002
        """End the pending request ``id`` unanswered; cancelling a closed one changes nothing,
        but an answered one raises ``nbask.errors.AlreadyAnswered``.
        """
        ...

    def expire(self, now: float | None = None) -> list[str]:
        """Mark every pending request past its expiry expired; returns their ids."""
        ...

    def wait_answered(
        self,
        id: str,  # noqa: A002
        timeout: float | None = None,
        *,
        stop: threading.Event | None = None,
    ) -> InboxItem:
        """Block until request ``id`` is no longer pending (answered, cancelled, expired), or
        ``timeout`` seconds pass, or ``stop`` is set; returns the item as it is then (still
        ``pending`` if the wait ended first). Each backend says what the wait costs.
        """
        ...

    def keep_run(self, key: str, state: str) -> None:
        """Keep a framework's paused run (its serialised ``state``) under ``key`` for the next
        run of the same code, in place of one kept before under that key.
        """
        ...

    def run_state(self, key: str) -> str | None:
        """The paused run kept under ``key``, or None."""
        ...

    def forget_run(self, key: str) -> None:
        """Drop the paused run kept under ``key`` (once it was resumed); none kept is no error."""
        ...

    def close(self) -> None:
        """Let go of the store's connection (a later call opens a new one)."""
        ...
