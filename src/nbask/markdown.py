"""Plain-Markdown pieces shared by every kind's summary, for places widgets don't render (a
notebook saved and viewed on GitHub, nbconvert) and for terminals. Model text stays text.
"""

from __future__ import annotations

import re

from .models import Outcome

_MARKDOWN_SPECIALS = set("\\`*_{}[]()<>#+-.!|&~")


def escape_markdown(text: str) -> str:
    """One line of literal text: no links, images, emphasis or HTML survive."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in text).replace("\r", " ").replace("\n", " ")


def code_block(text: str) -> str:
    """A fenced block whose fence is longer than any backtick run inside, so the text can't end it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def first_line(text: str, limit: int = 120) -> str:
    """The first non-empty line of ``text``, cut to ``limit`` characters with an ellipsis."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"


def by_whom(outcome: Outcome) -> str:
    """Names who decided when it was no person ("by policy", "by replay"), the person's username
    where the front end named them ("by alice (verified)", with how that is known), "from the
    inbox by alice" for an answer given
    later in the inbox, and "late" for an answer after the time limit.
    """
    late = " late" if outcome.late else ""
    user = outcome.answered_by_user
    named = f" by {escape_markdown(user)}{f' ({outcome.identity})' if outcome.identity else ''}" if user else ""
    if outcome.answered_by == "inbox":
        return f" from the inbox{named}"
    if outcome.answered_by != "person":
        return f"{late} by {outcome.answered_by}"
    return f"{late}{named}"
