"""Locators and checks for one nbask widget view (a question's, an approval's), by its
accessibility contract; and the notebook cells that ask a question (or an approval) and print
the kernel's answer for the test to read. The VS Code host suite uses them too.

Contract (js/contract/contract.ts): root `.nbask` with `data-status`; each question a `group` named by the
question text; options `radio`/`checkbox` named by their label; a `textbox` named "Other"
per question; buttons "Submit" and "Dismiss".
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Dialog, Locator, Page, expect

from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

STATUS_TEXT = {
    "answered": "Answered",
    "dismissed": "Dismissed",
    "timeout": "Timed out",
    "cancelled": "Cancelled",
}

ANSWER_ANYWAY = "Answer anyway"
ANSWERED_LATE = "Answered late"

# What a cell prints so the test can read the kernel's view of the answer exactly.
PRINT_RESULT = (
    'print("RESULT " + json.dumps({"status": ans.status, "answers": ans.answers, '
    '"selections": ans.selections, "note": ans.note}, ensure_ascii=False, sort_keys=True), flush=True)'
)
# The same, with each question's note (``Answer.notes``) in place of the selections.
PRINT_NOTES = (
    'print("RESULT " + json.dumps({"status": ans.status, "answers": ans.answers, "notes": ans.notes, '
    '"note": ans.note}, ensure_ascii=False, sort_keys=True), flush=True)'
)
# What an approval cell prints so the test can read the kernel's Decision exactly.
PRINT_DECISION = (
    'print("DECISION " + json.dumps({"decision": d.decision, "status": d.status, "edited": d.edited, '
    '"reason": d.reason, "answered_by": d.answered_by}, ensure_ascii=False, sort_keys=True), flush=True)'
)
# Markup that would run if a preview or a note were rendered as HTML.
HOSTILE_MARKUP = '<img src=x onerror="window.__nbaskPwned=1">'


class ApprovalView:
    """One approval view, found by its accessibility contract."""

    def __init__(self, root: Locator) -> None:
        self.root = root

    def button(self, name: str) -> Locator:
        return self.root.get_by_role("button", name=name, exact=True)

    def textbox(self, name: str) -> Locator:
        return self.root.get_by_role("textbox", name=name, exact=True)

    def expect_status(self, status: str, timeout: float = RUN_TIMEOUT_MS) -> None:
        expect(self.root).to_have_attribute("data-status", status, timeout=timeout)


class AskWidget:
    def __init__(self, root: Locator) -> None:
        self.root = root

    @classmethod
    def in_cell(cls, nb: NotebookPage, cell: int, nth: int = 0) -> AskWidget:
        widget = cls(nb.widget(cell, nth))
        expect(widget.root).to_be_visible(timeout=RUN_TIMEOUT_MS)
        return widget

    # -- locators ----------------------------------------------------------------

    def question(self, text: str) -> Locator:
        return self.root.get_by_role("group", name=text, exact=True)

    def option(self, question: str, label: str, exact: bool = False) -> Locator:
        group = self.question(question)
        return group.get_by_role("radio", name=label, exact=exact).or_(
            group.get_by_role("checkbox", name=label, exact=exact)
        )

    def other(self, question: str) -> Locator:
        return self.question(question).get_by_role("textbox", name="Other", exact=True)

    def button(self, name: str) -> Locator:
        return self.root.get_by_role("button", name=name, exact=True)

    @property
    def submit_button(self) -> Locator:
        return self.button("Submit")

    @property
    def dismiss_button(self) -> Locator:
        return self.button("Dismiss")

    @property
    def controls(self) -> Locator:
        """Every form control left in the view."""
        return self.root.locator("input, button, select, textarea, [contenteditable='true']")

    # -- actions -----------------------------------------------------------------

    def choose(self, question: str, label: str) -> None:
        self.option(question, label).check()

    def submit(self) -> None:
        self.submit_button.click()

    def dismiss(self) -> None:
        self.dismiss_button.click()

    # -- checks ------------------------------------------------------------------

    def expect_status(self, status: str, timeout: float = RUN_TIMEOUT_MS) -> None:
        expect(self.root).to_have_attribute("data-status", status, timeout=timeout)

    def expect_pending(self) -> None:
        self.expect_status("pending")
        expect(self.submit_button).to_be_visible()

    def expect_resolved(self, status: str, answers: dict[str, str] | None = None) -> None:
        """Read-only block: the status word, each question's answer, no form controls."""
        self.expect_status(status)
        expect(self.root).to_contain_text(STATUS_TEXT[status])
        # A timed-out request keeps one control: "Answer anyway" (test_late_answers.py).
        expect(self.controls).to_have_count(1 if status == "timeout" else 0)
        if status == "timeout":
            expect(self.button(ANSWER_ANYWAY)).to_be_visible()
        expect(self.root.get_by_role("group")).to_have_count(0)
        for question, answer in (answers or {}).items():
            expect(self.root).to_contain_text(question)
            expect(self.root).to_contain_text(answer)

    def expect_reading_order(self, texts: list[str]) -> None:
        """The status line ("Answered", "Answered by ...") comes first, then each text (a question,
        then its answer, then the next question...) is shown below the one before it: the
        resolved block reads top to bottom.
        """
        seen: dict[str, int] = {}
        status_line = self.root.locator(".nbask-status-line")
        located = [(status_line.inner_text(), status_line)]
        for text in texts:
            nth = seen.get(text, 0)
            seen[text] = nth + 1
            located.append((text, self.root.get_by_text(text, exact=True).nth(nth)))
        boxes = []
        for text, locator in located:
            box = locator.bounding_box()
            assert box is not None, f"{text!r} is not shown"
            boxes.append((text, round(box["y"]), round(box["y"] + box["height"]), round(box["x"])))
        for before, after in itertools.pairwise(boxes):
            assert after[1] >= before[2] - 1, (
                f"{after[0]!r} (top {after[1]}) is not below {before[0]!r} (bottom {before[2]}); "
                f"layout (text, top, bottom, left): {boxes}"
            )

    def focused_description(self) -> str:
        """What has keyboard focus, as `role:name` (an element outside the widget is `outside:<tag>`)."""
        return str(self.root.evaluate(DESCRIBE_FOCUS))


DESCRIBE_FOCUS = """root => {
  const el = document.activeElement;
  if (!el || !root.contains(el)) {
    return 'outside:' + (el ? el.tagName.toLowerCase() + '.' + [...el.classList].join('.') : 'none');
  }
  const byIds = (ids) => (ids || '').split(/\\s+/).filter(Boolean)
      .map(id => (document.getElementById(id) || {}).textContent || '').join(' ');
  let name = el.getAttribute('aria-label') || byIds(el.getAttribute('aria-labelledby'));
  if (!name && el.labels && el.labels.length) name = el.labels[0].textContent;
  if (!name) name = el.textContent;
  const role = el.tagName === 'INPUT' ? (el.type === 'text' ? 'textbox' : el.type) : el.tagName.toLowerCase();
  const fieldset = el.closest('fieldset');
  const q = fieldset ? byIds(fieldset.getAttribute('aria-labelledby')) + ' / ' : '';
  return role + ':' + q + name.trim();
}"""


RUN_AXE = """async (el) => {
  const results = await axe.run(el, { resultTypes: ['violations'] });
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => ({ target: n.target.join(' '), summary: n.failureSummary })),
  }));
}"""


def run_axe_serious(page: Page, root: Locator) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations inside ``root`` (axe must be injected first)."""
    violations = page.evaluate(RUN_AXE, root.element_handle())
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def read_line(nb: NotebookPage, cell: int, prefix: str, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
    """Wait for the one `PREFIX {...}` line cell `cell` printed and parse it."""
    nb.wait_output(cell, re.compile(re.escape(prefix) + r" \{"), timeout=timeout)
    lines = [line for line in nb.stream_text(cell).splitlines() if line.startswith(prefix + " ")]
    assert len(lines) == 1, f"expected exactly one {prefix} line in cell {cell}, got {lines}"
    return dict(json.loads(lines[0][len(prefix) + 1 :]))


def read_result(nb: NotebookPage, cell: int, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
    """The answer PRINT_RESULT printed in cell `cell`."""
    return read_line(nb, cell, "RESULT", timeout)


def read_decision(nb: NotebookPage, cell: int, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
    """The decision PRINT_DECISION printed in cell `cell`."""
    return read_line(nb, cell, "DECISION", timeout)


def open_asking(open_notebook: Callable[..., NotebookPage], call: str) -> tuple[NotebookPage, AskWidget]:
    """Open the usual notebook of a question: cell 0 `import json, nbask`; cell 1
    `ans = await <call>`, then PRINT_RESULT; cell 2 `print('after')`. Run cell 0, start cell 1
    and return once its widget is pending (the cell still waits for the answer).
    """
    nb = open_notebook(["import json, nbask", f"ans = await {call}\n" + PRINT_RESULT, "print('after')"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    return nb, ask


# -- a reload with unsaved changes, and the "Waiting requests" panel it can bring ----------------------

WAITING_REGION = "Waiting requests"  # js/reload/panel.ts PANEL_TEXT.region


def waiting_panel(page: Page) -> Locator:
    """The page-level panel of waiting requests no cell shows (js/reload/panel.ts)."""
    return page.get_by_role("region", name=WAITING_REGION, exact=True)


def reload_unsaved(nb: NotebookPage) -> None:
    """Reload a notebook with unsaved changes: the page asks whether to leave; the person does."""

    def leave(dialog: Dialog) -> None:
        if dialog.type == "beforeunload":
            dialog.accept()
        else:
            dialog.dismiss()

    nb.page.on("dialog", leave)
    nb.reload()
    nb.wait_kernel_connected()
