"""Late answers and who answered, in the kernel: the widget's response after a timeout, the
history, ``nbask.late_answers()``, the saved records and replay, the username from a message
header or the front end's identity, and ``share_username``.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterator
from typing import Any

import pytest

import nbask
from nbask import config
from nbask.core.history import LATE_RECORD_KEY, RECORD_KEY, Recording, entries_in_notebook, load, record_of
from nbask.core.manager import manager
from nbask.errors import ReplayMissing
from nbask.kinds import QuestionWidget
from nbask.kinds.question import QuestionKind, QuestionRequest
from nbask.models import QuestionSet
from nbask.replies import answering_user, username

QUESTIONS = [{"question": "Which region?", "options": [{"label": "eu-west"}, {"label": "us-east"}]}]


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("NBASK_SHARE_USERNAME", raising=False)
    manager().clear_history()
    nbask.configure(share_username=None)
    yield
    manager().clear_history()
    nbask.configure(share_username=None)


def reply(label: str, action: str = "submit", **extra: Any) -> dict[str, Any]:
    answers = [{"selected": [label], "other": None}] if action == "submit" else []
    return {"action": action, "answers": answers, "view_id": "v", "sent_at_ms": 0, **extra}


def timed_out(**traits: Any) -> QuestionWidget:
    widget = QuestionWidget(questions=QUESTIONS, **traits)
    widget._end("timeout", "No answer within 1 seconds.")
    return widget


def as_comm_message(response: dict[str, Any], user: str) -> dict[str, Any]:
    """A comm_msg as the kernel receives it from a front end whose header names its user."""
    return {
        "header": {"msg_type": "comm_msg", "username": user},
        "content": {"data": {"method": "update", "state": {"_response": response}}},
        "buffers": [],
    }


def test_a_late_answer_is_in_the_history_and_late_answers_with_both_times():
    widget = timed_out()
    widget._response = reply("us-east")
    (late,) = nbask.late_answers()
    assert late.kind == "question"
    assert late.status == "answered"
    outcome = late.outcome
    assert (outcome.late, outcome.answered_by, outcome.answers) == (True, "person", {"Which region?": "us-east"})
    assert widget.answer is not None
    assert outcome.timed_out_at == widget.answer.resolved_at
    assert outcome.resolved_at >= outcome.timed_out_at
    assert outcome.request_id == widget._request_id
    assert [entry.outcome.late for entry in nbask.history()] == [True]  # the timeout joins when the manager ran it


def test_one_late_answer_per_request_and_a_late_dismiss_says_nothing():
    widget = timed_out()
    widget._response = reply("", action="dismiss")
    assert widget.late_answer is None
    assert widget._response == {}, "the view leaves 'Sending…'"
    widget._response = reply("eu-west")
    widget._response = reply("us-east")
    assert [entry.outcome.answers for entry in nbask.late_answers()] == [{"Which region?": "eu-west"}]
    assert widget._result["late"] is True
    assert widget._result["answers"] == {"Which region?": "eu-west"}


def test_a_malformed_late_answer_is_refused_and_the_form_stays_open():
    widget = timed_out()
    widget._response = reply("Mars")
    assert widget.late_answer is None
    assert widget._response == {}
    assert nbask.late_answers() == []


def test_an_answer_after_a_cancel_is_not_a_late_answer():
    widget = QuestionWidget(questions=QUESTIONS)
    widget._end("cancelled", "Interrupted.")
    widget._response = reply("us-east")
    assert widget.late_answer is None
    assert nbask.late_answers() == []


def test_the_summary_says_answered_late_and_by_whom():
    widget = timed_out()
    widget._response = reply("us-east", user="alice")
    summary = widget.summary_markdown()
    assert summary.startswith("**nbask** (timeout)")
    assert "**nbask** (answered late by alice (reported))" in summary
    assert "us\\-east" in summary


def test_replay_never_takes_a_late_answer_as_the_call_s_answer(tmp_path):
    widget = timed_out()
    widget._response = reply("us-east")
    assert widget.answer is not None
    assert widget.late_answer is not None
    request = widget.request
    path = tmp_path / "answers.jsonl"
    lines = [json.dumps(record_of(request, outcome)) for outcome in (widget.answer, widget.late_answer)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    recording = Recording(load(path))
    again = QuestionRequest(question_set=QuestionSet(questions=QUESTIONS))
    # The one record replay may use is the timed-out one; asking again is a miss, never the late answer.
    assert QuestionKind().replayed(again, recording).status == "timeout"
    with pytest.raises(ReplayMissing, match="asked again"):
        QuestionKind().replayed(again, recording)


def test_a_saved_notebook_keeps_the_late_answer_beside_the_record_replay_reads():
    widget = timed_out()
    widget._response = reply("us-east")
    assert widget.answer is not None
    assert widget.late_answer is not None
    metadata = {
        RECORD_KEY: record_of(widget.request, widget.answer),
        LATE_RECORD_KEY: record_of(widget.request, widget.late_answer),
    }
    notebook = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data", "metadata": metadata}]}]}
    (entry,) = entries_in_notebook(notebook)
    assert entry.status == "timeout"
    assert metadata[LATE_RECORD_KEY]["outcome"]["late"] is True
    assert "late" not in metadata[RECORD_KEY]["outcome"], "records without a late answer stay as they were"


def test_the_published_display_carries_both_records():
    class Handle:
        def __init__(self) -> None:
            self.updates: list[dict[str, Any]] = []

        def update(self, _obj: object, metadata: dict[str, Any]) -> None:
            self.updates.append(metadata)

    widget = timed_out()
    widget._display_handle = handle = Handle()
    widget._response = reply("us-east")
    (metadata,) = handle.updates
    assert metadata[RECORD_KEY]["status"] == "timeout"
    assert metadata[LATE_RECORD_KEY]["outcome"]["answers"] == {"Which region?": "us-east"}


# -- who answered ------------------------------------------------------------------------------


def test_the_message_header_names_who_answered():
    widget = QuestionWidget(questions=QUESTIONS)
    widget._handle_msg(as_comm_message(reply("eu-west"), "bob"))
    assert widget.answer is not None
    assert widget.answer.answered_by_user == "bob"
    assert widget._result["answered_by_user"] == "bob"


def test_the_header_wins_over_the_identity_the_front_end_read_and_generic_names_count_for_no_one():
    widget = QuestionWidget(questions=QUESTIONS)
    widget._handle_msg(as_comm_message(reply("eu-west", user="carol"), ""))
    assert widget.answer is not None
    assert widget.answer.answered_by_user == "carol"
    assert answering_user("bob", {"user": "carol"}) == "bob"
    assert answering_user("vscode", {}) is None
    assert answering_user("", {"user": "Username"}) is None


@pytest.mark.parametrize("made_up", ["Anonymous Io", "0123456789abcdef0123456789abcdef"])
def test_a_token_logins_made_up_identity_is_recorded_as_the_kernels_account(made_up: str):
    """The server makes up a new name per browser session; the record names the account the
    kernel runs as instead, the same every day, and the card leaves it out while no one else
    has answered here.
    """
    account = getpass.getuser()
    assert answering_user("", {"user": made_up}) == account
    assert answering_user("Anonymous Ananke", {}) == account
    widget = QuestionWidget(questions=QUESTIONS)
    widget._handle_msg(as_comm_message(reply("eu-west", user=made_up), ""))
    assert widget.answer is not None
    assert widget.answer.answered_by_user == account
    assert widget._result["answered_by_user"] == account
    assert widget._result["answered_by_account"] is True
    assert f"by {account}" in widget.summary_markdown()


def test_no_username_records_none_and_keeps_the_result_as_before():
    widget = QuestionWidget(questions=QUESTIONS)
    widget._response = reply("eu-west")
    assert widget.answer is not None
    assert widget.answer.answered_by_user is None
    assert "answered_by_user" not in widget._result
    assert "answered_by_user" not in widget.answer.model_dump()


@pytest.mark.parametrize(
    ("value", "expected"),
    [("alice", "alice"), ("  alice  ", "alice"), ("", None), ("anonymous", None), (7, None), ("x" * 101, None)],
)
def test_username_rules(value: object, expected: str | None):
    assert username(value) == expected


def test_share_username_setting(monkeypatch: pytest.MonkeyPatch):
    assert config.share_username_in_force() is False
    monkeypatch.setenv("NBASK_SHARE_USERNAME", "yes")
    assert config.share_username_in_force() is True
    assert nbask.configure(share_username=False).share_username is False
    assert config.share_username_in_force() is False
    with pytest.raises(TypeError, match="share_username must be True, False or None"):
        nbask.configure(share_username="yes")  # type: ignore[arg-type]
