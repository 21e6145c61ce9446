"""``AskUserQuestion``: the tool of kimi-cli and Claude Code, and nbask's own.

Arguments are nbask's schema, ``{"questions": [{"question", "header", "options": [{"label",
"description"}], "multi_select"}]}`` (Claude Code's camelCase ``multiSelect`` is accepted too).
Claude Code's other inputs are accepted as well (its AskUserQuestion schema, as bundled with the
claude-agent-sdk): an option's ``preview`` (a mockup or snippet shown while the option is focused)
is shown beside the options as monospace text; one over 2000 characters is left out, as Claude
Code withholds it; the top-level ``metadata`` (``{"source": ...}``, for analytics, never shown) is kept
in the plan and changes nothing. ``answers`` and ``annotations`` are what the person's answer
fills in, so a call that sends them is told to leave them out.
The reply is kimi-cli's: ``{"answers": {question text: answer text}}`` as JSON with non-ASCII
kept, plus ``"notes": {question text: note}`` for the questions the person wrote a note on and
their note on the whole set in ``"note"``; a dismiss is ``{"answers": {}, "note": ...}``, not an error; a timeout adds
``"status": "timeout"``. When a policy or a replay answered, ``answered_by`` and a note say so.
"""

from __future__ import annotations

from typing import Any

from ...contract import MAX_PREVIEW_CHARS
from ...errors import ArgumentError
from ...models import Answer, QuestionSet
from ..result import ToolResult
from . import guidance
from ._arguments import Plan, renamed_key, validated_question_set
from ._base import Dialect
from ._replies import EmptyAnswersOnNoAnswer, answer_for, json_answered, with_notes


class ClaudeCode(EmptyAnswersOnNoAnswer, Dialect):
    """The AskUserQuestion dialect (see the module docstring)."""

    name = "AskUserQuestion"
    replies_in_json = True
    title = "Ask the user"
    origin = "kimi-cli and Claude Code"
    arguments = QuestionSet
    form = (
        '{"questions": [{"question": "...", "header": "...", "options": [{"label": "...", "description": "..."}, '
        '...], "multi_select": false}, ...]} with 1-4 questions, 2-4 options each and headers of at most 12 '
        "characters"
    )
    description = (
        "Ask the person at the notebook 1-4 structured questions and wait for their answers. "
        f"{guidance.WHEN} {guidance.BATCH} {guidance.OPTIONS} "
        "Set multi_select when several options can apply together. Keep each header very short (at most 12 "
        "characters, e.g. 'Auth'). The result is JSON: {\"answers\": {question text: answer}}. "
        f"{guidance.MULTI} {guidance.SILENCE}"
    )

    def parse(self, data: dict[str, Any]) -> Plan:
        data = dict(data)
        metadata = data.pop("metadata", None)
        if metadata is not None and not isinstance(metadata, dict):
            raise ArgumentError('metadata: must be an object such as {"source": "..."}, or left out')
        questions = data.get("questions")
        if isinstance(questions, list):
            snake = [renamed_key(i, q, "multiSelect", "multi_select") for i, q in enumerate(questions)]
            data["questions"] = [_without_long_previews(q) for q in snake]
        question_set: QuestionSet = _question_set_from(data)
        originals = [q.get("question") if isinstance(q, dict) else None for q in data.get("questions", [])]
        keys = tuple(
            o if isinstance(o, str) else q.question for o, q in zip(originals, question_set.questions, strict=True)
        )
        return Plan(question_set=question_set, keys=keys, extra={"metadata": metadata} if metadata else {})

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        answers = {key: answer_for(answer, plan, index) for index, key in enumerate(plan.keys)}
        return json_answered(answer, with_notes({"answers": answers}, answer, plan))


def _without_long_previews(question: object) -> object:
    """The question with each option's ``preview`` over the limit left out (Claude Code withholds
    such a preview instead of refusing the call); a preview that is not text stays, to be refused.
    """
    if not isinstance(question, dict) or not isinstance(question.get("options"), list):
        return question
    options = [
        {key: value for key, value in option.items() if key != "preview"}
        if isinstance(option, dict)
        and isinstance(option.get("preview"), str)
        and len(option["preview"]) > MAX_PREVIEW_CHARS
        else option
        for option in question["options"]
    ]
    return {**question, "options": options}


def _question_set_from(data: dict[str, Any]) -> QuestionSet:
    """The QuestionSet of the arguments; any top-level field but ``questions`` is an error."""
    extra = [key for key in data if key != "questions"]
    if extra:
        problems = [
            f"{key}: not an input; the person's answers come back in the result, so leave it out"
            if key in ("answers", "annotations")
            else f"{key}: not a field of this tool; remove it"
            for key in extra
        ]
        raise ArgumentError(*problems)
    if "questions" not in data:
        raise ArgumentError("questions: required, but missing (a list of 1-4 questions)")
    return validated_question_set(data["questions"])
