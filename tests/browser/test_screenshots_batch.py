"""Light and dark JupyterLab screenshots of a batch (two approvals and a question asked together),
saved to docs/batch-light.png and docs/batch-dark.png for the README's "Several at once".

The theme is switched as tests/browser/test_screenshots.py does it (Settings → Theme) and put
back afterwards; the test checks the cards follow it (dark text on light, light on dark).
"""

from __future__ import annotations

import pathlib
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .ask_widget import ApprovalView, AskWidget
from .notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"

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

LUMINANCE = """el => {
  const [r, g, b] = getComputedStyle(el).color.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


def _set_theme(page: Page, name: str, light: bool) -> None:
    page.get_by_role("menuitem", name="Settings", exact=True).click()
    page.locator(".lm-Menu .lm-Menu-item").filter(has_text=re.compile(r"^Theme")).hover()
    page.get_by_role("menuitemcheckbox", name=name, exact=True).or_(
        page.get_by_role("menuitem", name=name, exact=True)
    ).first.click()
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true" if light else "false")
    expect(page.locator("body")).to_have_attribute("data-jp-theme-name", name)


def _shoot(nb: NotebookPage, cards: list[Locator], path: pathlib.Path) -> None:
    """Every card of the batch with a margin of the notebook around them, unfocused."""
    nb.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    nb.page.evaluate("() => document.fonts.ready")
    cards[0].scroll_into_view_if_needed()
    boxes = [card.bounding_box() for card in cards]
    assert all(box is not None for box in boxes)
    top = min(box["y"] for box in boxes if box)
    bottom = max(box["y"] + box["height"] for box in boxes if box)
    left = min(box["x"] for box in boxes if box)
    right = max(box["x"] + box["width"] for box in boxes if box)
    viewport = nb.page.viewport_size
    assert viewport is not None
    assert bottom + 8 <= viewport["height"], f"the batch ({top}-{bottom}) is cut off"
    pad = 8
    nb.page.screenshot(
        path=str(path),
        clip={"x": left - pad, "y": top - pad, "width": right - left + 2 * pad, "height": bottom - top + 2 * pad},
        animations="disabled",
        caret="hide",
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
    expect(heading.get_by_role("button", name="Approve all (2)", exact=True)).to_be_visible()
    question = AskWidget(cards[2])
    expect(question.question(REGION)).to_be_visible()
    title = cards[0].get_by_text("Drop table events_2023", exact=True)

    DOCS.mkdir(exist_ok=True)
    assert title.evaluate(LUMINANCE) < 0.5, "the title is not dark in the light theme"
    _shoot(nb, cards, DOCS / "batch-light.png")
    try:
        _set_theme(page, "JupyterLab Dark", light=False)
        page.wait_for_function(f"el => ({LUMINANCE})(el) > 0.5", arg=title.element_handle(), timeout=10_000)
        _shoot(nb, cards, DOCS / "batch-dark.png")
    finally:
        _set_theme(page, "JupyterLab Light", light=True)

    ApprovalView(cards[0]).button("Reject").click()
    ApprovalView(cards[1]).button("Approve").click()
    question.choose(REGION, "eu-west-1")
    question.submit()
    nb.run_cell(2, wait=False)
    nb.wait_output(2, "reject approve")
