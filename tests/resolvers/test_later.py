"""The ``later`` policy and approvers: an inbox answer resolves a request only if it is a
verified answer of one of its approvers; any other keeps it waiting.
"""

from __future__ import annotations

import pathlib

import pytest

import nbask
from nbask.inbox_store import open_inbox
from nbask.replies import ApprovalResponse


def answer_as(location: pathlib.Path, user: str, identity: str) -> None:
    """Approve the request pending in the inbox, as ``user`` known ``identity``."""
    store = open_inbox(location)
    [item] = store.pending()
    assert item.approvers == ("alice",)
    request = item.asked_again()
    assert request is not None
    decided = request.decide(ApprovalResponse("approve"))  # type: ignore[attr-defined]
    store.answer(item.id, decided.model_copy(update={"answered_by_user": user, "identity": identity}))
    store.close()


def test_only_an_approvers_verified_inbox_answer_resolves_it(tmp_path: pathlib.Path):
    location = tmp_path / "inbox.sqlite3"
    nbask.configure(policy="later", inbox=location)
    ask = lambda: nbask.approve_sync("Deploy", "make deploy", approvers=["alice"])  # noqa: E731
    with pytest.raises(nbask.AnswerLater):
        ask()
    answer_as(location, "bob", "verified")
    with pytest.raises(nbask.AnswerLater):  # bob's answer does not count: it waits again
        ask()
    answer_as(location, "alice", "reported")
    with pytest.raises(nbask.AnswerLater):  # nor does a name no one vouched for
        ask()
    answer_as(location, "alice", "verified")
    decision = ask()
    assert (decision.decision, decision.answered_by, decision.answered_by_user) == ("approve", "inbox", "alice")
    assert decision.identity == "verified"
    assert [(refused.user, refused.identity) for refused in decision.refused or []] == [
        ("bob", "verified"),
        ("alice", "reported"),
    ]
