"""``@requires_approval``: gate a tool function (sync or async) on the person's Decision."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar, cast, overload

from pydantic import TypeAdapter

from .core.lifecycle import DEFAULT_TIMEOUT
from .errors import ApprovalRejected
from .kinds import ApprovalRequest
from .kinds.approval.edit_check import edit_problems
from .kinds.approval.request import approval_request
from .models import Approval, Decision, Risk
from .resolvers.run import run_request, run_request_sync

F = TypeVar("F", bound=Callable[..., Any])

#: How a gate runs each call's approval request, awaiting or blocking, shown beside any waiting.
Run = Callable[[ApprovalRequest], Awaitable[Decision]]
RunSync = Callable[[ApprovalRequest], Decision]


async def _run(request: ApprovalRequest) -> Decision:
    return await run_request(request, queue=True)


def _run_sync(request: ApprovalRequest) -> Decision:
    return run_request_sync(request, queue=True)


class ApprovalDecorator(Protocol):
    """A decorator used bare (``@requires_approval``) or called with its settings first
    (``@requires_approval(action=..., timeout=..., risk=...)``).
    """

    @overload
    def __call__(self, func: F, /) -> F: ...
    @overload
    def __call__(
        self, *, action: str | None = None, timeout: float | None = DEFAULT_TIMEOUT, risk: Risk | None = None
    ) -> Callable[[F], F]: ...


#: How an approval decorator gates one function, given the decorator's settings.
Gating = Callable[[F, str | None, float | None, Risk | None], F]


def approval_decorator(gating: Gating[Any]) -> ApprovalDecorator:
    """The decorator, bare or with settings, that gates each function with ``gating``: named and
    documented as ``gating`` (``@requires_approval`` here, ``@nbask.tools.gate``).
    """

    def decorator(
        func: Callable[..., Any] | None = None,
        /,
        *,
        action: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        risk: Risk | None = None,
    ) -> Any:
        def decorate(function: Callable[..., Any]) -> Any:
            return gating(function, action, timeout, risk)

        return decorate(func) if func is not None else decorate

    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(decorator, name, getattr(gating, name))
    return cast("ApprovalDecorator", decorator)


@approval_decorator
def requires_approval(function: F, action: str | None, timeout: float | None, risk: Risk | None) -> F:
    """Ask the person before each call of the decorated function.

    The details shown are the call's arguments as JSON. "Approve" runs the call as it is,
    "Edit" runs it with the edited arguments, "Reject" (and a dismiss, timeout or
    interrupt) raises ``ApprovalRejected`` with the reason instead of calling it.
    Works on plain and ``async`` functions; the signature and docstring are kept, so agent
    frameworks that introspect the function still see the tool's own parameters.
    The widget checks an edit against the JSON Schema of the function's parameters (missing,
    unknown or ill-typed arguments) before it is sent, and the kernel checks it again.
    ``risk`` ("low", "medium" or "high") tags every approval with what is at stake, as
    ``nbask.approve(risk=...)`` does; anything else is refused here, naming ``risk``.
    """
    return approval_gated(function, action=action, timeout=timeout, risk=risk)


def approval_gated(
    function: F,
    *,
    action: str | None,
    timeout: float | None,
    risk: Risk | None,
    run: Run = _run,
    run_sync: RunSync = _run_sync,
) -> F:
    """``function`` gated as ``requires_approval`` says, each call's approval request run by
    ``run`` (an ``async`` function) or ``run_sync``: the agent tools' gate runs it its own way.
    """
    signature = inspect.signature(function)
    title = action or f"Call {function.__name__}"
    # Checked when the function is decorated, by the same model every approval goes through.
    Approval(action=title, details="", risk=risk)
    schema = arguments_schema(function)

    def details_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[inspect.BoundArguments, str]:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound, json.dumps(bound.arguments, indent=2, ensure_ascii=False, default=repr)

    def call_arguments(decision: Decision, bound: inspect.BoundArguments) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if decision.decision == "reject":
            raise ApprovalRejected(decision, title)
        if decision.decision == "approve" or decision.edited is None:
            return bound.args, bound.kwargs
        return _edited_arguments(signature, decision, title, schema)

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def async_gate(*args: Any, **kwargs: Any) -> Any:
            bound, details = details_of(args, kwargs)
            decision = await run(approval_request(title, details, timeout=timeout, schema=schema, risk=risk))
            call_args, call_kwargs = call_arguments(decision, bound)
            return await function(*call_args, **call_kwargs)

        return async_gate  # type: ignore[return-value]

    @functools.wraps(function)
    def gate(*args: Any, **kwargs: Any) -> Any:
        bound, details = details_of(args, kwargs)
        decision = run_sync(approval_request(title, details, timeout=timeout, schema=schema, risk=risk))
        call_args, call_kwargs = call_arguments(decision, bound)
        return function(*call_args, **call_kwargs)

    return gate  # type: ignore[return-value]


def arguments_schema(function: Callable[..., Any]) -> dict[str, Any] | None:
    """The JSON Schema (pydantic's) of ``function``'s parameters as one JSON object of names to
    values, or None when the edited details cannot be checked by it: ``*args``, ``**kwargs``,
    positional-only parameters, or types that have no JSON Schema.
    """
    kinds = {parameter.kind for parameter in inspect.signature(function).parameters.values()}
    if kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY}:
        return None
    try:
        # pydantic describes a callable by its parameters (its typing stub names types only).
        schema = TypeAdapter(cast("Any", function)).json_schema()
    except Exception:  # noqa: BLE001 - any type pydantic cannot describe: no check, not a failure
        return None
    return schema if schema.get("type") == "object" else None


def _edited_arguments(
    signature: inspect.Signature, decision: Decision, title: str, schema: dict[str, Any] | None
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call's arguments from the person's edited JSON; an edit that no longer fits the
    function's parameters is refused (the call does not run with a guess).
    """
    try:
        edited = json.loads(decision.edited or "")
    except json.JSONDecodeError as error:
        reason = f"the edited arguments are not valid JSON ({error}); the call did not run"
        raise ApprovalRejected(decision.model_copy(update={"reason": reason}), title) from None
    if not isinstance(edited, dict):
        reason = "the edited arguments must be a JSON object of parameter names; the call did not run"
        raise ApprovalRejected(decision.model_copy(update={"reason": reason}), title)
    problems = edit_problems(decision.edited or "", schema) if schema is not None else []
    if problems:
        reason = f"the edited arguments do not fit the function ({'; '.join(problems)}); the call did not run"
        raise ApprovalRejected(decision.model_copy(update={"reason": reason}), title)
    try:
        bound = signature.bind(**edited)
    except TypeError as error:
        reason = f"the edited arguments do not fit the function ({error}); the call did not run"
        raise ApprovalRejected(decision.model_copy(update={"reason": reason}), title) from None
    return bound.args, bound.kwargs
