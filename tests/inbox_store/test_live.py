"""A request waiting in its cell and in the inbox at once (``inbox=True``), in real kernels:
answered in the inbox by another process, the cell's wait ends within two seconds and the
widget shows the answer; answered in the cell, the inbox keeps that answer; ended unanswered
(a timeout), the inbox request is cancelled. Async and blocking waits alike.
"""

from __future__ import annotations

import pathlib
import time

import pytest
from support.kernel import KernelHarness, kernel_fixture, printed_json

from nbask.inbox_store import open_inbox
from nbask.replies import ApprovalResponse

pytestmark = [pytest.mark.kernel, pytest.mark.colab]

SETUP = r"""
import json, nbask
def show(d):
    print(json.dumps({"status": d.status, "decision": d.decision, "by": d.answered_by, "user": d.answered_by_user}))
"""

k = kernel_fixture(SETUP, every_kernel=True)


def waiting_item(location: pathlib.Path, timeout: float = 20):
    """The one request waiting in the inbox at ``location``, once the cell has kept it there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if location.exists() and (pending := open_inbox(str(location)).pending()):
            return pending[0]
        time.sleep(0.05)
    raise AssertionError("the cell kept nothing in the inbox")


@pytest.mark.parametrize("call", ["await nbask.approve", "nbask.approve_sync"])
def test_an_answer_given_in_the_inbox_ends_the_cells_wait_within_two_seconds(
    k: KernelHarness, tmp_path: pathlib.Path, call: str
) -> None:
    location = tmp_path / "inbox.sqlite3"
    cell = k.execute(
        f"nbask.configure(inbox={str(location)!r})\n"
        f"show({call}('Drop table events', 'DROP TABLE events', inbox=True, timeout=120))"
    )
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_title") == "Drop table events", timeout=20)
    item = waiting_item(location)
    request = item.asked_again()
    answered_at = time.monotonic()
    open_inbox(str(location)).answer(item.id, request.decide(ApprovalResponse(action="approve")), by="ana")
    result = k.result(cell, 30)
    assert time.monotonic() - answered_at < 2.0
    assert printed_json(result) == {"status": "answered", "decision": "approve", "by": "inbox", "user": "ana"}
    shown = k.wait_for_state(comm.comm_id, lambda state: state.get("_status") == "answered")
    assert shown["_result"]["decision"] == "approve"
    k.run_ok("nbask.configure(inbox=None)")


def test_an_answer_given_in_the_cell_is_kept_in_the_inbox_and_a_timeout_cancels_it(
    k: KernelHarness, tmp_path: pathlib.Path
) -> None:
    location = tmp_path / "inbox.sqlite3"
    cell = k.execute(
        f"nbask.configure(inbox={str(location)!r})\n"
        "show(await nbask.approve('Drop table logs', 'DROP TABLE logs', inbox=True, timeout=120))"
    )
    comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_title") == "Drop table logs", timeout=20)
    item = waiting_item(location)
    reply = {"action": "reject", "edited_details": None, "reason": "keep it", "view_id": "t", "sent_at_ms": 0}
    k.update_widget(comm.comm_id, {"_response": reply})
    assert printed_json(k.result(cell, 30))["decision"] == "reject"
    kept = open_inbox(str(location)).get(item.id)
    assert (kept.status, kept.outcome.decision, kept.outcome.reason) == ("answered", "reject", "keep it")  # type: ignore[union-attr]

    timed = k.execute("show(await nbask.approve('Drop table tmp', 'DROP TABLE tmp', inbox=True, timeout=1))")
    assert printed_json(k.result(timed, 30))["status"] == "timeout"
    (ended,) = [i for i in open_inbox(str(location)).items() if i.asked["action"] == "Drop table tmp"]
    assert ended.status == "cancelled"
    k.run_ok("nbask.configure(inbox=None)")
