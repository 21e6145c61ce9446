"""Waiting for an answer given elsewhere: a live kernel's wait ends within two seconds of the
answer, in this process or another, and costs next to no CPU while nothing happens.
"""

from __future__ import annotations

import threading
import time

from . import _workers
from ._workers import PROCESSES
from .requests import outcome_of, question


def _answer_after(store, item, request, delay):
    def answer():
        time.sleep(delay)
        store.answer(item.id, outcome_of(request), by="ana")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return thread


def test_an_answer_from_another_thread_ends_the_wait(store):
    request = question()
    item = store.add(request)
    thread = _answer_after(store, item, request, 0.3)
    started = time.monotonic()
    done = store.wait_answered(item.id, timeout=10)
    assert time.monotonic() - started < 2.3
    assert (done.status, done.answered_by) == ("answered", "ana")
    assert done.outcome == store.get(item.id).outcome
    thread.join()


def test_an_answer_from_another_process_ends_the_wait_within_two_seconds(store, location):
    item = store.add(question())
    results = PROCESSES.Queue()
    worker = PROCESSES.Process(target=_workers.answer_later, args=(location, item.id, 0.5, results))
    worker.start()
    try:
        assert results.get(timeout=60) == "ready"
        done = store.wait_answered(item.id, timeout=30)
        seen = time.time()
        answered_at = results.get(timeout=30)
    finally:
        worker.join(timeout=30)
    assert worker.exitcode == 0
    assert (done.status, done.answered_by) == ("answered", "elsewhere")
    assert seen - answered_at < 2.0


def test_a_wait_that_times_out_returns_the_request_still_pending_and_sleeps_meanwhile(store):
    item = store.add(question())
    cpu = time.process_time()
    started = time.monotonic()
    still = store.wait_answered(item.id, timeout=1.2)
    assert 1.1 < time.monotonic() - started < 3
    assert still.status == "pending"
    assert time.process_time() - cpu < 0.3  # no busy loop: the process slept


def test_a_cancel_or_an_expiry_ends_the_wait(store):
    cancelled = store.add(question())
    threading.Timer(0.2, store.cancel, args=(cancelled.id,)).start()
    assert store.wait_answered(cancelled.id, timeout=10).status == "cancelled"
    expiring = store.add(question("Soon?"), expires=0.4)
    started = time.monotonic()
    assert store.wait_answered(expiring.id, timeout=10).status == "expired"
    assert time.monotonic() - started < 2


def test_a_stop_event_ends_the_wait(store):
    item = store.add(question())
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    started = time.monotonic()
    assert store.wait_answered(item.id, timeout=30, stop=stop).status == "pending"
    assert time.monotonic() - started < 2.5


def test_waiting_on_an_answered_request_returns_at_once(store):
    request = question()
    item = store.add(request)
    store.answer(item.id, outcome_of(request))
    started = time.monotonic()
    assert store.wait_answered(item.id).status == "answered"
    assert time.monotonic() - started < 1


def test_an_answer_to_another_request_does_not_end_the_wait(store):
    waited = store.add(question())
    other_request = question("Another?")
    other = store.add(other_request)
    _answer_after(store, other, other_request, 0.2)
    started = time.monotonic()
    assert store.wait_answered(waited.id, timeout=1).status == "pending"
    assert time.monotonic() - started >= 0.95
    assert store.get(other.id).status == "answered"
