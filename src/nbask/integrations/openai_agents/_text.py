"""What the model reads when nbask.integrations.openai_agents does not run a call, and the Runner
arguments that carry it: an edit's request to retry, and nbask's rejection text handed to the
run's own ``RunConfig(tool_error_formatter=...)`` as its ``default_message``.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Callable
from typing import Any

from agents import Agent, RunConfig, ToolErrorFormatterArgs

from ...models import Decision

__all__ = ["ALWAYS_REJECTED", "retry_text", "run_kwargs", "texts_for"]

#: The key, before a tool's name, of nbask's text for the calls of a tool the person rejected for
#: the rest of the run: the SDK rejects them itself and gives the formatter no text of nbask's.
ALWAYS_REJECTED = "always-rejected:"

#: Runner.run arguments the resumed RunState carries itself: passing the first run's value again
#: would replace the state's newer one (the last response id of a server-managed conversation).
_STATE_OWNED = frozenset({"previous_response_id", "auto_previous_response_id"})


def retry_text(name: str, decision: Decision, edited: dict[str, Any]) -> str:
    """What the model reads after a usable edit: call the tool again with the person's arguments."""
    note = decision.reason.strip()
    if note and note[-1] not in ".!?":
        note += "."
    note = f" Their note: {note}" if note else ""
    arguments = json.dumps(edited, ensure_ascii=False)
    return (
        f"Not run: the person did not approve these arguments and edited them.{note} "
        f"Call {name} again with these arguments instead: {arguments}"
    )


def texts_for(run_config: object) -> dict[str, str] | None:
    """A place for nbask's rejection texts when the run has a tool_error_formatter, else None."""
    return {} if isinstance(run_config, RunConfig) and run_config.tool_error_formatter is not None else None


def run_kwargs(
    agent: object, where: str, runner_kwargs: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str] | None]:
    """The first run's and the resumptions' Runner arguments, and ``texts_for`` the run_config."""
    if not isinstance(agent, Agent):
        msg = f"{where}(agent, input): agent must be an agents.Agent, not {type(agent).__name__}"
        raise TypeError(msg)
    run_config = runner_kwargs.get("run_config")
    first = dict(runner_kwargs)
    texts = texts_for(run_config)
    if texts is not None and isinstance(run_config, RunConfig):
        formatter = _formatter(run_config.tool_error_formatter, texts)
        first["run_config"] = dataclasses.replace(run_config, tool_error_formatter=formatter)
    resume = {key: value for key, value in first.items() if key not in _STATE_OWNED}
    return first, resume, texts


def _formatter(own: Any, texts: dict[str, str]) -> Callable[[ToolErrorFormatterArgs[Any]], Any]:
    """The caller's formatter; for a call nbask rejected (or the SDK did, of a tool the person
    rejected for the run), with nbask's text as ``default_message`` (its None keeps that text).
    Other errors reach it unchanged.
    """

    async def formatter(args: ToolErrorFormatterArgs[Any]) -> str | None:
        text = None
        if args.kind == "approval_rejected":
            text = texts.get(args.call_id) or texts.get(ALWAYS_REJECTED + args.tool_name)
        message = own(args if text is None else dataclasses.replace(args, default_message=text))
        if inspect.isawaitable(message):
            message = await message
        return text if message is None else message

    return formatter
