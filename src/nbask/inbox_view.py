"""``nbask.inbox()``: what waits in the inbox, answered in a notebook cell.

Every pending request of the store in force is shown together in the cell, as a batch is
(answered in any order; Approve all for approvals; drafts kept across a reload), from any
kernel, even one that never ran the code that asked. Each answer is kept in the inbox as it is
given, recorded as the person who gave it; the run that asked goes on with it when run again
(policy ``later``). A request dismissed here stays waiting; one answered elsewhere first is not
answered twice (the cell says by whom it was).
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any

from .core.lifecycle import Resolution
from .core.manager import manager
from .errors import InboxRequestClosed
from .inbox_store import InboxItem, InboxStore, open_inbox
from .models import Outcome
from .replies import account_name
from .resolvers.policies import interactive_resolver

__all__ = ["InboxAnswer", "inbox"]

#: How long the cell waits for an answer to reach the store once given (the store's own lock
#: timeout is shorter).
KEEP_SECONDS = 30.0


@dataclass(frozen=True)
class InboxAnswer:
    """What became of one request ``nbask.inbox()`` showed."""

    #: The inbox item as it was shown.
    item: InboxItem
    #: How the person ended it here.
    outcome: Outcome
    #: Whether the inbox kept this answer (False: dismissed here, so still waiting, or answered
    #: elsewhere first, as ``note`` says).
    kept: bool
    note: str = ""


def inbox(location: str | None = None) -> list[InboxAnswer]:
    """Show every request waiting in the inbox (``location``: a SQLite path or ``postgresql://``
    URL; default: the one in force) in this cell, and wait until each is answered or dismissed.
    Returns what became of each, in the order they were asked.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    store = open_inbox(location)
    asked = [(item, item.asked_again()) for item in store.pending()]
    items = [item for item, request in asked if request is not None]  # kinds this nbask knows
    if not items:
        return []
    resolutions = [Resolution(request) for _, request in asked if request is not None]
    kept = [threading.Event() for _ in items]
    for item, resolution, done in zip(items, resolutions, kept, strict=True):
        resolution.on_settled(_keeper(store, item, done))
    outcomes = manager().run_together_sync(resolutions, lambda _request: interactive_resolver())
    for done in kept:  # the wait ends as each settles; its answer may still be on its way to the store
        done.wait(KEEP_SECONDS)
    return [_what_became(store, item, outcome) for item, outcome in zip(items, outcomes, strict=True)]


def _keeper(store: InboxStore, item: InboxItem, done: threading.Event) -> Any:
    """Keeps an answer in the inbox the moment it is given (not when all are done), then sets
    ``done``.
    """

    def keep(outcome: Outcome) -> None:
        try:
            if outcome.status == "answered":  # dismissed here: it stays waiting for the next sitting
                # Answered (or cancelled) elsewhere first: _what_became says so.
                with contextlib.suppress(InboxRequestClosed):
                    store.answer(item.id, outcome, by=outcome.answered_by_user or account_name())
        finally:
            done.set()

    return keep


def _what_became(store: InboxStore, item: InboxItem, outcome: Outcome) -> InboxAnswer:
    now = store.get(item.id)
    if outcome.status != "answered":
        return InboxAnswer(item, outcome, kept=False, note=f"{item.short_id} is still waiting.")
    if now.status == "answered" and now.outcome is not None and now.outcome.request_id == outcome.request_id:
        return InboxAnswer(item, outcome, kept=True)
    note = f"{item.short_id} was {now.status} by {now.answered_by or 'someone else'} first: this answer was not kept."
    return InboxAnswer(item, outcome, kept=False, note=note)
