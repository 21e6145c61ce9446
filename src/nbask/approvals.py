"""``@requires_approval``: gate a tool function (sync or async) on the person's Decision."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, TypeVar, overload

from .api import approve, approve_sync
from .core.lifecycle import DEFAULT_TIMEOUT
from .errors import ApprovalRejected
from .models import Decision

F = TypeVar("F", bound=Callable[..., Any])


@overload
def requires_approval(func: F, /) -> F: ...
@overload
def requires_approval(*, action: str | None = None, timeout: float | None = DEFAULT_TIMEOUT) -> Callable[[F], F]: ...


def requires_approval(
    func: F | None = None, /, *, action: str | None = None, timeout: float | None = DEFAULT_TIMEOUT
) -> F | Callable[[F], F]:
    """Ask the person before each call of the decorated function.

    The details shown are the call's arguments as JSON. "Approve" runs the call as it is,
    "Edit" runs it with the edited arguments, "Reject" (and a dismiss, timeout or
    interrupt) raises ``ApprovalRejected`` with the reason instead of calling it.
    Works on plain and ``async`` functions; the signature and docstring are kept, so agent
    frameworks that introspect the function still see the tool's own parameters.
    """

    def decorate(function: F) -> F:
        signature = inspect.signature(function)
        title = action or f"Call {function.__name__}"

        def details_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[inspect.BoundArguments, str]:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return bound, json.dumps(bound.arguments, indent=2, ensure_ascii=False, default=repr)

        def call_arguments(decision: Decision, bound: inspect.BoundArguments) -> tuple[tuple[Any, ...], dict[str, Any]]:
            if decision.decision == "reject":
                raise ApprovalRejected(decision, title)
            if decision.decision == "approve" or decision.edited is None:
                return bound.args, bound.kwargs
            return _edited_arguments(signature, decision, title)

        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def async_gate(*args: Any, **kwargs: Any) -> Any:
                bound, details = details_of(args, kwargs)
                decision = await approve(title, details, timeout=timeout, queue=True)
                call_args, call_kwargs = call_arguments(decision, bound)
                return await function(*call_args, **call_kwargs)

            return async_gate  # type: ignore[return-value]

        @functools.wraps(function)
        def gate(*args: Any, **kwargs: Any) -> Any:
            bound, details = details_of(args, kwargs)
            decision = approve_sync(title, details, timeout=timeout)
            call_args, call_kwargs = call_arguments(decision, bound)
            return function(*call_args, **call_kwargs)

        return gate  # type: ignore[return-value]

    return decorate(func) if func is not None else decorate


def _edited_arguments(
    signature: inspect.Signature, decision: Decision, title: str
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
    try:
        bound = signature.bind(**edited)
    except TypeError as error:
        reason = f"the edited arguments do not fit the function ({error}); the call did not run"
        raise ApprovalRejected(decision.model_copy(update={"reason": reason}), title) from None
    return bound.args, bound.kwargs
