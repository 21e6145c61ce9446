"""Light and dark JupyterLab screenshots of a batch (two approvals and a question asked together),
saved to docs/batch-light.png and docs/batch-dark.png for the README's "Several at once".

The theme is switched as tests/support/light_and_dark.py does it (Settings → Theme) and put
back afterwards; the test checks the cards follow it (dark text on light, light on dark).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from support.ask_widget import ApprovalView, AskWidget
from support.light_and_dark import light_and_dark
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

REGION = "Which region should the new cluster use?"
# The README's own example: requests asked with queue=True while others wait are shown together.
BATCH = (
    "import asyncio\n"
    "answers = await asyncio.gather(\n"
    "    nbask.approve('Drop table events_2023', 'DROP TABLE events_2023;', risk='high', "
    "timeout=None, queue=True),\n"
    "    nbask.approve('Run shell command', 'python train.py --epochs 40', risk='low', "
    "timeout=None, queue=True),\n"
    f"    nbask.ask({REGION!r}, ['eu-west-1 (Recommended)', 'us-east-1'], timeout=None, queue=True),\n"
    ")"
)


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_batch_light_and_dark_screenshots(open_notebook, page: Page):
    page.set_viewport_size({"width": 1280, "height": 1400})  # room for all three cards
    nb = open_notebook(["import nbask", BATCH, "print(answers[0].decision, answers[1].decision)"])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    cards = [nb.widget(1, i) for i in range(3)]
    for card in cards:
        expect(card).to_be_visible(timeout=RUN_TIMEOUT_MS)
        expect(card).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    heading = cards[0].get_by_role("group", name=re.compile(r"requests? waiting$"))
    expect(heading).to_have_accessible_name("3 requests waiting")
    # The high-risk drop is never swept up: with one other approval there is nothing to approve in bulk.
    expect(heading.get_by_role("button", name=re.compile(r"^Approve all"))).to_have_count(0)
    expect(heading.get_by_role("button", name="Reject all (2)", exact=True)).to_be_visible()
    question = AskWidget(cards[2])
    expect(question.question(REGION)).to_be_visible()
    light_and_dark(nb, cards, cards[0].get_by_text("Drop table events_2023", exact=True), "batch")

    ApprovalView(cards[0]).button("Reject").click()
    ApprovalView(cards[1]).button("Approve").click()
    question.choose(REGION, "eu-west-1")
    question.submit()
    nb.run_cell(2, wait=False)
    nb.wait_output(2, "reject approve")
