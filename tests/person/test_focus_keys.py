"""A keyboard user of the notebook around the widget. In every host: once a question ends with
focus in the widget (Submit, Enter, Escape, Dismiss, or its time limit) focus is where the person
runs on from, and Shift+Enter runs on (JupyterLab, Notebook 7: the next cell, in command mode;
VS Code: the resolved block, the key reaching the workbench). In JupyterLab and Notebook 7: the
same after an approval's Approve or Reject and a form's Submit; Shift+Enter, Ctrl+S and I, I
work with focus in the widget; the widget never takes focus from another cell's editor. Escape
with a draft and Enter, Enter on an untouched question: tests/person/test_keys.py.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import PRINT_RESULT, ApprovalView, AskWidget, open_asking, waiting_panel
from support.hosts import Host
from support.hosts import open_asking as open_host_asking
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

from person.test_keys import PICK, QUESTIONS

CALL = f"nbask.ask_questions({QUESTIONS!r}, timeout=600)"
# js/reload/orphans.ts ORPHAN_DELAY_MS: how long a request may go without a view before it gets a card.
ORPHAN_DELAY_MS = 2000
COMMAND_MODE = re.compile(r"\bjp-mod-commandMode\b")


def _open(open_notebook):
    nb, ask = open_asking(open_notebook, CALL)
    expect(ask.option(PICK, "Medium")).to_be_focused()
    return nb, ask


def _end_by(way: str, page, ask: AskWidget) -> None:
    if way == "submit":
        page.keyboard.press("1")
        ask.submit()
    elif way == "enter":
        page.keyboard.press("1")
        page.keyboard.press("Enter")
    elif way == "escape":
        page.keyboard.press("Escape")  # nothing chosen: it dismisses at once
    else:
        ask.dismiss()


@pytest.mark.parametrize("way", ["submit", "enter", "escape", "dismiss"])
def test_focus_lets_the_person_run_on_when_the_request_ends(host: Host, way):
    ask = open_host_asking(host, CALL, "print('after')")
    expect(ask.option(PICK, "Medium")).to_be_focused()
    _end_by(way, host.page, ask)
    result = host.read_line(1, "RESULT")
    assert result["status"] == ("answered" if way in ("submit", "enter") else "dismissed")
    ask.expect_resolved(result["status"])
    host.expect_runs_on(1)


def test_focus_lets_the_person_run_on_when_the_time_limit_ends_the_request(host: Host):
    ask = open_host_asking(host, f"nbask.ask_questions({QUESTIONS!r}, timeout=8)", "print('after')")
    expect(ask.option(PICK, "Medium")).to_be_focused()
    ask.expect_status("timeout", timeout=RUN_TIMEOUT_MS + 8_000)
    assert host.read_line(1, "RESULT")["status"] == "timeout"
    host.expect_runs_on(1)


def _shift_enter_runs_the_next_cell(nb: NotebookPage, page: Page) -> None:
    """Focus is on the cell the person was in (cell 2, where Shift+Enter on cell 1 moved on),
    in command mode: Shift+Enter runs it.
    """
    expect(nb.cell(2)).to_be_focused()
    expect(nb.notebook).to_have_class(COMMAND_MODE)
    page.keyboard.press("Shift+Enter")
    nb.wait_output(2, "after")


def _focus_is_in(root: Locator) -> None:
    root.page.wait_for_function("root => root.contains(document.activeElement)", arg=root.element_handle())


# Reached by autofocus, or clicked while the person is in another cell's editor (autofocus
# declines): JupyterLab focuses the approval's own cell on the press, before the button takes
# focus; focus still goes back to the cell the person was in, not to the asking cell.
@pytest.mark.parametrize(("decision", "reached"), [("Approve", "autofocus"), ("Reject", "click from an editor")])
def test_focus_goes_back_to_the_cell_after_an_approval(open_notebook, page, decision, reached):
    call = "nbask.approve('Run shell command', 'make build', timeout=600)"
    wait = "await asyncio.sleep(1.5)\n" if reached != "autofocus" else ""
    nb = open_notebook(
        ["import asyncio, nbask", f"{wait}d = await {call}\nprint('DECISION', d.decision, d.status)", "print('after')"]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    if reached != "autofocus":
        nb.select_cell(2)
    view = ApprovalView(nb.widget(1))
    view.expect_status("pending")
    if reached == "autofocus":
        _focus_is_in(view.root)
    else:
        expect(nb.cell(2).locator(".cm-content")).to_be_focused()
    view.button(decision).click()
    nb.wait_output(1, f"DECISION {decision.lower()} answered")
    view.expect_status("answered")
    _shift_enter_runs_the_next_cell(nb, page)


def test_focus_goes_back_to_the_cell_after_a_form_is_submitted(open_notebook, page):
    schema = {"type": "object", "properties": {"name": {"type": "string", "title": "Service name", "default": "web"}}}
    call = f"nbask.ask_form('How should it be deployed?', {schema!r}, timeout=600)"
    nb = open_notebook(["import nbask", f"f = await {call}\nprint('FORM', f.status, f.values)", "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    root = nb.widget(1)
    expect(root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    _focus_is_in(root)
    page.keyboard.press("End")
    page.keyboard.type("-api")
    root.get_by_role("button", name="Submit", exact=True).click()
    nb.wait_output(1, "FORM answered {'name': 'web-api'}")
    _shift_enter_runs_the_next_cell(nb, page)


def test_ctrl_s_and_shift_enter_work_from_inside_the_widget(open_notebook, page):
    nb, ask = _open(open_notebook)
    # Ctrl+S is JupyterLab's save, not the browser's "Save page".
    before = nb._disk_model()["last_modified"]
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while nb._disk_model()["last_modified"] == before:
        assert time.monotonic() < deadline, "Ctrl+S in the widget did not save the notebook"
        page.wait_for_timeout(50)  # poll of the server's file, not a test delay
    ask.expect_pending()
    expect(ask.option(PICK, "Medium")).to_be_focused()
    # Shift+Enter is the notebook's: it runs the widget's cell again (the notebook clears its
    # outputs as it queues it) and moves on to the next cell; it answers nothing.
    page.keyboard.press("Shift+Enter")
    expect(nb.cell(2)).to_have_class(re.compile(r"\bjp-mod-active\b"))
    expect(nb.notebook).to_have_class(COMMAND_MODE)
    expect(nb.output_area(1).locator(".nbask")).to_have_count(0)
    assert nb.printed(1) == ""


def test_a_question_whose_cell_shift_enter_ran_again_is_offered_in_the_waiting_requests_panel(open_notebook, page):
    # The cell's first run asks; its second (queued behind the first) prints what the first got.
    first_run = f"runs.append(1)\nif len(runs) == 1:\n    ans = await {CALL}\n    got.append(ans.answers)\n"
    again = "else:\n    print('AGAIN ' + json.dumps(got), flush=True)"
    nb = open_notebook(["import json, nbask\nruns, got = [], []", first_run + again, "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    expect(ask.option(PICK, "Medium")).to_be_focused()
    # Past the moment after which a request with no view gets a card (js/reload/orphans.ts): the
    # widget is shown, so none did. The model came (initialize()) before its view rendered.
    page.evaluate("() => { window.__nbaskShown = performance.now(); }")
    page.wait_for_function(f"() => performance.now() > window.__nbaskShown + {ORPHAN_DELAY_MS + 500}")
    expect(waiting_panel(page)).to_have_count(0)
    # Shift+Enter in the widget runs its cell again: the notebook clears the cell's output (the
    # widget with it) while the kernel still waits for this answer.
    page.keyboard.press("Shift+Enter")
    expect(nb.output_area(1).locator(".nbask")).to_have_count(0)
    region = waiting_panel(page)
    expect(region.get_by_role("heading", name="A request is still waiting")).to_be_visible()
    expect(region).to_contain_text("Its cell's output was cleared, so it is shown here. Answering it resumes the cell.")
    card = AskWidget(region.locator(".nbask"))
    card.expect_pending()
    card.choose(PICK, "Large")
    card.submit()
    card.expect_resolved("answered", {PICK: "Large"})
    # The waiting run resumed with the answer, and the run queued behind it ran.
    nb.wait_output(1, 'AGAIN [{"Which model size?": "Large"}]')
    nb.wait_done(1)


def test_i_i_interrupts_from_inside_the_widget(open_notebook, page):
    nb, ask = _open(open_notebook)
    page.keyboard.press("i")
    page.keyboard.press("i")
    ask.expect_status("cancelled")
    nb.wait_done(1)


def test_the_widget_does_not_take_focus_from_another_cells_editor(open_notebook, page):
    nb = open_notebook(
        [
            "import asyncio, json, nbask",
            f"await asyncio.sleep(1.5)\nans = await {CALL}\n" + PRINT_RESULT,
            "",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    nb.select_cell(2)
    page.keyboard.type("typed")
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    page.keyboard.type(" 123")
    editor = nb.cell(2).locator(".cm-content")
    expect(editor).to_be_focused()
    expect(editor).to_have_text("typed 123")
    for label in ("Small", "Medium", "Large"):
        expect(ask.option(PICK, label)).not_to_be_checked()
    ask.expect_pending()
