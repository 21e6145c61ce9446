"""The seam's entry-point twins: one program (an Asking that also yields framework ``Work``)
driven awaiting and blocking, with the program's parameters, and what a step raises thrown in.
"""

from __future__ import annotations

import asyncio
import inspect
import signal
import threading
from typing import Any

import pytest
from support.person import Person, approve, reject

from nbask.integrations import _seam
from nbask.models import Decision


class Framework:
    """A framework with an async and a blocking client: what each call ran on, and the log."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def fetch(self, what: str) -> str:
        self.calls.append(("async", what))
        await asyncio.sleep(0)
        return f"{what}!"

    def fetch_blocking(self, what: str) -> str:
        self.calls.append(("blocking", what))
        return f"{what}!"

    async def close(self) -> None:
        self.calls.append(("close", threading.current_thread().name))


def _program(framework: Framework, what: str, *, timeout: float | None = 5.0) -> _seam.Asking[str]:
    """Fetch ``what``, ask whether to keep it, close."""
    fetched = yield _seam.Work(lambda: framework.fetch(what), lambda: framework.fetch_blocking(what))
    try:
        decision = yield _seam.approval(f"Keep {fetched}", "details", timeout=timeout)
    except KeyboardInterrupt:
        yield _seam.Work(framework.close)  # async only: the blocking twin runs it on a worker loop
        raise
    assert isinstance(decision, Decision)
    yield _seam.Work(framework.close)
    return f"{fetched} {decision.decision}"


run, run_sync = _seam.twins(_program, "run", "The blocking twin of ``run``.")


def test_the_twins_take_the_programs_parameters_and_documentation() -> None:
    assert run.__name__ == "run"
    assert run_sync.__name__ == "run_sync"
    assert inspect.iscoroutinefunction(run)
    assert not inspect.iscoroutinefunction(run_sync)
    assert str(inspect.signature(run)) == str(inspect.signature(run_sync))
    assert list(inspect.signature(run).parameters) == ["framework", "what", "timeout"]
    assert inspect.signature(run_sync).return_annotation == "str"  # what the program returns
    assert run.__doc__ == _program.__doc__
    assert run_sync.__doc__ == "The blocking twin of ``run``."
    assert run.__module__ == run_sync.__module__ == __name__


def test_awaiting_runs_the_async_work(person: Person) -> None:
    person.answers(approve())
    framework = Framework()
    assert asyncio.run(run(framework, "data")) == "data! approve"
    assert framework.calls[0] == ("async", "data")
    assert framework.calls[1] == ("close", "MainThread")
    assert person.asked[0].approval.action == "Keep data!"


def test_blocking_runs_blocking_work_here_and_async_only_work_on_a_worker_loop(person: Person) -> None:
    person.answers(reject())
    framework = Framework()
    before = set(threading.enumerate())
    assert run_sync(framework, what="rows") == "rows! reject"
    assert framework.calls[0] == ("blocking", "rows")
    assert framework.calls[1] == ("close", "nbask-worker")
    assert set(threading.enumerate()) <= before  # the worker loop ended with the program


@pytest.mark.parametrize("blocking", [False, True])
def test_what_a_step_raises_is_thrown_into_the_program(person: Person, blocking: bool) -> None:
    person.unavailable = KeyboardInterrupt()
    framework = Framework()
    start = (lambda: run_sync(framework, "x")) if blocking else (lambda: asyncio.run(run(framework, "x")))
    with pytest.raises(KeyboardInterrupt):
        start()
    assert [call for call, _ in framework.calls] == ["blocking" if blocking else "async", "close"]


def test_an_item_of_together_may_not_do_work() -> None:
    def item() -> _seam.Asking[Any]:
        yield _seam.Work(asyncio.sleep, lambda: None)

    with pytest.raises(TypeError, match=r"only asks"):
        _seam.drive_sync(_seam.together([item()]))


def test_an_interrupted_blocking_twin_ends_async_work_through_its_cancel_hook() -> None:
    """An interrupt of the blocking caller reaches the worker loop: ``on_cancel`` (a framework's
    own cancellation token) first, then the coroutine is cancelled, and the caller waits for it.
    """
    started = threading.Event()
    log: list[tuple[str, str]] = []

    async def forever() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            log.append(("cancelled", threading.current_thread().name))
            raise

    def program() -> _seam.Asking[None]:
        yield _seam.Work(forever, on_cancel=lambda: log.append(("on_cancel", threading.current_thread().name)))

    def interrupt() -> None:  # a real SIGINT to this thread, as a kernel interrupt is
        if started.wait(30):
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    # A process started in the background inherits SIGINT ignored: hear it here, as a kernel does.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            _seam.drive_sync(program())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert log == [("on_cancel", "nbask-worker"), ("cancelled", "nbask-worker")]
