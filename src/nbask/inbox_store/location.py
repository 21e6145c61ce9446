"""Where the inbox is, and opening it there: the store ``configure(inbox=...)`` or ``NBASK_INBOX``
names (a SQLite file's path, or a ``postgresql://`` URL), else the per-user SQLite file.
"""

from __future__ import annotations

import os
import pathlib
import sys

from .. import config
from .postgres import PostgresInbox
from .sqlite import SqliteInbox
from .store import InboxStore

FILE_NAME = "inbox.sqlite3"


def default_path() -> pathlib.Path:
    r"""The per-user inbox: ``$XDG_DATA_HOME/nbask/inbox.sqlite3`` where that variable is set,
    else ``~/.local/share/nbask/`` (Linux and other Unix), ``~/Library/Application Support/nbask/``
    (macOS) or ``%LOCALAPPDATA%\nbask\`` (Windows).
    """
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and pathlib.Path(xdg).is_absolute():  # the XDG rule: a relative value is ignored
        base = pathlib.Path(xdg)
    elif sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA", "")
        base = pathlib.Path(local) if local else pathlib.Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = pathlib.Path.home() / "Library" / "Application Support"
    else:
        base = pathlib.Path.home() / ".local" / "share"
    return base / "nbask" / FILE_NAME


def location_in_force() -> pathlib.Path | str:
    """The inbox in force: what ``configure(inbox=...)`` set, else ``NBASK_INBOX``, else
    ``default_path()``; a URL is returned as text, a file as a path.
    """
    where: pathlib.Path | str | None = config.value_of("inbox")[0]
    return default_path() if where is None else where


def open_inbox(location: str | os.PathLike[str] | None = None) -> InboxStore:
    """The inbox at ``location`` (a SQLite file's path or a ``postgresql://`` URL; None: the one
    in force), its tables made or migrated. Raises ``nbask.errors.InboxUnavailable`` when it cannot be
    used (a damaged file, a server out of reach, psycopg not installed), ``nbask.errors.InboxSchemaTooNew``
    for a store of a newer nbask.
    """
    where = location_in_force() if location is None else config.inbox_location(os.fspath(location), "location")
    if isinstance(where, str):
        return PostgresInbox(where)
    return SqliteInbox(where)
