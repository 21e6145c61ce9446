"""Microsoft Agent Framework's human in the loop answered in the cell: the function approval
requests of ``@tool(approval_mode="always_require")`` tools, and a workflow's ``request_info``.

    result = await nbask.integrations.agent_framework.run(agent, "Clean up the warehouse.")
    result = nbask.integrations.agent_framework.run_sync(agent, "Clean up.", session=session)
    result = await nbask.integrations.agent_framework.run(workflow, "Plan the launch.")

``run(agent, input, session=...)`` runs the agent (in ``session``, or a new one: the framework
resumes an approval only in the session that asked it), answers the run's approval requests
(several at once are asked together, answered in any order) and runs the agent again in the
same session with the ``function_approval_response``s, until none is left; it returns the last
``AgentResponse``. Each run gets nbask's middleware (``middleware()``). Stop and resume
yourself::

    agent = Agent(client=..., tools=[...], middleware=nbask_af.middleware())
    response = await agent.run("Clean up.", session=session)
    answers = await nbask_af.resolve(response, agent=agent)   # [] when nothing is asked
    response = await agent.run(Message(role="user", contents=answers), session=session)

What an approval request becomes: an approval titled "Call <tool>", its details the call's
arguments as JSON (none for a call without arguments, so there is nothing to edit), an edit
checked against the tool's JSON Schema. Approve -> approved. Reject
(and a dismiss, a timeout, a headless policy, no one to ask) -> ``approved=False``: the tool does
not run, and the model reads nbask's text (why, who decided) in place of the framework's
"rejected by user". Edit -> the framework's approval cannot change arguments, so nbask's
function middleware gives the approved call the edited arguments; the framework then asks a
replacement approval of exactly those, which nbask approves (it is what the person approved),
and the tool runs with them. ``run`` always has the middleware; with ``resolve`` it needs
``agent=`` carrying it (``Agent(middleware=nbask_af.middleware())``): without it an edit is a
rejection whose text gives the model the edited arguments (the model reads that text only
where nbask's middleware is; else the framework's "rejected by user"). Other user input
requests (an OAuth consent, a Host-owned call) are left to the caller: ``run`` returns the
response holding them.

A workflow (``Workflow``): ``run`` runs it with ``input``, answers every ``request_info`` of a
pause together and sends them with ``workflow.run(responses=...)``, until none is pending; it
returns the last ``WorkflowRunResult``. The request's ``data`` is shown as a person reads it: a
string as it is; data with a ``prompt`` (or ``message``, ``question``, ``text``) field, as the
framework's samples send, that prompt with its other non-empty fields as "name: value" lines
below; anything else as JSON. What ``ctx.request_info(data, response_type)`` becomes: ``bool`` ->
an approval, the text's first line its title and the rest its details (approved or not: a
rejection, a policy, no one to ask answer False); ``str`` / ``int`` / ``float`` -> a
one-field typed form; a pydantic model or a dataclass -> a typed form of its fields, answered
with an instance; an agent's approval request (an ``AgentExecutor``'s ``Content``) -> the
approval above (nbask's middleware reaches the workflow's agents through ``client_kwargs``).
A form left unanswered (declined, no one to ask) leaves its pause unsent: ``run`` returns the
result whose ``get_request_info_events()`` are still pending (answer them with
``workflow.run(responses={request_id: value})``). A response type nbask cannot ask as a form
raises TypeError naming it. A replay miss raises ``nbask.ReplayMissing``; an interrupt stops the
run where it waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from agent_framework import AgentResponse, Message, Workflow, WorkflowRunResult

from ...core.lifecycle import DEFAULT_TIMEOUT
from .. import _seam
from . import _hitl

__all__ = ["middleware", "resolve", "resolve_sync", "run", "run_sync"]

middleware = _hitl.middleware
Result = AgentResponse | WorkflowRunResult


def _running(
    target: Any,
    input: Any = None,  # noqa: A002 - the framework's own word for it
    *,
    session: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    **run_kwargs: Any,
) -> _seam.Asking[Any]:
    """Run an ``Agent`` (``agent.run(input, session=..., **run_kwargs)``) or a ``Workflow``
    (``workflow.run(input, **run_kwargs)``) with every approval and request answered in the cell
    (``timeout`` seconds each; only ``approvers`` may answer, when given); see the module
    docstring. Returns the last ``AgentResponse`` / ``WorkflowRunResult``.
    """
    del approvers  # applied to every request this run asks by _seam.twins
    if run_kwargs.pop("stream", False):
        msg = "run(..., stream=True): run drives a whole run; stream yourself and answer each pause with resolve"
        raise TypeError(msg)
    if isinstance(target, Workflow):
        return (yield from _workflow_run(target, input, timeout, run_kwargs))
    return (yield from _agent_run(target, input, session, timeout, run_kwargs))


run, run_sync = _seam.twins(
    _running,
    "run",
    """The blocking twin of ``run``: the framework's coroutines run on an event loop of their own
    in a worker thread (so it works inside a cell's running loop too), and the person is asked
    from this thread between runs. An interrupt cancels the run there and waits for it to end.
    """,
)


async def resolve(
    response: Result,
    *,
    agent: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> Any:
    """Answer one pause, asked together: an ``AgentResponse``'s approval requests -> the list of
    ``function_approval_response`` contents to send back (``Message(role="user",
    contents=...)`` in the same session); a ``WorkflowRunResult``'s ``request_info`` events ->
    ``{request_id: response}`` for ``workflow.run(responses=...)`` (without the ones left open).
    With ``agent`` (its tools, and whether it carries nbask's middleware) an edit is checked
    against the tool's schema and applied; without nbask's middleware an edit is a rejection.
    ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return _answers(response, await _seam.drive(_asking(response, agent, timeout)))


def resolve_sync(
    response: Result,
    *,
    agent: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
) -> Any:
    """The blocking twin of ``resolve``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return _answers(response, _seam.drive_sync(_asking(response, agent, timeout)))


# -- the loop, shared by run and run_sync: ("call", awaitable) / ("ask", Asking) / ("done", result)


def _agent_run(
    agent: Any, given: Any, session: Any, timeout: float | None, run_kwargs: dict[str, Any]
) -> _seam.Asking[Any]:
    session = session if session is not None else agent.create_session()
    extra = list(run_kwargs.pop("middleware", None) or [])
    if not _hitl.has_middleware([*(getattr(agent, "middleware", None) or []), *extra]):
        extra += _hitl.middleware()
    schemas = _schemas(agent, run_kwargs.get("tools"))
    response = yield _seam.Work(partial(agent.run, given, session=session, middleware=extra, **run_kwargs))
    while True:
        requests = [content for content in response.user_input_requests if _hitl.is_approval(content)]
        if not requests or len(requests) < len(response.user_input_requests):
            return response
        answers = yield from _seam.together([_hitl.approving(r, timeout, schemas, edits=True) for r in requests])
        again = Message(role="user", contents=answers)
        response = yield _seam.Work(partial(agent.run, again, session=session, middleware=extra, **run_kwargs))


def _workflow_run(
    workflow: Workflow, given: Any, timeout: float | None, run_kwargs: dict[str, Any]
) -> _seam.Asking[Any]:
    client_kwargs = dict(run_kwargs.pop("client_kwargs", None) or {})
    client_kwargs["middleware"] = [*(client_kwargs.get("middleware") or []), *_hitl.middleware()]
    run_kwargs["client_kwargs"] = client_kwargs
    result = yield _seam.Work(partial(workflow.run, given, **run_kwargs))
    while events := result.get_request_info_events():
        answered = yield from _events_asking(events, timeout, {}, edits=True)
        if len(answered) < len(events):
            return result
        result = yield _seam.Work(partial(workflow.run, responses=answered, **run_kwargs))
    return result


# -- one pause -------------------------------------------------------------------------------------


def _asking(response: Result, agent: Any, timeout: float | None) -> _seam.Asking[Any]:
    edits = agent is not None and _hitl.has_middleware(getattr(agent, "middleware", None))
    schemas = _schemas(agent, None) if agent is not None else {}
    if isinstance(response, WorkflowRunResult):
        return _events_asking(response.get_request_info_events(), timeout, schemas, edits=edits)
    requests = [content for content in response.user_input_requests if _hitl.is_approval(content)]
    return _seam.together([_hitl.approving(r, timeout, schemas, edits=edits) for r in requests])


def _answers(response: Result, answered: Any) -> Any:
    return answered if isinstance(response, WorkflowRunResult) else list(answered)


def _events_asking(
    events: Sequence[Any], timeout: float | None, schemas: Any, *, edits: bool
) -> _seam.Asking[dict[str, Any]]:
    """Every request_info event of a pause, asked together: {request_id: response} of those answered."""
    askings = [_hitl.answering(e.data, e.response_type, timeout, schemas, edits=edits) for e in events]
    values = yield from _seam.together(askings)
    return {e.request_id: v for e, v in zip(events, values, strict=True) if v is not _hitl.OPEN}


def _schemas(agent: Any, tools: Any) -> dict[str, Any]:
    options = getattr(agent, "default_options", None) or {}
    found = _hitl.schemas_of(options.get("tools"))
    found.update(_hitl.schemas_of(list(tools) if isinstance(tools, Sequence) else [tools] if tools else []))
    return found
