"""The "question waiting" signals: the tab's title carries the marker while a question waits
unseen and gets its own title back once answered; a question scrolled far out of view puts a
"Question waiting" button in the page's corner that brings it back into view (in every host).
In JupyterLab and Notebook 7: the button opens a collapsed output area, and while a batch waits
both signals count its requests ("3 requests waiting").
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from support.ask_widget import PRINT_RESULT, ApprovalView, AskWidget, read_result, run_axe_serious
from support.batch_helpers import PRINT_DECISIONS, SETUP, expect_three_pending, read_decisions, run_three
from support.hosts import Host
from support.notebook_page import RUN_TIMEOUT_MS

QUESTION = "Which database should the app use?"
# js/shell/attention.ts WAITING_TITLE_PREFIX
MARKER = "● Question waiting — "
TALL_CELLS = 6
TALL = "\n\n".join(f"Paragraph {i} of a long section." for i in range(40))

# Every scrolled box around the widget, and the page, back to the top (above the long output).
SCROLL_TO_TOP = """(node) => {
  let n = node.parentElement;
  while (n !== null) {
    const style = getComputedStyle(n);
    if (/(auto|scroll)/.test(style.overflowY) && n.scrollHeight > n.clientHeight) n.scrollTop = 0;
    n = n.parentElement;
  }
  document.scrollingElement.scrollTop = 0;
}"""
SCROLL_AWAY = """(node) => {
  let n = node.parentElement;
  while (n !== null) {
    const style = getComputedStyle(n);
    if (/(auto|scroll)/.test(style.overflowY) && n.scrollHeight > n.clientHeight) break;
    n = n.parentElement;
  }
  (n ?? document.scrollingElement).scrollTop = 1e7;
}"""


def badge(page: Page):
    """The corner button: "Question waiting", or "N requests waiting" while several wait."""
    return page.get_by_role("button", name=re.compile(r"^(Question|\d+ requests) waiting$"))


def test_title_marker_and_badge_for_a_question_out_of_view(host: Host, axe_source):
    # Long outputs above the question, in several cells: Notebook 7 gives one long output a
    # scroll box of its own, so one alone would not push the question out of view.
    tall = [f"print('\\n'.join(f'part {part} line {{i}}' for i in range(200)))" for part in range(TALL_CELLS)]
    host.open(
        [
            "import json, nbask",
            *tall,
            f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'], timeout=600.0)\n"
            + PRINT_RESULT,
        ]
    )
    page = host.page
    for index in range(1 + TALL_CELLS):
        host.run_cell(index)
    original = page.title()
    assert MARKER not in original

    asking = 1 + TALL_CELLS
    host.run_cell(asking, wait=False)
    ask = AskWidget(host.widget(asking))
    ask.expect_pending()

    # Scrolled up to the long output above it: the title says a question waits, and the badge appears.
    ask.root.evaluate(SCROLL_TO_TOP)
    expect(ask.root).not_to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(page).to_have_title(MARKER + original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_text("Question waiting")
    page.add_script_tag(content=axe_source)
    assert run_axe_serious(page, page.locator(".nbask-waiting-badge")) == []

    badge(page).click()
    expect(ask.root).to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(ask.option(QUESTION, "PostgreSQL")).to_be_focused()
    expect(badge(page)).to_have_count(0, timeout=RUN_TIMEOUT_MS)

    ask.choose(QUESTION, "SQLite")
    ask.submit()
    assert host.read_line(asking, "RESULT")["answers"] == {QUESTION: "SQLite"}
    ask.expect_status("answered")
    expect(page).to_have_title(original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_count(0)


def test_title_marker_while_the_page_is_hidden(host: Host):
    host.open(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'], timeout=600.0)\n"
            + PRINT_RESULT,
        ]
    )
    page = host.page
    host.run_cell(0)
    original = page.title()
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    # The person switched to another tab: the widget is in view, but nobody sees it.
    page.evaluate(
        """() => {
          Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    expect(page).to_have_title(MARKER + original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_count(0)
    ask.choose(QUESTION, "SQLite")
    ask.submit()
    assert host.read_line(1, "RESULT")["answers"] == {QUESTION: "SQLite"}
    expect(page).to_have_title(original, timeout=RUN_TIMEOUT_MS)


def test_badge_opens_a_collapsed_output_area(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'], timeout=600.0)\n"
            + PRINT_RESULT,
        ]
    )
    page = nb.page
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()

    # The output collapser (the bar left of the outputs) hides the widget.
    nb.cell(1).locator(".jp-Cell-outputCollapser").click()
    expect(ask.root).to_be_hidden(timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_text("Question waiting", timeout=RUN_TIMEOUT_MS)

    badge(page).click()
    expect(ask.root).to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(ask.option(QUESTION, "PostgreSQL")).to_be_focused()
    expect(badge(page)).to_have_count(0, timeout=RUN_TIMEOUT_MS)
    ask.choose(QUESTION, "SQLite")
    ask.submit()
    assert read_result(nb, 1)["answers"] == {QUESTION: "SQLite"}


def expect_signals(page: Page, cards: list[ApprovalView], text: str, original: str) -> None:
    """With every card scrolled out of view: the title marker and the badge both say ``text``."""
    cards[0].root.evaluate(SCROLL_AWAY)
    for card in cards:
        expect(card.root).not_to_be_in_viewport(timeout=RUN_TIMEOUT_MS)
    expect(page).to_have_title(f"● {text} — {original}", timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_text(text, timeout=RUN_TIMEOUT_MS)


def test_title_marker_and_badge_count_the_requests_of_a_batch(open_notebook):
    cells: list[str | tuple[str, str]] = [SETUP, run_three(timeout=600) + "\n" + PRINT_DECISIONS]
    cells += [("markdown", f"# Section {k}\n\n{TALL}") for k in range(8)]
    nb = open_notebook(cells)
    page = nb.page
    nb.run_cell(0)
    original = page.title()
    nb.run_cell(1, wait=False)
    cards, heading = expect_three_pending([nb.widget(1, i) for i in range(3)])
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)

    expect_signals(page, cards, "3 requests waiting", original)
    cards[1].button("Approve").click()
    cards[1].expect_status("answered")
    expect_signals(page, cards, "2 requests waiting", original)
    for card in (cards[0], cards[2]):
        card.button("Approve").click()
    assert [d["decision"] for d in read_decisions(nb, 1)] == ["approve"] * 3
    expect(page).to_have_title(original, timeout=RUN_TIMEOUT_MS)
    expect(badge(page)).to_have_count(0)
