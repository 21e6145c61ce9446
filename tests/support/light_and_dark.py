"""Light and dark JupyterLab pictures of widgets, saved to docs/ for the README.

The theme is switched the way a person does it (Settings → Theme) and put back afterwards.
Besides the pictures, each one checks the widgets really follow the theme (a text of theirs is
dark on light, light on dark) and that the picture is whole (nothing cut off by the window).
"""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import Locator, Page, expect

from support.notebook_page import NotebookPage

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"

LUMINANCE = """el => {
  const [r, g, b] = getComputedStyle(el).color.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""

PAD = 8  # the margin of the notebook around the widgets in a picture


def set_theme(page: Page, name: str, light: bool) -> None:
    page.get_by_role("menuitem", name="Settings", exact=True).click()
    page.locator(".lm-Menu .lm-Menu-item").filter(has_text=re.compile(r"^Theme")).hover()
    page.get_by_role("menuitemcheckbox", name=name, exact=True).or_(
        page.get_by_role("menuitem", name=name, exact=True)
    ).first.click()
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true" if light else "false")
    expect(page.locator("body")).to_have_attribute("data-jp-theme-name", name)


def shoot(nb: NotebookPage, parts: list[Locator], path: pathlib.Path) -> None:
    """Every part (a widget, or each card of a batch) with a margin of the notebook around them,
    unfocused, so the light and dark pictures show the same state.
    """
    nb.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    nb.page.evaluate("() => document.fonts.ready")
    parts[0].scroll_into_view_if_needed()
    boxes = [part.bounding_box() for part in parts]
    assert all(box is not None for box in boxes)
    top = min(box["y"] for box in boxes if box)
    bottom = max(box["y"] + box["height"] for box in boxes if box)
    left = min(box["x"] for box in boxes if box)
    right = max(box["x"] + box["width"] for box in boxes if box)
    viewport = nb.page.viewport_size
    assert viewport is not None
    assert bottom + PAD <= viewport["height"], f"the picture ({top}-{bottom}) is cut off"
    nb.page.screenshot(
        path=str(path),
        clip={"x": left - PAD, "y": top - PAD, "width": right - left + 2 * PAD, "height": bottom - top + 2 * PAD},
        animations="disabled",
        caret="hide",
    )


def light_and_dark(nb: NotebookPage, parts: list[Locator], text: Locator, name: str) -> None:
    """Save docs/<name>-light.png and docs/<name>-dark.png of ``parts``: ``text`` is dark in the
    light theme and turns light in the dark one. The light theme is put back, whatever happens.
    """
    page = nb.page
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true")
    DOCS.mkdir(exist_ok=True)
    assert text.evaluate(LUMINANCE) < 0.5, f"{name}: the text is not dark in the light theme"
    shoot(nb, parts, DOCS / f"{name}-light.png")
    try:
        set_theme(page, "JupyterLab Dark", light=False)
        # Wait (bounded) for the widget's text to turn light: the theme's CSS may land a frame later.
        page.wait_for_function(f"el => ({LUMINANCE})(el) > 0.5", arg=text.element_handle(), timeout=10_000)
        shoot(nb, parts, DOCS / f"{name}-dark.png")
    finally:
        set_theme(page, "JupyterLab Light", light=True)
