"""What an ACP agent streams, as plain text for the cell: its message and thought chunks, its
tool calls and their status, its plan. Everything is text (control characters shown escaped,
never HTML); ``Transcript`` keeps what a turn said beside printing it. A path inside the
session's folder is shown relative to it, so what is asked reads the same (and a recording
replays) wherever that folder is; a path outside it stays absolute.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    ContentToolCallContent,
    FileEditToolCallContent,
    PlanEntry,
    TerminalToolCallContent,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
)

from ...contract import MAX_PREVIEW_CHARS
from ...terminal import printable

__all__ = ["ToolCallView", "Transcript", "block_text", "content_text", "relative_text", "shown_path"]

#: How a plan entry's status is drawn at the start of its line.
_PLAN_MARK = {"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}


#: A character that continues a path's name: the folder preceded by one (in ``/x/a/proj/``) is
#: part of another path, never made relative.
_NAME_CHAR = r"[\w.~-]"


def shown_path(path: str, cwd: str | None) -> str:
    """``path`` as shown and recorded: relative to the session's folder ``cwd`` when inside it
    ("notes/todo.md"), else as given. Read lexically (``..`` folded first), so a path that climbs
    out of the folder is never shown as inside it.
    """
    if not cwd:
        return path
    try:
        inside = PurePath(os.path.normpath(path)).relative_to(cwd)
    except ValueError:
        return path
    return inside.as_posix() if inside.parts else "."


def relative_text(text: str, cwd: str | None) -> str:
    """An agent's free text (a tool call's title) with each path under ``cwd`` written relative
    to it: "Edit /home/me/proj/notes/todo.md" reads "Edit notes/todo.md" in ``/home/me/proj``.
    """
    if not cwd or not text or Path(cwd).parent == Path(cwd):  # no folder, or the root itself
        return text
    prefix = re.escape(cwd.rstrip("/\\")) + r"[/\\](?=[^\s/\\])"
    return re.sub(rf"(?<!{_NAME_CHAR}){prefix}", "", text)


def block_text(block: Any) -> str:
    """A content block as text: its text, or what it is (an image, a resource and its URI)."""
    if isinstance(block, TextContentBlock):
        return block.text
    uri = getattr(block, "uri", None) or getattr(getattr(block, "resource", None), "uri", None)
    kind = getattr(block, "type", "content")
    return f"<{kind} {uri}>" if uri else f"<{kind}>"


def content_text(content: Sequence[Any] | None, cwd: str | None = None) -> str:
    """A tool call's content as text: its text blocks, each diff as a unified diff (its file's
    path shown relative to ``cwd`` when inside it), terminals by id.
    """
    parts: list[str] = []
    for item in content or []:
        if isinstance(item, FileEditToolCallContent):
            old = (item.old_text or "").splitlines(keepends=True)
            new = item.new_text.splitlines(keepends=True)
            path = shown_path(item.path, cwd)
            before = path if item.old_text is not None else "/dev/null"
            diff = "".join(difflib.unified_diff(old, new, before, path))
            parts.append(diff if diff.endswith("\n") or not diff else diff + "\n")
        elif isinstance(item, TerminalToolCallContent):
            parts.append(f"(terminal {item.terminal_id})\n")
        elif isinstance(item, ContentToolCallContent):
            parts.append(block_text(item.content) + "\n")
    return "".join(parts).rstrip("\n")


@dataclass
class ToolCallView:
    """What is known of one tool call: the fields of its start and every update since."""

    tool_call_id: str
    title: str = ""
    kind: str = ""
    status: str = ""
    content: list[Any] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    raw_input: Any = None

    def update(self, change: ToolCallStart | ToolCallProgress | ToolCallUpdate) -> None:
        """Take the fields ``change`` sets (an update replaces a field only when it carries one)."""
        if change.title:
            self.title = change.title
        if change.kind:
            self.kind = change.kind
        if change.status:
            self.status = change.status
        if change.content is not None:
            self.content = list(change.content)
        if change.locations is not None:
            self.locations = [location.path for location in change.locations]
        if change.raw_input is not None:
            self.raw_input = change.raw_input

    def name(self, cwd: str | None = None) -> str:
        """Its title (paths under ``cwd`` relative to it), or its id when it has none."""
        return relative_text(self.title, cwd) or f"tool call {self.tool_call_id}"

    def paths(self, cwd: str | None = None) -> set[Path]:
        """The files it says it touches (its locations and diffs), absolute and normalised."""
        named = [*self.locations, *(c.path for c in self.content if isinstance(c, FileEditToolCallContent))]
        return {Path(os.path.normpath(Path(cwd or "") / path)) for path in named if path}

    def details(self, cwd: str | None = None) -> str:
        """Its kind, the files it touches and its content (else its raw input), shortened to a
        preview; paths under ``cwd`` relative to it.
        """
        lines = [f"kind: {self.kind}"] if self.kind else []
        lines += [f"file: {shown_path(path, cwd)}" for path in self.locations]
        body = content_text(self.content, cwd)
        if not body and self.raw_input is not None:
            body = json.dumps(self.raw_input, indent=2, ensure_ascii=False, default=repr)
        if body:
            lines += ["", body] if lines else [body]
        text = printable("\n".join(lines), keep_newlines=True)
        return text if len(text) <= MAX_PREVIEW_CHARS else text[: MAX_PREVIEW_CHARS - 1] + "…"


@dataclass
class Transcript:
    """One turn's stream, printed as it comes (``show``) and kept: the message text, the
    thoughts, the latest plan, each tool call.
    """

    show: bool = True
    write: Callable[[str], Any] | None = None
    #: The session's folder: paths under it are shown relative to it.
    cwd: str | None = None
    text: str = ""
    thoughts: str = ""
    plan: list[PlanEntry] = field(default_factory=list)
    tool_calls: dict[str, ToolCallView] = field(default_factory=dict)
    _channel: str = ""
    _at_line_start: bool = True

    def update(self, update: Any) -> None:
        """Print and keep one ``session/update``; kinds with nothing to show are left out."""
        if isinstance(update, AgentMessageChunk):
            piece = block_text(update.content)
            self.text += piece
            self._stream("message", "", piece)
        elif isinstance(update, AgentThoughtChunk):
            piece = block_text(update.content)
            self.thoughts += piece
            self._stream("thought", "thinking: ", piece)
        elif isinstance(update, (ToolCallStart, ToolCallProgress)):
            self._tool(update)
        elif isinstance(update, AgentPlanUpdate):
            self.plan = list(update.entries)
            marks = [f"  {_PLAN_MARK.get(e.status, '[ ]')} {e.content} ({e.priority})" for e in update.entries]
            self.line("\n".join(["plan:", *marks]))

    def tool(self, tool_call: ToolCallStart | ToolCallProgress | ToolCallUpdate) -> ToolCallView:
        """The view of ``tool_call`` (made on first sight), updated with what it carries."""
        view = self.tool_calls.setdefault(tool_call.tool_call_id, ToolCallView(tool_call.tool_call_id))
        view.update(tool_call)
        return view

    def _tool(self, update: ToolCallStart | ToolCallProgress) -> None:
        known = update.tool_call_id in self.tool_calls
        before = self.tool_calls[update.tool_call_id].status if known else None
        view = self.tool(update)
        if not known or (update.status and update.status != before):
            kind = f" [{view.kind}]" if view.kind else ""
            self.line(f"tool: {view.name(self.cwd)}{kind}" + (f" ({view.status})" if view.status else ""))

    def line(self, text: str) -> None:
        """A whole line (or lines) of its own, after whatever was streaming."""
        self._emit(("" if self._at_line_start else "\n") + text + "\n")
        self._channel, self._at_line_start = "", True

    def _stream(self, channel: str, prefix: str, piece: str) -> None:
        if not piece:
            return
        lead = ""
        if channel != self._channel:
            lead = ("" if self._at_line_start else "\n") + prefix
        self._emit(lead + piece)
        self._channel, self._at_line_start = channel, piece.endswith("\n")

    def end(self) -> None:
        """End the turn's output on a line of its own."""
        if not self._at_line_start:
            self._emit("\n")
        self._channel, self._at_line_start = "", True

    def _emit(self, text: str) -> None:
        if not self.show:
            return
        shown = printable(text, keep_newlines=True)
        if self.write is not None:
            self.write(shown)
            return
        sys.stdout.write(shown)
        sys.stdout.flush()
