"""The schema's version: a new store is made at this nbask's version, an older one migrated with
what it holds, and a newer one refused, named with both versions, and left as it is.
"""

from __future__ import annotations

import pytest

from nbask.errors import InboxSchemaTooNew, InboxUnavailable
from nbask.inbox_store import open_inbox, schema
from nbask.inbox_store.postgres import redact

from .conftest import run_sql
from .requests import question


def test_a_new_store_is_made_at_this_version(store, location):
    assert schema.supported() == 3
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(3,)]
    open_inbox(location).close()  # opening it again changes nothing
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(3,)]


def test_a_store_of_a_newer_nbask_is_refused_and_left_as_it_is(store, location):
    item = store.add(question())
    store.close()
    run_sql(location, "UPDATE nbask_inbox_schema SET version = 7")
    with pytest.raises(InboxSchemaTooNew) as raised:
        open_inbox(location)
    error = raised.value
    name = redact(location) if location.startswith("postgresql://") else location
    assert isinstance(error, InboxUnavailable)
    assert (error.found, error.supported, error.store) == (7, 3, name)
    assert f"the inbox store {name} has schema version 7" in str(error)
    assert "reads version 3 at most" in str(error)
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(7,)]
    assert run_sql(location, "SELECT id, status FROM nbask_inbox") == [(item.id, "pending")]


def test_a_version_1_store_is_migrated_to_keep_paused_runs_keeping_its_requests(location, monkeypatch):
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])  # an nbask of schema version 1
    open_inbox(location).close()
    item = written_by_version_1(location)
    monkeypatch.undo()
    migrated = open_inbox(location)
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(3,)]
    assert [found.id for found in migrated.pending()] == [item]
    migrated.keep_run("langgraph:nightly", '{"paused": true}')
    assert migrated.run_state("langgraph:nightly") == '{"paused": true}'
    migrated.close()


def written_by_version_1(location):
    """A request as an nbask of schema version 1 or 2 wrote it: its row without ``approvers``."""
    item = question()
    row = (item.request_id, item.kind, item.asked_json(), "identity", item.request_id, item.asked_at, "pending")
    sql = (
        "INSERT INTO nbask_inbox (id, kind, asked, identity, request_id, asked_at, status) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    run_sql(location, sql, row)
    return item.request_id


def test_a_version_2_store_gains_approvers_keeping_its_requests(location, monkeypatch):
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:2])  # an nbask of schema version 2
    open_inbox(location).close()
    kept = written_by_version_1(location)
    monkeypatch.undo()
    migrated = open_inbox(location)
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(3,)]
    [found] = migrated.pending()
    assert (found.id, found.approvers) == (kept, None)
    asked = question()
    asked.approvers = ("alice", "bob")
    added = migrated.add(asked)
    assert migrated.get(added.id).approvers == ("alice", "bob")
    assert migrated.get(added.id).asked_again().approvers == ("alice", "bob")
    migrated.close()


def test_an_older_store_is_migrated_keeping_what_it_holds(store, location, monkeypatch):
    item = store.add(question())
    store.close()
    later = schema.Migration(4, "a column for a later version", ("ALTER TABLE nbask_inbox ADD COLUMN seen_by TEXT",))
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, later])
    migrated = open_inbox(location)
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(4,)]
    assert run_sql(location, "SELECT id, seen_by FROM nbask_inbox") == [(item.id, None)]
    assert [found.id for found in migrated.pending()] == [item.id]
    migrated.close()
    monkeypatch.undo()  # this nbask again: the store is of a newer one now
    with pytest.raises(InboxSchemaTooNew, match="has schema version 4"):
        open_inbox(location)
