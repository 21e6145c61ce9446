"""An approval's stakes in a real browser: a high-risk approval says "High risk" and never has
focus on Approve; an edit then approve shows its changes as removed and added lines in the
resolved block; "Restore original" puts the original details back in the edit box.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect
from support.ask_widget import run_axe_serious
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

DETAILS = "DELETE FROM events\nWHERE day < 7\n-- 12,408,331 rows"


def open_approval(open_notebook: Callable[..., NotebookPage], risk: str | None = None) -> tuple[NotebookPage, Locator]:
    nb = open_notebook(
        [
            "import nbask",
            (
                f"d = await nbask.approve('Delete old events', {DETAILS!r}, timeout=600, risk={risk!r})\n"
                "print('DECISION', d.decision, repr(d.edited), flush=True)"
            ),
            # A next cell to land on: Shift+Enter on the last cell would open a new one to type in.
            "print('after')",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    root = nb.widget(1)
    expect(root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    return nb, root


def button(root: Locator, name: str) -> Locator:
    return root.get_by_role("button", name=name, exact=True)


def test_high_risk_says_so_and_focus_is_never_on_approve(open_notebook, page: Page, axe_source):
    _nb, root = open_approval(open_notebook, risk="high")
    expect(root.get_by_text("High risk", exact=True)).to_be_visible()
    approve = button(root, "Approve")
    expect(approve).to_be_visible()
    # Autofocus lands on a safe control: Reject.
    expect(button(root, "Reject")).to_be_focused(timeout=RUN_TIMEOUT_MS)
    expect(approve).not_to_be_focused()
    # Approve is drawn in the danger colour, not the primary one.
    colour = approve.evaluate("b => getComputedStyle(b).backgroundColor")
    red, green, blue = (int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3])
    assert red > 150, colour
    assert red > 2 * max(green, blue), colour
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, root) == []
    button(root, "Reject").click()
    expect(root).to_have_attribute("data-status", "answered", timeout=RUN_TIMEOUT_MS)


def test_edit_then_approve_shows_the_changed_lines(open_notebook, page: Page, axe_source):
    nb, root = open_approval(open_notebook, risk="medium")
    expect(root.get_by_text("Medium risk", exact=True)).to_be_visible()
    button(root, "Edit").click()
    details = root.get_by_role("textbox", name="Details", exact=True)
    expect(details).to_have_value(DETAILS)
    details.fill(DETAILS.replace("day < 7", "day < 30"))
    button(root, "Approve").click()
    expect(root).to_have_attribute("data-status", "answered", timeout=RUN_TIMEOUT_MS)
    nb.wait_output(1, "DECISION edit", timeout=RUN_TIMEOUT_MS)
    changes = root.get_by_role("region", name="Changes")
    expect(changes).to_be_visible()
    expect(changes.get_by_role("deletion")).to_have_text("-Removed: WHERE day < 7")
    insertion = changes.get_by_role("insertion")
    # the changed word is marked, and said after the line for a screen reader
    expect(insertion).to_have_text("+Added: WHERE day < 30 (Changed: 7 → 30)")
    expect(insertion.locator("mark")).to_have_text("30")
    expect(changes).to_contain_text("DELETE FROM events")
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, root) == []


def test_restore_original_brings_back_the_original_text(open_notebook):
    nb, root = open_approval(open_notebook)
    expect(root.get_by_text("High risk", exact=True)).to_have_count(0)
    button(root, "Edit").click()
    details = root.get_by_role("textbox", name="Details", exact=True)
    details.fill("DROP TABLE events")
    expect(details).to_have_value("DROP TABLE events")
    button(root, "Restore original").click()
    expect(details).to_have_value(DETAILS)
    expect(root.get_by_role("button", name="Edit", exact=True)).to_have_count(0)
    expect(details).to_be_focused()
    button(root, "Approve").click()
    nb.wait_output(1, "DECISION approve None", timeout=RUN_TIMEOUT_MS)
