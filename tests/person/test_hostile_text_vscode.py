"""LLM-written text in the VS Code host is shown as text: markup and script literally, nothing
runs, nothing leaves the output.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.vscode.host import open_asking

pytestmark = pytest.mark.vscode

IMG = "<img src=x onerror=window.__pwned=1>"
SCRIPT = "<script>window.__pwned=1</script>"
LINK = "<a href=javascript:window.__pwned=1>click me</a>"
STYLE = "<style>.nbask{display:none}</style>"
LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 12
QUESTION = f"{IMG} Which <b>format</b> should we export?"
QUESTIONS = [
    {
        "question": QUESTION,
        "header": "<i>x</i>",
        "options": [
            {"label": SCRIPT, "description": STYLE},
            {"label": LINK, "description": "[markdown link](javascript:window.__pwned=1) **bold**"},
            {"label": LONG_WORD, "description": LONG_WORD},
        ],
    }
]


def test_hostile_text_is_literal_and_nothing_runs(open_host):
    host, cell, ask = open_asking(open_host, f"nbask.ask_questions({QUESTIONS!r}, timeout=None)")
    expect(ask.question(QUESTION)).to_be_visible()
    for text in (IMG, SCRIPT, LINK, STYLE, "<b>format</b>", "<i>x</i>", "[markdown link](javascript:"):
        expect(ask.root).to_contain_text(text)
    expect(host.cell(cell).locator(".nbask").locator("img, script, a, b, i, style, iframe")).to_have_count(0)
    assert host.page.evaluate("typeof window.__pwned") == "undefined"

    # Nothing sticks out of the output on the right.
    box = ask.root.bounding_box()
    area = host.cell(cell).locator(".cell-outputs").bounding_box()
    assert box is not None
    assert area is not None
    assert box["x"] + box["width"] <= area["x"] + area["width"] + 1
    assert ask.root.evaluate("e => e.scrollWidth <= e.clientWidth + 1")

    ask.choose(QUESTION, SCRIPT)
    ask.submit()
    result = host.read_result(cell)
    assert result["answers"] == {QUESTION: SCRIPT}
    ask.expect_resolved("answered", {QUESTION: SCRIPT})
    assert host.page.evaluate("typeof window.__pwned") == "undefined"
    expect(host.cell(cell).locator("img, script, iframe")).to_have_count(0)
