"""A paused agno run gone on from by the next run of the same code, under the ``later`` policy.

agno keeps a paused run in the agent's ``db`` (its session storage); when the person is to answer
later, the inbox keeps where it is (the run's and the session's ids) beside the pending
requests, and the next ``run(agent, input)`` of the same agent, session, notebook and input
loads that run from agno's db and goes on with the inbox's answers: the model is not asked again
for the steps already taken. An agent without a ``db`` keeps nothing to go on from, so it starts
over (and finds the answers in the inbox all the same).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from typing import Any

from agno.agent import Agent
from agno.run.agent import RunOutput

from ... import host
from .. import _seam
from .._seam import resuming


def key(agent: Agent, input: Any, run_kwargs: Mapping[str, Any]) -> str | None:  # noqa: A002 - agno's name
    """The key a paused run of ``agent`` on ``input`` is kept under; None when none is kept."""
    if not resuming.answering_later() or agent.db is None:
        return None
    session = run_kwargs.get("session_id") or agent.session_id
    who = [agent.name or agent.id, session, run_kwargs.get("user_id"), host.notebook_path(), input]
    return "agno:" + resuming.input_key(who)


def kept(agent: Agent, run_key: str) -> _seam.Asking[RunOutput | None]:
    """The paused run kept under ``run_key``, loaded from agno's db; None if none (or no longer
    paused there).
    """
    text = resuming.kept(run_key)
    if text is None:
        return None
    where = json.loads(text)
    found: RunOutput | None = yield _seam.Work(
        partial(agent.aget_run_output, where["run_id"], session_id=where["session_id"]),
        partial(agent.get_run_output, where["run_id"], session_id=where["session_id"]),
    )
    return found if found is not None and found.is_paused else None


def where(paused: RunOutput) -> str:
    """What the inbox keeps of a paused run: where agno's db has it."""
    return json.dumps({"run_id": paused.run_id, "session_id": paused.session_id})
