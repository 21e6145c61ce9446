"""The JupyterLite route's Python side, on CPython with stand-ins for what only Pyodide has (``js``'s
BroadcastChannel, ``pyodide.ffi``, the Pyodide kernel's module). The real thing runs in
tests/lite; these pin the rules: where the route is used, what reaches the widget, when the
channel closes, and that the blocking calls fail before showing anything where they cannot work.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import types
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from nbask import host, waiting
from nbask.core.lifecycle import Resolution
from nbask.errors import NoFrontEnd
from nbask.kinds import QuestionRequest, QuestionWidget
from nbask.resolvers import live
from nbask.waiting import WaitingUnsupported, pyodide_channel

QUESTIONS = [{"question": "Which database?", "options": [{"label": "PostgreSQL"}, {"label": "SQLite"}]}]
REPLY = {"action": "submit", "answers": [{"selected": ["SQLite"], "other": None}], "view_id": "v1", "sent_at_ms": 1}


class FakeChannel:
    """js.BroadcastChannel as the kernel uses it: ``new(name)``, ``onmessage``, ``close()``."""

    open: ClassVar[dict[str, FakeChannel]] = {}

    def __init__(self, name: str) -> None:
        self.name = name
        self.onmessage: Callable[[Any], None] | None = None
        self.closed = False
        FakeChannel.open[name] = self

    @classmethod
    def new(cls, name: str) -> FakeChannel:
        return cls(name)

    def close(self) -> None:
        self.closed = True

    def post(self, data: object) -> None:
        """What another context's postMessage does here: an event whose ``data`` is the message."""
        assert self.onmessage is not None
        self.onmessage(types.SimpleNamespace(data=data))


class FakeProxy:
    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func
        self.destroyed = False

    def __call__(self, *args: Any) -> Any:
        assert not self.destroyed, "a destroyed proxy was called"
        return self.func(*args)

    def destroy(self) -> None:
        self.destroyed = True


@pytest.fixture
def browser_kernel(monkeypatch):
    """A process that looks like JupyterLite's Pyodide kernel; returns its ffi stand-in."""
    FakeChannel.open = {}
    monkeypatch.setattr(sys, "platform", "emscripten")
    kernel_module = types.ModuleType("pyodide_kernel")
    kernel_module.kernel_instance = object()  # type: ignore[attr-defined]
    js = types.ModuleType("js")
    js.BroadcastChannel = FakeChannel  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = FakeProxy  # type: ignore[attr-defined]
    ffi.jspi = True  # type: ignore[attr-defined]
    ffi.can_run_sync = lambda: ffi.jspi  # type: ignore[attr-defined]
    ffi.run_sync = asyncio.run  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    for name, module in {"pyodide_kernel": kernel_module, "js": js, "pyodide": pyodide, "pyodide.ffi": ffi}.items():
        monkeypatch.setitem(sys.modules, name, module)
    return ffi


def test_elsewhere_the_comm_is_the_only_route():
    assert not waiting.in_browser_kernel()
    assert waiting.reply_channel("r1", lambda raw: None) is None
    waiting.check_sync()  # no error: ipykernel's strategies say for themselves
    assert QuestionWidget(questions=QUESTIONS)._reply_channel == ""


def test_in_the_pyodide_kernel_the_route_is_chosen(browser_kernel):
    assert waiting.in_browser_kernel()
    assert host.in_kernel()
    assert waiting.strategy_name() == "pyodide-channel"


def test_a_reply_on_the_channel_settles_the_widget_and_closes_the_channel(browser_kernel):
    widget = QuestionWidget(questions=QUESTIONS)
    assert widget._reply_channel == f"nbask-reply-{widget._request_id}"
    channel = FakeChannel.open[widget._reply_channel]
    channel.post(json.dumps(REPLY))
    assert widget.answer is not None
    assert widget.answer.answers == {"Which database?": "SQLite"}
    assert widget._status == "answered"
    assert channel.closed
    assert channel.onmessage.destroyed  # after the handler returned: it was called to the end


def test_what_is_not_a_json_object_is_ignored(browser_kernel):
    widget = QuestionWidget(questions=QUESTIONS)
    channel = FakeChannel.open[widget._reply_channel]
    for junk in ("not json", json.dumps(["a", "list"]), {"action": "submit"}, None):
        channel.post(junk)
    assert widget.answer is None
    assert not channel.closed


def test_a_malformed_reply_leaves_the_question_open(browser_kernel):
    widget = QuestionWidget(questions=QUESTIONS)
    channel = FakeChannel.open[widget._reply_channel]
    channel.post(json.dumps({**REPLY, "answers": [{"selected": ["MySQL"], "other": None}]}))
    assert widget.answer is None
    assert widget._response == {}  # cleared, so the views can send again
    channel.post(json.dumps(REPLY))
    assert widget.answer is not None


def test_await_returns_the_answer_and_a_timeout_leaves_the_future_alone(browser_kernel):
    async def main() -> tuple[str, bool]:
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[str] = loop.create_future()
        loop.call_later(0.01, answered.set_result, "yes")
        got = await waiting.wait_for(answered, 5)
        never: asyncio.Future[str] = loop.create_future()
        with pytest.raises(TimeoutError):
            await waiting.wait_for(never, 0.01)
        return got, never.cancelled()

    assert asyncio.run(main()) == ("yes", False)


def test_blocking_waits_with_run_sync(browser_kernel):
    done = threading.Event()
    timer = threading.Timer(0.05, done.set)
    timer.start()
    started = []
    assert waiting.wait_sync(done, 5, on_waiting=lambda: started.append(True)) is True
    assert started == [True]
    assert waiting.wait_sync(threading.Event(), 0.05) is False


def test_without_jspi_the_blocking_calls_say_to_await_before_showing_anything(browser_kernel, monkeypatch):
    browser_kernel.jspi = False
    with pytest.raises(WaitingUnsupported, match=r"use `await nbask\.ask\(\.\.\.\)`"):
        waiting.check_sync()
    shown = []
    monkeypatch.setattr(live, "_display", shown.append)
    resolution = Resolution(QuestionRequest(question_set=QuestionWidget(questions=QUESTIONS).question_set))
    with pytest.raises(NoFrontEnd, match="JavaScript Promise Integration"):
        live.LiveWidgetResolver().resolve_sync(resolution)
    assert shown == []
    assert not resolution.done


def test_the_module_imports_where_pyodide_is_missing():
    assert "js" not in sys.modules
    assert not pyodide_channel.running()
    assert not pyodide_channel.can_block()


def test_after_a_timeout_the_channel_stays_open_for_a_late_answer(browser_kernel):
    widget = QuestionWidget(questions=QUESTIONS)
    channel = FakeChannel.open[widget._reply_channel]
    widget._end("timeout", "no answer in time")
    assert not channel.closed
    channel.post(json.dumps(REPLY))
    assert widget.answer is not None
    assert widget.answer.status == "timeout"  # what the call returned stays as it was
    assert widget.late_answer is not None
    assert widget.late_answer.answers == {"Which database?": "SQLite"}
