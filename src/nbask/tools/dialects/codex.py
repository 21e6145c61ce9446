"""``request_user_input``: OpenAI Codex's tool (codex-rs ``RequestUserInputArgs``).

Arguments: ``{"questions": [{"id", "header", "question", "options": [{"label", "description"}],
"isOther", "isSecret"}]}``. Codex forces ``isOther`` on (its client adds a free-form choice);
nbask's widget always has one, so the flag is accepted and changes nothing. ``isSecret: true`` is
refused: nbask shows answers in the notebook and keeps them in its history, which is no place for
a secret. Headers over 12 characters are shortened like the 001 dialect's. nbask allows 1-4
questions and 2-4 options (Codex asks for 1-3 and 2-3).

The reply is Codex's ``RequestUserInputResponse``: ``{"answers": {id: {"answers": [...]}}}``,
the chosen labels in option order, then the typed text as ``"user_note: <text>"`` (the prefix
Codex's clients use for free text); a question left empty has an empty list. A dismiss and a
timeout have no answers and a note (``"status": "timeout"`` for the latter).
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import Field

from ...models import Answer, NonEmptyText, StrictModel
from ..result import ToolResult
from . import guidance
from ._arguments import ArgumentError, Plan, header_fields, validate, validated_question_set
from ._base import Dialect
from ._replies import json_answered, json_dismissed, json_timed_out, selections_for

USER_NOTE: Final = "user_note: "


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


class Codex(Dialect):
    """The Codex dialect (see the module docstring)."""

    name = "request_user_input"
    title = "Request user input"
    origin = "OpenAI Codex (codex-rs request_user_input)"
    arguments = CodexArguments
    description = (
        "Request user input for one to four short questions and wait for the response. "
        f"{guidance.WHEN} {guidance.BATCH} {guidance.OPTIONS} "
        "Give every question an id; the answers come back keyed by it, "
        'as {"answers": {id: {"answers": [chosen labels..., "user_note: <typed text>"]}}}; an empty list '
        f"means the question was left empty. {guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        args: CodexArguments = validate(CodexArguments, data)
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
        questions = [
            {
                "question": q.question,
                **header_fields(q.header),
                "options": [{"label": o.label, "description": o.description} for o in q.options],
            }
            for q in args.questions
        ]
        question_set = validated_question_set(questions)
        return Plan(question_set=question_set, keys=tuple(ids))

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        answers = {}
        for index, (key, question) in enumerate(zip(plan.keys, plan.question_set.questions, strict=True)):
            labels = {option.label for option in question.options}
            values = selections_for(answer, plan, index)
            answers[key] = {"answers": [v if v in labels else f"{USER_NOTE}{v}" for v in values]}
        return json_answered(answer, {"answers": answers})

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_dismissed(answer, {"answers": {}})

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_timed_out(answer, {"answers": {}, "status": "timeout"})
