"""The question kind's own replay file: a hand-written ``.json`` object of question text ->
answer (a string, or a list of strings for a multi-select question), read into history
entries for ``nbask.core.history.load`` (registered for ``.json`` by ``nbask.kinds.question``).
"""

from __future__ import annotations

import json
import pathlib

from ...contract import ANSWER_SEPARATOR, NO_PREFERENCE
from ...core.history import HistoryEntry
from ...models import Answer


def entries_from_answer_map(text: str, source: pathlib.Path) -> list[HistoryEntry]:
    """The entries of a ``.json`` replay file: one answered question each, in the file's order."""
    try:
        mapping = json.loads(text)
    except json.JSONDecodeError as error:
        msg = f"the replay file {source} is not JSON ({error})"
        raise ValueError(msg) from None
    if not isinstance(mapping, dict) or not all(
        isinstance(answer, str) or (isinstance(answer, list) and all(isinstance(v, str) for v in answer))
        for answer in mapping.values()
    ):
        msg = f"the replay file {source} must be a JSON object of question text -> answer text (or list of texts)"
        raise ValueError(msg)
    entries = []
    for number, (question, answer) in enumerate(mapping.items()):
        values = [answer] if isinstance(answer, str) else list(answer)
        outcome = Answer(
            status="answered",
            answers={question: ANSWER_SEPARATOR.join(values) if values else NO_PREFERENCE},
            selections={question: values},
            request_id=f"{source.name}:{number}",
            asked_at=0.0,
            resolved_at=0.0,
            answered_by="person",
        )
        # The options are not known: only the question text and its answer were written.
        asked = {"questions": [{"question": question, "options": []}]}
        entries.append(HistoryEntry.ended("question", asked, outcome))
    return entries
