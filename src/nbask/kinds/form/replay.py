"""The form kind's replay: the recorded outcome that fits a request asked again."""

from __future__ import annotations

import json
from typing import Any

from ...core.history import HistoryEntry, Recording, asked_again
from ...errors import ReplayMissing
from ...models import FormAnswer
from .request import URL_REPLAYED, FormRequest

# The recorded values of a form with the same message and fields.


def match_key(asked: dict[str, Any]) -> list[Any]:
    """A form is matched by its message, its fields and its URL."""
    return [asked.get("message", ""), asked.get("fields", []), asked.get("url", "")]


def _key(asked: dict[str, Any]) -> str:
    return json.dumps(match_key(asked), sort_keys=True)


def _index(entries: list[HistoryEntry]) -> dict[str, list[FormAnswer]]:
    index: dict[str, list[FormAnswer]] = {}
    for entry in entries:
        if isinstance(entry.outcome, FormAnswer):
            index.setdefault(_key(entry.asked), []).append(entry.outcome)
    return index


def replay_form(request: FormRequest, recording: Recording) -> FormAnswer:
    """The recorded outcome of a form with this message and these fields (answered_by "replay")."""
    if request.form.url:
        # Opening a page is the person's act, done then and there: replaying "accept" would tell
        # the server a page was opened when none was.
        return request.decide(None, answered_by="replay", note=URL_REPLAYED)
    key = _key(request.asked())
    records = recording.index(FormRequest.kind, _index).get(key)
    if not records:
        msg = (
            f"replay: no recorded answer for the form {request.form.message[:80]!r} with these fields in "
            f"{recording.source} ({recording.size} recorded interactions). Forms replay only for the same "
            "message and fields."
        )
        raise ReplayMissing(msg, asked=request.form.message)
    record = recording.take((FormRequest.kind, key), records)
    if record is None:
        what = f"the form {request.form.message[:80]!r}"
        raise ReplayMissing(asked_again(what, recording, len(records)), asked=request.form.message)
    if record.status == "answered":
        return request.decide(record.values, answered_by="replay", note=record.note).replayed_from(record)
    return request.ended(record.status, record.note, "replay").replayed_from(record)
