"""The inbox's behaviour, the same on both backends: adding, reading, answering once, cancelling,
expiry, and finding the answer to a request asked again.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

import pytest

from nbask.core.history import HistoryEntry
from nbask.errors import AlreadyAnswered, InboxRequestClosed, InboxRequestNotFound, NbaskError
from nbask.inbox_store import DEFAULT_EXPIRES, InboxItem, identity, open_inbox
from nbask.kinds import kind_named

from .requests import QUESTION, approval, form, outcome_of, question


def test_a_request_added_reads_back_with_what_where_and_when(store):
    request = question(tool_call_id="call_7")
    before = time.time()
    item = store.add(request, notebook="work/orders.ipynb", cell_id="c-12", run_id="run-1")
    assert len(item.id) == 32
    assert item.short_id == item.id[:8]
    read = store.get(item.id)
    assert read == item
    assert read.kind == "question"
    assert read.asked == request.asked()  # the kind's JSON form, as the history keeps it
    assert (read.notebook, read.cell_id, read.run_id, read.tool_call_id) == (
        "work/orders.ipynb",
        "c-12",
        "run-1",
        "call_7",
    )
    assert read.request_id == request.request_id
    assert read.asked_at == request.asked_at
    assert read.expires_at is not None
    assert before + DEFAULT_EXPIRES <= read.expires_at <= time.time() + DEFAULT_EXPIRES
    assert (read.status, read.answered_by, read.answered_at, read.outcome) == ("pending", None, None, None)


def test_every_kind_is_kept_and_answered(store):
    for request in (question(), approval(), form()):
        item = store.add(request)
        outcome = outcome_of(request)
        answered = store.answer(item.id, outcome, by="ana")
        read = store.get(item.id)
        assert read == answered
        assert read.outcome == outcome
        assert read.entry() == HistoryEntry.of(request, outcome)


def test_the_store_outlives_the_process_that_opened_it(location):
    first = open_inbox(location)
    item = first.add(question())
    first.close()
    again = open_inbox(location)
    assert [found.id for found in again.pending()] == [item.id]
    again.close()


def test_a_prefix_of_the_id_finds_the_request(store):
    item = store.add(question())
    assert store.get(item.id[:6].upper()).id == item.id
    with pytest.raises(InboxRequestNotFound) as raised:
        store.get(item.id[:5])  # too short to be a prefix
    assert isinstance(raised.value, LookupError)
    with pytest.raises(InboxRequestNotFound, match="has no request 'nope'"):
        store.get("nope")


def test_pending_lists_by_notebook_run_and_batch(store):
    one = store.add(question("One?"), notebook="a.ipynb", run_id="r1")
    two = store.add(question("Two?"), notebook="a.ipynb", run_id="r2")
    three = store.add(question("Three?"), notebook="b.ipynb", run_id="r1")
    batch = store.add_batch([question("Four?"), approval()], notebook="b.ipynb", run_id="r3")
    assert [item.id for item in store.pending()] == [one.id, two.id, three.id, *(item.id for item in batch)]
    assert [item.id for item in store.pending(notebook="a.ipynb")] == [one.id, two.id]
    assert [item.id for item in store.pending(run_id="r1")] == [one.id, three.id]
    assert len({item.batch_id for item in batch}) == 1
    assert batch[0].batch_id is not None
    assert [item.kind for item in store.pending(batch_id=batch[0].batch_id)] == ["question", "approval"]
    store.answer(one.id, outcome_of(question("One?")))
    assert [item.id for item in store.pending(notebook="a.ipynb")] == [two.id]
    assert [item.id for item in store.items(status="answered")] == [one.id]
    assert store.add_batch([]) == []


def test_a_request_is_answered_once_and_the_second_answer_is_refused_naming_the_first(store):
    request = question()
    item = store.add(request)
    first = store.answer(item.id, outcome_of(request), by="ana")
    assert (first.status, first.answered_by) == ("answered", "ana")
    with pytest.raises(AlreadyAnswered) as raised:
        store.answer(item.id, outcome_of(request), by="bo")
    error = raised.value
    assert isinstance(error, InboxRequestClosed)
    assert isinstance(error, NbaskError)
    assert (error.id, error.by, error.at) == (item.id, "ana", first.answered_at)
    stamp = dt.datetime.fromtimestamp(first.answered_at, dt.timezone.utc).isoformat(timespec="seconds")
    assert f"already answered by ana at {stamp}" in str(error)
    assert store.get(item.id).answered_by == "ana"


def test_who_answered_defaults_to_the_username_the_answer_came_with(store):
    request = question()
    item = store.add(request)
    outcome = outcome_of(request).model_copy(update={"answered_by_user": "ana"})
    assert store.answer(item.id, outcome).answered_by == "ana"
    other = store.add(question("Else?"))
    assert store.answer(other.id, outcome_of(question("Else?"))).answered_by == "person"


def test_an_outcome_of_another_kind_is_refused_and_the_request_stays_pending(store):
    item = store.add(question())
    with pytest.raises(TypeError, match="a question request is answered with a Answer, not a Decision"):
        store.answer(item.id, outcome_of(approval()))
    assert store.get(item.id).pending


def test_cancel_ends_a_request_unanswered(store):
    request = question()
    item = store.add(request)
    cancelled = store.cancel(item.id, by="the run")
    assert (cancelled.status, cancelled.answered_by) == ("cancelled", "the run")
    assert store.cancel(item.id).status == "cancelled"  # again: nothing changes
    assert store.get(item.id).answered_by == "the run"
    with pytest.raises(InboxRequestClosed, match=r"was cancelled by the run at .*can no longer be answered") as raised:
        store.answer(item.id, outcome_of(request))
    assert not isinstance(raised.value, AlreadyAnswered)
    answered = store.add(question("Other?"))
    store.answer(answered.id, outcome_of(question("Other?")), by="ana")
    with pytest.raises(AlreadyAnswered, match="already answered by ana"):
        store.cancel(answered.id)
    assert store.pending() == []


def test_a_request_past_its_expiry_reads_back_as_expired_and_cannot_be_answered(store):
    request = question()
    item = store.add(request, expires=0.2)
    lasting = store.add(question("Forever?"), expires=None)
    week = store.add(question("A week?"), expires=dt.timedelta(days=7))
    assert item.expires_at is not None
    assert lasting.expires_at is None
    assert week.expires_at is not None
    assert week.expires_at - time.time() == pytest.approx(7 * 86400, abs=5)
    time.sleep(0.3)
    read = store.get(item.id)
    assert (read.status, read.answered_at) == ("expired", item.expires_at)
    assert [found.id for found in store.items(status="expired")] == [item.id]
    assert [found.id for found in store.pending()] == [lasting.id, week.id]
    with pytest.raises(InboxRequestClosed, match=r"expired at .*can no longer be answered") as raised:
        store.answer(item.id, outcome_of(request))
    assert raised.value.status == "expired"
    assert store.expire() == [item.id]  # the sweep marks it in the store
    assert store.expire() == []
    assert store.get(item.id).status == "expired"
    assert [found.id for found in store.items(status="expired")] == [item.id]
    assert store.expire(now=time.time() + 8 * 86400) == [week.id]


@pytest.mark.parametrize("expires", [0, -1, dt.timedelta(0)])
def test_an_expiry_must_be_in_the_future(store, expires):
    with pytest.raises(ValueError, match="expires must be a positive number of seconds"):
        store.add(question(), expires=expires)


def test_a_request_asked_again_finds_its_answer_by_what_it_asks_and_where(store):
    asked_first = question()
    item = store.add(asked_first, notebook="orders.ipynb")
    assert store.find_answered(question(), notebook="orders.ipynb") is None  # still pending
    store.answer(item.id, outcome_of(asked_first), by="ana")
    again = question()  # a new request (another id) asking the same
    found = store.find_answered(again, notebook="orders.ipynb")
    assert found is not None
    assert found.id == item.id
    assert store.find_answered(again, notebook="other.ipynb") is None
    assert store.find_answered(again) is None  # asked outside a notebook: another place
    assert store.find_answered(question(labels=("SQLite", "DuckDB")), notebook="orders.ipynb") is None
    assert store.find_answered(question("Another question?"), notebook="orders.ipynb") is None
    assert store.find_answered(again, notebook="orders.ipynb", exclude={item.id}) is None
    pending = store.matching("question", again.asked(), notebook="orders.ipynb", statuses=("pending",))
    assert pending == []


def test_each_kind_matches_on_what_its_replay_matches(store):
    asked = {
        "approval": (approval(), approval(), approval(details="DROP TABLE orders")),
        "form": (form(), form(), form("Where else?")),
    }
    for first, same, other in asked.values():
        item = store.add(first, notebook="n.ipynb")
        store.answer(item.id, outcome_of(first))
        found = store.find_answered(same, notebook="n.ipynb")
        assert found is not None
        assert found.id == item.id
        assert store.find_answered(other, notebook="n.ipynb") is None


def test_the_oldest_answer_comes_first(store):
    ids = []
    for _ in range(2):
        request = question()
        item = store.add(request, notebook="n.ipynb")
        store.answer(item.id, outcome_of(request))
        ids.append(item.id)
    assert [item.id for item in store.matching("question", question().asked(), notebook="n.ipynb")] == ids
    first = store.find_answered(question(), notebook="n.ipynb")
    assert first is not None
    second = store.find_answered(question(), notebook="n.ipynb", exclude={first.id})
    assert [first.id, second.id if second else None] == ids


def test_the_identity_is_the_replay_key():
    # Questions: the text and the option labels, whatever their order or descriptions.
    one = question(labels=("SQLite", "Postgres")).asked()
    swapped = question(labels=("Postgres", "SQLite")).asked()
    assert identity("question", one) == identity("question", swapped)
    assert identity("question", one) != identity("approval", one)
    # Forms: the message, the fields and the URL: the same as the form kind's replay key.
    forms = [form().asked(), form().asked(), form("Where else?").asked(), {**form().asked(), "url": "https://x"}]
    for one_form in forms:
        for other_form in forms:
            form_kind = kind_named("form")
            assert form_kind is not None
            same_key = form_kind.match_key(one_form) == form_kind.match_key(other_form)
            assert (identity("form", one_form) == identity("form", other_form)) == same_key
    assert identity("approval", approval().asked()) != identity("approval", approval(details="x").asked())


def test_the_logs_name_request_ids_never_what_was_asked(store, caplog):
    caplog.set_level(logging.INFO, logger="nbask.inbox_store")
    request = question()
    item = store.add(request, notebook="n.ipynb")
    store.answer(item.id, outcome_of(request), by="ana")
    other = store.add(question("Cancel me?"))
    store.cancel(other.id)
    text = "\n".join(record.getMessage() for record in caplog.records if record.name == "nbask.inbox_store")
    assert item.id in text
    assert other.id in text
    assert QUESTION not in text
    assert "Cancel me?" not in text
    assert "SQLite" not in text


def test_an_item_is_a_plain_record():
    item = InboxItem(
        id="ab" * 16, kind="question", asked={}, request_id="r", asked_at=1.0, expires_at=2.0, status="pending"
    )
    assert item.as_of(1.5) is item
    assert item.as_of(2.0).status == "expired"
    assert item.entry() is None


def test_a_paused_run_is_kept_replaced_read_and_forgotten(store):
    assert store.run_state("openai_agents:abc") is None
    store.keep_run("openai_agents:abc", '{"step": 1}')
    store.keep_run("openai_agents:abc", '{"step": 2}')  # the newer pause replaces the older
    assert store.run_state("openai_agents:abc") == '{"step": 2}'
    store.forget_run("openai_agents:abc")
    store.forget_run("openai_agents:abc")  # twice is no error
    assert store.run_state("openai_agents:abc") is None


def test_an_item_is_asked_again_by_its_kind_without_a_time_limit(store):
    """What the nbask command and nbask.inbox() answer: the kept request, built again."""
    asked = approval("Drop table events", "DROP TABLE events")
    item = store.add(asked)
    again = item.asked_again()
    assert again is not None
    assert (again.kind, again.asked(), again.timeout) == ("approval", asked.asked(), None)
    assert again.request_id != asked.request_id  # a request of its own, answered now
