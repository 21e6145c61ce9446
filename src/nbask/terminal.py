"""Line input and output at a terminal, for the prompts each request kind shows there.

Model text is untrusted: ``printable`` shows control characters (terminal escape sequences)
escaped, so it cannot move the cursor, recolour or retitle the terminal.
"""

from __future__ import annotations

import os
import select
import sys
import time
from typing import TextIO

#: The longest one ``select`` waits, so a Ctrl-C is acted on within this many seconds.
SIGNAL_SLICE = 0.2


class TimedOut(Exception):
    """The request's deadline passed while the terminal waited for a line."""


class Dismissed(Exception):
    """The person dismissed the request at the prompt."""


def printable(text: str, *, keep_newlines: bool = False) -> str:
    r"""``text`` with every control character shown escaped (``\\x1b``)."""
    out = []
    for ch in text:
        if (ch == "\n" and keep_newlines) or ch == "\t" or ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def terminal_streams() -> tuple[TextIO, TextIO] | None:
    """(input, output) when a person at a terminal can answer here, else None."""
    stdin = sys.stdin
    if not _is_terminal(stdin):
        return None
    out = next((stream for stream in (sys.stdout, sys.stderr) if _is_terminal(stream)), None)
    return (stdin, out) if out is not None else None


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or a test runner's stand-in
        return False


class Terminal:
    """Line input with a deadline, on the terminal's own file descriptor where it has one."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, deadline: float | None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.deadline = deadline
        try:
            self._fd: int | None = stdin.fileno() if os.name == "posix" else None
        except (OSError, ValueError, AttributeError):
            self._fd = None

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def line(self, prompt: str) -> str:
        """One line (without its newline); EOFError on end of input, TimedOut past the deadline."""
        self.stdout.write(prompt)
        self.stdout.flush()
        if self._fd is not None:
            self._wait_readable(self._fd)
        text = self.stdin.readline()
        if not text:
            raise EOFError
        return text.rstrip("\r\n")

    def _wait_readable(self, fd: int) -> None:
        """Return once a line can be read; TimedOut past the deadline.

        Waits in short slices: a Ctrl-C whose signal lands after Python last checked for
        signals but before the process enters ``select`` does not interrupt that ``select``,
        and Python raises KeyboardInterrupt only when it returns.
        """
        while True:
            left = None if self.deadline is None else self.deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimedOut
            if select.select([fd], [], [], SIGNAL_SLICE if left is None else min(left, SIGNAL_SLICE))[0]:
                return

    def limited_line(self, prompt: str, limit: int) -> str:
        """One stripped line of at most ``limit`` characters (asks again while it is longer)."""
        while True:
            text = self.line(prompt).strip()
            if len(text) <= limit:
                return text
            self.say(f"That is {len(text)} characters; the limit is {limit}.")

    def limited_text(self, limit: int) -> str:
        """Several lines ended by a line holding only ``.``, at most ``limit`` characters."""
        while True:
            self.say("Type the new details; end with a line that holds only a '.':")
            lines = []
            while (line := self.line("")) != ".":
                lines.append(line)
            text = "\n".join(lines)
            if len(text) <= limit:
                return text
            self.say(f"That is {len(text)} characters; the limit is {limit}.")

    @staticmethod
    def tool_call(tool_call_id: str | None) -> str:
        """The text " (tool call <id>)" when the request names one, else nothing."""
        return f" (tool call {printable(tool_call_id)})" if tool_call_id else ""
