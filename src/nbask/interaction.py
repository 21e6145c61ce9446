"""The interaction manager: shows a QuestionWidget in the running cell and enforces one pending ask per kernel.

Agent-facing layers (the public ``ask`` functions, later the tool adapters) call this;
it uses the widget and the waiting engine and never the other way round.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Sequence

from . import waiting
from .models import Answer, Option, Question, QuestionSet
from .widget import DEFAULT_TIMEOUT, QuestionWidget

log = logging.getLogger(__name__)


class InteractionPending(RuntimeError):
    """Raised when a second ask starts while another one still waits for the person."""


class InteractionManager:
    """One per kernel process: at most one question waits for the person at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: QuestionWidget | None = None
        self._history: list[Answer] = []

    @property
    def pending(self) -> QuestionWidget | None:
        return self._pending

    def history(self) -> list[Answer]:
        return list(self._history)

    # -- the one-pending rule ---------------------------------------------------

    def _claim(self, widget: QuestionWidget) -> bool:
        with self._lock:
            if self._pending is not None and not self._pending.done:
                return False
            self._pending = widget
            return True

    def _release(self, widget: QuestionWidget) -> None:
        with self._lock:
            if self._pending is widget:
                self._pending = None
        if widget.answer is not None:
            self._history.append(widget.answer)
            # Only the request id is logged: question text may be private.
            log.info("nbask request %s ended: %s", widget.request_id, widget.answer.status)

    def _busy_error(self) -> InteractionPending:
        pending = self._pending
        return InteractionPending(
            f"another question (request {pending.request_id if pending else '?'}) is still waiting "
            "for an answer; only one may be pending per kernel. Answer or dismiss it first, "
            "or pass queue=True to wait for your turn."
        )

    async def _claim_async(self, widget: QuestionWidget, queue: bool) -> None:
        while not self._claim(widget):
            if not queue:
                raise self._busy_error()
            pending = self._pending
            if pending is not None:
                # Wait for the current interaction to end, without timing out ourselves.
                await pending.until_resolved(timeout=None)

    # -- asking ----------------------------------------------------------------

    async def ask(
        self,
        question_set: QuestionSet,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        tool_call_id: str | None = None,
        queue: bool = False,
    ) -> Answer:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        waiting.strategy_name()  # fail fast, before anything is displayed, where no one can answer
        widget = QuestionWidget(questions=question_set, tool_call_id=tool_call_id)
        await self._claim_async(widget, queue)
        handle = _display(widget)
        try:
            return await widget.await_answer(timeout=timeout)
        finally:
            self._release(widget)
            _show_summary(handle, widget)

    def ask_sync(
        self,
        question_set: QuestionSet,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        tool_call_id: str | None = None,
    ) -> Answer:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        waiting.strategy_name()
        widget = QuestionWidget(questions=question_set, tool_call_id=tool_call_id)
        if not self._claim(widget):
            raise self._busy_error()
        handle = _display(widget)
        try:
            return widget.wait_answer_blocking(timeout=timeout)
        finally:
            self._release(widget)
            _show_summary(handle, widget)


def _display(widget: QuestionWidget) -> Any:
    from IPython.display import display

    return display(widget, display_id=True)


def _show_summary(handle: Any, widget: QuestionWidget) -> None:
    # Re-publishing the output adds the Markdown summary to what the notebook saves;
    # live front ends re-render the widget view, which now shows the resolved block.
    if handle is not None and widget.answer is not None:
        handle.update(widget)


def build_question_set(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
) -> QuestionSet:
    """The one-question shorthand of ``nbask.ask`` as a validated QuestionSet."""
    if isinstance(options, str):
        raise TypeError("options must be a list of option labels, not a single string")
    normalised = [{"label": o} if isinstance(o, str) else o for o in options]
    return QuestionSet(
        questions=[Question(question=question, header=header, options=normalised, multi_select=multi_select)]
    )


_manager = InteractionManager()


def manager() -> InteractionManager:
    return _manager
