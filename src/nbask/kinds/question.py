"""The question kind: 1-4 questions with 2-4 options each and a free "Other" text, answered
with an ``Answer``. Its request, widget, summary, terminal prompt, unattended answer and replay.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import traitlets

from ..contract import ANSWER_SEPARATOR, MAX_OTHER_CHARS, NO_PREFERENCE, agent_text
from ..core.history import HistoryEntry, Recording, asked_again, json_text, register_replay_reader
from ..core.lifecycle import Ending, Request, Resolution
from ..errors import ReplayMissing
from ..markdown import by_whom, escape_markdown, first_line
from ..models import Answer, AnsweredBy, Question, QuestionSet, one_question_set
from ..replies import QuestionReply, QuestionResponse, parse_question_response
from ..terminal import Dismissed, Terminal, printable
from ..widget import InteractionWidget
from ._kind import RequestKind, quoted
from ._question_replay import entries_from_answer_map

# -- the request ------------------------------------------------------------------------------


@dataclass
class QuestionRequest(Request[Answer]):
    """Asks a QuestionSet; decides an Answer."""

    kind: ClassVar[str] = "question"
    question_set: QuestionSet = field(kw_only=True)
    #: The arguments of the one-question shorthand, ``(question, option labels, header,
    #: multi_select)``, when the set was made by it from labels alone: what the history keeps
    #: instead of the set's JSON (smaller, and cheaper on every headless ask).
    shorthand: tuple[str, tuple[str, ...], str, bool] | None = field(default=None, kw_only=True)

    def asked(self) -> dict[str, Any]:
        return self.question_set.model_dump()

    def headline(self) -> str:
        first = self.question_set.questions[0].question
        more = len(self.question_set.questions) - 1
        return first_line(first) + (f" (and {more} more)" if more else "")

    def asked_json(self) -> str:
        return json_text(self.question_set)

    def kept_asked(self) -> str | tuple[Any, ...]:
        return self.asked_json() if self.shorthand is None else self.shorthand

    def parse_and_decide(self, raw: dict[str, Any]) -> Answer:
        return self.decide(parse_question_response(raw, self.question_set))

    def decide(self, response: QuestionResponse, answered_by: AnsweredBy = "person") -> Answer:
        if response.action == "dismiss":
            return self.ended("dismissed", agent_text("question_dismissed"), answered_by)
        selections: dict[str, list[str]] = {}
        notes: dict[str, str] = {}
        for question, reply in zip(self.question_set.questions, response.replies, strict=True):
            selections[question.question] = [*reply.selected, *([reply.other] if reply.other is not None else [])]
            if reply.note:
                notes[question.question] = reply.note
        return self.answered(selections, notes, response.note, answered_by)

    def answered(
        self, selections: dict[str, list[str]], notes: dict[str, str], note: str, answered_by: AnsweredBy
    ) -> Answer:
        """The Answer giving each question the values ``selections`` holds under its text (in
        the set's order; empty: no preference), with the person's ``notes`` per question and
        ``note`` on the whole set.
        """
        answers: dict[str, str] = {}
        skipped = 0
        for text, values in selections.items():
            answers[text] = ANSWER_SEPARATOR.join(values) if values else NO_PREFERENCE
            skipped += not values
        # The person's own words first; nbask's remark about empty questions after them.
        if skipped:
            remark = agent_text("left_empty", count=skipped)
            note = f"{note}\n\n{remark}" if note else remark
        fields = self._ids(answered_by)
        fields.update(status="answered", answers=answers, selections=selections, notes=notes, note=note)
        return Answer.built(fields)

    def ended(self, status: Ending | Literal["dismissed"], note: str, answered_by: AnsweredBy = "person") -> Answer:
        return Answer(status=status, note=note, **self._ids(answered_by))


# -- the widget -------------------------------------------------------------------------------


class QuestionWidget(InteractionWidget[Answer]):
    """Shows 1-4 questions and resolves with the person's answer.

    Example::

        w = nbask.QuestionWidget(questions=[{"question": "Proceed?",
                                             "options": [{"label": "Yes"}, {"label": "No"}]}])
        display(w)
        answer = await w.await_answer(timeout=None)
    """

    # Mirrored by QuestionModel in js/contract.ts.
    questions = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(
        self,
        *,
        questions: list[Question] | list[dict[str, Any]] | QuestionSet | None = None,
        tool_call_id: str | None = None,
        resolution: Resolution[Answer] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if questions is None:
                msg = "QuestionWidget needs questions=[...] (or a resolution of a QuestionRequest)"
                raise TypeError(msg)
            question_set = questions if isinstance(questions, QuestionSet) else QuestionSet(questions=questions)
            resolution = Resolution(QuestionRequest(question_set=question_set, tool_call_id=tool_call_id))
        if not isinstance(resolution.request, QuestionRequest):
            msg = "QuestionWidget shows question requests only"
            raise TypeError(msg)
        self.question_set = resolution.request.question_set
        super().__init__(resolution, questions=[q.model_dump() for q in self.question_set.questions], **traits)

    def result_for(self, outcome: Answer) -> dict[str, Any]:
        return {"answers": outcome.answers, "notes": outcome.notes, "note": outcome.note}


# -- the summary ------------------------------------------------------------------------------


def questions_markdown(question_set: QuestionSet, answer: Answer | None) -> str:
    """Each question with its answer (or the status it ended with)."""
    status = answer.status + by_whom(answer) if answer else "pending"
    lines = [f"**nbask** ({status})", ""]
    for question in question_set.questions:
        given = answer.answers.get(question.question) if answer else None
        line = f"- {escape_markdown(question.question)}"
        lines.append(line + (f" — **{escape_markdown(given)}**" if given else ""))
        noted = answer.notes.get(question.question) if answer else None
        if noted:
            lines.append(f"  - Note: {escape_markdown(noted)}")
    if answer and answer.note:
        lines += ["", escape_markdown(answer.note)]
    return "\n".join(lines)


# -- the terminal prompt ----------------------------------------------------------------------


def ask_at_terminal(term: Terminal, request: QuestionRequest) -> Answer:
    """Numbered options, then Other (a typed answer) and Skip (no preference); a multi-select
    question takes several numbers (``1,3``); ``d`` or Ctrl-D dismisses the whole set.
    """
    questions = request.question_set.questions
    term.say("")
    term.say(
        f"nbask: the agent asks {len(questions)} question{'s' * (len(questions) > 1)}"
        + term.tool_call(request.tool_call_id)
    )
    replies = []
    try:
        for number, question in enumerate(questions, start=1):
            replies.append(_ask_one(term, question, number, len(questions)))
    except (Dismissed, EOFError):
        term.say("(dismissed)")
        return request.decide(QuestionResponse(action="dismiss"))
    answer = request.decide(QuestionResponse(action="submit", replies=tuple(replies)))
    for text, given in answer.answers.items():  # each question by its first line
        term.say(f"  {printable(text.split(chr(10))[0])} -> {printable(given)}")
    return answer


def _ask_one(term: Terminal, question: Question, number: int, count: int) -> QuestionReply:
    header = f" [{printable(question.header)}]" if question.header else ""
    term.say("")
    # Line breaks in the question (a framework's message above the draft it quotes) stay line
    # breaks; every other control character is shown escaped.
    first, *rest = printable(question.question, keep_newlines=True).split("\n")
    term.say(f"({number}/{count}){header} {first}")
    for line in rest:
        term.say(f"    {line}" if line else "")
    for index, option in enumerate(question.options, start=1):
        description = f" - {printable(option.description)}" if option.description else ""
        term.say(f"  {index}. {printable(option.label)}{description}")
    other, skip = len(question.options) + 1, len(question.options) + 2
    term.say(f"  {other}. Other (type your own answer)")
    term.say(f"  {skip}. Skip (no preference)")
    how = f"one or more of 1-{skip}, e.g. 1,{other}" if question.multi_select else f"1-{skip}"
    while True:
        raw = term.line(f"Choose {how} (d dismisses): ").strip().lower()
        if raw in ("d", "dismiss"):
            raise Dismissed
        picks = _numbers(raw)
        if picks is None or not picks or any(not 1 <= pick <= skip for pick in picks):
            term.say(f"Please type {'numbers' if question.multi_select else 'a number'} from 1 to {skip}, or d.")
            continue
        if skip in picks:
            if len(picks) > 1:
                term.say("Skip cannot be combined with other choices.")
                continue
            return QuestionReply(selected=(), other=None)
        if not question.multi_select and len(picks) > 1:
            term.say("This question takes one choice.")
            continue
        text = (term.limited_line("Your answer: ", MAX_OTHER_CHARS) or None) if other in picks else None
        chosen = {question.options[pick - 1].label for pick in picks if pick != other}
        selected = tuple(option.label for option in question.options if option.label in chosen)
        if other in picks and text is None and not selected:
            continue  # an empty Other and nothing else: ask again
        return QuestionReply(selected=selected, other=text)


def _numbers(raw: str) -> list[int] | None:
    parts = [part for part in raw.replace(",", " ").split() if part]
    if not all(part.isdigit() for part in parts):
        return None
    return sorted({int(part) for part in parts})


# -- replay -----------------------------------------------------------------------------------
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


# -- the kind ---------------------------------------------------------------------------------


class QuestionKind(RequestKind[QuestionRequest, Answer], widget=QuestionWidget):
    """Questions: the widget, the summary, the prompt; unattended, each "(Recommended)" option."""

    def summary(self, request: QuestionRequest, outcome: Answer | None) -> str:
        return questions_markdown(request.question_set, outcome)

    def console_prompt(self, term: Terminal, request: QuestionRequest) -> Answer:
        return ask_at_terminal(term, request)

    def recommended(self, request: QuestionRequest) -> Answer:
        """Each question's "(Recommended)" option, else its first."""
        selections = {question.question: [question.recommended_label()] for question in request.question_set.questions}
        return request.answered(selections, {}, "", "policy")

    def asked_from(self, kept: tuple[Any, ...]) -> dict[str, Any]:
        """The set the shorthand's arguments made, validated again (as it was when asked)."""
        question, labels, header, multi_select = kept
        return one_question_set(question, labels, header=header, multi_select=multi_select).model_dump()

    def request_of(self, asked: dict[str, Any]) -> QuestionRequest:
        return QuestionRequest(question_set=QuestionSet.model_validate(asked))

    def replayed(self, request: QuestionRequest, recording: Recording) -> Answer:
        return replay_answer(request, recording)

    def late_answer_text(self, asked: dict[str, Any], outcome: Answer) -> str:  # noqa: ARG002 - the answer names its questions
        given = "; ".join(f"{quoted(q)} -> {quoted(a)}" for q, a in outcome.answers.items())
        what = f"answered an earlier question after it had timed out: {given}."
        if outcome.notes:
            notes = "; ".join(f"{quoted(q)} -> {quoted(n)}" for q, n in outcome.notes.items())
            what += f" Their notes: {notes}."
        if outcome.note:
            what += f" Note: {quoted(outcome.note)}."
        return what
