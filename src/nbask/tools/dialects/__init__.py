"""The dialects: one module per "ask the user" tool nbask speaks, picked by tool name.

| tool name | module | from |
| --- | --- | --- |
| ``AskUserQuestion`` | ``claude_code`` | kimi-cli, Claude Code; nbask's default |
| ``ask_user_question`` | ``chat_backend`` | a chat backend's approval_request protocol |
| ``ask_user`` | ``ask_user`` | a Go desktop app |
| ``ask_followup_question`` | ``followup`` | Kilo Code, Roo Code |
| ``request_user_input`` | ``codex`` | OpenAI Codex |
"""

from __future__ import annotations

from typing import Final

from ...errors import ArgumentError
from ._arguments import Plan
from ._base import Dialect
from .ask_user import AskUser
from .chat_backend import ChatBackend
from .claude_code import ClaudeCode
from .codex import Codex
from .followup import Followup

DEFAULT_TOOL_NAME: Final = "AskUserQuestion"

DIALECTS: Final[dict[str, Dialect]] = {
    dialect.name: dialect for dialect in (ClaudeCode(), ChatBackend(), AskUser(), Followup(), Codex())
}
TOOL_NAMES: Final[tuple[str, ...]] = tuple(DIALECTS)


def dialect_for(tool_name: str) -> Dialect:
    """The dialect named ``tool_name``; ValueError naming the known ones otherwise."""
    dialect = DIALECTS.get(tool_name) if isinstance(tool_name, str) else None
    if dialect is None:
        msg = f"nbask has no tool named {tool_name!r}; the tool names are: {', '.join(TOOL_NAMES)}"
        raise ValueError(msg)
    return dialect


__all__ = ["DEFAULT_TOOL_NAME", "DIALECTS", "TOOL_NAMES", "ArgumentError", "Dialect", "Plan", "dialect_for"]
