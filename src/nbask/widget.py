"""QuestionWidget: the anywidget that shows a QuestionSet and turns the person's reply into an Answer.

The synced traitlets below are mirrored by the `Model` interface in js/widget.ts; change
them together. The widget resolves exactly once; the first of submit, dismiss, timeout
or cancel wins, and anything later is ignored (and, for a late answer, shown as such).
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
import threading
import time
from typing import Any, Callable, Literal

import anywidget
import traitlets

from . import waiting
from .models import Answer, Question, QuestionSet, answer_from_response, ended_answer, new_request_id

log = logging.getLogger(__name__)

STATIC = pathlib.Path(__file__).parent / "static"
DEFAULT_TIMEOUT = 600.0
LATE_ANSWER_NOTE = "An answer arrived after the question had ended and was ignored."


_ESM_PATH = STATIC / "widget.js"
_CSS_PATH = STATIC / "widget.css"


def _require_bundle() -> None:
    # Checked when a widget is made, not at import, so the schema and the headless
    # paths keep working in a checkout whose front end was never built.
    for path in (_ESM_PATH, _CSS_PATH):
        if not path.is_file():
            raise FileNotFoundError(
                f"nbask's front-end bundle {path} is missing. Build it from the repository root "
                "with `npm ci && npm run build`, then reinstall with `pip install -e .`."
            )


class QuestionWidget(anywidget.AnyWidget):
    """Shows 1-4 questions and resolves with the person's answer.

    Example::

        w = nbask.QuestionWidget(questions=[{"question": "Proceed?",
                                             "options": [{"label": "Yes"}, {"label": "No"}]}])
        display(w)
        answer = await w.await_answer(timeout=None)
    """

    _esm = _ESM_PATH if _ESM_PATH.is_file() else "export default {};"
    _css = _CSS_PATH if _CSS_PATH.is_file() else ""

    questions = traitlets.List(traitlets.Dict()).tag(sync=True)
    request_id = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("pending").tag(sync=True)
    # Epoch milliseconds when the wait ends (0 = no limit); the front end counts down to it.
    deadline_ms = traitlets.Float(0.0).tag(sync=True)
    # Written by the front end only: {"action": "submit"|"dismiss", "answers": [...], ...}.
    response = traitlets.Dict().tag(sync=True)
    # Written by the kernel once resolved: {"answers": {question: text}, "note": str}.
    result = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        *,
        questions: list[Question] | list[dict[str, Any]] | QuestionSet,
        tool_call_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        _require_bundle()
        question_set = questions if isinstance(questions, QuestionSet) else QuestionSet(questions=questions)
        self.question_set = question_set
        self.tool_call_id = tool_call_id
        self.asked_at = time.time()
        self._lock = threading.Lock()
        self._answer: Answer | None = None
        self._resolved = threading.Event()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[Answer]]] = []
        super().__init__(
            questions=[q.model_dump() for q in question_set.questions],
            request_id=new_request_id(),
            **kwargs,
        )
        # The comm handler may run on a kernel subshell thread (JupyterLab 4.4+), so
        # everything it touches below is guarded by self._lock.
        self.observe(self._on_response, names="response")

    # -- state -----------------------------------------------------------------

    @property
    def answer(self) -> Answer | None:
        """The final Answer, or None while the question is still open."""
        return self._answer

    @property
    def done(self) -> bool:
        return self._resolved.is_set()

    def summary_markdown(self) -> str:
        """The questions and their outcome as plain Markdown, for places widgets don't render
        (a notebook saved and viewed on GitHub, nbconvert)."""
        status = self.answer.status if self.answer else "pending"
        lines = [f"**nbask** ({status})", ""]
        for question in self.question_set.questions:
            answer = self.answer.answers.get(question.question) if self.answer else None
            lines.append(f"- {_escape_markdown(question.question)}" + (f" — **{_escape_markdown(answer)}**" if answer else ""))
        if self.answer and self.answer.note:
            lines += ["", _escape_markdown(self.answer.note)]
        return "\n".join(lines)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        data = {**data, "text/plain": self.summary_markdown()}
        if self.answer is not None:
            data["text/markdown"] = self.summary_markdown()
        return data, metadata

    # -- resolution ------------------------------------------------------------

    def _on_response(self, change: dict[str, Any]) -> None:
        response = change["new"]
        if not isinstance(response, dict) or not response.get("action"):
            return
        with self._lock:
            if self._answer is not None:
                if self._answer.status in ("timeout", "cancelled"):
                    # Shown in the resolved block so the person knows their click did nothing.
                    self.result = {**self.result, "note": LATE_ANSWER_NOTE}
                log.debug("nbask request %s: ignored a response after it ended", self.request_id)
                return
            try:
                answer = answer_from_response(
                    self.question_set,
                    response,
                    request_id=self.request_id,
                    tool_call_id=self.tool_call_id,
                    asked_at=self.asked_at,
                )
            except ValueError as error:
                log.warning("nbask request %s: malformed response ignored: %s", self.request_id, error)
                # Clearing it takes every view out of "Sending…", so the person can try again.
                self.response = {}
                return
            self._settle(answer)

    def end(self, status: Literal["timeout", "cancelled"], note: str) -> Answer:
        """End the interaction without the person's reply; returns the final Answer
        (which is the person's, if their reply won the race)."""
        with self._lock:
            if self._answer is None:
                self._settle(
                    ended_answer(
                        status,
                        request_id=self.request_id,
                        tool_call_id=self.tool_call_id,
                        asked_at=self.asked_at,
                        note=note,
                    )
                )
            assert self._answer is not None
            return self._answer

    def _settle(self, answer: Answer) -> None:
        # Called with self._lock held, exactly once.
        self._answer = answer
        with self.hold_sync():
            self.result = {"answers": answer.answers, "note": answer.note}
            self.status = answer.status
            self.deadline_ms = 0.0
        self._resolved.set()
        for loop, future in self._waiters:
            # The future belongs to the cell's event loop; this may run on another thread.
            loop.call_soon_threadsafe(_set_result_if_pending, future, answer)
        self._waiters.clear()

    # -- waiting ---------------------------------------------------------------

    def _check_timeout(self, timeout: float | None) -> None:
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")

    def _clock_starter(self, timeout: float | None) -> Callable[[], None]:
        """Publishes the deadline once the engine is really waiting (the front end counts
        down to it, and tests take it as the sign that an interrupt now cancels the wait)."""

        def start() -> None:
            if self._answer is None:
                self.deadline_ms = (time.time() + timeout) * 1000.0 if timeout is not None else 0.0

        return start

    async def await_answer(self, timeout: float | None = DEFAULT_TIMEOUT) -> Answer:
        """Wait, inside a running cell, until the person answers or dismisses.

        Returns an Answer with status "timeout" after ``timeout`` seconds (``None`` waits
        forever). A kernel interrupt marks the widget "Cancelled" and raises
        KeyboardInterrupt. An answer given before this call counts.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        self._check_timeout(timeout)
        try:
            return await self.until_resolved(timeout, on_waiting=self._clock_starter(timeout))
        except TimeoutError:
            return self.end("timeout", f"No answer within {timeout:g} seconds.")
        except (KeyboardInterrupt, asyncio.CancelledError):
            self.end("cancelled", "The wait was interrupted.")
            raise

    async def until_resolved(self, timeout: float | None, on_waiting: Callable[[], None] | None = None) -> Answer:
        """Wait for the outcome without deciding it: raises TimeoutError or
        KeyboardInterrupt but leaves the widget as it is (used to queue behind it)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Answer] = loop.create_future()
        with self._lock:
            if self._answer is not None:
                return self._answer
            self._waiters.append((loop, future))
        try:
            return await waiting.wait_for(future, timeout, on_waiting)
        finally:
            with self._lock:
                self._waiters = [(lp, f) for lp, f in self._waiters if f is not future]

    def wait_answer_blocking(self, timeout: float | None = DEFAULT_TIMEOUT) -> Answer:
        """The blocking twin of await_answer, for synchronous callers."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        self._check_timeout(timeout)
        try:
            finished = waiting.wait_blocking(self._resolved, timeout, self._clock_starter(timeout))
        except KeyboardInterrupt:
            self.end("cancelled", "The wait was interrupted.")
            raise
        if not finished:
            return self.end("timeout", f"No answer within {timeout:g} seconds.")
        assert self._answer is not None
        return self._answer


def _escape_markdown(text: str) -> str:
    # Model text must stay text in the Markdown summary too: no links, images or HTML.
    return "".join("\\" + ch if ch in "\\`*_{}[]()<>#+-.!|&" else ch for ch in text).replace("\n", " ")


def _set_result_if_pending(future: asyncio.Future[Answer], answer: Answer) -> None:
    if not future.done():
        future.set_result(answer)
