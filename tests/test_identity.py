"""Stamps the server signs and the kernel checks; who may answer a request with approvers."""

from __future__ import annotations

import pytest

from nbask.identity import (
    STAMP_KEY,
    Stamp,
    checked_approvers,
    checked_default,
    default_for,
    refusal,
    signature,
    verify,
    waiting_for,
)

KEY = b"the-kernel-connection-key"
ALICE = Stamp("alice", "Alice A.")


def stamped(msg_id: str = "m1", who: Stamp = ALICE, key: bytes = KEY) -> dict:
    sig = signature(key, msg_id, who)
    return {
        "header": {"msg_id": msg_id, "username": who.username},
        "metadata": {STAMP_KEY: {"username": who.username, "display_name": who.display_name, "sig": sig}},
    }


def test_a_stamp_signed_with_the_kernels_key_verifies() -> None:
    assert verify(stamped(), KEY) == ALICE


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda m: m["metadata"][STAMP_KEY].update(username="bob"), id="another username"),
        pytest.param(lambda m: m["metadata"][STAMP_KEY].update(display_name="Bob"), id="another display name"),
        pytest.param(lambda m: m["header"].update(msg_id="m2"), id="moved to another message"),
        pytest.param(lambda m: m["metadata"][STAMP_KEY].update(sig="0" * 64), id="a made-up signature"),
        pytest.param(lambda m: m["metadata"][STAMP_KEY].pop("sig"), id="no signature"),
        pytest.param(lambda m: m["metadata"].pop(STAMP_KEY), id="no stamp"),
        pytest.param(lambda m: m.pop("metadata"), id="no metadata"),
    ],
)
def test_a_forged_or_moved_stamp_does_not_verify(forge) -> None:
    msg = stamped()
    forge(msg)
    assert verify(msg, KEY) is None


def test_a_stamp_signed_with_another_key_does_not_verify() -> None:
    assert verify(stamped(key=b"a key the page guessed"), KEY) is None


def test_without_a_key_nothing_verifies() -> None:
    # A page can compute an HMAC with an empty key; a kernel without one verifies no one.
    assert verify(stamped(key=b""), b"") is None


def test_who_may_answer() -> None:
    assert refusal(None, "bob", "reported") is None
    assert refusal(("alice",), "alice", "verified") is None
    assert refusal(("alice",), "bob", "verified") == "bob is not one of the approvers (alice)"
    assert "could not be verified" in str(refusal(("alice", "bob"), "alice", "reported"))
    assert "could not be verified" in str(refusal(("alice",), None, "none"))
    assert waiting_for(["alice"]) == "alice"
    assert waiting_for(["alice", "bob"]) == "alice or bob"
    assert waiting_for(["alice", "bob", "carol"]) == "alice, bob or carol"


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        ("alice", TypeError, "not a single string"),
        ([], ValueError, "at least one username"),
        (["alice", " bob"], ValueError, "without surrounding spaces"),
        (["alice", ""], ValueError, "non-empty text"),
        (["alice", 3], ValueError, "non-empty text"),
        (["alice", "alice"], ValueError, "twice"),
        ({"alice": 1}, TypeError, "list of usernames"),
    ],
)
def test_approvers_are_a_list_of_distinct_usernames(value, error, words) -> None:
    with pytest.raises(error, match=words) as caught:
        checked_approvers(value)
    assert "approvers" in str(caught.value)


def test_the_configured_default_by_tool_name() -> None:
    default = checked_default({"shell_*": ["alice"], "*": ["bob"]})
    assert default_for(default, "shell_run") == ("alice",)
    assert default_for(default, "Call shell_run") == ("alice",)  # an integration's title
    assert default_for(default, "Drop table") == ("bob",)
    assert default_for(checked_default(["carol"]), "anything") == ("carol",)
    assert default_for(checked_default({"shell_*": ["alice"]}), "Drop table") is None
    with pytest.raises(ValueError, match=r"approvers\['x'\] must name at least one"):
        checked_default({"x": []})
    with pytest.raises(ValueError, match="glob patterns"):
        checked_default({"": ["alice"]})
