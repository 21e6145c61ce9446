"""``ask_user(question, choices, allow_freeform)``: the Go desktop app's tool.

One question; ``choices`` become its options (numbered in the widget, keys 1-4) and the free-text
box is always there. The tool makes ``choices`` optional, but nbask shows a question as 2-4
options plus that box, so here ``choices`` is required (2-4) and a call without them gets an
error that says what to send. ``allow_freeform: false`` is accepted; the widget still offers the
box, and whatever the person types is the answer.

The reply is the answer text itself, as that app's agent loop writes it into the tool result.
A dismiss and a timeout say in words that there is no answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ...models import Answer, NonEmptyText, StrictModel
from ..result import ToolResult
from . import _replies as replies
from . import guidance
from ._arguments import Plan, one_question_locator, validate, validated_question_set
from ._base import Dialect


class AskUserArguments(StrictModel):
    """The arguments of ``ask_user``."""

    question: NonEmptyText = Field(description="The question for the user: what you need decided, and why.")
    choices: list[str] = Field(
        min_length=2,
        max_length=4,
        description="2-4 suggested answers, shown as numbered buttons. Do not add 'Other'.",
    )
    allow_freeform: bool = Field(
        default=True, description="Whether the user may type an answer of their own (nbask always lets them)."
    )


_HINTS = {
    "choices": "give 2-4 likely answers; the user can still type their own",
}


_locate = one_question_locator("choices")


class AskUser(Dialect):
    """The 002 dialect (see the module docstring)."""

    name = "ask_user"
    title = "Ask the user"
    origin = "a Go desktop app's agent loop"
    arguments = AskUserArguments
    form = '{"question": "...", "choices": ["...", "..."], "allow_freeform": true} with 2-4 choices'
    description = (
        "Pause and ask the user one question when you cannot decide on your own, with 2-4 suggested answers "
        f"as numbered choices; the user picks one or types their own. {guidance.WHEN} "
        f"{guidance.NO_OTHER} {guidance.RECOMMENDED} The result is the user's answer as text. "
        f"{guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        args: AskUserArguments = validate(AskUserArguments, data, hints=_HINTS)
        question = {"question": args.question, "options": [{"label": choice} for choice in args.choices]}
        question_set = validated_question_set([question], _locate, _HINTS)
        return Plan(question_set=question_set, keys=(args.question,))

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        text = replies.answer_for(answer, plan, 0)
        note = replies.single_question_notes(answer, plan)
        return replies.answered_result(answer, f"{text}\n\n({note})" if note else text)

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return replies.dismissed_result(answer, replies.dismissed_note(answer))

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return replies.timed_out_result(answer, answer.note)
