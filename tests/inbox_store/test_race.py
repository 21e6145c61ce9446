"""Exactly once, across processes: several processes answer one request at the same moment and
exactly one wins; every other is told who answered and when. Several processes opening a new
store at once make its tables once.
"""

from __future__ import annotations

from nbask.inbox_store import schema_version

from . import _workers
from ._workers import PROCESSES
from .conftest import run_sql
from .requests import question

RACERS = 5


def _results(queue, count):
    return [queue.get(timeout=60) for _ in range(count)]


def test_racing_processes_answer_a_request_exactly_once(store, location):
    item = store.add(question())
    ready = PROCESSES.Barrier(RACERS)
    results = PROCESSES.Queue()
    names = [f"person{number}" for number in range(RACERS)]
    racers = [
        PROCESSES.Process(target=_workers.answer_in_race, args=(location, item.id, name, ready, results))
        for name in names
    ]
    for racer in racers:
        racer.start()
    try:
        outcomes = _results(results, RACERS)
    finally:
        for racer in racers:
            racer.join(timeout=30)
    assert [racer.exitcode for racer in racers] == [0] * RACERS
    assert [outcome for outcome in outcomes if outcome[1] == "failed"] == []
    winners = [outcome[0] for outcome in outcomes if outcome[1] == "won"]
    assert len(winners) == 1
    answered = store.get(item.id)
    assert answered.answered_by == winners[0]
    losers = [outcome for outcome in outcomes if outcome[1] == "lost"]
    assert len(losers) == RACERS - 1
    for _, _, message, by, at in losers:
        assert f"already answered by {winners[0]} at " in message
        assert (by, at) == (winners[0], answered.answered_at)


def test_processes_opening_a_new_store_at_once_make_its_tables_once(location):
    count = 6  # enough that two ask for write-ahead logging at once in most runs
    ready = PROCESSES.Barrier(count)
    results = PROCESSES.Queue()
    openers = [PROCESSES.Process(target=_workers.open_at_once, args=(location, ready, results)) for _ in range(count)]
    for opener in openers:
        opener.start()
    try:
        assert _results(results, count) == ["opened"] * count
    finally:
        for opener in openers:
            opener.join(timeout=30)
    assert run_sql(location, "SELECT version FROM nbask_inbox_schema") == [(schema_version(),)]
