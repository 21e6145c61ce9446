"""The inbox in a SQLite file, the default store: a connection per call, every write under
``BEGIN IMMEDIATE`` (one writer at a time across processes), and waits that notice another
process's commit by polling ``PRAGMA data_version``.

What a wait costs: one ``PRAGMA data_version`` every ``poll`` seconds (0.25 by default: a read
of the file's header, a few microseconds, no query of the table), and one read of the request's
row when it changed; an answer given elsewhere is seen within ``poll`` seconds.
"""

from __future__ import annotations

import os
import pathlib
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any, Final

from ..errors import InboxLocked, InboxUnavailable
from .schema import Rows, Transaction
from .sql import Changed, SqlInbox

#: How long a call waits for another process's write to finish before ``nbask.errors.InboxLocked``.
BUSY_TIMEOUT: Final = 5.0
#: How often a wait checks whether the file changed.
POLL: Final = 0.25


class _Transaction:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def run(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self._connection.execute(sql, params)


class SqliteInbox(SqlInbox):
    """The inbox in the SQLite file at ``path``: made if missing, readable by its owner only
    (0600, in a folder made 0700 when nbask makes it). ``busy_timeout``: seconds a call waits
    for another process's write; ``poll``: seconds between a wait's checks.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = BUSY_TIMEOUT, poll: float = POLL) -> None:
        self.path = pathlib.Path(path).expanduser().absolute()
        self.name = str(self.path)
        self.busy_timeout = busy_timeout
        self.poll = poll
        self._prepare()
        self._open()

    def close(self) -> None:
        """Nothing to let go of: each call opens and closes its own connection."""

    def _prepare(self) -> None:
        """Make the file (0600) and its folder (0700) before SQLite does, so what was asked is
        never readable by others, not even for a moment; then write-ahead logging, so a wait's
        reads never hold up a writer.
        """
        with self._errors():
            if not self.path.parent.is_dir():
                self.path.parent.mkdir(parents=True, mode=0o700)
                self.path.parent.chmod(0o700)  # the mode given to mkdir is masked by the umask
            try:
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass  # an existing store keeps the mode it has
            else:
                self.path.chmod(0o600)
            self._write_ahead_logging()

    def _write_ahead_logging(self) -> None:
        """Switch the file to write-ahead logging (it stays so). Processes opening a new file at
        the same moment all ask: each holds a read lock and wants the exclusive one, and SQLite
        refuses all but one at once, without its busy wait (it would deadlock). So the refused
        ask again until ``busy_timeout`` has passed.
        """
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                with closing(self._connect()) as connection:
                    connection.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError as error:  # noqa: PERF203 - a retry, rarely taken
                if not _busy(error) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)
            else:
                return

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the transactions are the BEGIN and COMMIT this module sends.
        return sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's and the file system's errors as ``nbask.errors.InboxError``s naming the file."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise  # a broken constraint is this module's mistake, not the file's
        except sqlite3.OperationalError as error:
            text = str(error)
            if _busy(error):
                msg = (
                    f"the inbox {self.name} is locked by another process (waited {self.busy_timeout:g} s: "
                    f"{text}); nothing was changed, try again"
                )
                raise InboxLocked(msg, store=self.name) from None
            raise InboxUnavailable(f"cannot use the inbox {self.name}: {text}", store=self.name) from None
        except sqlite3.DatabaseError as error:
            msg = (
                f"the inbox {self.name} is not a SQLite database or is damaged ({error}); nbask leaves it as "
                "it is: move it aside to start a new inbox there, or point NBASK_INBOX elsewhere"
            )
            raise InboxUnavailable(msg, store=self.name) from None
        except OSError as error:
            msg = f"cannot open the inbox {self.name}: {error.strerror or error}"
            raise InboxUnavailable(msg, store=self.name) from None

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[Transaction]:
        with self._errors(), closing(self._connect()) as connection:
            # IMMEDIATE takes the write lock at once: the read before a conditional update sees
            # what the update will see, and two writers queue instead of failing midway.
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _Transaction(connection)
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _has_table(self, transaction: Transaction, table: str) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return transaction.run(query, (table,)).fetchone() is not None

    @contextmanager
    def _watch(self, id: str, stop: threading.Event | None) -> Iterator[Changed]:  # noqa: A002, ARG002 - any commit may be id's
        with self._errors():
            connection = self._connect()
        with closing(connection):
            seen = [self._data_version(connection)]

            def changed(seconds: float) -> bool:
                end = time.monotonic() + seconds
                while True:
                    version = self._data_version(connection)
                    if version != seen[0]:
                        seen[0] = version
                        return True
                    left = end - time.monotonic()
                    if left <= 0:
                        return False
                    if stop is not None:
                        if stop.wait(min(self.poll, left)):
                            return False
                    else:
                        time.sleep(min(self.poll, left))

            yield changed

    def _data_version(self, connection: sqlite3.Connection) -> int:
        """Changes whenever another connection commits to the file (SQLite's own counter)."""
        with self._errors():
            return int(connection.execute("PRAGMA data_version").fetchone()[0])


def _busy(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    text = str(error)
    return "locked" in text or "busy" in text
