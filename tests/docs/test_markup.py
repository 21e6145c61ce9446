"""The README and the docs pages say placeholders such as <tool> in prose as text: a bare
``<word>`` outside code is an HTML tag to Markdown and vanishes from the page.
"""

from __future__ import annotations

import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parents[2]
#: Tags a page may mean as tags.
TAGS = {"br", "details", "summary", "p", "div", "span", "kbd", "sub", "sup"}


def bare_tags(text: str) -> list[str]:
    """Every ``<word>`` outside fenced code and code spans, not escaped."""
    found, in_fence = [], False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        found += [m.group(0) for m in re.finditer(r"(?<!\\)<([a-z][a-z_-]*)>", prose) if m.group(1) not in TAGS]
    return found


def test_the_check_finds_a_bare_placeholder() -> None:
    assert bare_tags('Asks "Always allow <tool> in this run?"') == ["<tool>"]
    assert bare_tags("Asks `Always allow <tool>` and \\<tool> and <br>") == []


def test_no_page_has_a_bare_placeholder() -> None:
    pages = [REPO / "README.md", *(p for p in (REPO / "docs").rglob("*.md") if "_build" not in p.parts)]
    bare = {str(page.relative_to(REPO)): tags for page in pages if (tags := bare_tags(page.read_text()))}
    assert bare == {}, "write them as \\<word> or in backticks"
