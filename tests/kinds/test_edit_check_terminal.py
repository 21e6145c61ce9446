"""A gated function's edited arguments without a notebook: at a terminal a bad edit is named and
asked again, never run; the 'recommended' policy never runs the call; replay reruns a recorded
edit with its schema. The widget's check is js/kinds/approval/argcheck.ts; the kernel's,
nbask.kinds.approval.edit_check.
"""

from __future__ import annotations

import json
import pathlib
import sys
import textwrap

import pexpect
import pytest
from support.headless import REPO, clean_env

import nbask
from nbask.core.lifecycle import Resolution
from nbask.core.manager import manager

pytestmark = pytest.mark.headless

RESIZE = """
import json, nbask
calls = []

@nbask.requires_approval
def resize(name: str, replicas: int):
    calls.append([name, replicas])
    return f"{name} has {replicas} replicas"

print("RESULT " + json.dumps({"returned": resize("web", 2), "calls": calls}))
"""


def test_the_terminal_names_a_bad_edit_and_asks_again_until_it_fits():
    child = pexpect.spawn(
        sys.executable,
        ["-c", textwrap.dedent(RESIZE)],
        cwd=str(REPO),
        env=clean_env(),
        encoding="utf-8",
        timeout=20,
        echo=False,
    )
    child.expect("nbask: the agent asks for approval: Call resize")
    child.expect_exact("Choose 1-3: ")
    for line in ["2", '{"name": "web", "replicas": "three"}', "."]:
        child.sendline(line)
    child.expect_exact('The edit was not accepted: argument "replicas" must be an integer, not a string.')
    child.expect_exact("Choose 1-3: ")
    for line in ["2", '{"name": "web", "replicas": 3}', "."]:
        child.sendline(line)
    child.expect(r"RESULT (\{.*\})\r?\n")
    assert json.loads(child.match.group(1)) == {"returned": "web has 3 replicas", "calls": [["web", 3]]}
    child.expect(pexpect.EOF)


class Person:
    """Plays the widget's replies (through the same parse as the front end's) in order."""

    def __init__(self, *replies: dict) -> None:
        self.replies = list(replies)
        self.refused: list[str] = []

    def check_available(self, request) -> None:
        del request

    async def resolve(self, resolution: Resolution) -> object:
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution: Resolution) -> object:
        while True:
            try:
                outcome = resolution.request.parse_and_decide(self.replies.pop(0))
            except ValueError as error:
                self.refused.append(str(error))
                continue
            resolution.settle(outcome)
            return resolution.outcome


def reply(edited: str | None) -> dict:
    return {"action": "approve", "edited_details": edited, "reason": "", "view_id": "t", "sent_at_ms": 0}


def test_recommended_never_runs_the_call_and_replay_reruns_a_recorded_edit(monkeypatch, tmp_path: pathlib.Path):
    calls: list[tuple[str, int]] = []

    @nbask.tools.gate
    def resize(name: str, replicas: int) -> str:
        calls.append((name, replicas))
        return f"{name} has {replicas} replicas"

    nbask.configure(policy="recommended")
    assert resize("web", 2).startswith("Not approved: Call resize did not run.")
    assert calls == []

    nbask.configure(policy=None)
    manager().clear_history()
    person = Person(reply('{"name": "web", "replicas": "three"}'), reply('{"name": "web", "replicas": 3}'))
    with monkeypatch.context() as patch:
        patch.setattr("nbask.resolvers.run.choose_resolver", lambda request: person)
        assert resize("web", 2) == "web has 3 replicas"
    refusal = 'The edit was not accepted: argument "replicas" must be an integer, not a string.'
    assert person.refused == [refusal + " Fix the Details, then approve again."]
    asked = nbask.history()[-1].asked
    assert asked["details_schema"]["required"] == ["name", "replicas"], "the history keeps what the edit was checked by"

    path = nbask.save_history(tmp_path / "history.jsonl")
    nbask.configure(policy="replay", replay_file=path)
    assert resize("web", 2) == "web has 3 replicas"
    assert calls == [("web", 3), ("web", 3)]
    assert nbask.history()[-1].outcome.answered_by == "replay"


YES_OR_NO = """
from nbask.kinds.approval.request import approval_request
from nbask.resolvers.run import run_request_sync
decision = run_request_sync(approval_request("Publish the post", "to the blog", edits="off"))
print("RESULT", decision.decision, decision.edited)
"""


def test_at_the_terminal_an_approval_answered_yes_or_no_offers_no_edit():
    child = pexpect.spawn(
        sys.executable, ["-c", YES_OR_NO], cwd=str(REPO), env=clean_env(), encoding="utf-8", timeout=20, echo=False
    )
    child.expect_exact("  1. Approve")
    child.expect_exact("  3. Reject")
    assert "Edit" not in child.before
    child.expect_exact("Choose 1-3: ")
    child.sendline("2")
    child.expect_exact("This approval cannot be edited: type 1 to approve or 3 to reject.")
    child.sendline("1")
    child.expect(r"RESULT approve None")
    child.expect(pexpect.EOF)
