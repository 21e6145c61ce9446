"""A batch asked by several agents in one cell, in a real browser (JupyterLab and Notebook 7): each
card names who asks ("From billing agent") when the batch's requests come from more than one
source, as plain text; the batch's heading (the count, Approve all / Reject all) sits on the first
card still waiting, so it moves off a question once that is answered and never sits on an answered
card; the bulk confirmation's buttons have a gap between them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import ApprovalView, AskWidget, read_line
from support.batch_helpers import batch_heading
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

REGION = "Which region?"
# A planner's question first, then the same approval from two agents: identical but for who asks.
AGENTS = (
    "import asyncio, json, nbask\n"
    "out = await asyncio.gather(\n"
    f"    nbask.ask({REGION!r}, ['eu-west-1', 'us-east-1'], timeout=600, queue=True, source='planner'),\n"
    "    nbask.approve('Drop table t', 'DROP TABLE t', timeout=600, queue=True, source='billing agent'),\n"
    "    nbask.approve('Drop table t', 'DROP TABLE t', timeout=600, queue=True, source='<b>deploy</b> agent'),\n"
    ")\n"
    "decisions = [out[1].decision, out[2].decision]\n"
    'print("OUT " + json.dumps({"answers": out[0].answers, "decisions": decisions}), flush=True)'
)

GAP = """([a, b]) => b.getBoundingClientRect().left - a.getBoundingClientRect().right"""


def test_cards_name_their_source_and_the_heading_leaves_the_answered_card(open_notebook, page: Page):
    nb = open_notebook([AGENTS])
    nb.run_cell(0, wait=False)
    question = AskWidget.in_cell(nb, 0, 0)
    cards = [ApprovalView(nb.widget(0, i)) for i in (1, 2)]
    question.expect_pending()
    for card in cards:
        card.expect_status("pending")
    sources = [card.root.locator(".nbask-source") for card in (question, *cards)]
    for line, name in zip(sources, ("planner", "billing agent", "<b>deploy</b> agent"), strict=True):
        expect(line).to_have_text(f"From {name}", timeout=RUN_TIMEOUT_MS)
    expect(sources[2].locator("b")).to_have_count(0)  # plain text, never markup

    heading = batch_heading(question)
    expect(heading).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    expect(heading.get_by_role("button", name="Approve all (2)", exact=True)).to_be_visible()

    question.choose(REGION, "eu-west-1")
    question.submit()
    question.expect_status("answered")
    # The heading leaves the answered question for the first approval still waiting.
    expect(question.root.locator(".nbask-batch")).to_have_count(0)
    expect(sources[0]).to_have_text("From planner")  # an answered card still says who asked
    moved = batch_heading(cards[0])
    expect(moved).to_have_accessible_name("2 requests waiting")
    reject_all = moved.get_by_role("button", name="Reject all (2)", exact=True)
    reject_all.click()
    confirm = moved.get_by_role("button", name="Reject 2", exact=True)
    keep = moved.get_by_role("button", name="Keep reviewing", exact=True)
    expect(keep).to_be_focused()
    # The confirmation's two buttons do not touch.
    assert page.evaluate(GAP, [confirm.element_handle(), keep.element_handle()]) >= 6
    confirm.click()
    assert read_line(nb, 0, "OUT") == {"answers": {REGION: "eu-west-1"}, "decisions": ["reject", "reject"]}
    for card in cards:
        card.expect_status("answered")
        expect(card.root.locator(".nbask-batch")).to_have_count(0)


def test_a_batch_of_one_source_names_none(open_notebook):
    one = AGENTS.replace("'planner'", "'billing agent'").replace("'<b>deploy</b> agent'", "'billing agent'")
    nb = open_notebook([one])
    nb.run_cell(0, wait=False)
    question = AskWidget.in_cell(nb, 0, 0)
    question.expect_pending()
    expect(batch_heading(question)).to_have_accessible_name("3 requests waiting", timeout=RUN_TIMEOUT_MS)
    for i in range(3):
        expect(nb.widget(0, i).locator(".nbask-source")).to_be_hidden()
    question.dismiss()
    for i in (1, 2):
        ApprovalView(nb.widget(0, i)).button("Reject").click()
    assert read_line(nb, 0, "OUT")["decisions"] == ["reject", "reject"]
