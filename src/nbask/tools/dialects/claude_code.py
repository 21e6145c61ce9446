"""``AskUserQuestion``: the tool of kimi-cli and Claude Code (seeds 000 and 003), and nbask's own.

Arguments are nbask's schema, ``{"questions": [{"question", "header", "options": [{"label",
"description"}], "multi_select"}]}`` (Claude Code's camelCase ``multiSelect`` is accepted too).
The reply is kimi-cli's: ``{"answers": {question text: answer text}}`` as JSON with non-ASCII
kept; a dismiss is ``{"answers": {}, "note": ...}``, not an error; a timeout adds
``"status": "timeout"``. When a policy or a replay answered, ``answered_by`` and a note say so.
"""

from __future__ import annotations

from typing import Any

from ...models import Answer, QuestionSet
from ..result import ToolResult
from . import guidance
from ._arguments import ArgumentError, Plan, validated_question_set
from ._base import Dialect
from ._replies import answer_for, json_answered, json_dismissed, json_timed_out


class ClaudeCode(Dialect):
    """The AskUserQuestion dialect (see the module docstring)."""

    name = "AskUserQuestion"
    title = "Ask the user"
    origin = "kimi-cli and Claude Code (seeds 000, 003)"
    arguments = QuestionSet
    description = (
        "Ask the person at the notebook 1-4 structured questions and wait for their answers. "
        f"{guidance.WHEN} {guidance.BATCH} {guidance.OPTIONS} "
        "Set multi_select when several options can apply together. Keep each header very short (at most 12 "
        "characters, e.g. 'Auth'). The result is JSON: {\"answers\": {question text: answer}}. "
        f"{guidance.MULTI} {guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        questions = data.get("questions")
        if isinstance(questions, list):
            data = {**data, "questions": [_snake_case(i, q) for i, q in enumerate(questions)]}
        question_set: QuestionSet = _question_set_from(data)
        originals = [q.get("question") if isinstance(q, dict) else None for q in data.get("questions", [])]
        keys = tuple(
            o if isinstance(o, str) else q.question for o, q in zip(originals, question_set.questions, strict=True)
        )
        return Plan(question_set=question_set, keys=keys)

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        answers = {key: answer_for(answer, plan, index) for index, key in enumerate(plan.keys)}
        return json_answered(answer, {"answers": answers})

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_dismissed(answer, {"answers": {}})

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_timed_out(answer, {"answers": {}, "status": "timeout"})


def _snake_case(index: int, question: object) -> object:
    """Claude Code's ``multiSelect`` as nbask's ``multi_select`` (both at once is an error)."""
    if not isinstance(question, dict) or "multiSelect" not in question:
        return question
    if "multi_select" in question:
        raise ArgumentError(f"questions[{index}]: give multi_select or multiSelect, not both")
    return {("multi_select" if key == "multiSelect" else key): value for key, value in question.items()}


def _question_set_from(data: dict[str, Any]) -> QuestionSet:
    """The QuestionSet of the arguments; any top-level field but ``questions`` is an error."""
    extra = [key for key in data if key != "questions"]
    if extra:
        problems = [
            f"{key}: not an input; the person's answers come back in the result, so leave it out"
            if key == "answers"
            else f"{key}: not a field of this tool; remove it"
            for key in extra
        ]
        raise ArgumentError(*problems)
    if "questions" not in data:
        raise ArgumentError("questions: required, but missing (a list of 1-4 questions)")
    return validated_question_set(data["questions"])
