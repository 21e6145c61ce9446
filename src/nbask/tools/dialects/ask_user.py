"""``ask_user(question, choices, allow_freeform)``: the Go desktop app's tool (seed 002).

One question; ``choices`` become its options (numbered in the widget, keys 1-4) and the free-text
box is always there. The seed makes ``choices`` optional, but nbask shows a question as 2-4
options plus that box, so here ``choices`` is required (2-4) and a call without them gets an
error that says what to send. ``allow_freeform: false`` is accepted; the widget still offers the
box, and whatever the person types is the answer.

The reply is the answer text itself, as the seed's agent loop writes it into the tool result.
A dismiss and a timeout say in words that there is no answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ...models import Answer
from ..result import ToolResult
from . import guidance
from ._base import Dialect, Location, Plan, answer_for, build_question_set, join_notes, machine_note, validate, where

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class AskUserArguments(BaseModel):
    """The arguments of ``ask_user``."""

    model_config = ConfigDict(extra="forbid")

    question: _Text = Field(description="The question for the user: what you need decided, and why.")
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


def _locate(loc: Location) -> str:
    """Map nbask's names for the one question to this tool's fields."""
    if loc[:3] == ("questions", 0, "options"):
        return where(("choices", *loc[3:4]))
    if loc[:3] == ("questions", 0, "question"):
        return "question"
    return where(loc)


class AskUser(Dialect):
    """The 002 dialect (see the module docstring)."""

    name = "ask_user"
    title = "Ask the user"
    origin = "a Go desktop app's agent loop (seed 002)"
    arguments = AskUserArguments
    description = (
        "Pause and ask the user one question when you cannot decide on your own, with 2-4 suggested answers "
        f"as numbered choices; the user picks one or types their own. {guidance.WHEN} "
        f"{guidance.NO_OTHER} {guidance.RECOMMENDED} The result is the user's answer as text. "
        f"{guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        args: AskUserArguments = validate(AskUserArguments, data, hints=_HINTS)
        question = {"question": args.question, "options": [{"label": choice} for choice in args.choices]}
        question_set = build_question_set([question], _locate, _HINTS)
        return Plan(question_set=question_set, keys=(args.question,))

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        text = answer_for(answer, plan, 0)
        note = join_notes(answer.note, machine_note(answer))
        output = f"{text}\n\n({note})" if note else text
        message = self.answered_message(answer)
        return ToolResult(is_error=False, output=output, message=message, status="answered", outcome=answer)

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        note = self.dismissed_note(answer)
        return ToolResult(
            is_error=False, output=note, message="User dismissed the question.", status="dismissed", outcome=answer
        )

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return ToolResult(is_error=False, output=answer.note, message=answer.note, status="timeout", outcome=answer)
