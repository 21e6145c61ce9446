"""Replay's rules: each recorded outcome is used once, in order; a replayed outcome reads to the
model as it did live; approvals recorded in another checkout still match; pages are never opened.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

import nbask
from nbask.kinds.form.request import url_request
from nbask.resolvers.run import run_request_sync
from nbask.tools.function import rejection_text
from resolvers.test_policies import ScriptedPerson


def test_replay_of_a_loop_that_re_asks_until_valid_ends(tmp_path: pathlib.Path):
    # A run that re-asks until the answer validates: replay gives each recorded answer once, so
    # it reaches the valid one; a recording of invalid answers only ends in a miss, never a loop.
    path = tmp_path / "ages.jsonl"
    schema = {"type": "object", "properties": {"age": {"type": "string", "title": "Age"}}, "required": ["age"]}

    def ask_age() -> int:
        for _ in range(50):  # the run's own guard, far above what replay needs
            text = str(nbask.ask_form_sync("What is your age?", schema).values["age"])
            if text.isdigit():
                return int(text)
        raise AssertionError("replay handed out the same invalid answer again and again")

    typed = iter(["forty", "41"])
    with ScriptedPerson(lambda: {"action": "submit", "values": {"age": next(typed)}}):
        assert ask_age() == 41
    nbask.save_history(path)
    nbask.configure(policy="replay", replay_file=path)
    assert ask_age() == 41
    only_invalid = tmp_path / "invalid.jsonl"
    only_invalid.write_text(path.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    nbask.configure(replay_file=only_invalid)
    with pytest.raises(nbask.ReplayMissing, match="asked again"):
        ask_age()


def test_a_replayed_rejection_reads_to_the_model_as_the_person_s_own(tmp_path: pathlib.Path):
    path = tmp_path / "decisions.jsonl"
    with ScriptedPerson(lambda: {"action": "reject", "reason": "not on a Friday"}):
        live = nbask.approve_sync("Deploy", "make deploy")
    nbask.save_history(path)
    nbask.configure(policy="replay", replay_file=path)
    replayed = nbask.approve_sync("Deploy", "make deploy")
    assert (replayed.answered_by, replayed.recorded_by) == ("replay", "person")
    live_text = rejection_text(nbask.ApprovalRejected(live, "Deploy"))
    assert "The person rejected it. Reason: not on a Friday." in live_text
    assert rejection_text(nbask.ApprovalRejected(replayed, "Deploy")) == live_text


def test_a_replayed_answer_reads_to_the_model_as_it_did_live(tmp_path: pathlib.Path):
    arguments = {"questions": [{"question": "Which region?", "header": "Region", "options": [
        {"label": "eu-west"}, {"label": "us-east"}]}]}  # fmt: skip
    with ScriptedPerson(lambda: {"action": "submit", "answers": [{"selected": ["us-east"]}]}):
        live = nbask.tools.call_sync(arguments)
    path = nbask.save_history(tmp_path / "answers.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    replayed = nbask.tools.call_sync(arguments)
    assert replayed.outcome is not None
    assert replayed.outcome.answered_by == "replay"
    assert (replayed.output, replayed.message) == (live.output, live.message)


def test_a_policy_s_recorded_decision_still_reads_as_the_policy_s(tmp_path: pathlib.Path):
    nbask.configure(policy="recommended")
    live = nbask.approve_sync("Deploy", "make deploy")
    path = nbask.save_history(tmp_path / "policy.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    replayed = nbask.approve_sync("Deploy", "make deploy")
    assert replayed.recorded_by == "policy"
    assert "rejected by policy, not by a person" in rejection_text(nbask.ApprovalRejected(replayed, "Deploy"))
    assert live.decided_by == replayed.decided_by == "policy"


def test_an_approval_recorded_in_another_checkout_matches_with_its_paths_moved(tmp_path: pathlib.Path, monkeypatch):
    recorded_in = tmp_path / "alice" / "project"
    replayed_in = tmp_path / "ci" / "checkout"
    for folder in (recorded_in, replayed_in):
        folder.mkdir(parents=True)

    def details(root: pathlib.Path, rows: int = 10) -> str:
        return json.dumps({"path": str(root / "data" / "sales.csv"), "rows": rows}, indent=2)

    monkeypatch.chdir(recorded_in)
    with ScriptedPerson(lambda: {"action": "approve", "edited_details": details(recorded_in, rows=5)}):
        nbask.approve_sync("Load a file", details(recorded_in))
    path = nbask.save_history(tmp_path / "moved.jsonl")
    assert json.loads(path.read_text().splitlines()[0])["workdir"] == str(recorded_in)
    monkeypatch.chdir(replayed_in)
    nbask.configure(policy="replay", replay_file=path)
    decision = nbask.approve_sync("Load a file", details(replayed_in))
    assert decision.decision == "edit"
    assert json.loads(decision.edited or "") == {"path": str(replayed_in / "data" / "sales.csv"), "rows": 5}
    # A path outside the recorded folder must match exactly; the miss says where they differ.
    outside = json.dumps({"path": "/srv/other/sales.csv", "rows": 10}, indent=2)
    with pytest.raises(nbask.ReplayMissing) as caught:
        nbask.approve_sync("Load a file", outside)
    message = str(caught.value)
    assert "differ at line 2" in message
    assert "/srv/other/sales.csv" in message
    assert f"recorded in {recorded_in}, replayed in {replayed_in}" in message
    assert os.fspath(replayed_in) in message


def test_a_replayed_page_request_is_declined_whatever_was_recorded(tmp_path: pathlib.Path):
    with ScriptedPerson(lambda: {"action": "submit", "values": {}}):
        opened = run_request_sync(url_request("Sign in to continue", "https://example.org/login"))
    assert opened.action == "accept"
    path = nbask.save_history(tmp_path / "opened.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    replayed = run_request_sync(url_request("Sign in to continue", "https://example.org/login"))
    assert (replayed.action, replayed.answered_by) == ("decline", "replay")
    assert "never opens a page" in replayed.note
    # Not recorded at all: still declined, not a miss (no page is opened unattended).
    unrecorded = run_request_sync(url_request("Another page", "https://example.org/other"))
    assert unrecorded.action == "decline"


def test_a_dismissal_by_a_policy_reads_as_the_policy_s_not_the_person_s(tmp_path: pathlib.Path):
    nbask.configure(policy="dismiss")
    live = nbask.approve_sync("Deploy", "make deploy")
    text = rejection_text(nbask.ApprovalRejected(live, "Deploy"))
    assert "It was dismissed by policy, not by a person." in text
    assert "The person" not in text
    path = nbask.save_history(tmp_path / "dismissed.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    replayed = nbask.approve_sync("Deploy", "make deploy")
    assert rejection_text(nbask.ApprovalRejected(replayed, "Deploy")) == text
