"""The inbox's tables and their versions: each migration takes a store one version up, and a
store of a version newer than this nbask knows is refused, never read or changed.

The version is one row in ``nbask_inbox_schema``. A new version appends a ``Migration`` here;
its statements run in one transaction with the version's update, under the store's write lock,
so two processes opening an old store at once migrate it once. The SQL is what SQLite and
PostgreSQL both read: text, integers and double precision (Unix times, as the history keeps).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import InboxSchemaTooNew

log = logging.getLogger("nbask.inbox_store")

VERSION_TABLE = "nbask_inbox_schema"
TABLE = "nbask_inbox"
#: A framework's paused run, kept for the next run of the same code (``keep_run``).
RUNS = "nbask_inbox_runs"


class Rows(Protocol):
    """What a statement gives back (a DB-API cursor)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Transaction(Protocol):
    """Runs statements in one open transaction; parameters are ``?`` in the SQL."""

    def run(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...


@dataclass(frozen=True)
class Migration:
    """The statements that take a store from ``version - 1`` to ``version``."""

    version: int
    does: str
    statements: tuple[str, ...]


#: Every migration, in order; the last one's version is the one this nbask writes.
MIGRATIONS: list[Migration] = [
    Migration(
        1,
        "the base: the schema version and the requests",
        (
            f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)",
            f"""CREATE TABLE {TABLE} (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                asked TEXT NOT NULL,
                identity TEXT NOT NULL,
                request_id TEXT NOT NULL,
                batch_id TEXT,
                notebook TEXT,
                cell_id TEXT,
                run_id TEXT,
                tool_call_id TEXT,
                workdir TEXT,
                asked_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION,
                status TEXT NOT NULL,
                answered_by TEXT,
                answered_at DOUBLE PRECISION,
                outcome TEXT
            )""",
            f"CREATE INDEX {TABLE}_status ON {TABLE} (status, asked_at)",
            f"CREATE INDEX {TABLE}_identity ON {TABLE} (kind, identity)",
            f"CREATE INDEX {TABLE}_batch ON {TABLE} (batch_id)",
        ),
    ),
    Migration(
        2,
        "paused runs: a framework's state, kept for the next run of the same code",
        (f"CREATE TABLE {RUNS} (key TEXT PRIMARY KEY, state TEXT NOT NULL, kept_at DOUBLE PRECISION NOT NULL)",),
    ),
    Migration(
        3,
        "approvers: who alone may answer a request (JSON list of usernames; NULL: anyone)",
        (f"ALTER TABLE {TABLE} ADD COLUMN approvers TEXT",),
    ),
]


def supported() -> int:
    """The schema version this nbask reads and writes."""
    return MIGRATIONS[-1].version


def version_in(transaction: Transaction, *, has_table: bool) -> int:
    """The store's schema version: 0 for a store with no tables yet."""
    if not has_table:
        return 0
    row = transaction.run(f"SELECT version FROM {VERSION_TABLE}").fetchone()  # noqa: S608 - a constant name
    return int(row[0]) if row is not None else 0


def refuse_newer(store: str, found: int) -> None:
    """Raise ``InboxSchemaTooNew`` if ``found`` is a version this nbask does not know."""
    latest = supported()
    if found > latest:
        msg = (
            f"the inbox store {store} has schema version {found}, written by a newer nbask; this nbask "
            f"reads version {latest} at most and leaves the store as it is: upgrade nbask "
            "(pip install -U nbask) to use it"
        )
        raise InboxSchemaTooNew(msg, store=store, found=found, supported=latest)


def migrate(transaction: Transaction, store: str, found: int) -> int:
    """Take the store from version ``found`` to ``supported()`` inside ``transaction`` (which
    holds the store's write lock); returns the version it is at now.
    """
    refuse_newer(store, found)
    latest = supported()
    for migration in MIGRATIONS:
        if migration.version > found:
            for statement in migration.statements:
                transaction.run(statement)
            log.info("inbox %s: schema version %d (%s)", store, migration.version, migration.does)
    if found == 0:
        transaction.run(f"INSERT INTO {VERSION_TABLE} (version) VALUES (?)", (latest,))  # noqa: S608
    elif latest > found:
        transaction.run(f"UPDATE {VERSION_TABLE} SET version = ?", (latest,))  # noqa: S608
    return latest
