"""The status marks of a resolved card are drawn (inline SVG masks in the text's colour), not
typed, so they show on every machine: Debian's Chromium, with its default fonts, has no glyph
for some of them (⏱ showed as an empty box). Checked in this machine's Chromium with the built
stylesheet, pixel by pixel; the screenshot is kept in test-artifacts to look at.
"""

from __future__ import annotations

import io
import json
import pathlib

import pytest
from PIL import Image

pytestmark = pytest.mark.browser

REPO = pathlib.Path(__file__).resolve().parents[2]
CSS = REPO / "src" / "nbask" / "static" / "widget.css"
MARKS = json.loads((REPO / "src" / "nbask" / "contract.json").read_text())["person_text"]["marks"]
ARTIFACTS = REPO / "test-artifacts"


def test_every_status_mark_is_drawn_whatever_the_fonts(page):
    lines = "".join(
        f'<p class="nbask-status-line" data-mark="{mark}" data-status="x">{name}</p>' for name, mark in MARKS.items()
    )
    page.set_content(
        f"<html><head><meta charset='utf-8'><style>{CSS.read_text()}</style></head>"
        "<body style='background:#fff;color:#000'>"
        f"<div class='nbask' style='font-size:16px'>{lines}</div></body></html>"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "status-marks.png"))
    for name, mark in MARKS.items():
        line = page.locator(f'.nbask-status-line[data-mark="{mark}"]').first
        style = line.evaluate(
            "el => { const s = getComputedStyle(el, '::before');"
            " return [s.content, s.maskImage || s.webkitMaskImage]; }"
        )
        assert "data:image/svg+xml" in style[1], f"{name} ({mark}): not drawn, {style}"
        assert mark not in style[0], f"{name} ({mark}): typed as a glyph, {style}"
        # The mark's 1em box, left of the text, has ink in it.
        box = line.bounding_box()
        assert box is not None
        shot = Image.open(
            io.BytesIO(page.screenshot(clip={"x": box["x"], "y": box["y"], "width": 18, "height": box["height"]}))
        )
        inked = sum(1 for pixel in shot.convert("L").getdata() if pixel < 160)
        assert inked > 10, f"{name} ({mark}): its mark drew nothing ({inked} dark pixels)"
