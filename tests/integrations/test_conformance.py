"""The conformance suite: every integration in ``nbask.integrations.FRAMEWORKS`` against one
contract (tests/integrations/conformance/contract.py), through its adapter
``conformance/<framework>.py``, which drives the framework's own classes offline.

A framework with no adapter fails; one whose package is not installed here is skipped naming the
environment it runs in (the frameworks of .venvs/agents-more are marked ``agents_more``: the
agents-more suite runs them there). A check an integration fails for a known defect is listed in ``DEFECTS``
(strict xfail: it fails again once fixed, so the entry is removed then).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.person import approve, edit, reject

import nbask
import nbask.api
from nbask.integrations import FRAMEWORKS

from .conformance.contract import (
    ANSWER,
    ARGS,
    BATCH,
    EDITED,
    NUMBER,
    OTHER,
    REASON,
    RECOMMENDED,
    Integration,
    env_of,
    where_it_runs,
)
from .conformance.harness import ASKED_AGAIN_MARK, REPLAY_MISSING_MARK, Who, answer, deadline, ends_with, mentions

#: Integrations the suite does not cover yet (their adapter is ``contract.Pending``).
NO_ADAPTER_YET: frozenset[str] = frozenset()
#: (framework, check) -> the defect that makes it fail, in one line.
DEFECTS: dict[tuple[str, str], str] = {
    ("google_adk", "edit"): (
        "an edit of a require_confirmation call is answered confirmed=False and the model reads only the ADK's "
        "'This tool call is rejected.', not the edited arguments (ToolConfirmation has no field for them)"
    ),
    ("google_adk", "reject"): (
        "the model reads only the ADK's 'This tool call is rejected.', never the person's reason "
        "(ToolConfirmation has no field for it; the reason stays in the history)"
    ),
    ("a2a", "typed"): (
        "the agent receives the integer field as 3.0: a data part is a protobuf Struct, whose numbers are doubles"
    ),
    ("a2a", "asked-again"): (
        "unattended, an unanswered input-required cancels the task (tasks/cancel) and send returns it; "
        "nbask.AskedAgain never ends the run (a repeated ask is caught and cancelled too)"
    ),
    ("acp", "edit"): (
        "an edit of fs/write_text_file changes only the content written: the agent's path (the call's target) "
        "is written, never the edited one"
    ),
    ("ag2", "unattended-question"): (
        "unattended, context.input is refused with AG2's HumanInputNotProvidedError, which ends the turn: "
        "the run does not go on (smolagents' question hands the model a text instead)"
    ),
    ("ag2", "timeout"): (
        "run/run_sync's timeout= never reaches a call gated by requires_approval: the gate waits its own "
        "timeout (nbask's default), so a silent person is waited for far past the run's limit"
    ),
    ("ag2", "batch"): (
        "calls made together are asked by their own hooks side by side, never as one batch: they share a "
        "batch_id only if the first still waits when the next is asked (an answer at once shows them apart)"
    ),
    ("crewai", "asked-again"): (
        "CrewAI swallows a before-tool-call hook's errors (and runs the tool), so the hook turns nbask.AskedAgain "
        "into a blocked call the model reads: the run goes on and ends normally"
    ),
    ("crewai", "replay-missing"): (
        "CrewAI swallows a before-tool-call hook's errors, so a replay miss on a tool call only blocks the call "
        "(logged, the model reads it): nbask.ReplayMissing never ends the run"
    ),
}
#: A person who never answers is waited for this long.
SHORT = 0.3


def cases(check: str) -> list[Any]:
    """Every framework, marked xfail where a defect or a missing adapter makes ``check`` fail."""
    params = []
    for framework in FRAMEWORKS:
        reason = DEFECTS.get((framework, check))
        if framework in NO_ADAPTER_YET:
            reason = "no conformance adapter yet"
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(framework, marks=[*marks, *where_it_runs(framework)], id=framework))
    return params


def adapter_of(framework: str) -> Integration:
    """The framework's adapter; fails when it has none, skips when the framework is not here."""
    name = f"{__package__}.conformance.{framework}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            pytest.fail(f"{framework} has no conformance adapter: write tests/integrations/conformance/{framework}.py")
        pytest.skip(f"{framework} needs {error.name!r}: run this module in {env_of(framework)}")
    adapter = getattr(module, "Adapter", None)
    assert isinstance(adapter, type), f"{name} defines no Adapter"
    assert issubclass(adapter, Integration), f"{name}.Adapter is no Integration"
    assert adapter.framework == framework
    return adapter()


@pytest.fixture
def who(monkeypatch: pytest.MonkeyPatch) -> Who:
    chooser = Who(policies=nbask.resolvers.run.choose_resolver)
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", chooser)
    return chooser


def primary(adapter: Integration) -> Callable[..., Any]:
    """The scenario the unattended, replay and timeout checks run: a tool call, or a question."""
    return adapter.run_tool_call if adapter.has_approvals else adapter.run_question


def requires(adapter: Integration, capability: str) -> None:
    if not getattr(adapter, capability):
        pytest.skip(f"{adapter.framework} has no {capability.removeprefix('has_')} (it declares {capability}=False)")


# -- a person decides --------------------------------------------------------------------------------


@pytest.mark.parametrize("framework", cases("approve"))
def test_approve_runs_the_tool_with_the_models_arguments(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_approvals")
    person = who.answers(approve())
    with deadline():
        run = adapter.run_tool_call()
    assert run.ran == [ARGS]
    assert len(person.approvals) == 1
    assert nbask.history()[-1].answered_by == "person"


@pytest.mark.parametrize("framework", cases("edit"))
def test_edit_runs_the_tool_with_the_edited_arguments_or_tells_the_model(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_approvals")
    person = who.answers(edit(EDITED))
    with deadline():
        run = adapter.run_tool_call()
    if adapter.carries_edits:
        assert run.ran == [EDITED]
        return
    assert ARGS not in run.ran, "an edit the framework cannot carry must not run the call as it was"
    assert mentions(run.read_text, EDITED), f"the model did not read the edited arguments: {run.read!r}"
    if run.ran:  # the model called again with them: that call was asked anew
        assert run.ran == [EDITED]
        assert len(person.approvals) == 2


@pytest.mark.parametrize("framework", cases("reject"))
def test_reject_does_not_run_the_tool_and_the_model_reads_the_reason(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_approvals")
    who.answers(reject(REASON))
    with deadline():
        run = adapter.run_tool_call()
    assert run.ran == []
    assert REASON in run.read_text, f"the model did not read the reason: {run.read!r}"


@pytest.mark.parametrize("framework", cases("question"))
def test_the_persons_answer_reaches_the_framework(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_questions")
    person = who.answers(answer())
    with deadline():
        received = adapter.run_question()
    assert ANSWER in str(received)
    assert "PostgreSQL" not in str(received)
    assert len(person.asked) == 1


@pytest.mark.parametrize("framework", cases("typed"))
def test_a_typed_reply_arrives_with_its_type(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_typed")
    who.answers(answer())
    with deadline():
        received = adapter.run_typed()
    assert received == NUMBER
    assert type(received) is int


# -- unattended -----------------------------------------------------------------------------------


@pytest.mark.parametrize("framework", cases("unattended-approval"))
def test_unattended_an_approval_is_never_approved(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_approvals")
    who.policy("recommended")
    with deadline():
        run = adapter.run_tool_call()
    assert run.ran == []
    entries = nbask.history()
    assert entries, "nothing was asked"
    assert all(e.answered_by == "policy" for e in entries)
    assert all(e.outcome.decision == "reject" for e in entries if e.kind == "approval")


@pytest.mark.parametrize("framework", cases("approvers"))
def test_configured_approvers_reach_every_call_and_no_policy_answers_for_them(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_approvals")
    nbask.configure(approvers=["alice"])  # every approval, whatever its framework titles it
    person = who.answers(approve())
    with deadline():
        adapter.run_tool_call()
    assert person.approvals, "nothing was asked"
    assert all(request.approvers == ("alice",) for request in person.approvals)
    who.policy("recommended")
    before = len(nbask.history())
    with deadline():
        run = adapter.run_tool_call()
    assert run.ran == []
    approvals = [entry for entry in nbask.history()[before:] if entry.kind == "approval"]
    assert approvals, "nothing was asked unattended"
    assert all(entry.outcome.reason.startswith("Only alice may answer") for entry in approvals)


@pytest.mark.parametrize("framework", cases("entry-approvers"))
def test_approvers_given_to_the_integration_hold_what_it_asks(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    person = who.answers(approve() if adapter.has_approvals else answer())
    with deadline():
        primary(adapter)(approvers=["alice", "bob"])
    assert person.asked, "nothing was asked"
    assert all(request.approvers == ("alice", "bob") for request in person.asked)
    if not adapter.has_approvals:
        return
    nbask.configure(approvers=["carol"])  # the integration's own approvers come before the default
    who.policy("recommended")
    before = len(nbask.history())
    with deadline():
        run = adapter.run_tool_call(approvers=["alice"])
    assert run.ran == []
    approvals = [entry for entry in nbask.history()[before:] if entry.kind == "approval"]
    assert approvals, "nothing was asked unattended"
    assert all(entry.outcome.reason.startswith("Only alice may answer") for entry in approvals)


@pytest.mark.parametrize("framework", cases("unattended-question"))
def test_unattended_a_question_gets_the_recommended_option(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_questions")
    who.policy("recommended")
    with deadline():
        received = adapter.run_question()
    if adapter.question_options:
        assert RECOMMENDED in str(received)
    assert [e.answered_by for e in nbask.history()] == ["policy"]


@pytest.mark.parametrize("framework", cases("asked-again"))
def test_unattended_asking_the_same_again_stops_the_run(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    who.policy("recommended")
    if adapter.has_approvals:
        ends_with(nbask.AskedAgain, ASKED_AGAIN_MARK, lambda: adapter.run_tool_call(calls=3))
    else:
        ends_with(nbask.AskedAgain, ASKED_AGAIN_MARK, lambda: adapter.run_question(rounds=3))
    assert [e.answered_by for e in nbask.history()] == ["policy"], "asked once, then stopped"


# -- replay -------------------------------------------------------------------------------------------


def record(adapter: Integration, who: Who, tmp_path: Path) -> tuple[Any, Path]:
    """A person's run, saved; then the replay policy reads it."""
    who.answers(approve() if adapter.has_approvals else answer())
    with deadline():
        outcome = primary(adapter)()
    recording = tmp_path / "recording.jsonl"
    nbask.save_history(recording)
    who.policy("replay", replay_file=str(recording))
    return outcome, recording


@pytest.mark.parametrize("framework", cases("replay"))
def test_replay_repeats_a_persons_run_without_asking(framework: str, who: Who, tmp_path: Path) -> None:
    adapter = adapter_of(framework)
    first, _ = record(adapter, who, tmp_path)
    asked = len(nbask.history())
    with deadline():
        again = primary(adapter)()
    assert again == first
    replayed = nbask.history()[asked:]
    assert replayed, "nothing was replayed"
    assert all(e.answered_by == "replay" for e in replayed)


@pytest.mark.parametrize("framework", cases("replay-missing"))
def test_replay_of_another_call_raises_replay_missing(framework: str, who: Who, tmp_path: Path) -> None:
    adapter = adapter_of(framework)
    record(adapter, who, tmp_path)
    if adapter.has_approvals:
        ends_with(nbask.ReplayMissing, REPLAY_MISSING_MARK, lambda: adapter.run_tool_call(OTHER))
    else:
        other = "Which cache should the app use?"
        ends_with(nbask.ReplayMissing, REPLAY_MISSING_MARK, lambda: adapter.run_question(other))


# -- a timeout, a batch ---------------------------------------------------------------------------------


@pytest.mark.parametrize("framework", cases("timeout"))
def test_no_answer_times_out_and_the_run_goes_on(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    person = who.silent()
    with deadline(10):
        outcome = primary(adapter)(timeout=SHORT)
    assert person.asked, "nothing was asked"
    assert [e.status for e in nbask.history()] == ["timeout"]
    if adapter.has_approvals:
        assert outcome.ran == []


@pytest.mark.parametrize("framework", cases("batch"))
def test_parallel_calls_are_asked_together_and_resumed_once(framework: str, who: Who) -> None:
    adapter = adapter_of(framework)
    requires(adapter, "has_batches")
    person = who.answers(approve(), reject(REASON))
    with deadline():
        run = adapter.run_batch()
    assert len(person.approvals) == len(BATCH)
    batches = {request.batch_id for request in person.approvals}
    assert len(batches) == 1, "the calls were not shown together"
    assert None not in batches, "the calls were not shown together"
    assert run.resumed == 1
    assert len(run.ran) == 1
    assert run.ran[0] in BATCH
