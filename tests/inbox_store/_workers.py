"""What the inbox tests' other processes do: real processes, forked from multiprocessing's fork
server (a clean process that imported nbask once, so each starts in milliseconds; nothing of the
test's process is shared but the arguments).
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

from nbask.errors import AlreadyAnswered
from nbask.inbox_store import open_inbox

from .requests import outcome_of, rebuilt

PROCESSES = multiprocessing.get_context("forkserver")
PROCESSES.set_forkserver_preload(["nbask.inbox_store"])  # the server has no tests/ on its path


def answer_in_race(location: str, id: str, name: str, ready: Any, results: Any) -> None:  # noqa: A002
    """Open the store, wait at the barrier with the other racers, then answer ``id`` as ``name``."""
    store = open_inbox(location)
    item = store.get(id)
    outcome = outcome_of(rebuilt(item.kind, item.asked, item.request_id))
    ready.wait(timeout=60)
    try:
        store.answer(id, outcome, by=name)
    except AlreadyAnswered as error:
        results.put((name, "lost", str(error), error.by, error.at))
    except Exception as error:
        results.put((name, "failed", repr(error), None, None))
    else:
        results.put((name, "won", "", name, None))
    store.close()


def answer_later(location: str, id: str, delay: float, results: Any) -> None:  # noqa: A002
    """Answer ``id`` ``delay`` seconds after the store is open; report when it was answered."""
    store = open_inbox(location)
    item = store.get(id)
    outcome = outcome_of(rebuilt(item.kind, item.asked, item.request_id))
    results.put("ready")
    time.sleep(delay)
    answered = store.answer(id, outcome, by="elsewhere")
    results.put(answered.answered_at)
    store.close()


def open_at_once(location: str, ready: Any, results: Any) -> None:
    """Open the store at the same moment as the others (the first opening makes its tables)."""
    ready.wait(timeout=60)
    try:
        open_inbox(location).close()
    except Exception as error:
        results.put(repr(error))
    else:
        results.put("opened")
