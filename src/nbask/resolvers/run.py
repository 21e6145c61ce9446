"""Running requests: the policy in force chooses each one's resolver, the manager keeps it the
only one pending (or shows it beside those waiting) and records it in the history. The public
calls, the agent tools, the MCP client and every integration run their requests through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from .. import config
from ..core.lifecycle import Request, Resolution
from ..core.manager import manager
from ..errors import ReplayMissing
from ..identity import default_for
from ..models import Outcome
from .mirror import mirrored, mirrored_by_default
from .policies import choose_resolver

__all__ = ["refused", "run_request", "run_request_sync", "run_requests", "run_requests_sync"]

OutcomeT = TypeVar("OutcomeT", bound=Outcome)


async def run_request(request: Request[OutcomeT], *, queue: bool = False, inbox: bool = False) -> OutcomeT:
    """Run a request of any kind: the policy in force chooses who resolves it, the manager
    keeps it the only one pending (or, with ``queue=True``, shows it beside those waiting) and
    records it in the history.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await manager().run(_resolution(request, inbox=inbox), choose_resolver, queue=queue)


def run_request_sync(request: Request[OutcomeT], *, queue: bool = False, inbox: bool = False) -> OutcomeT:
    """The blocking twin of ``run_request``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return manager().run_sync(_resolution(request, inbox=inbox), choose_resolver, queue=queue)


def _resolution(request: Request[OutcomeT], *, inbox: bool) -> Resolution[OutcomeT]:
    """``request``'s resolution; with ``inbox`` (or ``inbox_mirror`` in force), waiting in the
    inbox too while a person may answer it here (the ``later`` policy keeps requests in the inbox
    itself).
    """
    resolution = Resolution(with_default_approvers(request))
    if config.policy_in_force()[0] == "interactive":
        if inbox:
            mirrored(resolution)
        elif config.value_of("inbox_mirror")[0]:
            mirrored_by_default(resolution)
    return resolution


async def run_requests(requests: Sequence[Request[Any]]) -> list[Any]:
    """Show ``requests`` together (beside any already waiting), answered in any order; returns
    every outcome, in order. An interrupt cancels all of them and raises once. With
    ``inbox_mirror`` in force, each waits in the inbox too, as a request asked alone does.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    resolutions = [_resolution(request, inbox=False) for request in requests]
    return await manager().run_together(resolutions, choose_resolver)


def run_requests_sync(requests: Sequence[Request[Any]]) -> list[Any]:
    """The blocking twin of ``run_requests``."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    resolutions = [_resolution(request, inbox=False) for request in requests]
    return manager().run_together_sync(resolutions, choose_resolver)


def with_default_approvers(request: Request[OutcomeT]) -> Request[OutcomeT]:
    """``request``, an approval that names no approvers given those ``configure(approvers=...)``
    (or ``NBASK_APPROVERS``) sets for it; every other request as it is.
    """
    if request.approvers is None and request.kind == "approval":
        default = config.value_of("approvers")[0]
        if default:
            request.approvers = default_for(default, request.headline())
    return request


def refused(request: Request[OutcomeT], error: Exception) -> OutcomeT:
    """The outcome of a request no one could be asked (``error`` says why: no front end, the
    ``error`` policy, ``nbask.no_questions()``): the kind's refusal, kept in the history like any
    other outcome. A replay miss is never a refusal: ``ReplayMissing`` is raised again, so a
    replayed run that asks what its recording lacks fails instead of going on with a guess.
    """
    if isinstance(error, ReplayMissing):
        raise error
    outcome = request.refused(f"No one could be asked: {error}")
    manager().record(request, outcome)
    return outcome
