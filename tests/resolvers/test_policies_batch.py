"""A batch (requests shown together) under the headless policies and replay: each request is
decided on its own, as if asked alone, and the history keeps them with one batch id.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import nbask
from nbask.core.lifecycle import Resolution
from nbask.core.manager import manager
from nbask.kinds import QuestionRequest
from nbask.kinds.approval.request import approval_request
from nbask.models import one_question_set
from nbask.resolvers.run import run_requests, run_requests_sync


def batch() -> list:
    question = QuestionRequest(question_set=one_question_set("Which database?", ["SQLite", "DuckDB (Recommended)"]))
    return [approval_request("Drop table t1", "DROP TABLE t1"), question, approval_request("Drop t2", "DROP t2")]


@pytest.fixture(autouse=True)
def clean():
    manager().clear_history()
    yield
    nbask.configure(policy=None, replay_file=None)
    manager().clear_history()


@pytest.mark.parametrize("blocking", [True, False], ids=["run_requests_sync", "run_requests"])
def test_recommended_decides_each_request_of_a_batch_and_approves_nothing(blocking: bool):
    nbask.configure(policy="recommended")
    outcomes = run_requests_sync(batch()) if blocking else asyncio.run(run_requests(batch()))
    assert [o.answered_by for o in outcomes] == ["policy"] * 3
    assert [outcomes[0].decision, outcomes[2].decision] == ["reject", "reject"]
    assert outcomes[1].answers == {"Which database?": "DuckDB (Recommended)"}
    batch_ids = {entry.outcome.batch_id for entry in nbask.history()}
    assert len(batch_ids) == 1
    assert None not in batch_ids
    assert manager().pending is None


def test_replay_gives_each_request_of_a_batch_its_recorded_outcome(tmp_path: Path):
    nbask.configure(policy="recommended")
    run_requests_sync(batch())
    recording = nbask.save_history(tmp_path / "batch.jsonl")
    manager().clear_history()
    nbask.configure(policy="replay", replay_file=recording)
    outcomes = asyncio.run(run_requests(batch()))
    assert [o.answered_by for o in outcomes] == ["replay"] * 3
    assert [o.decided_by for o in outcomes] == ["policy"] * 3
    assert outcomes[1].answers == {"Which database?": "DuckDB (Recommended)"}


def test_a_replay_miss_in_a_batch_raises_and_records_nothing_unasked(tmp_path: Path):
    nbask.configure(policy="recommended")
    run_requests_sync(batch()[:1])
    recording = nbask.save_history(tmp_path / "short.jsonl")
    manager().clear_history()
    nbask.configure(policy="replay", replay_file=recording)
    with pytest.raises(nbask.ReplayMissing):
        run_requests_sync(batch())
    assert [entry.kind for entry in nbask.history()] == ["approval"]  # the one replayed, nothing else
    assert manager().pending is None


def test_without_queue_a_second_request_is_still_refused():
    nbask.configure(policy="recommended")
    pending = Resolution(approval_request("Drop table t1", "DROP TABLE t1"))
    manager()._claim_or_raise(pending, queue=False)
    try:
        with pytest.raises(nbask.InteractionPending, match="queue=True"):
            nbask.approve_sync("Drop table t2", "DROP TABLE t2")
    finally:
        manager()._release(pending)


def test_each_batch_has_an_id_of_its_own():
    nbask.configure(policy="recommended")
    run_requests_sync(batch())
    run_requests_sync(batch())
    ids = [entry.outcome.batch_id for entry in nbask.history()]
    assert ids[:3] == [ids[0]] * 3
    assert ids[3:] == [ids[3]] * 3
    assert ids[0] != ids[3]
