"""The inbox suite's stores: every behaviour test runs on a SQLite file and on a real PostgreSQL
server, started once for the session on a throwaway data directory (a database of its own per
test) and stopped by its pid at the end.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import pwd
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

from nbask.inbox_store import InboxStore, open_inbox

INSTALL_HINT = "apt-get install postgresql"


def _server_programs(debian_root: pathlib.Path = pathlib.Path("/usr/lib/postgresql")) -> pathlib.Path:
    """The folder of initdb and postgres: $NBASK_PG_BIN, the newest Debian install, or PATH."""
    candidates = [pathlib.Path(os.environ["NBASK_PG_BIN"])] if os.environ.get("NBASK_PG_BIN") else []
    debian = sorted(debian_root.glob("*/bin"), key=lambda path: int(path.parent.name))
    candidates += reversed(debian)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(pathlib.Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    pytest.fail(
        f"the inbox tests run a real PostgreSQL server, and its programs (initdb, postgres) are not installed: "
        f"{INSTALL_HINT} (or set NBASK_PG_BIN to the folder that holds them)"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    port: int
    process: subprocess.Popen[bytes]
    log: pathlib.Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://nbask@127.0.0.1:{self.port}/{database}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    programs = _server_programs()
    root = pathlib.Path(tempfile.mkdtemp(prefix="nbask-pg-"))
    # initdb and postgres refuse to run as root (a server must not own the whole machine), so as
    # root both run as "nobody", who owns the throwaway directory; as anyone else, as themselves.
    as_user: dict[str, Any] = {}
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(root, nobody.pw_uid, nobody.pw_gid)
        as_user = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
    data = root / "data"
    made = subprocess.run(
        [programs / "initdb", "-D", data, "-U", "nbask", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
        cwd=root,
        capture_output=True,
        text=True,
        **as_user,
    )
    assert made.returncode == 0, f"initdb failed:\n{made.stdout}\n{made.stderr}"
    port = _free_port()
    log = root / "server.log"
    with log.open("wb") as out:
        # Durability is not under test here: no fsync keeps the suite fast.
        settings = ["listen_addresses=127.0.0.1", "fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        command = [programs / "postgres", "-D", data, "-p", str(port), "-k", root]
        command += [part for setting in settings for part in ("-c", setting)]
        process = subprocess.Popen(command, cwd=root, stdout=out, stderr=subprocess.STDOUT, **as_user)
    server = PostgresServer(port, process, log)
    try:
        _wait_until_up(server)
        yield server
    finally:
        process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(root, ignore_errors=True)


def _wait_until_up(server: PostgresServer) -> None:
    deadline = time.monotonic() + 30
    while not _accepts(server):
        if server.process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"PostgreSQL did not start:\n{server.log.read_text(errors='replace')}")
        time.sleep(0.05)


def _accepts(server: PostgresServer) -> bool:
    try:
        psycopg.connect(server.url(), connect_timeout=1).close()
    except psycopg.OperationalError:
        return False
    return True


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh schema of the session's server (its URL sets the search path to it), dropped after
    the test: a schema is made in a moment, a database in a second or more.
    """
    name = f"inbox_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {name}")
    yield f"{postgres_server.url()}?options=-csearch_path%3D{name}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: pathlib.Path) -> str:
    """Where a test's inbox is: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "inbox.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(location: str) -> Iterator[InboxStore]:
    opened = open_inbox(location)
    yield opened
    opened.close()


def run_sql(location: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on the store's database directly (SQLite's "?" parameters)."""
    if location.startswith("postgresql://"):
        with psycopg.connect(location, autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with contextlib.closing(sqlite3.connect(location, isolation_level=None)) as connection:
        return connection.execute(sql, params).fetchall()
