"""Reloading the window while a question waits, as VS Code does it: the notebook keeps the
cell and its outputs, the running cell keeps receiving its execute request's output, but VS
Code does not restore live widgets after a reload, so the question is not shown again (the
output falls back to its text). The cell keeps waiting until its timeout or an interrupt;
after that the next question works.
"""

from __future__ import annotations

import pytest
from browser.ask_widget import AskWidget
from playwright.sync_api import expect

from .host import PRINT_RESULT, open_asking, start_asking

pytestmark = pytest.mark.vscode

QUESTION = "Retrain the model on the new data?"
NEXT = "Which split should be held out?"


def _reload_and_check_not_shown(host, cell):
    host.reload()
    restored = host.cell(cell)
    expect(restored).to_have_attribute("data-restored", "true")
    expect(restored.locator(".nbask")).to_have_count(0)
    # What VS Code shows instead: the output's text/plain.
    expect(restored.locator(".output[data-kind='text']")).to_contain_text(QUESTION)
    expect(restored.locator(".output[data-kind='text']")).to_contain_text("pending")
    assert host.is_running(cell)


def test_after_reload_the_question_is_gone_and_interrupt_ends_the_wait(open_host):
    host, cell, _ask = open_asking(open_host, f"nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=None)")
    _reload_and_check_not_shown(host, cell)

    # The reloaded window's kernel_info_request waits behind the waiting cell (nbask hands every
    # shell message but comm messages back to the kernel when the cell ends).
    answered_while_waiting = host.page.evaluate("() => window.vscodeHost.kernelInfoAt()") is not None
    host.interrupt()
    assert host.wait_done(cell) == ""  # no execute_reply reaches a reloaded window; idle ends it
    host.page.wait_for_function("() => window.vscodeHost.kernelInfoAt() !== null")
    when = "while the cell waited" if answered_while_waiting else "only once the wait ended"
    print(f"\nafter a reload, kernel_info was answered {when}")  # noqa: T201 - an observation, not a requirement
    host.wait_output(cell, "KeyboardInterrupt")
    assert "RESULT" not in host.stdout(cell)

    nxt, ask = start_asking(host, f"nbask.ask({NEXT!r}, ['Last week', 'Random 10%'], timeout=None)")
    ask.choose(NEXT, "Last week")
    ask.submit()
    assert host.read_result(nxt)["answers"] == {NEXT: "Last week"}


def test_after_reload_the_cell_waits_until_its_timeout(open_host):
    host = open_host()
    host.run_ok("import json, nbask")
    cell = host.run(f"ans = await nbask.ask({QUESTION!r}, ['Yes', 'No'], timeout=6)\n" + PRINT_RESULT)
    AskWidget(host.widget(cell)).expect_pending()
    _reload_and_check_not_shown(host, cell)

    result = host.read_result(cell, timeout=20_000)
    assert result["status"] == "timeout"
    assert result["answers"] == {}
    host.wait_done(cell)
