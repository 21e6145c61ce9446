"""Several requests waiting at once in a real kernel: asked with ``queue=True`` they are shown
together, answered in any order, each call getting its own outcome; a timeout ends one, an
interrupt all. The test plays the front end (tests/support/kernel.py).
"""

from __future__ import annotations

import json

import pytest
from support.kernel import CellResult, CommInfo, KernelHarness, approval_response, kernel_fixture

from nbask.waiting._waits import INTERRUPTED_LINE

pytestmark = [pytest.mark.kernel, pytest.mark.colab]

SETUP = r"""
import asyncio, json, nbask
from nbask.kinds.approval.request import approval_request
from nbask.resolvers.run import run_requests, run_requests_sync
from nbask.models import one_question_set
from nbask.kinds import QuestionRequest
def asks(tag, timeouts):
    return [QuestionRequest(question_set=one_question_set(f"{tag} {i}?", ["A", "B"]), timeout=t)
            for i, t in enumerate(timeouts)]
async def three(tag, timeouts=(60, 60, 60)):
    asks = [nbask.ask(f"{tag} {i}?", ["A", "B"], timeout=t, queue=True) for i, t in enumerate(timeouts)]
    answers = await asyncio.gather(*asks)
    print("BATCH " + json.dumps([[a.status, a.answers, a.batch_id] for a in answers]))
FORM = {"type": "object", "properties": {"replicas": {"type": "integer"}}, "required": ["replicas"]}
async def mixed(tag):
    # Two approvals, a question and a form, shown together in this order.
    asks = [nbask.approve(f"{tag} step {i}", f"run step {i}", timeout=600, queue=True) for i in range(2)]
    asks.append(nbask.ask(f"{tag} question?", ["A", "B"], timeout=600, queue=True))
    asks.append(nbask.ask_form(f"{tag} form", FORM, timeout=600, queue=True))
    out = await asyncio.gather(*asks)
    print("BATCH " + json.dumps([[o.status, getattr(o, "decision", None), o.answered_by, o.batch_id] for o in out]
                                + [out[2].answers, out[3].values]))
"""

k = kernel_fixture(SETUP, every_kernel=True)


def widget_asking(k: KernelHarness, text: str) -> CommInfo:
    def shows(comm: CommInfo) -> bool:
        state = comm.state
        asked = [q.get("question") for q in state.get("_questions", [])]
        return text in asked or text in (state.get("_title"), state.get("_message"))

    return k.wait_for_comm_open(predicate=shows, timeout=20)


def choose(k: KernelHarness, comm: CommInfo, label: str) -> None:
    response = {"action": "submit", "answers": [{"selected": [label], "other": None}], "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": response})


def batch_line(k: KernelHarness, cell: str) -> list[list]:
    out = k.result(cell, 30).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("BATCH "))[6:])


def test_three_asks_wait_together_and_are_answered_in_any_order(k: KernelHarness) -> None:
    cell = k.execute("await three('Order')")
    comms = [widget_asking(k, f"Order {i}?") for i in range(3)]
    for comm in comms:  # all three shown before any is answered
        k.wait_until_waiting(comm)
    lead = k.wait_for_state(comms[0].comm_id, lambda s: s.get("_batch", {}).get("waiting") == 3)
    assert lead["_batch"]["lead"] is True
    choose(k, comms[2], "B")
    choose(k, comms[0], "A")
    # The lead's own request ended: the heading goes to the first card still waiting.
    k.wait_for_state(comms[1].comm_id, lambda s: s.get("_batch", {}).get("waiting") == 1)
    choose(k, comms[1], "B")
    answers = batch_line(k, cell)
    # Only the lead's heading counts: an answer syncs the lead's batch trait (and the next lead's),
    # never the other cards' (twenty cards would otherwise each get an update before the
    # answered caller runs).
    other = {"id": answers[0][2], "lead": False, "waiting": 0, "approvals": [], "high_risk": [], "sources": 1}
    synced = [state["_batch"] for state in k.widget_states(comms[2].comm_id) if "_batch" in state]
    assert synced == [other]
    synced = [state["_batch"] for state in k.widget_states(comms[1].comm_id) if "_batch" in state]
    assert [(s["lead"], s["waiting"]) for s in synced] == [(False, 0), (True, 1), (False, 0)]
    assert [a[:2] for a in answers] == [
        ["answered", {"Order 0?": "A"}],
        ["answered", {"Order 1?": "B"}],
        ["answered", {"Order 2?": "B"}],
    ]
    assert len({a[2] for a in answers}) == 1
    assert answers[0][2]
    # The history keeps each request, with the batch id.
    ids = k.run_ok("print(json.dumps([e.outcome.batch_id for e in nbask.history()[-3:]]))").stdout
    assert set(json.loads(ids)) == {answers[0][2]}


def test_one_times_out_while_the_others_wait(k: KernelHarness) -> None:
    cell = k.execute("await three('Timeout', (60, 1, 60))")
    comms = [widget_asking(k, f"Timeout {i}?") for i in range(3)]
    k.wait_for_state(comms[1].comm_id, lambda s: s.get("_status") == "timeout")
    for other in (comms[0], comms[2]):  # still waiting
        assert all(state.get("_status", "pending") == "pending" for state in k.widget_states(other.comm_id))
    choose(k, comms[0], "A")
    choose(k, comms[2], "A")
    assert [a[0] for a in batch_line(k, cell)] == ["answered", "timeout", "answered"]


def interrupt_three_waiting(k: KernelHarness, code: str, tag: str) -> CellResult:
    """Run ``code`` (three asks ``"<tag> i?"``), interrupt once all three wait; check every one
    ends Cancelled and nothing waits afterwards; return the interrupted cell's result.
    """
    cell = k.execute(code)
    comms = [widget_asking(k, f"{tag} {i}?") for i in range(3)]
    for comm in comms:
        k.wait_until_waiting(comm)
    k.interrupt()
    result = k.result(cell, 20)
    for comm in comms:
        k.wait_for_state(comm.comm_id, lambda s: s.get("_status") == "cancelled")
    after = k.execute("print(nbask.core.manager.manager().pending is None)")
    assert k.result(after, 20).stdout.strip() == "True"
    return result


def test_an_interrupt_cancels_every_waiting_request_and_raises_once(k: KernelHarness) -> None:
    result = interrupt_three_waiting(k, "await run_requests(asks('Interrupt', (3600, 3600, 3600)))", "Interrupt")
    assert result.ename == "KeyboardInterrupt"
    assert [m["content"]["traceback"] for m in result.iopub if m["msg_type"] == "error"] == [[INTERRUPTED_LINE]]


def test_an_interrupt_cancels_the_asks_a_cell_gathered_itself(k: KernelHarness) -> None:
    # The cell's own asyncio.gather sees each task's wait end with CancelledError, as asyncio
    # ends a task it cancels; every request is marked Cancelled and nothing waits afterwards.
    result = interrupt_three_waiting(k, "await three('Gathered', (3600, 3600, 3600))", "Gathered")
    assert result.ename in ("CancelledError", "KeyboardInterrupt")


def test_a_blocking_batch_of_approvals_is_approved_all_at_once(k: KernelHarness) -> None:
    cell = k.execute(
        "reqs = [approval_request(f'Drop table t{i}', f'DROP TABLE t{i}') for i in range(3)]\n"
        "decisions = run_requests_sync(reqs)\n"
        "print('BATCH ' + json.dumps([[d.decision, d.answered_by] for d in decisions]))"
    )
    comms = [widget_asking(k, f"Drop table t{i}") for i in range(3)]
    for comm in comms:
        k.wait_until_waiting(comm)
    lead = k.wait_for_state(comms[0].comm_id, lambda s: len(s.get("_batch", {}).get("approvals", [])) == 3)
    batch = lead["_batch"]
    # The person confirmed two of them (say the third arrived after the confirmation opened).
    confirmed = batch["approvals"][:2]
    content = {"batch": "approve_all", "batch_id": batch["id"], "request_ids": confirmed, "user": "alice"}
    k.send_comm_msg(comms[0].comm_id, {"method": "custom", "content": content})
    decided = k.wait_for_state(comms[1].comm_id, lambda s: s.get("_status") == "answered")
    assert decided["_result"]["answered_by_user"] == "alice"  # a bulk decision names who made it
    # The heading moved to the first card still waiting, the third.
    k.wait_for_state(comms[2].comm_id, lambda s: s.get("_batch", {}).get("approvals") == [batch["approvals"][2]])
    k.update_widget(comms[2].comm_id, {"_response": approval_response("reject", reason="no")})
    assert batch_line(k, cell) == [["approve", "person"], ["approve", "person"], ["reject", "person"]]


def test_approve_all_never_approves_a_high_risk_one_even_when_sent_its_id(k: KernelHarness) -> None:
    cell = k.execute(
        "reqs = [approval_request(f'Drop table r{i}', f'DROP TABLE r{i}', risk='high' if i == 1 else None)"
        " for i in range(3)]\n"
        "decisions = run_requests_sync(reqs)\n"
        "print('BATCH ' + json.dumps([[d.decision, d.answered_by] for d in decisions]))"
    )
    comms = [widget_asking(k, f"Drop table r{i}") for i in range(3)]
    for comm in comms:
        k.wait_until_waiting(comm)
    lead = k.wait_for_state(comms[0].comm_id, lambda s: len(s.get("_batch", {}).get("approvals", [])) == 3)
    batch = lead["_batch"]
    assert batch["high_risk"] == [{"id": batch["approvals"][1], "action": "Drop table r1"}]
    # Even a message naming every approval (an old page, a crafted one) leaves the high-risk one waiting.
    content = {"batch": "approve_all", "batch_id": batch["id"], "request_ids": batch["approvals"]}
    k.send_comm_msg(comms[0].comm_id, {"method": "custom", "content": content})
    k.wait_for_state(comms[2].comm_id, lambda s: s.get("_status") == "answered")
    k.wait_for_state(comms[1].comm_id, lambda s: s.get("_batch", {}).get("approvals") == [batch["approvals"][1]])
    k.update_widget(comms[1].comm_id, {"_response": approval_response("reject", reason="not that one")})
    assert batch_line(k, cell) == [["approve", "person"], ["reject", "person"], ["approve", "person"]]


def test_a_thread_asks_beside_the_cells_own_question(k: KernelHarness) -> None:
    cell = k.execute(
        "import threading\n"
        "got = {}\n"
        "worker = threading.Thread(target=lambda: got.update(t=nbask.ask_sync('Thread?', ['A', 'B'], queue=True)))\n"
        "main = asyncio.ensure_future(nbask.ask('Cell?', ['A', 'B'], queue=True))\n"
        "await asyncio.sleep(0)\n"
        "worker.start()\n"
        "ans = await main\n"
        "await asyncio.to_thread(worker.join)\n"
        "print('BATCH ' + json.dumps([[ans.answers, ans.batch_id], [got['t'].answers, got['t'].batch_id]]))"
    )
    in_cell, in_thread = widget_asking(k, "Cell?"), widget_asking(k, "Thread?")
    for comm in (in_cell, in_thread):
        k.wait_until_waiting(comm)
    choose(k, in_thread, "B")
    choose(k, in_cell, "A")
    (cell_answers, cell_batch), (thread_answers, thread_batch) = batch_line(k, cell)
    assert (cell_answers, thread_answers) == ({"Cell?": "A"}, {"Thread?": "B"})
    assert cell_batch is not None
    assert cell_batch == thread_batch


def still_pending(k: KernelHarness, comm: CommInfo) -> bool:
    """Whether the kernel never pushed widget ``comm`` any status but pending."""
    return all(state.get("_status", "pending") == "pending" for state in k.widget_states(comm.comm_id))


@pytest.mark.parametrize(("action", "decision"), [("approve_all", "approve"), ("reject_all", "reject")])
def test_an_all_button_decides_the_approvals_of_a_mixed_batch_only(k: KernelHarness, action: str, decision: str):
    tag = f"Mixed {action}"
    cell = k.execute(f"await mixed({tag!r})")
    texts = [f"{tag} step 0", f"{tag} step 1", f"{tag} question?", f"{tag} form"]
    comms = [widget_asking(k, text) for text in texts]
    for comm in comms:
        k.wait_until_waiting(comm)
    ids = [comm.state["_request_id"] for comm in comms]
    lead = k.wait_for_state(comms[0].comm_id, lambda s: s.get("_batch", {}).get("waiting") == 4)
    batch = lead["_batch"]
    assert batch["approvals"] == ids[:2]  # what the heading offers: the approvals alone
    # A front end that names every waiting request, the question's and the form's too: only
    # the approvals are decided.
    content = {"batch": action, "batch_id": batch["id"], "request_ids": ids}
    k.send_comm_msg(comms[0].comm_id, {"method": "custom", "content": content})
    for comm in comms[:2]:
        k.wait_for_state(comm.comm_id, lambda s: s.get("_status") == "answered")
    k.wait_for_state(comms[2].comm_id, lambda s: s.get("_batch", {}).get("waiting") == 2)  # now the lead
    assert still_pending(k, comms[2])
    assert still_pending(k, comms[3])
    # Both still answerable, in any order.
    k.update_widget(comms[3].comm_id, {"_response": {"action": "submit", "values": {"replicas": 3}}})
    choose(k, comms[2], "B")
    *outcomes, answers, values = batch_line(k, cell)
    assert [o[:3] for o in outcomes] == [
        ["answered", decision, "person"],
        ["answered", decision, "person"],
        ["answered", None, "person"],
        ["answered", None, "person"],
    ]
    assert (answers, values) == ({f"{tag} question?": "B"}, {"replicas": 3})
    assert {o[3] for o in outcomes} == {batch["id"]}


def test_an_interrupt_cancels_a_blocking_batch_and_each_is_recorded(k: KernelHarness) -> None:
    # The blocking path shows the three together (resolve_together_sync) and waits for all.
    result = interrupt_three_waiting(k, "run_requests_sync(asks('Blocking', (3600, 3600, 3600)))", "Blocking")
    assert result.ename == "KeyboardInterrupt"
    errors = [m["content"] for m in result.iopub if m["msg_type"] == "error"]
    assert [error["traceback"] for error in errors] == [[INTERRUPTED_LINE]]  # once, in one line
    ended = k.run_ok(
        "print(json.dumps([[e.asked['questions'][0]['question'], e.status, e.outcome.batch_id]"
        " for e in nbask.history()[-3:]]))"
    ).stdout
    recorded = json.loads(ended)
    assert [entry[:2] for entry in recorded] == [[f"Blocking {i}?", "cancelled"] for i in range(3)]
    assert len({entry[2] for entry in recorded}) == 1
    assert recorded[0][2]


def test_a_request_joining_later_times_out_from_when_it_joined(k: KernelHarness) -> None:
    # The first waits long; a pacer waits with it until its own 2 s run out, then a request
    # with 1 s joins: its second counts from then, not from when the first was shown.
    cell = k.execute(
        "first = asyncio.ensure_future(nbask.ask('Joined first?', ['A', 'B'], timeout=600, queue=True))\n"
        "pacer = await nbask.ask('Joined pacer?', ['A', 'B'], timeout=2, queue=True)\n"
        "later = await nbask.ask('Joined later?', ['A', 'B'], timeout=1, queue=True)\n"
        "print('LATER ' + json.dumps(first.done()), flush=True)\n"
        "outcomes = [await first, pacer, later]\n"
        "print('BATCH ' + json.dumps([[o.status, o.asked_at, o.resolved_at, o.batch_id] for o in outcomes]))"
    )
    first = widget_asking(k, "Joined first?")
    later = widget_asking(k, "Joined later?")
    deadline = k.wait_for_state(later.comm_id, lambda s: s.get("_deadline_ms", 0) > 0)["_deadline_ms"] / 1000
    k.wait_for_state(later.comm_id, lambda s: s.get("_status") == "timeout")
    k.wait_for_iopub(lambda m: m["msg_type"] == "stream" and m["content"]["text"].startswith("LATER "))
    assert "LATER false" in "".join(m["content"]["text"] for m in k.iopub_for(cell) if m["msg_type"] == "stream")
    assert still_pending(k, first)
    choose(k, first, "A")
    (first_status, first_asked, first_done, batch), pacer, joined = batch_line(k, cell)
    assert [first_status, pacer[0], joined[0]] == ["answered", "timeout", "timeout"]
    assert joined[1] - first_asked >= 2  # it joined once the pacer's 2 s had run out
    assert joined[2] - joined[1] >= 1  # its whole second, counted from when it joined
    assert deadline >= joined[1] + 1  # the countdown it showed ran to the same limit
    assert first_done > joined[2]  # the first kept waiting past it
    assert {pacer[3], joined[3]} == {batch}
