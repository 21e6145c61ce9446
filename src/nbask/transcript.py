"""Recorded interactions: the history as JSONL, the records kept in a notebook's outputs, and
the look-up that lets the ``replay`` policy answer from them.

A recording is a list of ``HistoryEntry``. ``save_history`` writes one entry per line; a
saved ``.ipynb`` holds one entry per resolved nbask output, in the output's metadata under
``"nbask"`` (the live widget and the headless policies both put it there), so a notebook a
person answered in JupyterLab replays headless.

Replay finds an answer by what was asked, not by position: a question by its text and its
option labels (falling back to its text alone when the recorded choices are still options),
an approval by its action and its exact details. Asking the same thing again takes the next
recorded answer for it, then keeps the last one, so a loop replays in order and a re-run
cell still finds its answer.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar

from pydantic import ValidationError

from .contract import ANSWER_SEPARATOR, NO_PREFERENCE
from .errors import NoOneCanAnswer, ReplayMissing
from .lifecycle import ApprovalRequest, QuestionRequest, Request
from .manager import HistoryEntry, manager
from .models import Answer, Approval, Decision, Question
from .responses import ApprovalResponse, QuestionReply, QuestionResponse

#: The key of nbask's record in an output's metadata (``{"nbask": <HistoryEntry as JSON>}``).
RECORD_KEY: Final = "nbask"


def record_of(request: Request[Any], outcome: Answer | Decision) -> dict[str, Any]:
    """The machine-readable record of one ended interaction, as JSON-ready data."""
    return HistoryEntry.of(request, outcome).model_dump(mode="json")


def save_history(path: str | os.PathLike[str]) -> pathlib.Path:
    """Write every interaction of this process (``nbask.history()``) to ``path`` as JSONL, one
    entry per line, oldest first; the ``replay`` policy reads it back. Returns the path.
    """
    target = pathlib.Path(path).expanduser()
    entries = manager().history()
    with target.open("w", encoding="utf-8") as out:
        out.writelines(entry.model_dump_json() + "\n" for entry in entries)
    return target


def load(path: str | os.PathLike[str]) -> list[HistoryEntry]:
    """The entries recorded in ``path``: a JSONL history (``save_history``), a saved notebook
    (``.ipynb``), or a hand-written ``.json`` object mapping question text to its answer (a
    string, or a list of strings for a multi-select question).
    """
    source = pathlib.Path(path).expanduser()
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as error:
        msg = f"cannot read the replay file {source}: {error.strerror or error}"
        raise NoOneCanAnswer(msg) from None
    if source.suffix == ".ipynb":
        try:
            notebook = json.loads(text)
        except json.JSONDecodeError as error:
            msg = f"the replay file {source} is not a notebook (invalid JSON: {error})"
            raise ValueError(msg) from None
        return entries_in_notebook(notebook)
    if source.suffix == ".json":
        return _entries_from_mapping(text, source)
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                entries.append(HistoryEntry.model_validate_json(line))
            except ValidationError as error:
                msg = f"{source}, line {number}, is not an nbask history entry: {error.errors()[0]['msg']}"
                raise ValueError(msg) from None
    return entries


def _entries_from_mapping(text: str, source: pathlib.Path) -> list[HistoryEntry]:
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
        entries.append(
            HistoryEntry(
                kind="question",
                asked={"questions": [{"question": question, "options": []}]},  # the options are not known
                outcome=outcome,
                status=outcome.status,
                request_id=outcome.request_id,
                tool_call_id=None,
                asked_at=0.0,
                resolved_at=0.0,
                seconds_waited=0.0,
                answered_by=outcome.answered_by,
            )
        )
    return entries


def entries_in_notebook(notebook: dict[str, Any]) -> list[HistoryEntry]:
    """The nbask records in a notebook's outputs, in the order they were asked."""
    found: dict[str, HistoryEntry] = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) if isinstance(cell, dict) else []:
            metadata = output.get("metadata") if isinstance(output, dict) else None
            record = metadata.get(RECORD_KEY) if isinstance(metadata, dict) else None
            if not isinstance(record, dict):
                continue
            try:
                entry = HistoryEntry.model_validate(record)
            except ValidationError:
                continue  # someone else's "nbask" metadata, or a damaged record: not an answer
            found[entry.request_id] = entry  # one record per request, even if shown twice
    return sorted(found.values(), key=lambda entry: entry.asked_at)


# -- the replay look-up -----------------------------------------------------------------------


@dataclass(frozen=True)
class _QuestionRecord:
    status: str
    #: The options chosen (labels of the question as it was recorded) and the free text(s).
    chosen: tuple[str, ...]
    written: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class _ApprovalRecord:
    status: str
    decision: str
    edited: str | None
    reason: str


_RecordT = TypeVar("_RecordT", _QuestionRecord, _ApprovalRecord)


def _labels(question: Question | dict[str, Any]) -> frozenset[str]:
    if isinstance(question, Question):
        return frozenset(option.label for option in question.options)
    return frozenset(str(option.get("label", "")) for option in question.get("options", []))


class Transcript:
    """Answers recorded for what was asked, handed out in the order they were recorded."""

    def __init__(self, entries: list[HistoryEntry], source: str = "the recording") -> None:
        self.source = source
        self.size = len(entries)
        self._by_question: dict[tuple[str, frozenset[str]], list[_QuestionRecord]] = defaultdict(list)
        self._by_text: dict[str, list[_QuestionRecord]] = defaultdict(list)
        self._by_approval: dict[tuple[str, str], list[_ApprovalRecord]] = defaultdict(list)
        self._taken: dict[object, int] = defaultdict(int)
        for entry in entries:
            if entry.status == "cancelled":
                continue  # an interrupt ended the cell: nothing to reproduce
            if entry.kind == "question" and isinstance(entry.outcome, Answer):
                self._add_question(entry.asked, entry.outcome)
            elif entry.kind == "approval" and isinstance(entry.outcome, Decision):
                self._add_approval(entry.asked, entry.outcome)

    def _add_question(self, asked: dict[str, Any], outcome: Answer) -> None:
        for question in asked.get("questions", []):
            text = str(question.get("question", ""))
            values = outcome.selections.get(text)
            if values is None:  # a hand-written recording may only have the joined answers
                given = outcome.answers.get(text, NO_PREFERENCE)
                values = [] if given == NO_PREFERENCE else given.split(ANSWER_SEPARATOR)
            labels = _labels(question)
            chosen = tuple(value for value in values if value in labels)
            written = tuple(value for value in values if value not in labels)
            record = _QuestionRecord(outcome.status, chosen, written, outcome.note)
            self._by_question[text, _labels(question)].append(record)
            self._by_text[text].append(record)

    def _add_approval(self, asked: dict[str, Any], outcome: Decision) -> None:
        key = (str(asked.get("action", "")), str(asked.get("details", "")))
        self._by_approval[key].append(_ApprovalRecord(outcome.status, outcome.decision, outcome.edited, outcome.reason))

    def _take(self, key: object, records: list[_RecordT]) -> _RecordT:
        index = min(self._taken[key], len(records) - 1)
        self._taken[key] += 1
        return records[index]

    # -- questions -----------------------------------------------------------------------------

    def answer(self, request: QuestionRequest) -> Answer:
        """The recorded outcome for ``request``'s questions (answered_by "replay")."""
        records = [self._question_record(question) for question in request.question_set.questions]
        ended = next((record for record in records if record.status != "answered"), None)
        if ended is not None:
            note = ended.note or f"Recorded as {ended.status} in {self.source}."
            return request.ended(ended.status, note, "replay")  # type: ignore[arg-type]
        replies = tuple(
            _reply(question, record) for question, record in zip(request.question_set.questions, records, strict=True)
        )
        return request.decide(QuestionResponse(action="submit", replies=replies), answered_by="replay")

    def _question_record(self, question: Question) -> _QuestionRecord:
        exact = self._by_question.get((question.question, _labels(question)))
        if exact:
            return self._take(("question", question.question, _labels(question)), exact)
        labels = _labels(question)
        fits = [record for record in self._by_text.get(question.question, []) if _fits(record, labels, question)]
        if fits:
            return self._take(("text", question.question), fits)
        known = "has a record of it with other options" if question.question in self._by_text else "has no record of it"
        msg = (
            f"replay: no recorded answer for the question {question.question!r}; {self.source} {known} "
            f"({self.size} recorded interactions). Record it first: answer it once (interactively or with "
            "NBASK_POLICY=recommended) and save nbask.save_history(...) or the answered notebook."
        )
        raise ReplayMissing(msg, asked=question.question)

    # -- approvals -----------------------------------------------------------------------------

    def decision(self, request: ApprovalRequest) -> Decision:
        """The recorded decision for exactly this action and details (answered_by "replay")."""
        approval: Approval = request.approval
        key = (approval.action, approval.details)
        records = self._by_approval.get(key)
        if not records:
            msg = (
                f"replay: no recorded decision for the approval {approval.action!r} with these details in "
                f"{self.source} ({self.size} recorded interactions). Approvals replay only for the exact "
                "action and details a person decided on."
            )
            raise ReplayMissing(msg, asked=approval.action)
        record: _ApprovalRecord = self._take(("approval", *key), records)
        if record.status != "answered":
            return request.ended(record.status, record.reason, "replay")  # type: ignore[arg-type]
        action: Literal["approve", "reject"] = "reject" if record.decision == "reject" else "approve"
        edited = record.edited if record.decision == "edit" else None
        response = ApprovalResponse(action=action, edited_details=edited, reason=record.reason)
        return request.decide(response, answered_by="replay")


def _fits(record: _QuestionRecord, labels: frozenset[str], question: Question) -> bool:
    """A record made with other options still fits if every option it chose is still one
    (and a single-select question gets one choice).
    """
    if record.status != "answered":
        return True
    reply = _reply(question, record)
    count = len(reply.selected) + (reply.other is not None)
    return all(label in labels for label in record.chosen) and (question.multi_select or count <= 1)


def _reply(question: Question, record: _QuestionRecord) -> QuestionReply:
    """The recorded reply for ``question`` as it is now: a written answer that is exactly one
    of its options counts as choosing it (so a hand-written "question -> answer" file works).
    """
    values = {*record.chosen, *record.written}
    selected = tuple(option.label for option in question.options if option.label in values)
    labels = {option.label for option in question.options}
    others = [text for text in record.written if text not in labels]
    other = ANSWER_SEPARATOR.join(others) if others else None
    if not question.multi_select and selected:
        return QuestionReply(selected=selected[:1], other=None)
    return QuestionReply(selected=selected, other=other)
