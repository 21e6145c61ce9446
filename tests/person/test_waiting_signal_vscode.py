"""The "question waiting" signals in the VS Code host: a question below a long output and
scrolled out of view marks the page's title and puts a "Question waiting" button in the corner;
the button brings the question into view and focuses it; the answer gives the title back.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import AskWidget
from support.vscode.host import PRINT_RESULT, RUN_TIMEOUT_MS

pytestmark = pytest.mark.vscode

QUESTION = "Which database should the app use?"
# js/shell/attention.ts WAITING_TITLE_PREFIX
MARKER = "● Question waiting — "

SCROLL_TO_TOP = """(node) => {
  let n = node.parentElement;
  while (n !== null) {
    const style = getComputedStyle(n);
    if (/(auto|scroll)/.test(style.overflowY) && n.scrollHeight > n.clientHeight) n.scrollTop = 0;
    n = n.parentElement;
  }
  document.scrollingElement.scrollTop = 0;
}"""


def badge(page: Page):
    return page.get_by_role("button", name=re.compile(r"^Question waiting"))


def test_title_marker_and_badge_for_a_question_out_of_view(open_host, axe_source):
    host = open_host()
    page = host.page
    host.run_ok("import json, nbask")
    host.run_ok("print('\\n'.join(f'line {i}' for i in range(400)))")
    original = page.title()
    assert MARKER not in original

    cell = host.run(
        f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'], timeout=600.0)\n" + PRINT_RESULT
    )
    ask = AskWidget(host.widget(cell))
    ask.expect_status("pending")
    ask.root.evaluate(SCROLL_TO_TOP)
    expect(ask.root).not_to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(page).to_have_title(MARKER + original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_text("Question waiting", timeout=RUN_TIMEOUT_MS)

    page.add_script_tag(content=axe_source)
    violations = page.evaluate(
        "async (node) => (await axe.run(node, { runOnly: ['wcag2a', 'wcag2aa'] })).violations"
        ".filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)",
        page.locator(".nbask-waiting-badge").element_handle(),
    )
    assert violations == []

    badge(page).click()
    expect(ask.root).to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(ask.option(QUESTION, "PostgreSQL")).to_be_focused()
    expect(badge(page)).to_have_count(0, timeout=RUN_TIMEOUT_MS)

    ask.choose(QUESTION, "SQLite")
    ask.submit()
    assert host.read_result(cell)["answers"] == {QUESTION: "SQLite"}
    ask.expect_status("answered")
    expect(page).to_have_title(original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_count(0)
