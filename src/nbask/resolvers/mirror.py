"""A request that waits in its cell and in the inbox at once (``inbox=True``): whoever answers
first, the person at the notebook or someone at the inbox (``nbask inbox answer``,
``nbask.inbox()`` elsewhere, the server's inbox page), decides it, and the other side learns of
it. An answer given in the inbox ends the cell's wait within the store's wake-up time (SQLite: a quarter second;
PostgreSQL: at once, by NOTIFY), from a thread that sleeps in the store's wait, not a busy loop.
An answer given in the cell is kept in the inbox; a request that ends unanswered there (a
timeout, an interrupt, a dismissal) is cancelled in the inbox. ``inbox_mirror``
(``NBASK_INBOX_MIRROR=1``, set by nbask's server extension for its kernels) mirrors every request
a person is asked, as if each said ``inbox=True``. What still waits when the process ends (a
kernel shut down or restarted) is cancelled in the inbox then: no cell would resume with its answer.
"""

from __future__ import annotations

import atexit
import logging
import threading
from typing import Any

from .. import config, host
from ..core.lifecycle import Resolution
from ..errors import InboxError
from ..inbox_store import open_inbox
from ..kinds import kind_of
from ..models import Outcome
from .later import from_item, refused_from_inbox

log = logging.getLogger("nbask.inbox_store")

#: The mirrored requests of this process still waiting, by inbox item id, with their store.
_waiting: dict[str, Any] = {}
_waiting_lock = threading.Lock()


@atexit.register
def _cancel_left() -> None:
    """At the process's end, cancel in the inbox what its cells still waited for."""
    with _waiting_lock:
        left = list(_waiting.items())
        _waiting.clear()
    for item_id, store in left:
        try:
            store.cancel(item_id)
        except InboxError as error:  # noqa: PERF203 - answered or gone there meanwhile: nothing to cancel
            log.info("inbox %s: request %s was not cancelled at exit: %s", store.name, item_id, type(error).__name__)


def mirrored_by_default(resolution: Resolution[Any]) -> None:
    """Mirror ``resolution`` because ``inbox_mirror`` says every request is (no ``inbox=True`` of
    its own): an inbox out of reach leaves the request asked in its cell alone, and says why in
    the log, instead of failing the call that asked.
    """
    try:
        mirrored(resolution)
    except InboxError as error:
        log.warning("nbask request %s is not mirrored in the inbox: %s", resolution.request.request_id, error)


def mirrored(resolution: Resolution[Any]) -> None:
    """Keep ``resolution``'s request in the inbox as well, for as long as it waits."""
    store = open_inbox()
    notebook = host.notebook_path()
    run = host.running_cell_request().get("msg_id")
    item = store.add(resolution.request, notebook=notebook, run_id=run, expires=config.value_of("inbox_expires")[0])
    with _waiting_lock:
        _waiting[item.id] = store
    stop = threading.Event()

    def watch() -> None:
        answered = store.wait_answered(item.id, stop=stop)
        if answered.status == "answered" and not resolution.done:
            request = resolution.request
            outcome = from_item(kind_of(request), request, answered)
            if not refused_from_inbox(resolution, outcome):
                resolution.settle(outcome)

    def ended(outcome: Outcome) -> None:
        stop.set()
        with _waiting_lock:
            _waiting.pop(item.id, None)
        if outcome.answered_by == "inbox":
            return
        try:
            if outcome.status == "answered":
                store.answer(item.id, outcome)
            else:
                store.cancel(item.id)
        except InboxError as error:  # answered there in the same moment: the cell's answer stood
            log.info("inbox %s: request %s was closed there first: %s", store.name, item.id, type(error).__name__)

    resolution.on_settled(ended)
    threading.Thread(target=watch, name=f"nbask-inbox-{item.short_id}", daemon=True).start()
