"""A replay miss (or an unattended run asking again, ``nbask.AskedAgain``) of
nbask.integrations.claude_agent_sdk's callback, raised to the caller.

The SDK runs ``can_use_tool`` in a task of its own and keeps a callback's exception to itself (it
sends it to Claude Code as the permission request's error, and the run goes on). So the callback
denies with ``interrupt=True`` (Claude Code stops the run) and leaves the miss here; the code that
started the run raises it once the run is over: ``query(...)`` in place of the SDK's own, or
``with raise_replay_misses():`` around a ``ClaudeSDKClient``.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from typing import Any

import claude_agent_sdk
from claude_agent_sdk import ClaudeAgentOptions, Message, Transport

from ...errors import AskedAgain, ReplayMissing

__all__ = ["query", "raise_replay_misses", "remember"]

#: The misses of the runs started inside ``raise_replay_misses``: the SDK starts the callback's
#: task from the context the run was started in, so the callback finds the caller's own list.
_MISSES: contextvars.ContextVar[list[ReplayMissing | AskedAgain] | None] = contextvars.ContextVar(
    "nbask_claude_agent_sdk_replay_misses", default=None
)


def remember(miss: ReplayMissing | AskedAgain) -> None:
    """Keep ``miss`` for the ``raise_replay_misses`` block the run was started in, if any."""
    misses = _MISSES.get()
    if misses is not None:
        misses.append(miss)


@contextlib.contextmanager
def raise_replay_misses() -> Iterator[None]:
    """Raise ``nbask.ReplayMissing`` on leaving the block if nbask's callback met a replay miss.

    The run it happened in was stopped by the callback (a deny with ``interrupt=True``); the
    first miss is raised. Around a ``ClaudeSDKClient``, whose run is started inside the block::

        with nbask.integrations.claude_agent_sdk.raise_replay_misses():
            async with ClaudeSDKClient(options) as client:
                await client.query("...")
                async for message in client.receive_response():
                    ...

    An exception of the block's own goes on as it is.
    """
    misses: list[ReplayMissing | AskedAgain] = []
    token = _MISSES.set(misses)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):  # left in another context: an async generator closed late
            _MISSES.reset(token)
    if misses:
        raise misses[0]


async def query(
    *,
    prompt: str | AsyncIterable[dict[str, Any]],
    options: ClaudeAgentOptions | None = None,
    transport: Transport | None = None,
) -> AsyncIterator[Message]:
    """``claude_agent_sdk.query(...)``, each message yielded as it is; once the stream has ended,
    raises ``nbask.ReplayMissing`` if nbask's callback met a replay miss in it.
    """
    with raise_replay_misses():
        async for message in claude_agent_sdk.query(prompt=prompt, options=options, transport=transport):
            yield message
