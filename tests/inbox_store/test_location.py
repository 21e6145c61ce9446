"""Which store is the inbox: configure(inbox=...), else NBASK_INBOX, else the per-user file,
made readable by its owner only.
"""

from __future__ import annotations

import pathlib
import stat
import sys

import pytest

import nbask
from nbask import config
from nbask.inbox_store import PostgresInbox, SqliteInbox, default_path, location_in_force, open_inbox


def test_the_default_is_a_file_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "nbask" / "inbox.sqlite3"
    assert location_in_force() == default_path()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert default_path() == tmp_path / ".local" / "share" / "nbask" / "inbox.sqlite3"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_the_default_store_is_readable_by_its_owner_only(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    store = open_inbox()
    assert isinstance(store, SqliteInbox)
    assert store.path == tmp_path / "nbask" / "inbox.sqlite3"
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700


def test_nbask_inbox_names_a_file_or_a_postgres_url(monkeypatch, tmp_path):
    monkeypatch.setenv("NBASK_INBOX", str(tmp_path / "mine.sqlite3"))
    assert location_in_force() == tmp_path / "mine.sqlite3"
    assert config.value_of("inbox") == (tmp_path / "mine.sqlite3", "NBASK_INBOX")
    assert config.settings().inbox == tmp_path / "mine.sqlite3"
    assert open_inbox().name == str(tmp_path / "mine.sqlite3")
    monkeypatch.setenv("NBASK_INBOX", "postgresql://ana@db.example/inbox")
    assert location_in_force() == "postgresql://ana@db.example/inbox"


def test_configure_wins_over_the_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("NBASK_INBOX", str(tmp_path / "env.sqlite3"))
    nbask.configure(inbox=tmp_path / "set.sqlite3")
    assert location_in_force() == tmp_path / "set.sqlite3"
    nbask.configure(inbox="~/x.sqlite3")
    assert location_in_force() == pathlib.Path("~/x.sqlite3").expanduser()
    nbask.configure(inbox=None)
    assert location_in_force() == tmp_path / "env.sqlite3"


def test_another_url_is_refused_naming_the_setting(monkeypatch):
    monkeypatch.setenv("NBASK_INBOX", "mysql://ana:pw@db/inbox")
    with pytest.raises(ValueError, match=r"NBASK_INBOX names a mysql:// URL") as raised:
        location_in_force()
    assert "pw" not in str(raised.value)
    with pytest.raises(ValueError, match=r"inbox names a redis:// URL"):
        nbask.configure(inbox="redis://x")


def test_a_postgres_url_opens_postgres(postgres_url):
    nbask.configure(inbox=postgres_url)
    store = open_inbox()
    assert isinstance(store, PostgresInbox)
    assert store.name == postgres_url
    store.close()
