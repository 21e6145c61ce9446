"""``inbox_mirror``: every request a person is asked also waits in the inbox, as ``inbox=True``
makes one do (nbask's server extension turns it on for its kernels); an inbox out of reach then
leaves the request asked where it is, instead of failing the call.
"""

from __future__ import annotations

import logging
import pathlib
import subprocess
import sys

from inbox_store.requests import outcome_of, question
from support.person import Person

import nbask
from nbask.inbox_store import open_inbox
from nbask.resolvers import run


def test_with_the_setting_each_request_waits_in_the_inbox_until_it_is_answered_here(tmp_path: pathlib.Path):
    where = tmp_path / "inbox.sqlite3"
    nbask.configure(inbox=where, inbox_mirror=True)
    request = question()
    resolution = run._resolution(request, inbox=False)  # the step that mirrors
    store = open_inbox(where)
    [item] = store.pending()
    assert item.request_id == request.request_id
    resolution.settle(outcome_of(request))
    assert store.get(item.id).status == "answered"


def test_with_the_setting_a_batch_waits_in_the_inbox_too(tmp_path: pathlib.Path, monkeypatch):
    where = tmp_path / "inbox.sqlite3"
    nbask.configure(inbox=where, inbox_mirror=True)
    store = open_inbox(where)
    seen: list[list[str]] = []

    class Looking(Person):
        """Answers each request after noting what waits in the inbox at that moment."""

        def resolve_sync(self, resolution):
            seen.append(sorted(item.request_id for item in store.pending()))
            return super().resolve_sync(resolution)

    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Looking())
    requests = [question("Which database?"), question("Which cache?")]
    run.run_requests_sync(requests)
    ids = sorted(request.request_id for request in requests)
    assert seen[0] == ids  # both wait in the inbox while the first is answered
    assert store.pending() == []
    assert sorted(item.request_id for item in store.items()) == ids
    assert {item.status for item in store.items()} == {"answered"}


def test_what_still_waits_when_the_process_ends_is_cancelled_in_the_inbox(tmp_path: pathlib.Path):
    where = tmp_path / "inbox.sqlite3"
    script = (
        "import nbask\n"
        "from nbask.resolvers import run\n"
        "from inbox_store.requests import question\n"
        f"nbask.configure(inbox={str(where)!r}, inbox_mirror=True)\n"
        "run._resolution(question(), inbox=False)\n"  # mirrored, never answered: the process ends
    )
    tests = pathlib.Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tests, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    [item] = open_inbox(where).items()
    assert item.status == "cancelled"


def test_without_it_nothing_is_kept(tmp_path: pathlib.Path):
    where = tmp_path / "inbox.sqlite3"
    nbask.configure(inbox=where)
    run._resolution(question(), inbox=False)  # the step that mirrors
    assert open_inbox(where).items() == []


def test_an_inbox_out_of_reach_leaves_the_request_to_its_cell_and_says_why(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the inbox's folder would be")
    monkeypatch.setenv("NBASK_INBOX_MIRROR", "1")
    nbask.configure(inbox=blocker / "inbox.sqlite3")
    with caplog.at_level(logging.WARNING):
        resolution = run._resolution(question(), inbox=False)  # the step that mirrors
    assert not resolution.done
    assert "is not mirrored in the inbox" in caplog.text
