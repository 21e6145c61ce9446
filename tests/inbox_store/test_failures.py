"""A store that cannot be used is a clear error naming it (a PostgreSQL URL without its password),
and nothing pending is lost: a damaged SQLite file, a locked store, a server out of reach, a
connection the server dropped, psycopg missing.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys

import psycopg
import pytest

from nbask.errors import InboxError, InboxLocked, InboxUnavailable, NbaskError
from nbask.inbox_store import PostgresInbox, SqliteInbox, open_inbox
from nbask.inbox_store.postgres import redact

from .conftest import _free_port, _server_programs, run_sql
from .requests import outcome_of, question


def test_a_damaged_sqlite_file_is_named_and_left_as_it_is(tmp_path):
    path = tmp_path / "inbox.sqlite3"
    damaged = b"this is not a SQLite database\n" * 200
    path.write_bytes(damaged)
    with pytest.raises(InboxUnavailable) as raised:
        open_inbox(path)
    assert isinstance(raised.value, NbaskError)
    assert raised.value.store == str(path)
    assert f"the inbox {path} is not a SQLite database or is damaged" in str(raised.value)
    assert path.read_bytes() == damaged


def test_a_sqlite_store_damaged_after_it_was_opened_is_an_error_naming_it(tmp_path):
    path = tmp_path / "inbox.sqlite3"
    store = open_inbox(path)
    store.add(question())
    path.write_bytes(b"\0" * 100 + path.read_bytes()[100:])  # its header gone
    with pytest.raises(InboxUnavailable, match=str(path)):
        store.pending()


def test_a_locked_sqlite_store_is_an_error_and_nothing_pending_is_lost(tmp_path):
    path = tmp_path / "inbox.sqlite3"
    store = SqliteInbox(path, busy_timeout=0.2)
    request = question()
    item = store.add(request)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(InboxLocked) as raised:
            store.add(question("Another?"))
        assert f"the inbox {path} is locked by another process" in str(raised.value)
        with pytest.raises(InboxLocked):
            store.answer(item.id, outcome_of(request))
        other.execute("ROLLBACK")
    assert [found.id for found in store.pending()] == [item.id]
    assert store.answer(item.id, outcome_of(request)).status == "answered"


def test_a_locked_postgres_store_is_an_error_and_nothing_pending_is_lost(postgres_url):
    store = PostgresInbox(postgres_url, lock_timeout=0.2)
    request = question()
    item = store.add(request)
    with psycopg.connect(postgres_url) as other:
        other.execute("LOCK TABLE nbask_inbox IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(InboxLocked) as raised:
            store.answer(item.id, outcome_of(request))
        assert f"the inbox {postgres_url} is locked by another session" in str(raised.value)
        other.rollback()
    assert [found.id for found in store.pending()] == [item.id]
    assert store.answer(item.id, outcome_of(request)).status == "answered"
    store.close()


def test_an_unreachable_server_is_named_without_the_password(postgres_url):
    pending = open_inbox(postgres_url)
    item = pending.add(question())
    port = _free_port()
    url = f"postgresql://nbask:s3cret-pw@127.0.0.1:{port}/inbox?password=s3cret-pw&connect_timeout=2"
    with pytest.raises(InboxUnavailable) as raised:
        open_inbox(url)
    message = str(raised.value)
    assert "s3cret-pw" not in message
    assert raised.value.store == redact(url)
    assert f"cannot reach the inbox postgresql://nbask@127.0.0.1:{port}/inbox?connect_timeout=2: " in message
    assert "s3cret-pw" not in repr(raised.value.__cause__) + repr(raised.value.__context__)
    assert [found.id for found in pending.pending()] == [item.id]  # the store it could reach is as it was
    pending.close()


def test_a_connection_the_server_dropped_is_made_again(postgres_url):
    store = open_inbox(postgres_url)
    item = store.add(question())
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    assert [found.id for found in store.pending()] == [item.id]
    store.close()


def test_without_psycopg_a_postgres_store_names_the_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(InboxUnavailable) as raised:
        open_inbox("postgresql://ana:pw@db.example/inbox")
    assert 'pip install "nbask[postgres]"' in str(raised.value)
    assert "postgresql://ana@db.example/inbox" in str(raised.value)
    assert ":pw@" not in str(raised.value)


def test_a_folder_that_cannot_be_made_is_an_error_naming_the_store(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(InboxUnavailable, match=f"cannot open the inbox {blocker}/inbox.sqlite3"):
        open_inbox(blocker / "inbox.sqlite3")


def test_every_inbox_error_is_an_nbask_error():
    assert issubclass(InboxError, NbaskError)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ana:pw@host:5432/db", "postgresql://ana@host:5432/db"),
        ("postgresql://ana@host/db?password=pw&sslmode=require", "postgresql://ana@host/db?sslmode=require"),
        ("postgresql:///db?host=/run/postgresql", "postgresql:///db?host=/run/postgresql"),
        ("postgres://h1:5432,h2:5433/db", "postgres://h1:5432,h2:5433/db"),
    ],
)
def test_urls_are_shown_without_their_password(url, shown):
    assert redact(url) == shown


def test_without_postgresql_installed_the_suite_fails_saying_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.delenv("NBASK_PG_BIN", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(pytest.fail.Exception, match="apt-get install postgresql"):
        _server_programs(tmp_path)


def test_a_damaged_record_is_named_by_its_id_without_what_it_holds(store, location):
    item = store.add(question())
    damage = "UPDATE nbask_inbox SET status = 'answered', outcome = ? WHERE id = ?"
    run_sql(location, damage, ('{"secret answer"', item.id))
    with pytest.raises(InboxError, match=f"damaged record of request {item.id}: its outcome cannot be read") as raised:
        store.get(item.id)
    assert "secret" not in str(raised.value)
