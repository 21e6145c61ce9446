"""Strands Agents' tool calls and interrupts answered in the cell.

The one line: a hook provider that asks before every tool call, wherever the agent is called::

    agent = Agent(model=..., tools=[...], hooks=[nbask.integrations.strands.Approvals()])
    result = agent("Clean up the warehouse.")          # blocking: the cell waits, the widget shows
    result = await agent.invoke_async("Clean up.")     # or awaiting

``Approvals(tools=None, timeout=600, approvers=None, interrupt=False)`` registers a ``BeforeToolCallEvent``
callback that asks for approval of each call (of ``tools`` only, when named): an approval titled
"Call <tool>", its details the call's input as JSON, an edit checked against the tool's input
schema. Approve -> the call runs; Edit -> it runs with the edited input (``event.tool_use``'s
input replaced; the model's own call stays in the history); Reject (and a dismiss, a timeout, a
headless policy, no one to ask) -> ``event.cancel_tool`` with nbask's text: the tool never
runs and the model reads why, and who decided, as the call's error result. Parallel calls (the
default ``ConcurrentToolExecutor``) are asked side by side.

Why a hook provider rather than ``run``: it works with the call the code already makes
(``agent(...)``, ``invoke_async``, ``stream_async``), sync or async, and the person's reason and
edit reach the model and the tool, which Strands' own ``HumanInTheLoop`` cannot carry.

Interrupts (``event.interrupt(...)`` from hooks or tools, ``HumanInTheLoop()`` without ``ask``,
``Approvals(interrupt=True)``): ``run(agent, prompt)`` / ``run_sync`` call the agent and, while
it stops with ``stop_reason == "interrupt"``, ask about every one of ``result.interrupts``
together (one nbask batch, answered in any order) and resume the agent ONCE with a list of
``interruptResponse`` blocks; ``resolve(result)`` / ``resolve_sync`` answer one result's
interrupts and return that list, for the caller to pass to ``agent(...)``. Each interrupt:

- ``Approvals(interrupt=True)``'s ("nbask:approval"): the approval above; its response is the
  verdict the hook applies when the agent resumes (the same edit and reason).
- ``HumanInTheLoop``'s ("strands:human-in-the-loop"): an approval of the call its prompt names;
  Approve -> ``True``; Reject -> nbask's rejection text, which its ``evaluate`` reads as "no".
- Any other: a form showing its name and reason, one text field; the text is the response.

``ask`` is an ``ask`` for ``HumanInTheLoop(ask=nbask.integrations.strands.ask)``: the same
approval, asked inline (``functools.partial(ask, timeout=..., approvers=...)`` for another
timeout, or only the people named). ``run`` / ``resolve`` take ``timeout=`` and ``approvers=`` too.

What Strands cannot do: ``HumanInTheLoop`` gives the model only its own
"CONFIRMATION_FAILED: <prompt>" for a refusal (nbask's reason never reaches it) and cannot run a
call with edited input (an edit there is a rejection saying so); use ``Approvals`` for both.
An interrupt of another kind declined, dismissed, or with no one to ask has no refusal in
Strands: ``run`` then returns the interrupted result, answered interrupts answered in place,
for the caller to resume with responses for the rest. A replay miss raises
``nbask.ReplayMissing``; a kernel interrupt ends the wait and propagates.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from .. import _seam
from ._asking import APPROVAL, HITL, answering, apply, approval_reason, approving, hitl_confirming, waited

if TYPE_CHECKING:
    from strands import Agent
    from strands.agent import AgentResult
    from strands.hooks import BeforeToolCallEvent, HookRegistry

__all__ = ["APPROVAL", "HITL", "Approvals", "ask", "resolve", "resolve_sync", "run", "run_sync"]


class Approvals:
    """A Strands hook provider (``Agent(hooks=[Approvals()])``) asking before each tool call.

    ``tools``: the names of the tools to ask about (all when None). ``timeout``: seconds each
    approval waits; ``approvers``: who alone may give it. ``interrupt``: raise a Strands interrupt
    ("nbask:approval") instead of asking inline, for ``run`` / ``resolve`` (or a session manager)
    to answer when the agent stops; its reason carries ``approvers``, which come before those of
    the ``run`` / ``resolve`` that answers it.
    """

    def __init__(
        self,
        *,
        tools: Collection[str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        approvers: Sequence[str] | None = None,
        interrupt: bool = False,
    ) -> None:
        if isinstance(tools, str):
            msg = "tools must be a list of tool names, not a single string"
            raise TypeError(msg)
        self.tools = None if tools is None else frozenset(tools)
        self.timeout = timeout
        self.approvers = checked_approvers(approvers)
        self.interrupt = interrupt

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        """Strands' HookProvider protocol: ask in ``BeforeToolCallEvent``."""
        from strands.hooks import BeforeToolCallEvent  # noqa: PLC0415 - imported when used

        del kwargs
        registry.add_callback(BeforeToolCallEvent, self.before_tool_call)

    async def before_tool_call(self, event: BeforeToolCallEvent) -> None:
        """Ask about this call (or raise its interrupt), then let it run, edited, or cancel it."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        if event.cancel_tool or (self.tools is not None and event.tool_use["name"] not in self.tools):
            return
        if self.interrupt:
            apply(event, event.interrupt(APPROVAL, reason=approval_reason(event, self.approvers)))
            return
        reason = approval_reason(event)
        asking = approving(reason["tool"], reason["input"], reason["toolUseId"], self.timeout, reason["schema"])
        with _seam.answerable_by(self.approvers):
            verdict = await waited(asking)
        apply(event, verdict)


async def ask(
    prompt: str, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None, **kwargs: Any
) -> Any:
    """``HumanInTheLoop``'s ``ask``: the call its prompt names, approved in the cell (only by
    ``approvers``, when named); returns True, or nbask's rejection text (read by ``evaluate`` as "no").
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    del kwargs
    with _seam.answerable_by(approvers):
        return await waited(hitl_confirming(prompt, timeout))


def _running(
    agent: Agent,
    prompt: Any = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    approvers: Sequence[str] | None = None,
    **invoke_kwargs: Any,
) -> _seam.Asking[AgentResult]:
    """``agent.invoke_async(prompt, **invoke_kwargs)``, every interrupt answered in the cell
    (``timeout`` seconds each, only by ``approvers`` when named) and the agent resumed with all
    the responses at once, until it ends; that result is returned (or the interrupted one, when
    an interrupt is left open).
    """
    del approvers  # applied to every request this run asks by _seam.twins
    given = prompt
    while True:
        result: AgentResult = yield _seam.Work(
            partial(agent.invoke_async, given, **invoke_kwargs), partial(agent, given, **invoke_kwargs)
        )
        if result.stop_reason != "interrupt":
            return result
        interrupts = list(result.interrupts or [])
        given = yield from _asking(interrupts, timeout)
        if len(given) < len(interrupts):
            return result


run, run_sync = _seam.twins(_running, "run", "The blocking twin of ``run``: ``agent(prompt)``, the same requests.")


async def resolve(
    result: AgentResult, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Answer an interrupted result's interrupts, asked together; returns the
    ``interruptResponse`` blocks to resume with (``agent(responses)``), one per answered
    interrupt (each also answered in place). ``approvers``: only these people may answer.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return await _seam.drive(_asking(list(result.interrupts or []), timeout))


def resolve_sync(
    result: AgentResult, *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The blocking twin of ``resolve``; it also works in a notebook cell."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    with _seam.answerable_by(approvers):
        return _seam.drive_sync(_asking(list(result.interrupts or []), timeout))


def _asking(interrupts: Sequence[Any], timeout: float | None) -> _seam.Asking[list[dict[str, Any]]]:
    """Every interrupt asked together; returns the responses of those answered."""
    pending = [interrupt for interrupt in interrupts if interrupt.response is None]
    answered = yield from _seam.together([answering(interrupt, timeout) for interrupt in pending])
    responses: list[dict[str, Any]] = []
    for interrupt, (done, response) in zip(pending, answered, strict=True):
        if done:
            interrupt.response = response  # in place: a later resume need not repeat it
            responses.append({"interruptResponse": {"interruptId": interrupt.id, "response": response}})
    return responses
