"""The terminal resolver, for the ``interactive`` policy outside a Jupyter kernel: asks at a TTY
with the request kind's own prompt. What the person types is the person's answer
(``answered_by="person"``). Ctrl-C cancels (the wait ends with KeyboardInterrupt, as in a
notebook), and the request's timeout applies.
"""

from __future__ import annotations

import time
from typing import Any, TextIO

from ..config import how_to_set_a_policy
from ..core.lifecycle import INTERRUPTED_NOTE, OutcomeT, Request, Resolution, timeout_note
from ..errors import NoFrontEnd
from ..kinds import kind_of
from ..terminal import Terminal, TimedOut, terminal_streams


class ConsoleResolver:
    """Resolves a request by asking at the terminal."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._streams = (stdin, stdout) if stdin is not None and stdout is not None else None

    def _io(self) -> tuple[TextIO, TextIO] | None:
        return self._streams or terminal_streams()

    def check_available(self, request: Request[Any]) -> None:
        del request
        if self._io() is None:
            msg = "no terminal to ask at (stdin is not a TTY), so no one can answer. " + how_to_set_a_policy()
            raise NoFrontEnd(msg)

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        # A terminal has no event loop to keep serving while the person types.
        return self.resolve_sync(resolution)

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        request = resolution.request
        streams = self._io()
        if streams is None:
            self.check_available(request)
        assert streams is not None  # noqa: S101 - check_available raised otherwise
        timeout = request.timeout
        term = Terminal(*streams, deadline=None if timeout is None else time.monotonic() + timeout)
        try:
            resolution.settle(kind_of(request).console_prompt(term, request))
        except TimedOut:
            term.say("\n(no answer in time)")
            resolution.end("timeout", timeout_note(timeout))
        except KeyboardInterrupt:
            resolution.end("cancelled", INTERRUPTED_NOTE)
            raise
        assert resolution.outcome is not None  # noqa: S101 - settled above
        return resolution.outcome
