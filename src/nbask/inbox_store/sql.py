"""The inbox over SQL, written once for both backends: every query, and the rule that a request
is answered exactly once (a conditional ``UPDATE ... WHERE status = 'pending'`` whose row count
says who won). A backend (``sqlite``, ``postgres``) brings its connections, transactions, the
errors it turns into ``nbask.errors.InboxError``s, and how a wait learns of a change.
"""

from __future__ import annotations

import logging
import string
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any, ClassVar, Final, NamedTuple

from ..core.history import json_text, workdir_of
from ..core.lifecycle import Request
from ..errors import InboxRequestNotFound
from ..kinds import kind_named
from ..models import Outcome
from .rows import INSERT, SELECT, item_of, row_of
from .schema import RUNS, TABLE, VERSION_TABLE, Transaction, migrate, refuse_newer, supported, version_in
from .store import (
    ANSWERED,
    DEFAULT_EXPIRES,
    MIN_PREFIX,
    Expires,
    InboxItem,
    InboxStatus,
    closed_error,
    expiry_time,
    identity,
    new_id,
    when,
)

log = logging.getLogger("nbask.inbox_store")

#: Still open: pending and not past its expiry (the parameter is now).
_OPEN: Final = "status = 'pending' AND (expires_at IS NULL OR expires_at > ?)"
_HEX: Final = frozenset(string.hexdigits)

#: What a wait is told of the store: ``changed(seconds)`` blocks at most that long and says
#: whether the request may have changed (then it is read again).
Changed = Callable[[float], bool]


class _Where(NamedTuple):
    """Where a request was asked."""

    notebook: str | None
    cell_id: str | None
    run_id: str | None


class SqlInbox(ABC):
    """An ``InboxStore`` over a SQL database; see ``nbask.inbox_store.store.InboxStore`` for each call."""

    name: str
    #: Null-safe equality, as the dialect writes it.
    same: ClassVar[str] = "IS"
    #: What locks the selected rows until the transaction ends ("" where the transaction
    #: already holds the whole store: SQLite's BEGIN IMMEDIATE).
    for_update: ClassVar[str] = ""

    # -- what a backend brings ---------------------------------------------------------------

    @abstractmethod
    def _transaction(self, *, write: bool = True) -> AbstractContextManager[Transaction]:
        """One transaction (``write``: holding the store's write lock where the backend has one),
        committed when the block ends, rolled back on an exception; driver errors come out as
        ``nbask.errors.InboxError``s naming the store.
        """

    @abstractmethod
    def _has_table(self, transaction: Transaction, table: str) -> bool:
        """Whether ``table`` exists in the store."""

    def _migrating(self) -> AbstractContextManager[None]:
        """Held around a migration's transaction, so a second process migrates after the first
        has committed; SQLite's write transaction is enough (nothing to hold).
        """
        return nullcontext()

    def _notify(self, transaction: Transaction, id: str) -> None:  # noqa: A002, B027 - a backend without one keeps it
        """Tell waiting processes, when ``transaction`` commits, that ``id`` was closed."""

    @abstractmethod
    def _watch(self, id: str, stop: threading.Event | None) -> AbstractContextManager[Changed]:  # noqa: A002
        """A ``Changed`` for a wait on ``id``, noticing changes made from the moment it is entered;
        it returns as soon as ``stop`` is set.
        """

    @abstractmethod
    def close(self) -> None:
        """Let go of the store's connection."""

    # -- opening -----------------------------------------------------------------------------

    def _open(self) -> None:
        """Check the store's schema version: create the tables of a new store, migrate an older
        one, refuse a newer one (``nbask.errors.InboxSchemaTooNew``). The constructors call it.
        """
        with self._transaction(write=False) as transaction:
            found = version_in(transaction, has_table=self._has_table(transaction, VERSION_TABLE))
        refuse_newer(self.name, found)
        if found == supported():
            return
        with self._migrating(), self._transaction() as transaction:
            # Read again under the lock: another process may have migrated meanwhile.
            found = version_in(transaction, has_table=self._has_table(transaction, VERSION_TABLE))
            migrate(transaction, self.name, found)

    # -- adding ------------------------------------------------------------------------------

    def add(
        self,
        request: Request[Any],
        *,
        notebook: str | None = None,
        cell_id: str | None = None,
        run_id: str | None = None,
        expires: Expires = DEFAULT_EXPIRES,
    ) -> InboxItem:
        where = _Where(notebook, cell_id, run_id)
        return self._insert([request], where, expires, request.batch_id)[0]

    def add_batch(
        self,
        requests: Sequence[Request[Any]],
        *,
        notebook: str | None = None,
        cell_id: str | None = None,
        run_id: str | None = None,
        expires: Expires = DEFAULT_EXPIRES,
    ) -> list[InboxItem]:
        if not requests:
            return []
        where = _Where(notebook, cell_id, run_id)
        return self._insert(requests, where, expires, requests[0].batch_id or new_id())

    def _insert(
        self, requests: Sequence[Request[Any]], where: _Where, expires: Expires, batch_id: str | None
    ) -> list[InboxItem]:
        expires_at = expiry_time(expires, time.time())
        items = [
            InboxItem(
                id=new_id(),
                kind=request.kind,
                asked=request.asked(),
                request_id=request.request_id,
                asked_at=request.asked_at,
                expires_at=expires_at,
                status="pending",
                tool_call_id=request.tool_call_id,
                batch_id=batch_id,
                workdir=workdir_of(request),
                approvers=request.approvers,
                notebook=where.notebook,
                cell_id=where.cell_id,
                run_id=where.run_id,
            )
            for request in requests
        ]
        with self._transaction() as transaction:
            for item in items:
                transaction.run(INSERT, row_of(item))
        for item in items:
            log.info("inbox %s: %s request %s added (expires %s)", self.name, item.kind, item.id, when(expires_at))
        return items

    # -- reading -----------------------------------------------------------------------------

    def get(self, id: str) -> InboxItem:  # noqa: A002
        with self._transaction(write=False) as transaction:
            row = transaction.run(f"{SELECT} WHERE id = ?", (id,)).fetchone()
            if row is None and len(id) >= MIN_PREFIX and set(id) <= _HEX:
                prefix = f"{id.lower()}%"
                rows = transaction.run(f"{SELECT} WHERE id LIKE ? ORDER BY asked_at LIMIT 2", (prefix,)).fetchall()
                if len(rows) > 1:
                    msg = f"more than one request of the inbox {self.name} has an id starting with {id!r}"
                    raise InboxRequestNotFound(msg, store=self.name, id=id)
                row = rows[0] if rows else None
        if row is None:
            raise self._not_found(id)
        return item_of(row, self.name).as_of(time.time())

    def items(
        self,
        *,
        status: InboxStatus | None = None,
        notebook: str | None = None,
        run_id: str | None = None,
        batch_id: str | None = None,
    ) -> list[InboxItem]:
        now = time.time()
        conditions: list[str] = []
        params: list[Any] = []
        if status == "pending":
            conditions.append(_OPEN)
            params.append(now)
        elif status == "expired":
            conditions.append("(status = 'expired' OR (status = 'pending' AND expires_at <= ?))")
            params.append(now)
        elif status is not None:
            conditions.append("status = ?")
            params.append(status)
        for column, value in (("notebook", notebook), ("run_id", run_id), ("batch_id", batch_id)):
            if value is not None:
                conditions.append(f"{column} = ?")
                params.append(value)
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._transaction(write=False) as transaction:
            rows = transaction.run(f"{SELECT}{where} ORDER BY asked_at, id", params).fetchall()
        return [item_of(row, self.name).as_of(now) for row in rows]

    def pending(
        self, *, notebook: str | None = None, run_id: str | None = None, batch_id: str | None = None
    ) -> list[InboxItem]:
        return self.items(status="pending", notebook=notebook, run_id=run_id, batch_id=batch_id)

    def matching(
        self,
        kind: str,
        asked: dict[str, Any],
        *,
        notebook: str | None = None,
        statuses: Collection[InboxStatus] = ANSWERED,
        exclude: Collection[str] = (),
    ) -> list[InboxItem]:
        query = f"{SELECT} WHERE kind = ? AND identity = ? AND notebook {self.same} ? ORDER BY asked_at, id"
        with self._transaction(write=False) as transaction:
            rows = transaction.run(query, (kind, identity(kind, asked), notebook)).fetchall()
        now = time.time()
        found = (item_of(row, self.name).as_of(now) for row in rows)
        return [item for item in found if item.status in statuses and item.id not in exclude]

    def find_answered(
        self, request: Request[Any], *, notebook: str | None = None, exclude: Collection[str] = ()
    ) -> InboxItem | None:
        found = self.matching(request.kind, request.asked(), notebook=notebook, exclude=exclude)
        return found[0] if found else None

    # -- closing, exactly once ---------------------------------------------------------------

    def answer(self, id: str, outcome: Outcome, *, by: str | None = None) -> InboxItem:  # noqa: A002
        who = by or outcome.answered_by_user or outcome.answered_by
        text = json_text(outcome)
        now = time.time()
        with self._transaction() as transaction:
            item = self._exact(transaction, id)
            kind = kind_named(item.kind)
            if kind is not None and not isinstance(outcome, kind.outcome_type):
                expected, given = kind.outcome_type.__name__, type(outcome).__name__
                msg = f"a {item.kind} request is answered with a {expected}, not a {given}"
                raise TypeError(msg)
            won = self._close(transaction, id, "answered", by=who, now=now, outcome=text)
            if not won:
                item = self._exact(transaction, id)
        if not won:
            raise closed_error(item.as_of(now), "answered", self.name)
        log.info("inbox %s: request %s answered by %s", self.name, id, who)
        return replace(item, status="answered", answered_by=who, answered_at=now, outcome=outcome)

    def cancel(self, id: str, *, by: str | None = None) -> InboxItem:  # noqa: A002
        now = time.time()
        with self._transaction() as transaction:
            won = self._close(transaction, id, "cancelled", by=by, now=now, outcome=None)
            item = self._exact(transaction, id).as_of(now)
        if item.status == "answered":
            raise closed_error(item, "cancelled", self.name)
        if won:
            log.info("inbox %s: request %s cancelled", self.name, id)
        return item

    def expire(self, now: float | None = None) -> list[str]:
        now = time.time() if now is None else now
        past = "status = 'pending' AND expires_at <= ?"
        with self._transaction() as transaction:
            query = f"SELECT id FROM {TABLE} WHERE {past} ORDER BY asked_at{self.for_update}"  # noqa: S608
            ids = [str(row[0]) for row in transaction.run(query, (now,)).fetchall()]
            if ids:
                transaction.run(f"UPDATE {TABLE} SET status = 'expired', answered_at = expires_at WHERE {past}", (now,))  # noqa: S608
                for id_ in ids:
                    self._notify(transaction, id_)
        for id_ in ids:
            log.info("inbox %s: request %s expired", self.name, id_)
        return ids

    def _close(
        self,
        transaction: Transaction,
        id: str,  # noqa: A002
        status: InboxStatus,
        *,
        by: str | None,
        now: float,
        outcome: str | None,
    ) -> bool:
        """Close ``id`` if it is still open; True if this call did (it won any race)."""
        update = (
            f"UPDATE {TABLE} SET status = ?, answered_by = ?, answered_at = ?, outcome = ? WHERE id = ? AND {_OPEN}"  # noqa: S608
        )
        won = transaction.run(update, (status, by, now, outcome, id, now)).rowcount == 1
        if won:
            self._notify(transaction, id)
        return won

    # -- waiting -----------------------------------------------------------------------------

    def wait_answered(
        self,
        id: str,  # noqa: A002
        timeout: float | None = None,
        *,
        stop: threading.Event | None = None,
    ) -> InboxItem:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._watch(id, stop) as changed:
            with self._transaction(write=False) as transaction:
                item = self._exact(transaction, id)
            while True:
                now = time.time()
                item = item.as_of(now)
                left = float("inf") if deadline is None else deadline - time.monotonic()
                if not item.pending or left <= 0 or (stop is not None and stop.is_set()):
                    return item
                if item.expires_at is not None:
                    left = min(left, max(item.expires_at - now, 0.0) + 0.001)
                if changed(left):
                    with self._transaction(write=False) as transaction:
                        item = self._exact(transaction, id)

    # -- rows --------------------------------------------------------------------------------

    # -- paused runs -----------------------------------------------------------------------------

    def keep_run(self, key: str, state: str) -> None:
        with self._transaction() as transaction:
            transaction.run(f"DELETE FROM {RUNS} WHERE key = ?", (key,))  # noqa: S608 - constant names
            transaction.run(f"INSERT INTO {RUNS} (key, state, kept_at) VALUES (?, ?, ?)", (key, state, time.time()))  # noqa: S608
        log.info("inbox %s: a paused run kept (%s)", self.name, key)

    def run_state(self, key: str) -> str | None:
        with self._transaction(write=False) as transaction:
            row = transaction.run(f"SELECT state FROM {RUNS} WHERE key = ?", (key,)).fetchone()  # noqa: S608
        return None if row is None else str(row[0])

    def forget_run(self, key: str) -> None:
        with self._transaction() as transaction:
            transaction.run(f"DELETE FROM {RUNS} WHERE key = ?", (key,))  # noqa: S608

    def _exact(self, transaction: Transaction, id: str) -> InboxItem:  # noqa: A002
        row = transaction.run(f"{SELECT} WHERE id = ?", (id,)).fetchone()
        if row is None:
            raise self._not_found(id)
        return item_of(row, self.name)

    def _not_found(self, id: str) -> InboxRequestNotFound:  # noqa: A002
        msg = f"the inbox {self.name} has no request {id!r}"
        return InboxRequestNotFound(msg, store=self.name, id=id)
