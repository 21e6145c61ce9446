"""The question kind's replay: the recorded outcome that fits a request asked again."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ...contract import ANSWER_SEPARATOR, NO_PREFERENCE
from ...core.history import HistoryEntry, Recording, asked_again, register_replay_reader
from ...core.lifecycle import Ending
from ...errors import ReplayMissing
from ...models import Answer, Question
from ...replies import QuestionReply, QuestionResponse
from .answer_map import entries_from_answer_map
from .request import QuestionRequest

# A question is found by its text and its option labels, falling back to its text alone when
# the recorded choices are still options of the question as it is asked now.


@dataclass(frozen=True)
class _Record:
    status: str
    #: The options chosen (labels of the question as it was recorded) and the free text(s).
    chosen: tuple[str, ...]
    written: tuple[str, ...]
    note: str
    #: The person's note on this question ("" for none).
    noted: str = ""
    #: The recorded outcome itself (who decided it then); None for a hand-written recording.
    source: Answer | None = None


@dataclass
class _Index:
    by_question: dict[tuple[str, frozenset[str]], list[_Record]] = field(default_factory=lambda: defaultdict(list))
    by_text: dict[str, list[_Record]] = field(default_factory=lambda: defaultdict(list))


def _labels(question: Question | dict[str, Any]) -> frozenset[str]:
    if isinstance(question, Question):
        return frozenset(option.label for option in question.options)
    return frozenset(str(option.get("label", "")) for option in question.get("options", []))


def _index(entries: list[HistoryEntry]) -> _Index:
    index = _Index()
    for entry in entries:
        outcome = entry.outcome
        if not isinstance(outcome, Answer):
            continue
        for question in entry.asked.get("questions", []):
            text = str(question.get("question", ""))
            values = outcome.selections.get(text)
            if values is None:  # a hand-written recording may only have the joined answers
                given = outcome.answers.get(text, NO_PREFERENCE)
                values = [] if given == NO_PREFERENCE else given.split(ANSWER_SEPARATOR)
            labels = _labels(question)
            record = _Record(
                outcome.status,
                chosen=tuple(value for value in values if value in labels),
                written=tuple(value for value in values if value not in labels),
                note=outcome.note,
                noted=outcome.notes.get(text, ""),
                source=outcome,
            )
            index.by_question[text, labels].append(record)
            index.by_text[text].append(record)
    return index


def replay_answer(request: QuestionRequest, recording: Recording) -> Answer:
    """The recorded outcome for ``request``'s questions (answered_by "replay")."""
    index = recording.index(QuestionRequest.kind, _index)
    records = [_record_for(question, index, recording) for question in request.question_set.questions]
    ended = next((record for record in records if record.status != "answered"), None)
    if ended is not None:
        note = ended.note or f"Recorded as {ended.status} in {recording.source}."
        outcome = request.ended(cast("Ending | Literal['dismissed']", ended.status), note, "replay")
        return _as_recorded(outcome, ended)
    replies = tuple(
        _reply(question, record) for question, record in zip(request.question_set.questions, records, strict=True)
    )
    answer = request.decide(QuestionResponse(action="submit", replies=replies), answered_by="replay")
    return _as_recorded(answer, records[0])


def _as_recorded(outcome: Answer, record: _Record) -> Answer:
    """``outcome`` carrying who decided ``record`` when it was recorded, where that is known."""
    return outcome.replayed_from(record.source) if record.source is not None else outcome


def _record_for(question: Question, index: _Index, recording: Recording) -> _Record:
    labels = _labels(question)
    # The records made with these very options first, then those that still fit them (one
    # record is in both lists: the recording hands each out once).
    exact = index.by_question.get((question.question, labels), [])
    record = recording.take(("question", question.question, labels), exact) if exact else None
    fits: list[_Record] = []
    if record is None:
        fits = [record for record in index.by_text.get(question.question, []) if _fits(record, labels, question)]
        record = recording.take(("text", question.question, labels), fits) if fits else None
    if record is not None:
        return record
    if exact or fits:
        what = f"the question {question.question!r}"
        raise ReplayMissing(asked_again(what, recording, len(exact) or len(fits)), asked=question.question)
    known = "has a record of it with other options" if question.question in index.by_text else "has no record of it"
    msg = (
        f"replay: no recorded answer for the question {question.question!r}; {recording.source} {known} "
        f"({recording.size} recorded interactions). Record it first: answer it once (interactively or with "
        "NBASK_POLICY=recommended) and save nbask.save_history(...) or the answered notebook."
    )
    raise ReplayMissing(msg, asked=question.question)


def _fits(record: _Record, labels: frozenset[str], question: Question) -> bool:
    """A record made with other options still fits if every option it chose is still one
    (and a single-select question gets one choice).
    """
    if record.status != "answered":
        return True
    reply = _reply(question, record)
    count = len(reply.selected) + (reply.other is not None)
    return all(label in labels for label in record.chosen) and (question.multi_select or count <= 1)


def _reply(question: Question, record: _Record) -> QuestionReply:
    """The recorded reply for ``question`` as it is now: a written answer that is exactly one
    of its options counts as choosing it (so a hand-written "question -> answer" file works).
    """
    values = {*record.chosen, *record.written}
    selected = tuple(option.label for option in question.options if option.label in values)
    labels = {option.label for option in question.options}
    others = [text for text in record.written if text not in labels]
    other = ANSWER_SEPARATOR.join(others) if others else None
    if not question.multi_select and selected:
        return QuestionReply(selected=selected[:1], other=None, note=record.noted)
    return QuestionReply(selected=selected, other=other, note=record.noted)


#: A hand-written ``.json`` replay file (question text -> answer) is this kind's own format.
register_replay_reader(".json", entries_from_answer_map)
