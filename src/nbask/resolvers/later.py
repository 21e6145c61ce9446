"""The ``later`` policy: a request outlives the run that asked it.

A request someone has answered in the inbox (``nbask.inbox_store``) is answered at once from there,
by replay's rules (the same kind and the same question, options, action and details, message
and fields; the same notebook), and the history says it came from the inbox, who answered and
when. A request no one has answered yet is kept there pending (once: a run that asks again
finds the same one), and the run stops with ``nbask.AnswerLater``, which lists what waits and
the command that answers it; in a notebook the cell shows the same, so a notebook run by
papermill or nbclient says it in its output. Requests shown together (a batch) are all kept
before the run stops, so the person answers them in one sitting.

A request whose inbox copy expired unanswered ends as a timeout in the next run, and is asked
again in the inbox for the runs after it.
"""

from __future__ import annotations

import threading
from typing import Any

from IPython.display import display

from .. import config, host
from ..core.history import Recording
from ..core.lifecycle import DecidesAtOnce, OutcomeT, Request, Resolution
from ..errors import AnswerLater
from ..identity import refusal
from ..inbox_store import InboxItem, InboxStatus, InboxStore, open_inbox
from ..kinds import RequestKind, kind_of
from ..models import Outcome
from .cell import show_in_cell

PENDING: tuple[InboxStatus, ...] = ("pending",)
EXPIRED: tuple[InboxStatus, ...] = ("expired",)
#: The command that answers what waits (the ``nbask`` console script; ``python -m nbask`` too).
ANSWER_COMMAND = "nbask inbox answer"


class LaterPolicy(DecidesAtOnce):
    """Answers from the inbox, or keeps the request there and stops the run."""

    name = "later"

    def check_available(self, request: Request[Any]) -> None:
        """An inbox that cannot be opened fails here, before anything is asked."""
        del request
        open_inbox()

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        outcome: OutcomeT = self.resolve_together_sync([resolution])[0]
        return outcome

    async def resolve_together(self, resolutions: list[Resolution[Any]]) -> list[Any]:
        return self.resolve_together_sync(resolutions)

    def resolve_together_sync(self, resolutions: list[Resolution[Any]]) -> list[Any]:
        """Each request answered from the inbox where it can be; the others kept there, all of
        them, before the run stops with ``AnswerLater``.
        """
        store = open_inbox()
        notebook = host.notebook_path()
        unanswered = [r for r in resolutions if not _answered_from_inbox(store, r, notebook)]
        if unanswered:
            _stop(store, unanswered, notebook)
        return [resolution.outcome for resolution in resolutions]


def _answered_from_inbox(store: InboxStore, resolution: Resolution[Any], notebook: str | None) -> bool:
    """Settle ``resolution`` from its inbox copy where one is answered (or expired); False
    when it must wait.
    """
    request = resolution.request
    kind = kind_of(request)
    used = _used_in_this_run()
    item, outcome, passed = store.find_answered(request, notebook=notebook, exclude=used), None, set(used)
    while item is not None and item.entry() is not None and outcome is None:
        outcome = from_item(kind, request, item)
        if refused_from_inbox(resolution, outcome):  # not an approver's: the next answer, if any
            outcome, passed = None, passed | {item.id}
            item = store.find_answered(request, notebook=notebook, exclude=passed)
    if item is not None and outcome is not None:
        used.add(item.id)
    else:
        expired = store.matching(kind.name, request.asked(), notebook=notebook, statuses=EXPIRED, exclude=used)
        if not expired or _already_waiting(store, request, notebook) is not None:
            return False
        used.update(gone.id for gone in expired)
        note = f"No answer came in the inbox before the request expired (inbox id {expired[-1].short_id})."
        outcome = request.ended("timeout", note, "inbox")
        # This run goes on without an answer; the runs after it find the request waiting again.
        store.add(request, notebook=notebook, run_id=host.running_cell_request().get("msg_id"), expires=_expires())
    resolution.settle(outcome)
    final = resolution.outcome
    assert final is not None  # noqa: S101 - settled above
    show_in_cell(kind, request, final)
    return True


def refused_from_inbox(resolution: Resolution[Any], outcome: Outcome) -> bool:
    """Whether an inbox answer may not resolve ``resolution`` (not one of its approvers, or
    not verified): kept as a refused answer, and the request keeps waiting.
    """
    why = refusal(resolution.request.approvers, outcome.answered_by_user, outcome.identity or "none")
    if why is not None:
        resolution.note_refused(outcome.answered_by_user, outcome.identity or "none", why)
    return why is not None


def from_item(kind: RequestKind[Any, Any], request: Request[Any], item: InboxItem) -> Outcome:
    """``request`` answered as ``item`` was, by replay's rules: who answered it and when, and
    that the answer came from the inbox.
    """
    entry = item.entry()
    assert entry is not None  # noqa: S101 - an answered item
    replayed: Outcome = kind.replayed(request, Recording([entry], source=f"the inbox ({item.short_id})"))
    source = entry.outcome
    user = source.answered_by_user or (item.answered_by if source.answered_by == "person" else None)
    update = {
        "answered_by": "inbox",
        "recorded_by": source.decided_by,
        "answered_by_user": user,
        "identity": source.identity,
    }
    # Asked when the inbox first kept it, answered when someone answered there: the wait as it was.
    when = {"asked_at": item.asked_at, "resolved_at": item.answered_at or replayed.resolved_at}
    return replayed.model_copy(update={**update, **when})


def _stop(store: InboxStore, resolutions: list[Resolution[Any]], notebook: str | None) -> None:
    """Keep every unanswered request in the inbox (one already kept is not kept twice), show
    each in its cell, and raise ``AnswerLater`` naming them all.
    """
    requests = [resolution.request for resolution in resolutions]
    kept: list[InboxItem | None] = [_already_waiting(store, request, notebook) for request in requests]
    new = [request for request, item in zip(requests, kept, strict=True) if item is None]
    run = host.running_cell_request().get("msg_id")
    if len(new) > 1:
        added = iter(store.add_batch(new, notebook=notebook, run_id=run, expires=_expires()))
    else:
        added = iter([store.add(new[0], notebook=notebook, run_id=run, expires=_expires())] if new else [])
    items = [item if item is not None else next(added) for item in kept]
    for request, item in zip(requests, items, strict=True):
        _show_waiting(request, item)
    raise AnswerLater(_waiting_text(store, items), ids=tuple(item.id for item in items), store=store.name)


def _expires() -> float:
    """How long a request kept now waits in the inbox (``inbox_expires``)."""
    seconds: float = config.value_of("inbox_expires")[0]
    return seconds


def _already_waiting(store: InboxStore, request: Request[Any], notebook: str | None) -> InboxItem | None:
    same = store.matching(request.kind, request.asked(), notebook=notebook, statuses=PENDING)
    return same[0] if same else None


def _waiting_text(store: InboxStore, items: list[InboxItem]) -> str:
    several = len(items) > 1
    count = f"{len(items)} request{'s wait' if several else ' waits'}"
    how = f"{ANSWER_COMMAND} {'--all' if several else items[0].short_id}"
    head = f"nbask: {count} for an answer in the inbox ({store.name}), so this run stops here (policy 'later'):"
    tail = (
        f"Answer {'them' if several else 'it'} at a terminal with `{how}` (or in a notebook with "
        "`nbask.inbox()`), then run this again: it goes on with the answers."
    )
    return "\n".join([head, *(f"  {item.short_id}  {item.kind}: {headline(item)}" for item in items), tail])


def headline(item: InboxItem) -> str:
    """What ``item`` asks, in one short line, as its kind says it."""
    try:
        request = item.asked_again()
    except ValueError:  # what an older nbask kept, which this one no longer reads
        return f"a {item.kind} this version of nbask cannot read"
    return request.headline() if request is not None else f"a {item.kind}"


def _show_waiting(request: Request[Any], item: InboxItem) -> None:
    """In a kernel: the request's summary and where it waits, as the cell's output."""
    if not host.in_kernel():
        return
    kind = kind_of(request)
    text = (
        f"{kind.summary(request, None)}\n\n"
        f"Waiting in the inbox as `{item.short_id}`: answer it with `{ANSWER_COMMAND} {item.short_id}` "
        "(or `nbask.inbox()` in a notebook), then run this again."
    )
    display({"text/markdown": text, "text/plain": text}, raw=True)  # type: ignore[no-untyped-call]


_runs = threading.local()


def _used_in_this_run() -> set[str]:
    """The inbox ids this run has taken answers from (a run that asks the same twice takes the
    next answer, as replay does); a new cell, or a new process, starts afresh.
    """
    run = host.running_cell_request().get("msg_id", "")
    if getattr(_runs, "run", None) != run:
        _runs.run, _runs.used = run, set()
    used: set[str] = _runs.used
    return used
