"""The seam's bound on unattended runs: the same caller asking again, in the same run, what was
decided without a person raises ``nbask.AskedAgain`` instead of answering again.
"""

from __future__ import annotations

import asyncio
import pathlib

import pytest
from support.person import Person, approve

import nbask
from nbask.integrations import _seam
from nbask.kinds import QuestionRequest
from nbask.models import Answer, one_question_set


def _review(draft: str) -> _seam.Asking[str]:
    """A content review as the frameworks ask it: the draft quoted after the question."""
    question = one_question_set(f"Is this draft ready?\n\n{draft}", ["Approved", "Needs revision (Recommended)"])
    answer = yield QuestionRequest(question_set=question, timeout=5)
    assert isinstance(answer, Answer)
    return next(iter(answer.selections.values()))[0] if answer.status == "answered" else ""


def _review_loop(rounds: int) -> _seam.Asking[list[str]]:
    """A framework loop that asks again after each revision, at most ``rounds`` times."""
    said = []
    for round_ in range(rounds):
        said.append((yield from _review(f"draft {round_}")))
        if said[-1] == "Approved":
            break
    return said


def test_a_callback_asked_again_in_one_run_under_a_policy_stops_the_run() -> None:
    nbask.configure(policy="recommended")
    assert _seam.drive_sync(_review("draft 1")) == "Needs revision (Recommended)"
    with pytest.raises(nbask.AskedAgain, match="asked again what was already decided without a person") as raised:
        _seam.drive_sync(_review("draft 2: the model revised it"))
    assert raised.value.asked.startswith("Is this draft ready?")
    assert isinstance(raised.value, nbask.NbaskError)
    # The history says a policy decided the first round; the second was never answered.
    assert [entry.outcome.answered_by for entry in nbask.history()] == ["policy"]


def test_an_entry_point_run_is_bounded_and_its_own_run() -> None:
    nbask.configure(policy="recommended")
    run, run_sync = _seam.twins(_review_loop, "run", "The blocking twin.")
    del run
    with pytest.raises(nbask.AskedAgain):
        run_sync(100)
    assert len(nbask.history()) == 1
    # A new run of the entry point starts afresh: its first round is answered again.
    with pytest.raises(nbask.AskedAgain):
        run_sync(100)
    assert len(nbask.history()) == 2


def test_the_awaited_drive_is_bounded_too() -> None:
    nbask.configure(policy="dismiss")

    async def twice() -> None:
        await _seam.drive(_review("draft 1"))
        await _seam.drive(_review("draft 1"))

    with pytest.raises(nbask.AskedAgain):
        asyncio.run(twice())


def test_different_questions_and_different_callers_are_not_the_same() -> None:
    nbask.configure(policy="recommended")
    ask = _seam.ask(QuestionRequest(question_set=one_question_set("Colour?", ["Red", "Blue"]), timeout=5))
    _seam.drive_sync(ask)
    _seam.drive_sync(_review("draft"))  # another caller, another question


def test_a_persons_answers_and_a_replay_are_never_taken_for_a_loop(
    person: Person, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    person.answers(approve())
    for round_ in range(3):
        decision = _seam.drive_sync(_seam.ask(_seam.approval("Call deploy", f"round {round_}", timeout=5)))
        assert decision.decision == "approve"
    path = nbask.save_history(tmp_path / "rounds.jsonl")
    monkeypatch.undo()  # the policy in force decides again, not the scripted person
    nbask.configure(policy="replay", replay_file=str(path))
    for round_ in range(3):
        decision = _seam.drive_sync(_seam.ask(_seam.approval("Call deploy", f"round {round_}", timeout=5)))
        assert decision.decision == "approve"
        assert decision.answered_by == "replay"


def test_a_refusal_for_want_of_anyone_to_ask_is_bounded_too() -> None:
    nbask.configure(policy="error")
    decision = _seam.drive_sync(_seam.ask(_seam.approval("Call deploy", "x", timeout=5)))
    assert decision.decision == "reject"
    with pytest.raises(nbask.AskedAgain, match="'Call deploy'"):
        _seam.drive_sync(_seam.ask(_seam.approval("Call deploy", "x", timeout=5)))
