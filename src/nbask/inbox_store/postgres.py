"""The inbox in PostgreSQL (a ``postgresql://`` URL) through psycopg 3, imported when a store is
first opened: one connection per store, reused by its calls; a conditional update decides each
race; a wait sleeps on ``LISTEN`` and is woken by the ``NOTIFY`` sent in the transaction that
closes the request.

What a wait costs: one connection held open for the wait, no query while nothing happens, and
one read of the request's row per notification about it (others' are ignored).
"""

from __future__ import annotations

import math
import os
import threading
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from ..errors import InboxLocked, InboxUnavailable
from .schema import Rows, Transaction
from .sql import Changed, SqlInbox

if TYPE_CHECKING:
    import psycopg

#: The channel of the notifications a closed request sends (its id as the payload).
CHANNEL: Final = "nbask_inbox"
#: How psycopg comes with nbask.
EXTRA: Final = 'pip install "nbask[postgres]"'
#: The advisory lock two processes migrating one database take in turn ("nbask" in ASCII).
_MIGRATION_LOCK: Final = 0x6E6261736B
CONNECT_TIMEOUT: Final = 10.0
LOCK_TIMEOUT: Final = 5.0


def redact(url: str) -> str:
    """``url`` without its password (in the user part, or a ``password=`` parameter), for messages."""
    parts = urllib.parse.urlsplit(url)
    userinfo, at, hosts = parts.netloc.rpartition("@")
    shown = f"{parts.scheme}://{userinfo.split(':', 1)[0]}{at}{hosts}{parts.path}"
    pairs = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    kept = [(key, value) for key, value in pairs if key.lower() != "password"]
    query = parts.query if len(kept) == len(pairs) else urllib.parse.urlencode(kept)
    return shown + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _psycopg(store: str) -> ModuleType:
    try:
        import psycopg  # noqa: PLC0415 - only a PostgreSQL inbox needs it
    except ImportError:
        msg = f"the inbox {store} is a PostgreSQL database, which nbask reaches through psycopg 3: {EXTRA}"
        raise InboxUnavailable(msg, store=store) from None
    return psycopg


class _Transaction:
    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self._cursor = connection.cursor()

    def run(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        # The shared SQL writes its parameters as "?" and holds no "%": psycopg's are "%s".
        return self._cursor.execute(sql.replace("?", "%s"), params)


class PostgresInbox(SqlInbox):
    """The inbox in the PostgreSQL database at ``url`` (its tables made there if missing).
    ``connect_timeout``: seconds to reach the server; ``lock_timeout``: seconds a call waits for
    another session's lock before ``nbask.errors.InboxLocked``; ``wait_slice``: how often a wait given
    a ``stop`` event looks at it.
    """

    same = "IS NOT DISTINCT FROM"
    for_update = " FOR UPDATE"

    def __init__(
        self,
        url: str,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        lock_timeout: float = LOCK_TIMEOUT,
        wait_slice: float = 0.5,
    ) -> None:
        self.url = url
        self.name = redact(url)
        self.connect_timeout = connect_timeout
        self.lock_timeout = lock_timeout
        self.wait_slice = wait_slice
        self._psycopg = _psycopg(self.name)
        self._lock = threading.Lock()
        self._connection: psycopg.Connection[Any] | None = None
        self._inherited: list[psycopg.Connection[Any]] = []
        self._owner = os.getpid()
        self._open()

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            connection: psycopg.Connection[Any] = self._psycopg.connect(
                self.url, autocommit=True, connect_timeout=max(1, math.ceil(self.connect_timeout))
            )
            connection.execute(
                "SELECT set_config('lock_timeout', %s, false)", (f"{round(self.lock_timeout * 1000)}ms",)
            )
        except self._psycopg.Error as error:
            raise self._unavailable("cannot reach", error) from None
        return connection

    def _unavailable(self, what: str, error: Exception) -> InboxUnavailable:
        # The driver's first line says why (refused, unknown host, no such database); it never
        # holds the password, but the URL is named as redacted all the same.
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        password = urllib.parse.urlsplit(self.url).password
        if password:
            reason = reason.replace(password, "***")
        return InboxUnavailable(f"{what} the inbox {self.name}: {reason}", store=self.name)

    def _current(self) -> psycopg.Connection[Any]:
        """The store's connection, made again if it broke, was closed, or is a forked parent's."""
        connection = self._connection
        if connection is not None and self._owner != os.getpid():
            # A forked parent's: kept, never closed or collected here (closing would end the
            # parent's session on the socket both share).
            self._inherited.append(connection)
            connection = None
        if connection is None or connection.closed or connection.broken:
            connection = self._connection = self._connect()
            self._owner = os.getpid()
        return connection

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[Transaction]:
        del write  # every transaction may write; the conditional updates decide the races
        errors = self._psycopg.errors
        with self._lock:
            try:
                with ExitStack() as stack:
                    yield _Transaction(self._begin(stack))
            except errors.LockNotAvailable as error:
                msg = (
                    f"the inbox {self.name} is locked by another session (waited {self.lock_timeout:g} s: "
                    f"{str(error).strip()}); nothing was changed, try again"
                )
                raise InboxLocked(msg, store=self.name) from None
            except self._psycopg.OperationalError as error:
                self._drop()
                raise self._unavailable("lost", error) from None
            except self._psycopg.Error as error:
                raise self._unavailable("cannot use", error) from None

    def _begin(self, stack: ExitStack) -> psycopg.Connection[Any]:
        """Begin a transaction on the store's connection, made again once if the server closed
        it since its last use (a restart, an idle timeout): nothing of the transaction ran yet.
        """
        connection = self._current()
        try:
            stack.enter_context(connection.transaction())
        except self._psycopg.OperationalError:
            self._drop()
            connection = self._current()
            stack.enter_context(connection.transaction())
        return connection

    def _drop(self) -> None:
        """Forget the store's connection (closed): the next call makes a new one."""
        connection, self._connection = self._connection, None
        if connection is not None and self._owner == os.getpid():
            connection.close()

    def _has_table(self, transaction: Transaction, table: str) -> bool:
        row = transaction.run("SELECT to_regclass(?) IS NOT NULL", (table,)).fetchone()
        return bool(row[0])

    @contextmanager
    def _migrating(self) -> Iterator[None]:
        # A session lock taken before the migration's transaction begins, not inside it: a
        # transaction begun before another process's commit may still find the tables missing
        # (PostgreSQL's catalog cache is refreshed when a transaction starts), then fail to make them.
        with self._lock:
            connection = self._current()
            try:
                connection.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
            except self._psycopg.Error as error:
                self._drop()
                raise self._unavailable("cannot use", error) from None
        try:
            yield
        finally:
            with self._lock:
                if self._connection is connection and not connection.broken:
                    connection.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))

    def _notify(self, transaction: Transaction, id: str) -> None:  # noqa: A002
        transaction.run("SELECT pg_notify(?, ?)", (CHANNEL, id))

    @contextmanager
    def _watch(self, id: str, stop: threading.Event | None) -> Iterator[Changed]:  # noqa: A002
        connection = self._connect()  # its own: it sits in LISTEN for the whole wait
        try:
            connection.execute(f"LISTEN {CHANNEL}")

            def changed(seconds: float) -> bool:
                span = seconds if stop is None else min(seconds, self.wait_slice)
                try:
                    for note in connection.notifies(timeout=None if math.isinf(span) else span, stop_after=1):
                        return bool(note.payload == id)
                except self._psycopg.Error as error:
                    raise self._unavailable("lost", error) from None
                return False

            yield changed
        except self._psycopg.Error as error:
            raise self._unavailable("lost", error) from None
        finally:
            connection.close()
