"""A paused run kept for the next run of the same code, under the ``later`` policy: when the
person is to answer later, the run's ``RunState`` (``to_string``) is kept in the inbox beside
its pending approvals; the next ``run(agent, input)`` of the same agent and input goes on from
it, with the inbox's answers, and the model is not asked again for the steps already taken.

"The same": the agent's name, its tools' names, the notebook, and the input's fingerprint; any
other agent or input starts its own run. A run started from a ``RunState`` is never kept (the
caller keeps that state).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from agents import Agent, RunState

from ... import host
from ...errors import AnswerLater
from ...inbox_store import open_inbox
from .._seam import resuming


def key(agent: Agent[Any], input: Any) -> str | None:  # noqa: A002 - Runner.run's own name
    """The key the paused run of ``agent`` on ``input`` is kept under; None when not kept."""
    if not resuming.answering_later() or isinstance(input, RunState):
        return None
    tools = sorted(str(getattr(tool, "name", tool)) for tool in agent.tools)
    return "openai_agents:" + resuming.input_key([agent.name, tools, host.notebook_path(), input])


def kept(run_key: str | None) -> str | None:
    """The paused run kept under ``run_key``, as ``RunState.to_string`` wrote it; None if none."""
    return None if run_key is None else open_inbox().run_state(run_key)


@contextlib.contextmanager
def keeping(run_key: str | None, state: RunState[Any]) -> Iterator[None]:
    """Keep ``state`` in the inbox when the asking inside stops the run to answer later."""
    try:
        yield
    except AnswerLater:
        if run_key is not None:
            open_inbox().keep_run(run_key, state.to_string())
        raise


def resumed(run_key: str | None) -> None:
    """The run went on to its end: its kept state is done with."""
    if run_key is not None:
        open_inbox().forget_run(run_key)
