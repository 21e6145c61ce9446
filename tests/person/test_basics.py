"""The basic acts, once for every host: a single-select question answered and printed by the
same cell; an approval approved, and one rejected with a reason; a typed form submitted; an
interrupt cancelling a waiting question. Run in every host, VS Code's on every ipykernel, and in
JupyterLab on Google Colab's stack too (the colab-web suite).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, expect
from support.ask_widget import AskWidget
from support.forms import PRINT_FORM, SCHEMA
from support.hosts import Host

pytestmark = pytest.mark.colab
HOSTS = ("lab", "notebook7", "vscode", "vscode-7.3", "vscode-6.29", "lite")

QUESTION = "Which database should the app use?"
PRINT_RESULT = (
    'print("RESULT " + json.dumps({"status": ans.status, "answers": ans.answers, "selections": ans.selections, '
    '"note": ans.note, "by": ans.answered_by}, ensure_ascii=False, sort_keys=True), flush=True)'
)
ACTION = "Run shell command"
DETAILS = "rm -rf build/\necho 'done'"
PRINT_DECISION = (
    'print("DECISION " + json.dumps({"decision": d.decision, "approved": d.approved, "status": d.status, '
    '"edited": d.edited, "reason": d.reason, "answered_by": d.answered_by}, ensure_ascii=False, sort_keys=True), '
    "flush=True)"
)
MESSAGE = "How should it be deployed?"
FIRST = "Start the long training run?"
SECOND = "Then which learning rate?"


def test_single_select_submit_prints_answer(host: Host):
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'],\n"
            "                      header='DB', multi_select=False, timeout=600.0)\n" + PRINT_RESULT,
            "print('next cell')",
        ]
    )
    first = host.run_cell(0)
    assert first is not None
    if host.fresh_kernel:
        assert first == 1
    host.run_cell(1, wait=False)

    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    host.wait_running(1)  # the cell is still running while the question waits
    expect(ask.question(QUESTION)).to_be_visible()
    expect(ask.question(QUESTION).get_by_role("radio")).to_have_count(3)  # two options + Other
    expect(ask.option(QUESTION, "Other", exact=True)).to_be_visible()
    expect(ask.other(QUESTION)).to_have_count(0)  # its textbox appears once Other is chosen
    expect(ask.root).to_contain_text("DB")
    expect(ask.dismiss_button).to_be_visible()

    ask.choose(QUESTION, "SQLite")
    expect(ask.option(QUESTION, "SQLite")).to_be_checked()
    ask.submit()

    result = host.read_line(1, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SQLite"}
    assert result["selections"] == {QUESTION: ["SQLite"]}
    assert result["by"] == "person"
    assert host.wait_done(1) == first + 1
    assert not host.failed(1)
    ask.expect_resolved("answered", {QUESTION: "SQLite"})
    host.expect_host_rules(1)

    assert host.run_cell(2) == first + 2
    assert host.printed(2).strip() == "next cell"


def _open_approval(host: Host) -> tuple[int, Locator]:
    host.open(
        [
            "import json, nbask",
            f"d = await nbask.approve({ACTION!r}, {DETAILS!r}, timeout=600)\n" + PRINT_DECISION,
            "print('after')",
        ]
    )
    first = host.run_cell(0)
    assert first is not None
    host.run_cell(1, wait=False)
    view = host.widget(1)
    expect(view).to_have_attribute("data-status", "pending")
    expect(host.find(1, "button", "Approve")).to_be_visible()
    expect(view).to_contain_text(ACTION)
    expect(view).to_contain_text("rm -rf build/")
    return first, view


def test_approve_round_trip(host: Host):
    first, view = _open_approval(host)
    host.find(1, "button", "Approve").click()
    decision = host.read_line(1, "DECISION")
    assert decision == {
        "decision": "approve",
        "approved": True,
        "status": "answered",
        "edited": None,
        "reason": "",
        "answered_by": "person",
    }
    assert host.wait_done(1) == first + 1
    assert not host.failed(1)
    expect(view).to_have_attribute("data-status", "answered")
    expect(view).to_contain_text("Approved")
    expect(view.locator("button, textarea, input")).to_have_count(0)
    host.expect_host_rules(1)


def test_reject_with_reason_round_trip(host: Host):
    _, view = _open_approval(host)
    host.find(1, "textbox", "Reason").fill("Not on the shared machine")
    host.find(1, "button", "Reject").click()
    decision = host.read_line(1, "DECISION")
    assert (decision["decision"], decision["approved"], decision["reason"], decision["status"]) == (
        "reject",
        False,
        "Not on the shared machine",
        "answered",
    )
    host.wait_done(1)
    assert not host.failed(1)
    expect(view).to_have_attribute("data-status", "answered")
    expect(view).to_contain_text("Rejected")
    expect(view).to_contain_text("Not on the shared machine")


def test_every_field_type_filled_by_role_reaches_the_kernel_typed(host: Host):
    host.open(
        [
            "import json, nbask",
            f"f = await nbask.ask_form({MESSAGE!r}, {SCHEMA!r}, timeout=600)\n" + PRINT_FORM,
            "print('after')",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    view = host.widget(1)
    expect(view).to_have_attribute("data-status", "pending")

    def named(role: str, name: str) -> Locator:
        return view.get_by_role(role, name=re.compile(re.escape(name)))  # type: ignore[arg-type]

    def labelled(name: str) -> Locator:  # date and datetime-local inputs have no textbox role
        return view.get_by_label(re.compile(re.escape(name)))

    expect(view).to_contain_text(MESSAGE)
    expect(view).to_contain_text("Who gets paged.")
    expect(named("textbox", "Service name")).to_have_value("web")
    expect(named("textbox", "Owner")).to_have_attribute("type", "email")
    expect(named("textbox", "Docs page")).to_have_attribute("type", "url")
    expect(labelled("Day")).to_have_attribute("type", "date")
    expect(labelled("Window opens")).to_have_attribute("type", "datetime-local")
    expect(named("spinbutton", "Replicas")).to_have_value("2")
    expect(named("spinbutton", "Replicas")).to_have_attribute("max", "10")
    expect(named("checkbox", "Canary first")).to_be_checked()
    expect(named("group", "Checks").get_by_role("checkbox", name="Unit tests")).to_be_checked()

    named("textbox", "Service name").fill("checkout-api")
    named("textbox", "Owner").fill("ops@example.test")
    named("textbox", "Docs page").fill("https://docs.example.test/deploy")
    labelled("Day").fill("2026-12-01")
    labelled("Window opens").fill("2026-12-01T09:30")
    named("spinbutton", "Replicas").fill("4")
    named("spinbutton", "Traffic share").fill("0.25")
    named("checkbox", "Canary first").uncheck()
    named("group", "Region").get_by_role("radio", name="America").check()
    named("group", "Tier").get_by_role("radio", name="Large").check()
    named("group", "Checks").get_by_role("checkbox", name="Lint").check()
    host.find(1, "button", "Submit").click()

    form = host.read_line(1, "FORM")
    assert form == {
        "status": "answered",
        "action": "accept",
        "by": "person",
        "values": {
            "name": "checkout-api",
            "owner": "ops@example.test",
            "docs": "https://docs.example.test/deploy",
            "day": "2026-12-01",
            "at": "2026-12-01T09:30",
            "replicas": 4,
            "ratio": 0.25,
            "canary": False,
            "region": "us",
            "tier": "l",
            "checks": ["lint", "unit"],
        },
        "types": {
            "name": "str",
            "owner": "str",
            "docs": "str",
            "day": "str",
            "at": "str",
            "replicas": "int",
            "ratio": "float",
            "canary": "bool",
            "region": "str",
            "tier": "str",
            "checks": "list",
        },
    }
    host.wait_done(1)
    assert not host.failed(1)
    host.expect_host_rules(1)
    expect(view).to_have_attribute("data-status", "answered")
    expect(view).to_contain_text("checkout-api")
    expect(view).to_contain_text("America")
    host.run_cell(2)
    host.wait_output(2, "after")


def test_interrupt_cancels_and_the_next_cell_runs(host: Host):
    if host.name == "lite":
        pytest.skip("the Pyodide kernel is not interrupted from the page")
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({FIRST!r}, ['Yes', 'No'], timeout=3600)\nprint('NOT REACHED')",
            f"ans = await nbask.ask({SECOND!r}, ['1e-3', '1e-4'], timeout=None)\n" + PRINT_RESULT,
            "print('HISTORY', [h.status for h in nbask.history()])",
        ]
    )
    host.run_cell(0)
    host.run_cell(1, wait=False)
    first = AskWidget(host.widget(1))
    first.expect_pending()
    host.wait_running(1)
    # The countdown starts once the wait has taken the kernel's interrupt over: an interrupt
    # sooner (between the widget being shown and the wait) ends the request as well, but
    # ipykernel then cancels the cell's task, and the cell shows asyncio's CancelledError.
    expect(host.widget(1)).to_contain_text("Time left")

    host.interrupt()
    first.expect_resolved("cancelled")
    host.wait_output(1, "KeyboardInterrupt")
    host.wait_done(1)
    assert host.failed(1)
    assert "KeyboardInterrupt" in host.printed(1)
    assert "NOT REACHED" not in host.printed(1)
    host.wait_idle()

    host.run_cell(2, wait=False)
    second = AskWidget(host.widget(2))
    second.expect_pending()
    second.choose(SECOND, "1e-4")
    second.submit()
    result = host.read_line(2, "RESULT")
    assert result["status"] == "answered"
    assert result["answers"] == {SECOND: "1e-4"}
    host.wait_done(2)
    assert not host.failed(2)
    # The first widget stays cancelled, and is the only one in its cell.
    first.expect_resolved("cancelled")
    expect(host.widgets(1)).to_have_count(1)

    host.run_cell(3)
    assert host.printed(3).strip() == "HISTORY ['cancelled', 'answered']"
