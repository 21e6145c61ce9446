"""nbask's public API in real kernels: a cell awaits nbask.ask, the test plays the front end.

The harness answers by sending the very comm message js/widget.ts sends (a traitlets
"update" of `response`), so the whole path kernel -> widget -> answer -> cell is real.
"""

from __future__ import annotations

import getpass
import json

import pytest
from support.kernel import (
    CommInfo,
    KernelHarness,
    kernel_fixture,
    printed_json,
)

from nbask.waiting._waits import INTERRUPTED_LINE

pytestmark = [pytest.mark.kernel, pytest.mark.colab]

SETUP = r"""
import asyncio, json, nbask
def show(ans):
    print(json.dumps({"status": ans.status, "answers": ans.answers, "note": ans.note,
                      "tool_call_id": ans.tool_call_id}, ensure_ascii=False))
"""


k = kernel_fixture(SETUP, every_kernel=True)


def nbask_widget(k: KernelHarness, question: str) -> CommInfo:
    """The comm_open of the nbask widget showing ``question``."""

    def shows(comm: CommInfo) -> bool:
        return any(q.get("question") == question for q in comm.state.get("_questions", []))

    return k.wait_for_comm_open(predicate=shows, timeout=20)


def submit(
    k: KernelHarness, comm: CommInfo, *answers: tuple[list[str], str | None], username: str | None = None
) -> None:
    response = {
        "action": "submit",
        "answers": [{"selected": selected, "other": other} for selected, other in answers],
        "view_id": "test-view",
        "sent_at_ms": 0,
    }
    k.update_widget(comm.comm_id, {"_response": response}, username=username)


printed = printed_json


def test_ask_resumes_the_same_cell_with_the_answer(k: KernelHarness) -> None:
    question = "Which database should the app use?"
    cell = k.execute(
        f"ans = await nbask.ask({question!r}, ['PostgreSQL (Recommended)', 'SQLite'], header='DB', "
        "tool_call_id='call_7')\nshow(ans)"
    )
    comm = nbask_widget(k, question)
    assert comm.state["_status"] == "pending"
    assert comm.state["_questions"][0]["header"] == "DB"
    assert comm.state["_esm"].strip(), "the front-end module is shipped in the widget state"
    submit(k, comm, (["SQLite"], None))
    result = k.result(cell, 20)
    assert printed(result) == {
        "status": "answered",
        "answers": {question: "SQLite"},
        "note": "",
        "tool_call_id": "call_7",
    }
    assert any(u.get("_status") == "answered" for u in k.widget_states(comm.comm_id))
    # The saved output carries a Markdown summary where widgets don't render.
    bundles = [m["content"]["data"] for m in result.iopub if m["msg_type"] == "update_display_data"]
    assert bundles
    assert "SQLite" in bundles[-1]["text/markdown"]


def test_the_widget_names_its_cell_by_the_first_line_of_its_code(k: KernelHarness) -> None:
    """The first non-blank line, stripped and at most 80 characters: how the Waiting requests
    panel says where a request comes from once its cell's output is gone.
    """
    long = "# " + "x" * 100
    for first_line, expected in [("  # Pick a region", "# Pick a region"), (long, long[:79] + "\u2026")]:
        question = f"Which region? ({len(first_line)})"
        cell = k.execute(f"\n\n{first_line}\nans = await nbask.ask({question!r}, ['eu', 'us'])\nshow(ans)")
        comm = nbask_widget(k, question)
        assert comm.state["_cell"] == expected
        submit(k, comm, (["eu"], None))
        assert printed(k.result(cell, 20))["answers"] == {question: "eu"}


def test_multi_select_with_other_and_a_skipped_question(k: KernelHarness) -> None:
    cell = k.execute(
        "ans = await nbask.ask_questions([\n"
        " {'question': 'Which features?', 'options': [{'label': 'Login'}, {'label': 'Search'}, {'label': 'Export'}],"
        "  'multi_select': True},\n"
        " {'question': 'Which auth?', 'header': 'Auth', 'options': [{'label': 'JWT'}, {'label': 'Cookie'}]}])\n"
        "show(ans)"
    )
    comm = nbask_widget(k, "Which features?")
    submit(k, comm, (["Export", "Login"], "Dark mode ✨"), ([], None))
    assert printed(k.result(cell, 20))["answers"] == {
        "Which features?": "Login, Export, Dark mode ✨",
        "Which auth?": "[No preference]",
    }


def test_dismiss_gives_empty_answers_and_a_note(k: KernelHarness) -> None:
    cell = k.execute("ans = await nbask.ask('Proceed with the migration?', ['Yes', 'No'])\nshow(ans)")
    comm = nbask_widget(k, "Proceed with the migration?")
    k.update_widget(comm.comm_id, {"_response": {"action": "dismiss", "answers": [], "view_id": "v", "sent_at_ms": 0}})
    out = printed(k.result(cell, 20))
    assert out["status"] == "dismissed"
    assert out["answers"] == {}
    assert "dismissed" in out["note"]


def test_timeout_then_a_late_answer_is_kept_apart_from_what_the_call_returned(k: KernelHarness) -> None:
    cell = k.execute("ans = await nbask.ask('Deploy now?', ['Yes', 'No'], timeout=0.5)\nshow(ans)")
    comm = nbask_widget(k, "Deploy now?")
    out = printed(k.result(cell, 20))
    assert any(u.get("_deadline_ms", 0) > 0 for u in k.widget_states(comm.comm_id)), "the countdown got its deadline"
    assert out["status"] == "timeout"
    assert "0.5 seconds" in out["note"]
    k.run_ok("print('the cell moved on')")
    submit(k, comm, (["Yes"], None), username="alice")
    k.run_ok("print('idle again')")  # the late message is handled by the now idle kernel
    updates = k.widget_states(comm.comm_id)
    assert any(u.get("_status") == "timeout" for u in updates)
    late = [u["_result"] for u in updates if u.get("_result", {}).get("late")]
    assert late
    assert late[-1]["answers"] == {"Deploy now?": "Yes"}
    assert late[-1]["answered_by_user"] == "alice", "the comm message header's username is who answered"
    assert all(u.get("_status") != "answered" for u in updates), "the widget's status stays what the call returned"
    code = (
        "import json\n"
        "print(json.dumps([ans.status, [(e.status, e.outcome.late) for e in nbask.history()],"
        " [[e.outcome.answers, e.outcome.answered_by_user] for e in nbask.late_answers()]]))"
    )
    returned, history, late_answers = json.loads(k.run_ok(code).stdout.strip())
    assert returned == "timeout"
    assert history[-2:] == [["timeout", False], ["answered", True]]
    assert late_answers == [[{"Deploy now?": "Yes"}, "alice"]]


def test_a_late_answer_arrives_while_another_question_waits(k: KernelHarness) -> None:
    first = k.execute("early = await nbask.ask('Scale up?', ['Yes', 'No'], timeout=0.5)\nshow(early)")
    early = nbask_widget(k, "Scale up?")
    assert printed(k.result(first, 20))["status"] == "timeout"
    second = k.execute("ans = await nbask.ask('Which zone?', ['a', 'b'], timeout=None)\nshow(ans)")
    waiting = nbask_widget(k, "Which zone?")
    # The kernel is busy with the waiting cell: the waiting engine hands the late reply over.
    submit(k, early, (["No"], None))
    k.wait_for_state(early.comm_id, lambda state: bool(state.get("_result", {}).get("late")))
    submit(k, waiting, (["b"], None))
    out = printed(k.result(second, 20))
    assert (out["status"], out["answers"]) == ("answered", {"Which zone?": "b"})
    code = "print(json.dumps([[e.outcome.answers, e.outcome.late] for e in nbask.late_answers()]))"
    assert json.loads(k.run_ok(code).stdout.strip())[-1] == [{"Scale up?": "No"}, True]
    assert k.run_ok("print(early.status)").stdout.strip() == "timeout"


def test_a_second_concurrent_ask_is_refused_or_shown_beside_with_queue(k: KernelHarness) -> None:
    cell = k.execute(
        "first = asyncio.ensure_future(nbask.ask('First?', ['A', 'B']))\n"
        "await asyncio.sleep(0)\n"
        "try:\n"
        "    await nbask.ask('Second?', ['A', 'B'])\n"
        "except nbask.InteractionPending as e:\n"
        "    print('refused:', e)\n"
        "queued = asyncio.ensure_future(nbask.ask('Third?', ['C', 'D'], queue=True))\n"
        "show(await first)\n"
        "show(await queued)\n"
    )
    first = nbask_widget(k, "First?")
    third = nbask_widget(k, "Third?")  # shown at once, beside the first
    k.wait_until_waiting(third)
    submit(k, third, (["C"], None))  # answered before the first
    submit(k, first, (["B"], None))
    result = k.result(cell, 20)
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("refused: another question")
    assert "queue=True" in lines[0]
    assert json.loads(lines[1])["answers"] == {"First?": "B"}
    assert json.loads(lines[2])["answers"] == {"Third?": "C"}


def test_interrupt_cancels_and_the_next_ask_works(k: KernelHarness) -> None:
    cell = k.execute("ans = await nbask.ask('Interrupt me?', ['A', 'B'], timeout=3600)")
    comm = nbask_widget(k, "Interrupt me?")
    k.wait_until_waiting(comm)
    k.interrupt()
    result = k.result(cell, 20)
    assert result.ename == "KeyboardInterrupt"
    # One line for the person, not a traceback through nbask's waiting machinery.
    assert [m["content"]["traceback"] for m in result.iopub if m["msg_type"] == "error"] == [[INTERRUPTED_LINE]]
    assert any(u.get("_status") == "cancelled" for u in k.widget_states(comm.comm_id))
    follow = k.execute("ans = await nbask.ask('After the interrupt?', ['A', 'B'])\nshow(ans)")
    submit(k, nbask_widget(k, "After the interrupt?"), (["A"], None))
    assert printed(k.result(follow, 20))["answers"] == {"After the interrupt?": "A"}


def test_interrupting_ask_sync_shows_one_line_too(k: KernelHarness) -> None:
    cell = k.execute("ans = nbask.ask_sync('Interrupt the blocking wait?', ['A', 'B'], timeout=3600)")
    k.wait_until_waiting(nbask_widget(k, "Interrupt the blocking wait?"))
    k.interrupt()
    result = k.result(cell, 20)
    assert result.ename == "KeyboardInterrupt"
    assert [m["content"]["traceback"] for m in result.iopub if m["msg_type"] == "error"] == [[INTERRUPTED_LINE]]


def test_ask_sync_on_the_main_thread(k: KernelHarness) -> None:
    cell = k.execute("ans = nbask.ask_sync('Synchronous?', ['Yes', 'No'])\nshow(ans)")
    submit(k, nbask_widget(k, "Synchronous?"), (["No"], None))
    assert printed(k.result(cell, 20))["answers"] == {"Synchronous?": "No"}


def test_bad_input_raises_before_anything_is_shown(k: KernelHarness) -> None:
    result = k.run("await nbask.ask('Pick one?', ['Only'])")
    assert result.ename == "ValidationError"
    assert "options" in result.error_text
    assert "at least 2" in result.error_text
    assert not any(m["msg_type"] == "comm_open" for m in result.iopub)


def test_malformed_submit_is_refused_and_the_question_stays_answerable(k: KernelHarness) -> None:
    """A response naming an option the question does not have is malformed: the kernel clears it
    (so the views leave "Sending…") and keeps waiting; the person's real answer then counts.
    """
    cell = k.execute("ans = await nbask.ask('Which region?', ['eu-west', 'us-east'])\nshow(ans)")
    comm = nbask_widget(k, "Which region?")
    submit(k, comm, (["ap-south"], None))
    k.wait_for_state(comm.comm_id, lambda state: state.get("_response") == {})
    assert not k.has_reply(cell), "the cell still waits"
    submit(k, comm, (["us-east"], None))
    assert printed(k.result(cell, 20))["answers"] == {"Which region?": "us-east"}


def test_made_up_names_are_recorded_as_the_kernels_account_and_named_once_another_answers(k: KernelHarness) -> None:
    """A token login's made-up names ("Anonymous Io", a new one per browser session) are recorded
    as the account the kernel runs as, and not shown while it is the only identity; once a real
    username answers too, the resolved block names who answered.
    """
    k.run_ok("from nbask.core.manager import manager\nmanager().clear_history()")
    account = getpass.getuser()  # the kernel runs as this test's account
    first = k.execute("a = await nbask.ask('Who answers first?', ['A', 'B'])\nshow(a)")
    one = nbask_widget(k, "Who answers first?")
    submit(k, one, (["A"], None), username="Anonymous Io")
    k.result(first, 20)
    assert all(not state.get("_show_names") for state in k.widget_states(one.comm_id))
    second = k.execute("b = await nbask.ask('Who answers second?', ['A', 'B'])\nshow(b)")
    two = nbask_widget(k, "Who answers second?")
    submit(k, two, (["B"], None), username="Anonymous Ananke")
    k.result(second, 20)
    same = k.wait_for_state(two.comm_id, lambda state: "_result" in state and "answered_by_user" in state["_result"])
    assert (same["_result"]["answered_by_user"], same["_result"]["answered_by_account"]) == (account, True)
    assert not any(state.get("_show_names") for state in k.widget_states(two.comm_id))
    third = k.execute("c = await nbask.ask('Who answers third?', ['A', 'B'])\nshow(c)")
    three = nbask_widget(k, "Who answers third?")
    submit(k, three, (["B"], None), username="alice")
    k.result(third, 20)
    shown = k.wait_for_state(three.comm_id, lambda state: "_show_names" in state and "_result" in state)
    assert shown["_show_names"] is True
    assert shown["_result"]["answered_by_user"] == "alice"
