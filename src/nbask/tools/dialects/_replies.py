"""Writing the outcome back as a ``ToolResult``: the answer of each question, the notes every
reply carries (who answered when no person did, why a dismiss is no answer), and the result
wrapping each dialect's own output text, or its JSON payload, in the same way.
"""

from __future__ import annotations

import json
from typing import Any, Final

from ... import config
from ...contract import NO_PREFERENCE
from ...models import Answer
from ..result import ResultStatus, ToolResult
from ._arguments import Plan

DISMISSED_NOTE: Final = (
    "The person dismissed the question(s) without answering. That is not consent and not an answer: "
    "do not assume one; continue with what you know and say what you assumed, or stop and explain what you need."
)
CANCELLED_NOTE: Final = (
    "The question was cancelled before anyone answered (the run was interrupted). Do not assume an answer."
)
DISMISSED_MESSAGE: Final = "User dismissed the question."


# -- what the replies are made of ---------------------------------------------------------------


def dumps(value: object) -> str:
    """JSON as the model reads it: non-ASCII text kept as it is."""
    return json.dumps(value, ensure_ascii=False)


def answer_for(answer: Answer, plan: Plan, index: int) -> str:
    """The answer text of question ``index`` ("[No preference]" when it was left empty)."""
    return answer.answers.get(plan.question_set.questions[index].question, NO_PREFERENCE)


def selections_for(answer: Answer, plan: Plan, index: int) -> list[str]:
    """The chosen values of question ``index``: option labels, then any typed text."""
    return list(answer.selections.get(plan.question_set.questions[index].question, []))


def note_for(answer: Answer, plan: Plan, index: int) -> str:
    """The person's note on question ``index`` ("" when they wrote none)."""
    return answer.notes.get(plan.question_set.questions[index].question, "")


def with_notes(payload: dict[str, Any], answer: Answer, plan: Plan) -> dict[str, Any]:
    """``payload`` with ``"notes": {key: the person's note}`` for the questions that have one."""
    notes = {key: note for index, key in enumerate(plan.keys) if (note := note_for(answer, plan, index))}
    if notes:
        payload["notes"] = notes
    return payload


#: What the model reads of an answer a policy gave. Of the policies only ``recommended`` answers
#: a question (``dismiss`` dismisses it, ``error`` refuses it), so an answer decided by policy is
#: its choice: said from the outcome, never from the policy in force now, it reads the same when
#: the ``replay`` policy gives it back.
POLICY_ANSWER_NOTE: Final = "Answered by nbask's 'recommended' policy, not by a person: no one was asked."


def machine_note(answer: Answer) -> str:
    """Says so when no person decided: the model must be able to tell a policy's answer apart."""
    # A replayed answer reads as it did when recorded (``decided_by``): replay changes nothing the model reads.
    if answer.decided_by == "policy":
        return POLICY_ANSWER_NOTE
    if answer.decided_by == "replay":
        return "Answered from a recorded transcript (replay), not by a person in this run."
    return ""


def shared_user(answer: Answer) -> str | None:
    """The username of who answered, when ``nbask.configure(share_username=True)`` lets the model hear it."""
    return answer.answered_by_user if answer.answered_by_user and config.share_username_in_force() else None


def user_note(answer: Answer) -> str:
    user = shared_user(answer)
    return f"Answered by {user}." if user else ""


def join_notes(*notes: str) -> str:
    return " ".join(note.strip() for note in notes if note and note.strip())


def answer_notes(answer: Answer) -> str:
    """The notes an answer goes back with: its own, and who answered when no person did."""
    return join_notes(answer.note, machine_note(answer), user_note(answer))


def single_question_notes(answer: Answer, plan: Plan) -> str:
    """What a one-question text reply adds after the answer: the person's note on the question,
    then the answer's own notes.
    """
    return join_notes(note_for(answer, plan, 0), answer_notes(answer))


def dismissed_note(answer: Answer) -> str:
    """A person's dismiss is explained here; a policy's dismiss keeps the policy's own note."""
    return DISMISSED_NOTE if answer.decided_by == "person" else answer.note or DISMISSED_NOTE


def answered_message(answer: Answer) -> str:
    return "User has answered." if answer.decided_by == "person" else f"Answered by {answer.decided_by}."


# -- results with the dialect's own output text ---------------------------------------------------


def answered_result(answer: Answer, output: str) -> ToolResult:
    return ToolResult(
        is_error=False, output=output, message=answered_message(answer), status="answered", outcome=answer
    )


def dismissed_result(answer: Answer, output: str, message: str = DISMISSED_MESSAGE) -> ToolResult:
    """A dismiss is not an error: ``output`` says there is no answer."""
    return ToolResult(is_error=False, output=output, message=message, status="dismissed", outcome=answer)


def timed_out_result(answer: Answer, output: str) -> ToolResult:
    return ToolResult(is_error=False, output=output, message=answer.note, status="timeout", outcome=answer)


def error_result(status: ResultStatus, text: str, outcome: Answer | None = None) -> ToolResult:
    """A tool error whose output is the text the model reads."""
    return ToolResult(is_error=True, output=f"Error: {text}", message=text, status=status, outcome=outcome)


def cancelled_result(answer: Answer) -> ToolResult:
    return error_result("cancelled", CANCELLED_NOTE, outcome=answer)


# -- results with a JSON payload: each dialect builds it in its own key order ----------------------


def json_answered(answer: Answer, payload: dict[str, Any]) -> ToolResult:
    """``payload`` plus who answered (when not a person) and the notes."""
    if answer.decided_by != "person":
        payload["answered_by"] = answer.decided_by
    user = shared_user(answer)
    if user:
        payload["answered_by_user"] = user
    note = join_notes(answer.note, machine_note(answer))
    if note:
        payload["note"] = note
    return answered_result(answer, dumps(payload))


def json_dismissed(answer: Answer, payload: dict[str, Any]) -> ToolResult:
    """``payload`` plus the dismiss note."""
    payload["note"] = dismissed_note(answer)
    return dismissed_result(answer, dumps(payload), "User dismissed the question without answering.")


def json_timed_out(answer: Answer, payload: dict[str, Any]) -> ToolResult:
    """``payload`` plus the timeout note (no one answered; assume nothing)."""
    payload["note"] = answer.note
    return timed_out_result(answer, dumps(payload))


class EmptyAnswersOnNoAnswer:
    """For a dialect whose reply is ``{"answers": {...}}``: a dismiss and a timeout carry empty
    answers (a timeout also ``"status": "timeout"``), so the model never reads a guess.
    """

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_dismissed(answer, {"answers": {}})

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return json_timed_out(answer, {"answers": {}, "status": "timeout"})
