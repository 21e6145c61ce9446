"""What the server's inbox page lists and how it answers, apart from HTTP: each waiting request a
person may answer, as the card the widget draws for it, and an answer given in the page, taken
exactly once as the person the server authenticated.

A card's state is the widget's own: the request's kind builds its widget (no kernel, no comm
that reaches anyone), its synced traits are read, and the widget is closed again, so the page
draws what a notebook would, from the one place that says what a card holds. Every call here
blocks on the store; the handlers run them off the server's event loop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from ..core.lifecycle import Request, Resolution
from ..errors import InboxRequestClosed, InboxRequestNotFound, MalformedResponse
from ..identity import Stamp, refusal
from ..inbox_store import InboxItem, InboxStore
from ..inbox_store.store import when
from ..kinds import kind_of
from ..resolvers.later import headline

__all__ = ["Reply", "answer", "card", "listing", "may_answer"]

log = logging.getLogger("nbask")

#: The widget's synced traits the page has no use for: its code, its styles, its class name.
_NOT_STATE: Final = frozenset({"_esm", "_css", "_anywidget_id"})
#: A page answers as the server says, with nothing of a cell around it: no countdown (an inbox
#: request waits until it expires), no batch, no reply channel, no draft kept beside it.
_PAGE_STATE: Final[dict[str, Any]] = {
    "_verifies": True,
    "_deadline_ms": 0.0,
    "_countdown_from_ms": 0.0,
    "_notify": False,
    "_reply_channel": "",
    "_batch": {},
    "_cell_run": {},
    "_draft": {},
    "_response": {},
}


@dataclass(frozen=True)
class Reply:
    """What the API answers: an HTTP status and its JSON body."""

    status: int
    body: dict[str, Any]


def may_answer(item: InboxItem, who: Stamp) -> bool:
    """Whether ``who`` may answer ``item``: anyone when it names no approvers, else one of them
    (the server verified who they are).
    """
    return refusal(item.approvers, who.username, "verified") is None


def listing(store: InboxStore, who: Stamp) -> list[dict[str, Any]]:
    """The cards of every request waiting in ``store`` that ``who`` may answer, oldest first; a
    kind this nbask cannot ask is left out (the log says which).
    """
    cards = []
    for item in store.pending():
        if not may_answer(item, who):
            continue
        shown = card(item)
        if shown is None:
            log.info("nbask inbox page: %s is a %s this nbask cannot show", item.short_id, item.kind)
            continue
        cards.append(shown)
    return cards


def card(item: InboxItem) -> dict[str, Any] | None:
    """``item`` as the page shows it: where and when it was asked, and the widget's state for it
    (resolved, for an item answered or closed); None for a kind this nbask cannot ask.
    """
    request = _asked(item)
    if request is None:
        return None
    resolution = Resolution(request)
    widget = kind_of(request).widget(resolution)
    try:
        if item.status == "answered" and item.outcome is not None:
            resolution.settle(item.outcome)
        elif not item.pending:
            resolution.end("cancelled", closed_text(item))
        names = [name for name in widget.keys if name.startswith("_") and name not in _NOT_STATE]
        state = {**widget.get_state(names), **_PAGE_STATE}
    finally:
        widget.close()
    return {
        "id": item.id,
        "short_id": item.short_id,
        "kind": item.kind,
        "headline": headline(item),
        "notebook": item.notebook,
        "asked_at": when(item.asked_at),
        "expires_at": when(item.expires_at) if item.expires_at is not None else None,
        "status": item.status,
        "answered_by": item.answered_by,
        "state": state,
    }


def _asked(item: InboxItem) -> Request[Any] | None:
    """``item``'s request asked again; None for a kind this nbask does not know, or one kept in a
    form it no longer reads.
    """
    try:
        return item.asked_again()
    except ValueError:
        return None


def closed_text(item: InboxItem) -> str:
    """What a person is told of ``item`` once it no longer waits."""
    if item.status == "answered":
        return f"Already answered by {item.answered_by or 'someone else'} at {when(item.answered_at)}."
    if item.status == "expired":
        return f"Expired at {when(item.answered_at)} without an answer."
    return f"Cancelled by {item.answered_by or 'the run that asked it'} at {when(item.answered_at)}."


def answer(store: InboxStore, id: str, raw: object, who: Stamp) -> Reply:  # noqa: A002 - the item's id
    """Answer item ``id`` with ``raw`` (the response a card sends, as a widget writes it) as
    ``who``: once, only where ``who`` may answer it, and only with a response that fits it. A
    dismissal leaves it waiting, as ``nbask.inbox()`` does.
    """
    try:
        item = store.get(id)
    except InboxRequestNotFound as error:
        return Reply(404, {"message": str(error)})
    refused = _refused(item, raw, who)
    request = _asked(item) if refused is None else None
    if request is None:
        return refused or Reply(409, {"message": f"{item.short_id} is a {item.kind}, which this nbask cannot ask."})
    try:
        outcome = request.parse_and_decide(raw)  # type: ignore[arg-type]  # a dict, checked above
    except MalformedResponse as error:
        return Reply(400, {"message": f"This answer does not fit the request: {error}"})
    if outcome.status != "answered":
        return Reply(200, {"left_waiting": True, "item": card(item)})
    outcome = outcome.model_copy(update={"answered_by_user": who.username, "identity": "verified"})
    try:
        answered = store.answer(item.id, outcome, by=who.username)
    except InboxRequestClosed:  # answered (or closed) elsewhere in the same moment
        return _closed(store.get(item.id))
    return Reply(200, {"item": card(answered)})


def _refused(item: InboxItem, raw: object, who: Stamp) -> Reply | None:
    """Why ``who`` may not answer ``item`` with ``raw``, before its kind reads it; None: go on."""
    if not may_answer(item, who):
        message = f"{item.short_id} may be answered only by its approvers, and {who.username} is not one of them."
        return Reply(403, {"message": message})
    if not item.pending:
        return _closed(item)
    problem = _response_problem(raw)
    return None if problem is None else Reply(400, {"message": problem, "field": "action"})


def _closed(item: InboxItem) -> Reply:
    return Reply(409, {"message": closed_text(item), "item": card(item)})


def _response_problem(raw: object) -> str | None:
    """Why ``raw`` is not a response at all (the kind checks the rest), or None."""
    if not isinstance(raw, dict):
        return f"The answer must be a JSON object, got {type(raw).__name__}."
    action = raw.get("action")
    if not isinstance(action, str) or not action.strip():
        return "The answer's field 'action' must be non-empty text (submit, approve, reject or dismiss)."
    return None
