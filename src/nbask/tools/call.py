"""``nbask.tools.call``: run one tool call of the model, from its raw arguments to the result
the model reads. Never raises into the agent loop, except for a kernel interrupt (which stops
the cell) and a replay miss (``ReplayMissing``: a replayed run that asks what its recording lacks
fails instead of going on without the answer). No one to ask is a tool error the model reads,
and the request's refusal is kept in ``nbask.history()``.
"""

from __future__ import annotations

import logging
from typing import Any

from .. import config
from ..core.lifecycle import DEFAULT_TIMEOUT
from ..errors import NoOneCanAnswer, QuestionsNotAllowed, ReplayMissing
from ..kinds import QuestionRequest
from ..models import Answer
from ..resolvers.run import refused, run_request, run_request_sync
from ..waiting import WaitingUnsupported
from .dialects import DEFAULT_TOOL_NAME, DIALECTS, TOOL_NAMES, ArgumentError, Dialect, Plan
from .late import with_late_answers
from .result import ToolResult

log = logging.getLogger(__name__)


def _error(status: Any, text: str) -> ToolResult:
    return ToolResult(is_error=True, output=f"Error: {text}", message=text, status=status)


def _available(tool_name: str) -> Dialect | ToolResult:
    """The dialect named ``tool_name`` if the tool is on; else the tool error."""
    dialect = DIALECTS.get(tool_name) if isinstance(tool_name, str) else None
    if dialect is None:
        return _error("invalid", f"there is no tool named {tool_name!r} here; the tools are: {', '.join(TOOL_NAMES)}")
    try:
        enabled = config.settings().tools_enabled
    except ValueError as error:  # NBASK_POLICY names no policy
        return _error("failed", f"{dialect.name} cannot run: {error}. Do not call it again in this run.")
    if not enabled:
        text = (
            f"the {dialect.name} tool is switched off in this notebook (nbask.configure(tools_enabled=False)). "
            "Do not call it again; continue with what you know, or stop and say what you need."
        )
        return _error("disabled", text)
    return dialect


def _prepare(
    arguments: object, tool_name: str, tool_call_id: str | None, timeout: float | None
) -> tuple[Dialect, QuestionRequest, Plan] | ToolResult:
    """The dialect, the request to run and the plan to reply with; or the tool error instead."""
    dialect = _available(tool_name)
    if isinstance(dialect, ToolResult):
        return dialect
    try:
        plan = dialect.read(arguments)
    except ArgumentError as error:
        return dialect.invalid(error)
    except RecursionError:
        return dialect.invalid(ArgumentError("arguments: nested too deeply to read"))
    try:
        limit = plan.timeout if plan.timeout is not None else timeout
        if plan.wait_at_most is not None and (limit is None or plan.wait_at_most < limit):
            limit = plan.wait_at_most  # the model may ask for a shorter wait, never a longer one
        request = QuestionRequest(question_set=plan.question_set, timeout=limit, tool_call_id=tool_call_id)
    except (TypeError, ValueError) as error:  # the caller's timeout is not a number of seconds
        return _failure(dialect, None, error, tool_call_id)
    return dialect, request, plan


def _failure(
    dialect: Dialect, request: QuestionRequest | None, error: Exception, tool_call_id: str | None
) -> ToolResult:
    """The tool error for an exception raised while asking ``request`` (None: before it was
    made or after it was answered); when no one could be asked, the request's refusal is kept in the history (a
    replay miss raises from here).
    """
    name = dialect.name
    if isinstance(error, NoOneCanAnswer | WaitingUnsupported):
        outcome = refused(request, error) if request is not None else None
        if isinstance(error, QuestionsNotAllowed):
            return dialect.error("refused", f"{name} is not available here. {error}", outcome)
        text = (
            f"{name} cannot ask the user here, so no one will answer: {error} "
            f"Do not call {name} again in this run; continue with what you know and state your assumptions, or stop."
        )
        return dialect.error("unavailable", text, outcome)
    # Only ids are logged: what was asked may be private.
    log.error("nbask tool %s failed (tool call %s)", name, tool_call_id, exc_info=error)
    text = (
        f"{name} failed unexpectedly ({type(error).__name__}: {error}). This is a problem on the notebook's side, "
        "not in your arguments: do not retry the same call; continue with what you know, or stop."
    )
    return dialect.error("failed", text)


def _delivered(result: ToolResult, tool_name: str) -> ToolResult:
    """``result`` with any answer the person gave late to an earlier request, in the dialect's way."""
    dialect = DIALECTS.get(tool_name) if isinstance(tool_name, str) else None
    return with_late_answers(result, in_json=dialect is not None and dialect.replies_in_json)


def _finish(dialect: Dialect, answer: Answer, plan: Plan, tool_call_id: str | None) -> ToolResult:
    try:
        return dialect.reply(answer, plan)
    except Exception as error:  # noqa: BLE001 - the agent loop gets a tool error, never an exception
        return _failure(dialect, None, error, tool_call_id)


async def call(
    arguments: object,
    tool_name: str = DEFAULT_TOOL_NAME,
    tool_call_id: str | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> ToolResult:
    """Validate a model's tool call, ask the person, and return what the model should read.

    ``arguments``: the call's arguments as the model sent them (JSON text) or as a dict.
    ``tool_name`` picks the dialect (see ``nbask.tools.definition``); ``tool_call_id`` is
    recorded with the request. A call made while another request waits (several agents run at
    once) is shown beside it. Bad arguments, "no one can answer here", a refusal inside
    ``nbask.no_questions()`` and unexpected failures all come back as ``is_error=True`` results
    whose ``output`` tells the model what to do (a refusal is kept in ``nbask.history()``); a
    dismiss or a timeout is a normal result without answers. Only a kernel interrupt
    (KeyboardInterrupt), a cancelled task and a replay miss (``nbask.ReplayMissing``) propagate.

        result = await nbask.tools.call(tool_call.function.arguments, tool_call_id=tool_call.id)
        messages.append(result.as_message("openai-chat", tool_call.id))
    """
    prepared = _prepare(arguments, tool_name, tool_call_id, timeout)
    if isinstance(prepared, ToolResult):
        return _delivered(prepared, tool_name)
    dialect, request, plan = prepared
    try:
        answer = await run_request(request, queue=True)  # beside any other agent's request
    except ReplayMissing:
        raise
    except Exception as error:  # noqa: BLE001 - every other failure becomes a tool error the model can read
        return _delivered(_failure(dialect, request, error, tool_call_id), tool_name)
    return _delivered(_finish(dialect, answer, plan, tool_call_id), tool_name)


def call_sync(
    arguments: object,
    tool_name: str = DEFAULT_TOOL_NAME,
    tool_call_id: str | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> ToolResult:
    """The blocking twin of ``call``, for synchronous agent loops."""
    prepared = _prepare(arguments, tool_name, tool_call_id, timeout)
    if isinstance(prepared, ToolResult):
        return _delivered(prepared, tool_name)
    dialect, request, plan = prepared
    try:
        answer = run_request_sync(request, queue=True)
    except ReplayMissing:
        raise
    except Exception as error:  # noqa: BLE001 - every other failure becomes a tool error the model can read
        return _delivered(_failure(dialect, request, error, tool_call_id), tool_name)
    return _delivered(_finish(dialect, answer, plan, tool_call_id), tool_name)
