"""QuestionWidget's resolution rules, driven through its traitlets as the front end drives them."""

from __future__ import annotations

import threading

import pytest
from pydantic import ValidationError

import nbask
from nbask.contract import MAX_DRAFT_CHARS
from nbask.kinds import QuestionWidget
from nbask.widget import LATE_ANSWER_NOTE

QUESTIONS = [
    {
        "question": "Which database?",
        "header": "DB",
        "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}],
    },
    {"question": "Which features?", "options": [{"label": "Auth"}, {"label": "Search"}], "multi_select": True},
]


def submit(widget: QuestionWidget, *answers) -> None:
    # Exactly what js/widget.ts sends (type Response), as a synced trait update.
    widget._response = {
        "action": "submit",
        "answers": [{"selected": list(sel), "other": other} for sel, other in answers],
        "view_id": "v1",
        "sent_at_ms": 0,
    }


def test_initial_synced_state():
    w = QuestionWidget(questions=QUESTIONS, tool_call_id="call_1")
    assert w._status == "pending"
    assert w._questions[0] == {
        "question": "Which database?",
        "header": "DB",
        "options": [
            {"label": "PostgreSQL (Recommended)", "description": ""},
            {"label": "SQLite", "description": ""},
        ],
        "multi_select": False,
    }
    assert len(w._request_id) == 32
    assert w._result == {}
    assert w._deadline_ms == 0
    assert w.answer is None
    assert not w.done
    state = w.get_state()
    assert {"_kind", "_questions", "_request_id", "_status", "_deadline_ms", "_response", "_result"} <= set(state)
    assert state["_kind"] == "question"


def test_bad_questions_never_reach_the_screen():
    with pytest.raises(ValidationError, match="header"):
        QuestionWidget(questions=[{**QUESTIONS[0], "header": "much too long header"}])


def test_submit_resolves_and_syncs_the_result():
    w = QuestionWidget(questions=QUESTIONS, tool_call_id="call_1")
    submit(w, (["SQLite"], None), (["Search"], "Export"))
    assert w.done
    assert w._status == "answered"
    assert w.answer.answers == {"Which database?": "SQLite", "Which features?": "Search, Export"}
    assert w.answer.tool_call_id == "call_1"
    assert w.answer.request_id == w._request_id
    assert w._result == {"answers": w.answer.answers, "notes": {}, "note": ""}


def test_second_submit_is_ignored():
    w = QuestionWidget(questions=QUESTIONS)
    submit(w, (["SQLite"], None), ([], None))
    first = w.answer
    submit(w, (["PostgreSQL (Recommended)"], None), (["Auth"], None))
    assert w.answer is first
    assert w.answer.answers["Which database?"] == "SQLite"
    assert w._result["note"] != LATE_ANSWER_NOTE


def test_dismiss():
    w = QuestionWidget(questions=QUESTIONS)
    w._response = {"action": "dismiss", "answers": [], "view_id": "v", "sent_at_ms": 0}
    assert w._status == "dismissed"
    assert w.answer.answers == {}
    assert "dismissed" in w.answer.note


def test_answer_after_a_cancel_is_ignored_and_shown():
    w = QuestionWidget(questions=QUESTIONS)
    ended = w._end("cancelled", "Interrupted.")
    submit(w, (["SQLite"], None), ([], None))
    assert w.answer is ended
    assert w.late_answer is None
    assert w._result["note"] == LATE_ANSWER_NOTE


def test_answer_after_a_timeout_is_a_late_answer_that_leaves_the_outcome_alone():
    w = QuestionWidget(questions=QUESTIONS)
    ended = w._end("timeout", "No answer within 5 seconds.")
    assert w._status == "timeout"
    submit(w, (["SQLite"], None), ([], None))
    assert w.answer is ended
    assert w._status == "timeout"
    assert w.late_answer is not None
    assert w.late_answer.answers["Which database?"] == "SQLite"
    assert w._result["late"] is True


def test_end_after_answer_keeps_the_answer():
    w = QuestionWidget(questions=QUESTIONS)
    submit(w, (["SQLite"], None), ([], None))
    assert w._end("cancelled", "interrupted").status == "answered"
    assert w._status == "answered"


def test_malformed_response_is_ignored_and_question_stays_open():
    w = QuestionWidget(questions=QUESTIONS)
    w._response = {"action": "submit", "answers": "nonsense"}
    assert w._status == "pending"
    assert not w.done
    assert w._response == {}, "cleared so the front end leaves its sending state"


def test_concurrent_submits_from_threads_resolve_once():
    w = QuestionWidget(questions=QUESTIONS)
    barrier = threading.Barrier(8)

    def answer(label: str) -> None:
        barrier.wait()
        submit(w, ([label], None), ([], None))

    threads = [threading.Thread(target=answer, args=(["SQLite", "PostgreSQL (Recommended)"][i % 2],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert w.done
    assert w._status == "answered"
    assert w._result["answers"] == w.answer.answers


def test_timeout_must_be_positive():
    w = QuestionWidget(questions=QUESTIONS)
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        w.wait_answer_sync(timeout=0)


def test_ask_outside_a_kernel_fails_clearly_instead_of_hanging():
    with pytest.raises(nbask.WaitingUnsupported):
        nbask.ask_sync("Proceed?", ["Yes", "No"], timeout=1)


def test_ask_validates_before_anything_else():
    with pytest.raises(ValidationError, match="at least 2"):
        nbask.ask_sync("Proceed?", ["Yes"])
    with pytest.raises(TypeError, match="list of option labels"):
        nbask.ask_sync("Proceed?", "Yes")


def draft_of(widget: QuestionWidget) -> dict:
    # What js/shell/draftsync.ts writes: the request it belongs to and the kind's own draft.
    return {"request_id": widget._request_id, "key": "k", "view_id": "v1", "data": {"drafts": []}}


def test_a_draft_is_kept_as_state_and_never_taken_as_an_answer():
    w = QuestionWidget(questions=QUESTIONS)
    looks_like_an_answer = {
        **draft_of(w),
        "action": "submit",
        "answers": [{"selected": ["SQLite"], "other": None}, {"selected": ["Auth"], "other": None}],
    }
    w._draft = looks_like_an_answer
    assert w._draft == looks_like_an_answer
    assert w.answer is None
    assert not w.done
    assert w._response == {}
    assert "_draft" in w.get_state()


def test_the_draft_is_cleared_once_the_request_resolves_and_not_kept_after():
    w = QuestionWidget(questions=QUESTIONS)
    w._draft = draft_of(w)
    submit(w, (["SQLite"], None), ([], "Billing"))
    assert w.done
    assert w._draft == {}
    w._draft = draft_of(w)  # a view that saved late
    assert w._draft == {}


def test_a_timed_out_request_keeps_its_draft_until_it_is_answered_late():
    # "Answer anyway" reopens the form: what was typed before the time limit (or while
    # answering late, before a reload) is still there; the late answer ends it.
    w = QuestionWidget(questions=QUESTIONS)
    w._draft = draft_of(w)
    w._end("timeout", "No answer within 1 seconds.")
    assert w._draft == draft_of(w)
    w._draft = {**draft_of(w), "view_id": "v2"}
    assert w._draft["view_id"] == "v2"
    submit(w, (["SQLite"], None), ([], "Billing"))
    assert w.late_answer is not None
    assert w._draft == {}
    w._draft = draft_of(w)
    assert w._draft == {}


def test_a_cancelled_request_keeps_no_draft():
    w = QuestionWidget(questions=QUESTIONS)
    w._draft = draft_of(w)
    w._end("cancelled", "Interrupted.")
    assert w._draft == {}
    w._draft = draft_of(w)
    assert w._draft == {}


def test_an_oversized_draft_is_ignored_and_the_previous_one_kept(caplog):
    w = QuestionWidget(questions=QUESTIONS)
    w._draft = draft_of(w)
    w._draft = {**draft_of(w), "data": {"text": "x" * MAX_DRAFT_CHARS}}
    assert w._draft == draft_of(w)
    assert "was ignored (the limit is" in caplog.text
