"""``request_user_input``: OpenAI Codex's tool (codex-rs ``RequestUserInputArgs``).

Arguments: ``{"questions": [{"id", "header", "question", "options": [{"label", "description"}],
"isOther", "isSecret"}], "autoResolutionMs"}``. Codex forces ``isOther`` on (its client adds a
free-form choice); nbask's widget always has one, so the flag is accepted and changes nothing.
``isSecret: true`` is refused: nbask shows answers in the notebook and keeps them in its history,
which is no place for a secret. Headers over 12 characters are shortened like the 001 dialect's.
nbask allows 1-4 questions and 2-4 options (Codex asks for 1-3 and 2-4).

``autoResolutionMs`` (optional, a whole number of milliseconds): how long the model is content to
wait before it continues on its own judgment (openai/codex #27256). Like Codex, nbask clamps it to
60000-240000; it becomes the request's time limit in seconds, never longer than the caller's. A
time-out is the reply below, with no answers, as Codex's auto-resolution submits none.

Answers are keyed by id, not by question text, so two questions may share a text here (nbask's
QuestionSet, keyed by text, refuses that): the repeated text is shown with a visible " (2)",
" (3)" ... so the person can tell the questions apart, and the reply maps each back to its id.
An invisible mark would do the same for the keys, but would show the person two identical
questions, and copy and paste would carry it along.

The reply is Codex's ``RequestUserInputResponse``: ``{"answers": {id: {"answers": [...]}}}``,
the chosen labels in option order, then the typed text as ``"user_note: <text>"`` (the prefix
Codex's clients use for free text), then the person's note on the question as one more
``"user_note: <note>"`` (Codex's client appends its notes the same way); a question left empty has
an empty list. The person's note on the whole set is the reply's ``"note"``. A dismiss and a
timeout have no answers and a note (``"status": "timeout"`` for the latter).
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import Field

from ...errors import ArgumentError
from ...models import Answer, NonEmptyText, StrictModel
from ..result import ToolResult
from . import guidance
from ._arguments import Plan, header_fields, validate, validated_question_set
from ._base import Dialect
from ._replies import EmptyAnswersOnNoAnswer, json_answered, note_for, selections_for

USER_NOTE: Final = "user_note: "
#: The auto-resolution window Codex allows, in milliseconds; a value outside is clamped into it.
MIN_AUTO_RESOLUTION_MS: Final = 60_000
MAX_AUTO_RESOLUTION_MS: Final = 240_000


class CodexOption(StrictModel):
    """One choice."""

    label: NonEmptyText = Field(description="User-facing label (1-5 words).")
    description: str = Field(description="One short sentence explaining impact/tradeoff if selected.")


class CodexQuestion(StrictModel):
    """One question; its answer comes back under its id."""

    id: NonEmptyText = Field(description="Stable identifier for mapping answers (snake_case).")
    header: str = Field(description="Short header label shown in the UI (12 or fewer chars).")
    question: NonEmptyText = Field(description="Single-sentence prompt shown to the user.")
    options: list[CodexOption] = Field(
        min_length=2,
        max_length=4,
        description=(
            "Provide 2-4 mutually exclusive choices. Put the recommended option first and suffix its label "
            'with "(Recommended)". Do not include an "Other" option in this list; the client adds a '
            'free-form "Other" option automatically.'
        ),
    )
    isOther: bool = Field(default=True, description="Offer a free-form answer (always on).")  # noqa: N815 - Codex's name
    isSecret: bool = Field(default=False, description="Not supported: answers are shown in the notebook.")  # noqa: N815


class CodexArguments(StrictModel):
    """The arguments of ``request_user_input``."""

    questions: list[CodexQuestion] = Field(
        min_length=1, max_length=4, description="Questions to show the user. Prefer 1 and do not exceed 4."
    )
    autoResolutionMs: Annotated[int, Field(strict=True, gt=0)] | None = Field(  # noqa: N815 - Codex's name
        default=None,
        description=(
            f"Optional auto-resolution window in milliseconds, from {MIN_AUTO_RESOLUTION_MS} to "
            f"{MAX_AUTO_RESOLUTION_MS} (values outside are clamped). Include it only when the question is useful "
            "but not blocking and continuing with your best judgment is acceptable if the user does not answer; "
            "omit it when you need the answer before continuing."
        ),
    )


FORM: Final = (
    '{"questions": [{"id": "snake_case_id", "header": "...", "question": "...", "options": [{"label": "...", '
    '"description": "..."}, ...]}, ...], "autoResolutionMs": 120000} with 1-4 questions, unique ids and 2-4 '
    "options each; autoResolutionMs (60000-240000) is optional"
)
_HINTS = {"autoResolutionMs": "a whole number of milliseconds, 60000-240000; leave it out to wait for the answer"}


def _distinct(texts: list[str]) -> list[str]:
    """The question texts as shown: a repeated text gets " (2)", " (3)" ... (a free one)."""
    taken = set(texts)
    shown: list[str] = []
    for text in texts:
        if text in shown:
            number = 2
            while f"{text} ({number})" in taken:
                number += 1
            text = f"{text} ({number})"  # noqa: PLW2901 - the text as shown
            taken.add(text)
        shown.append(text)
    return shown


class Codex(EmptyAnswersOnNoAnswer, Dialect):
    """The Codex dialect (see the module docstring)."""

    name = "request_user_input"
    replies_in_json = True
    title = "Request user input"
    origin = "OpenAI Codex (codex-rs request_user_input)"
    arguments = CodexArguments
    form = FORM
    description = (
        "Request user input for one to four short questions and wait for the response. "
        f"{guidance.WHEN} {guidance.BATCH} {guidance.OPTIONS} "
        f"Set autoResolutionMs, from {MIN_AUTO_RESOLUTION_MS} to {MAX_AUTO_RESOLUTION_MS} milliseconds, only when "
        "the question is useful but not blocking and continuing with your best judgment is acceptable; omit it "
        "when you need the answer. Give every question an id; the answers come back keyed by it, "
        'as {"answers": {id: {"answers": [chosen labels..., "user_note: <typed text or note>"]}}}; an empty '
        f"list means the question was left empty. {guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        args: CodexArguments = validate(CodexArguments, data, hints=_HINTS)
        ids = [question.id for question in args.questions]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ArgumentError(f"questions[].id: ids must be unique (they key the answers); repeated: {repeated}")
        secret = [f"questions[{i}].isSecret" for i, q in enumerate(args.questions) if q.isSecret]
        if secret:
            raise ArgumentError(
                *(
                    f"{name}: secret input is not supported here: nbask shows answers in the notebook and keeps "
                    "them in its history. Ask the person to set the secret in an environment variable instead"
                    for name in secret
                )
            )
        shown = _distinct([q.question for q in args.questions])
        questions = [
            {
                "question": text,
                **header_fields(q.header),
                "options": [{"label": o.label, "description": o.description} for o in q.options],
            }
            for text, q in zip(shown, args.questions, strict=True)
        ]
        question_set = validated_question_set(questions)
        wait = args.autoResolutionMs
        if wait is not None:
            wait = min(max(wait, MIN_AUTO_RESOLUTION_MS), MAX_AUTO_RESOLUTION_MS)
        return Plan(question_set=question_set, keys=tuple(ids), wait_at_most=None if wait is None else wait / 1000)

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        answers = {}
        for index, (key, question) in enumerate(zip(plan.keys, plan.question_set.questions, strict=True)):
            labels = {option.label for option in question.options}
            values = selections_for(answer, plan, index)
            given = [v if v in labels else f"{USER_NOTE}{v}" for v in values]
            # The person's note goes where Codex's own client puts its notes: one more user_note.
            note = note_for(answer, plan, index)
            answers[key] = {"answers": [*given, f"{USER_NOTE}{note}"] if note else given}
        return json_answered(answer, {"answers": answers})
