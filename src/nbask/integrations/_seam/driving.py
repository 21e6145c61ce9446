"""Driving an ``Asking``: its requests run (alone, or ``Together``), its framework ``Work``
awaited or called, what each step raises thrown back in; ``twins`` makes an entry point and its
blocking twin from one program. See the package docstring for the convention.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar, Union, cast

from ...core.lifecycle import Request
from ...errors import NoOneCanAnswer
from ...identity import checked_approvers
from ...models import Outcome
from ...resolvers.run import refused, run_request, run_request_sync, run_requests, run_requests_sync
from ...waiting import WaitingUnsupported, cancelled_by_interrupt
from .. import _bounded
from .._worker_loop import WorkerLoop

log = logging.getLogger("nbask.integrations")

T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class Together:
    """Requests to show at once and answer in any order; what receives it gets their outcomes,
    in the same order, as a list.
    """

    requests: tuple[Request[Any], ...]


@dataclass(frozen=True)
class Work:
    """A framework call an Asking makes between its requests: ``drive`` awaits ``start()``,
    ``drive_sync`` calls ``blocking()`` or, for an async-only framework (``blocking`` None), runs
    ``start()`` on a worker loop kept for the whole Asking. What it returns is sent back in; what
    it raises is thrown in.
    """

    start: Callable[[], Awaitable[Any]]
    blocking: Callable[[], Any] | None = None
    #: For ``start()`` run on the worker loop: called there first when the blocking caller is
    #: interrupted, before the coroutine is cancelled (a framework's own cancellation token).
    on_cancel: Callable[[], None] | None = None


#: The approvers an entry point was given (``approvers=``), for every request driven inside it.
_APPROVERS: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar("nbask_approvers", default=None)


@contextlib.contextmanager
def answerable_by(approvers: Sequence[str] | None) -> Iterator[None]:
    """Every request driven inside that names no approvers of its own may be answered only by
    ``approvers`` (a verified answer of one of them); None leaves each as configured
    (``nbask.configure(approvers=...)``). Checked first: ValueError or TypeError naming
    ``approvers`` and the rule. An entry point's ``approvers=`` is this around its driving; a
    framework's callback made by a factory enters it each time it is called.
    """
    checked = checked_approvers(approvers)
    if checked is None:
        yield
        return
    token = _APPROVERS.set(checked)
    try:
        yield
    finally:
        _APPROVERS.reset(token)


def _given(step: Request[Any] | Together) -> Request[Any] | Together:
    """``step``, each of its requests that names no approvers given the entry point's."""
    approvers = _APPROVERS.get()
    if approvers is not None:
        for request in _requests_of(step):
            if request.approvers is None:
                request.approvers = approvers
    return step


#: What answering one pause yields (an nbask request, several ``Together``, or framework
#: ``Work``), receives (the outcome, the list of outcomes, what the work returned) and returns
#: (what the framework resumes with). Whatever a step raises is thrown into the Asking, so its
#: own ``try`` can end the framework's side (cancel a task, close a client) before it goes on.
Asking = Generator[Union[Request[Any], Together, Work], Any, T]  # noqa: UP007 - a runtime alias on 3.10


async def drive(asking: Asking[T]) -> T:
    """Run every request ``asking`` yields, awaiting each (shown beside any already waiting),
    and every piece of work, and return what it returns.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    caller = _caller(asking)
    step, result = _step(asking, None, first=True)
    while step is not None:
        try:
            if isinstance(step, Work):
                sent: Any = await step.start()
            elif isinstance(step, Together):
                sent = _remembered(caller, step, await _all(_checked(caller, _given(step))))
            else:
                sent = _remembered(caller, step, await _one(_checked(caller, _given(step))[0]))
        except BaseException as error:  # noqa: BLE001 - thrown in; raised again unless handled there
            step, result = _thrown(asking, error)
            continue
        step, result = _step(asking, sent)
    return cast("T", result)


async def drive_or_raise(asking: Asking[T], interrupted: Callable[[], BaseException]) -> T:
    """``drive(asking)``, where a kernel interrupt raises ``interrupted()`` instead: for a
    framework that ends its run on an exception of its own (a bare CancelledError in a task it
    gathers would read as the cancellation of that one task).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        return await drive(asking)
    except asyncio.CancelledError:
        if not cancelled_by_interrupt():
            raise
        raise interrupted() from None
    except KeyboardInterrupt:
        raise interrupted() from None


def drive_sync(asking: Asking[T]) -> T:
    """The blocking twin of ``drive``, for synchronous code."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    worker: WorkerLoop | None = None
    caller = _caller(asking)
    try:
        step, result = _step(asking, None, first=True)
        while step is not None:
            try:
                if isinstance(step, Work):
                    if step.blocking is None:
                        worker = worker or WorkerLoop("nbask-worker")
                        sent: Any = worker.run(step.start, on_cancel=step.on_cancel)
                    else:
                        sent = step.blocking()
                else:
                    _checked(caller, _given(step))
                    sent = _remembered(caller, step, _blocking_outcomes(step))
            except BaseException as error:  # noqa: BLE001 - thrown in; raised again unless handled there
                step, result = _thrown(asking, error)
                continue
            step, result = _step(asking, sent)
        return cast("T", result)
    finally:
        if worker is not None:
            worker.close()


def twins(
    program: Callable[P, Asking[T]], name: str, blocking_doc: str
) -> tuple[Callable[P, Coroutine[Any, Any, T]], Callable[P, T]]:
    """An entry point and its blocking twin (``<name>_sync``, documented by ``blocking_doc``)
    from ``program``, the one Asking both drive: each takes ``program``'s parameters, and the
    first has its docstring. A program's keyword ``approvers`` is applied here, to every request
    it yields (``answerable_by``); the program itself need not pass it on.
    """

    async def awaiting(*args: P.args, **kwargs: P.kwargs) -> T:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with _bounded.one_run(), answerable_by(cast("Sequence[str] | None", kwargs.get("approvers"))):
            return await drive(program(*args, **kwargs))

    def blocking(*args: P.args, **kwargs: P.kwargs) -> T:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with _bounded.one_run(), answerable_by(cast("Sequence[str] | None", kwargs.get("approvers"))):
            return drive_sync(program(*args, **kwargs))

    # What help(), the docs and an editor show: the program's parameters, not *args/**kwargs,
    # and what it returns in the end (its annotation, a string here: ``Asking[<what>]``).
    returned = re.fullmatch(r"(?:_seam\.)?Asking\[(.+)\]", str(program.__annotations__.get("return")))
    annotations = {k: v for k, v in program.__annotations__.items() if k != "return"}
    annotations.update({"return": returned[1]} if returned else {})
    signature = inspect.signature(program).replace(return_annotation=annotations.get("return", inspect.Signature.empty))
    for function, its_name, doc in ((awaiting, name, program.__doc__), (blocking, f"{name}_sync", blocking_doc)):
        function.__name__ = function.__qualname__ = its_name
        function.__module__, function.__doc__ = program.__module__, doc
        function.__annotations__ = dict(annotations)
        vars(function)["__signature__"] = signature  # what inspect.signature() reads first
    return awaiting, blocking


def _caller(asking: Asking[Any]) -> str:
    """Who asks, for ``_bounded``: the function that made ``asking``."""
    code = getattr(asking, "gi_code", None)
    if code is None:  # an Asking that is not a plain generator: no caller to tell apart
        return repr(type(asking))
    return f"{code.co_filename}:{getattr(code, 'co_qualname', code.co_name)}"


def _checked(caller: str, step: Request[Any] | Together) -> tuple[Request[Any], ...]:
    """``step``'s requests, once ``_bounded`` found none of them already decided in this run."""
    requests = _requests_of(step)
    for request in requests:
        _bounded.check(caller, request)
    return requests


def _remembered(caller: str, step: Request[Any] | Together, sent: Any) -> Any:
    """``sent`` (the outcome, or the outcomes of ``Together``), each noted by ``_bounded``."""
    outcomes = sent if isinstance(step, Together) else [sent]
    for request, outcome in zip(_requests_of(step), outcomes, strict=True):
        _bounded.remember(caller, request, outcome)
    return sent


def _blocking_outcomes(step: Request[Any] | Together) -> Any:
    """The outcome of a request, or the outcomes of ``Together``, run blocking."""
    requests = _requests_of(step)
    try:
        outcomes = run_requests_sync(requests) if isinstance(step, Together) else [run_request_sync(step)]
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        outcomes = [_refused(request, error) for request in requests]
    return outcomes if isinstance(step, Together) else outcomes[0]


async def _one(request: Request[Any]) -> Outcome:
    try:
        return await run_request(request, queue=True)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return _refused(request, error)


async def _all(requests: Sequence[Request[Any]]) -> list[Outcome]:
    try:
        return await run_requests(requests)
    except (NoOneCanAnswer, WaitingUnsupported) as error:
        return [_refused(request, error) for request in requests]


def _step(
    asking: Asking[T], sent: Any, *, first: bool = False
) -> tuple[Request[Any] | Together | Work | None, T | None]:
    """(what ``asking`` yields next, None) once sent ``sent`` (or started, ``first``), or
    (None, what it returned) when it is done.
    """
    try:
        return (next(asking) if first else asking.send(sent)), None
    except StopIteration as done:
        return None, done.value


def _thrown(asking: Asking[T], error: BaseException) -> tuple[Request[Any] | Together | Work | None, T | None]:
    """Like ``_step``, with ``error`` raised at the Asking's ``yield``; raises what it does not handle."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    try:
        return asking.throw(error), None
    except StopIteration as done:
        return None, done.value


def together(askings: Sequence[Asking[T]]) -> Asking[list[T]]:
    """One Asking per item of a batch, run side by side: each round shows the next request(s) of
    every one not yet done, together (an item that yields ``Together`` adds all of its own);
    returns what each returned, in order.
    """
    results: list[Any] = [None] * len(askings)
    current: dict[int, Request[Any] | Together] = {}
    for index in range(len(askings)):
        _advance(askings, index, None, current, results, first=True)
    while current:
        order = sorted(current)
        parts = [_requests_of(current[index]) for index in order]
        outcomes = iter((yield Together(tuple(request for part in parts for request in part))))
        stepped, current = current, {}
        for index, part in zip(order, parts, strict=True):
            got = [next(outcomes) for _ in part]
            _advance(askings, index, got if isinstance(stepped[index], Together) else got[0], current, results)
    return results


def _requests_of(step: Request[Any] | Together) -> tuple[Request[Any], ...]:
    return step.requests if isinstance(step, Together) else (step,)


def _advance(
    askings: Sequence[Asking[Any]],
    index: int,
    sent: Any,
    current: dict[int, Request[Any] | Together],
    results: list[Any],
    *,
    first: bool = False,
) -> None:
    """Step Asking ``index``: what it asks next into ``current``, or what it returned into ``results``."""
    step, result = _step(askings[index], sent, first=first)
    if step is None:
        results[index] = result
    elif isinstance(step, Work):
        msg = "an item of together() only asks: its framework work belongs to the Asking around it"
        raise TypeError(msg)
    else:
        current[index] = step


def _refused(request: Request[Any], error: Exception) -> Outcome:
    """The outcome of a request no one could be asked, kept in the history; a replay miss raises."""
    outcome: Outcome = refused(request, error)
    log.info("nbask request %s refused: no one can answer here", request.request_id)
    return outcome
