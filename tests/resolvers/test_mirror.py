"""``inbox_mirror``: every request a person is asked also waits in the inbox, as ``inbox=True``
makes one do (nbask's server extension turns it on for its kernels); an inbox out of reach then
leaves the request asked where it is, instead of failing the call.
"""

from __future__ import annotations

import logging
import pathlib

from inbox_store.requests import outcome_of, question

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
