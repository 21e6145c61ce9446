"""InteractionWidget: what every nbask widget shares — the synced traits, the response ->
resolution step, the waits, and the Markdown summary. Each request kind (``nbask.kinds``)
subclasses it.

Synced traits (mirrored by the ``Model`` interfaces in js/contract/contract.ts: change both together)
and the machinery's methods start with ``_``, so ``dir(widget)`` shows what a caller may use.

A widget displayed by hand (``display(w); await w.await_answer()``) goes through the manager
like ``nbask.ask``: one pending request per kernel, and its outcome in ``nbask.history()``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Generic

import anywidget
import traitlets

from .. import config, host, waiting
from ..contract import MAX_DRAFT_CHARS, agent_text
from ..core.history import LATE_RECORD_KEY, RECORD_KEY, record_of
from ..core.lifecycle import DEFAULT_TIMEOUT, Ending, OutcomeT, Request, Resolution
from ..core.manager import manager, several_answered, who
from ..errors import MalformedResponse
from ..models import Verification
from ..replies import is_response
from . import bundle
from .batch import follow_batch
from .sender import ChecksSender, handling

log = logging.getLogger(__name__)
#: How long before the end of nbask's default limit its countdown shows (a limit no caller set).
QUIET_COUNTDOWN_S = 120.0

#: Each request kind's Markdown summary, by kind name; filled by ``nbask.kinds.register``, so a
#: widget shows what its kind says and the headless policies print the same.
SUMMARIES: dict[str, Callable[[Any, Any], str]] = {}

LATE_ANSWER_NOTE = agent_text("late_ignored")
ANSWERED_LATE_NOTE = agent_text("answered_late")


class InteractionWidget(ChecksSender, anywidget.AnyWidget, Generic[OutcomeT]):
    """Shows one request and settles its Resolution from the person's response."""

    # Each kind's widget sets ``_esm = bundle.esm_of(kind)``: its own front end.
    _css = bundle.CSS if bundle.CSS.is_file() else ""

    # Which form the front end renders: the request's kind ("question", "approval").
    _kind = traitlets.Unicode("question").tag(sync=True)
    _request_id = traitlets.Unicode("").tag(sync=True)
    _status = traitlets.Unicode("pending").tag(sync=True)
    # Epoch milliseconds when the wait ends (0 = no limit); the front end counts down to it.
    _deadline_ms = traitlets.Float(0.0).tag(sync=True)
    # Epoch milliseconds from which the countdown shows (0 = from the start): a limit the caller
    # set shows all along; nbask's own default only in its last minutes, when it matters.
    _countdown_from_ms = traitlets.Float(0.0).tag(sync=True)
    # Written by the front end only; parsed by the request (see nbask.replies).
    _response = traitlets.Dict().tag(sync=True)
    # Written by the kernel once resolved: what the resolved block shows.
    _result = traitlets.Dict().tag(sync=True)
    # The person's unsent answer (choices, texts, notes), written by the front end only
    # (js/shell/draftsync.ts) so a reloaded page, a second view or a re-opened notebook shows it.
    # Only state: never parsed, never an answer; emptied once no answer can come any more
    # (answered, dismissed, cancelled; after a timeout, once answered late).
    _draft = traitlets.Dict().tag(sync=True)
    # nbask.configure(notify=True) / NBASK_NOTIFY=1: a desktop notification when the question
    # starts waiting while the page is hidden or the widget out of view (js/shell/attention.ts).
    _notify = traitlets.Bool(default_value=False).tag(sync=True)
    # Where the comm cannot bring a reply to a running cell (JupyterLite's Pyodide kernel): the
    # BroadcastChannel the front end also posts its response on (js/shell/sidechannel.ts); "" = none.
    _reply_channel = traitlets.Unicode("").tag(sync=True)
    # Whether the resolved block names who answered a made-up identity (a token login's
    # "Anonymous Io"): only once more than one identity has answered in this kernel (the
    # distinct ``answered_by_user`` in ``nbask.history()``). A real username is always named.
    _show_names = traitlets.Bool(default_value=False).tag(sync=True)
    # The batch this request waits in, when several were shown together (nbask.widget.batch):
    # {"id", "lead", "waiting", "approvals", "high_risk", "sources"}; {} when it waits alone.
    _batch = traitlets.Dict().tag(sync=True)
    # Who asks (the request's ``source``; "" when unsaid): named on a card of a batch of several sources.
    _source = traitlets.Unicode("").tag(sync=True)
    # The first line of the running cell's code ("" when unknown): the Waiting requests panel
    # names where a request comes from by it, once its cell's output is gone (js/reload/panel.ts).
    _cell = traitlets.Unicode("").tag(sync=True)
    # The running cell's execute_request ({"msg_id", "session"}; {} when unknown): a page reloaded
    # while the cell ran shows the run's later output in the widget (js/reload/cellrun.ts).
    _cell_run = traitlets.Dict().tag(sync=True)

    def __init__(self, resolution: Resolution[OutcomeT], **traits: Any) -> None:
        bundle.require(resolution.request.kind)
        self._resolution: Resolution[OutcomeT] = resolution
        #: The answer given after the request timed out, if one was (at most one is kept).
        self.late_answer: OutcomeT | None = None
        #: The display this widget was shown with by the live resolver: a late answer is added
        #: to its record, so a saved notebook keeps it.
        self._display_handle: Any = None
        self._late_lock = threading.Lock()
        traits.setdefault("_notify", config.notify_in_force())
        traits.setdefault("_show_names", several_answered())
        traits.setdefault("_cell", host.running_cell_line())
        traits.setdefault("_source", resolution.request.source or "")
        traits.setdefault("_cell_run", host.running_cell_request())
        traits.setdefault("_approvers", list(resolution.request.approvers or ()))
        traits.setdefault("_verifies", host.running_cell_stamp() is not None)
        channel = waiting.reply_channel(resolution.request.request_id, self._on_side_reply)
        if channel is not None:
            traits["_reply_channel"] = channel.name
            # A timed-out request stays open to "Answer anyway", which must also reach a cell
            # that is running then; any other end closes the channel.
            resolution.on_settled(lambda outcome: None if outcome.status == "timeout" else channel.close())
        super().__init__(_kind=resolution.request.kind, _request_id=resolution.request.request_id, **traits)
        # The comm handler may run on a kernel subshell thread (JupyterLab 4.4+); the
        # Resolution is thread-safe, and the first outcome wins.
        self.observe(self._on_response, names="_response")
        resolution.on_settled(self._show_outcome)
        self.on_msg(self._on_draft_message)
        follow_batch(self)

    # -- state -----------------------------------------------------------------

    @property
    def request(self) -> Request[OutcomeT]:
        return self._resolution.request

    @property
    def tool_call_id(self) -> str | None:
        return self.request.tool_call_id

    @property
    def asked_at(self) -> float:
        return self.request.asked_at

    @property
    def answer(self) -> OutcomeT | None:
        """The final outcome, or None while the request is open."""
        return self._resolution.outcome

    @property
    def done(self) -> bool:
        return self._resolution.done

    def _summary_of(self, outcome: OutcomeT | None) -> str:
        """The request and ``outcome`` (None while pending) as plain Markdown: its kind's summary."""
        return SUMMARIES[self.request.kind](self.request, outcome)

    def summary_markdown(self) -> str:
        """The request and its outcome as plain Markdown, then the late answer if one came."""
        summary = self._summary_of(self.answer)
        return summary if self.late_answer is None else summary + "\n\n" + self._summary_of(self.late_answer)

    def _result_for(self, outcome: OutcomeT) -> dict[str, Any]:
        """What the resolved block shows for ``outcome``."""
        raise NotImplementedError

    # ipywidgets 7 (Google Colab's) displays a widget through ``_ipython_display_``, which
    # IPython prefers to ``_repr_mimebundle_`` and which publishes on its own: the output would
    # lack the summary below, and ``display(..., display_id=True)`` would get no id to update.
    # IPython skips an attribute that is not callable, so every ipywidgets generation displays
    # through ``_repr_mimebundle_`` (ipywidgets 8 has no ``_ipython_display_`` at all).
    _ipython_display_ = None

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        summary = self.summary_markdown()
        data = {**data, "text/plain": summary}
        if self.answer is not None:
            data["text/markdown"] = summary
        return data, metadata

    @traitlets.validate("_draft")
    def _check_draft(self, proposal: Any) -> dict[str, Any]:
        value: dict[str, Any] = proposal["value"]
        if not value or not self._takes_drafts():
            return {}  # nothing is kept for a request that has ended
        size = len(json.dumps(value, ensure_ascii=False, default=str))
        if size > MAX_DRAFT_CHARS:
            # Keeping the previous draft sends it back to the front end, which stops there.
            log.warning(
                "nbask request %s: a draft of %d characters was ignored (the limit is %d)",
                self._request_id,
                size,
                MAX_DRAFT_CHARS,
            )
            previous: dict[str, Any] = self._draft
            return previous
        return value

    def _takes_drafts(self) -> bool:
        """Whether the person may still send an answer: pending, or timed out with no late answer
        yet ("Answer anyway" reopens the form with the draft kept from before the time limit).
        """
        resolution = getattr(self, "_resolution", None)
        if resolution is None or not resolution.done:
            return True
        outcome = resolution.outcome
        return outcome is not None and outcome.status == "timeout" and getattr(self, "late_answer", None) is None

    # -- resolution ------------------------------------------------------------

    def _handle_msg(self, msg: dict[str, Any]) -> None:
        with handling(msg):  # who sent it, for the response's observer
            super()._handle_msg(msg)

    def _on_draft_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        # A page being left sends its last draft as a message of its own (js/shell/draftsync.ts): the
        # trait's update could still be held in that page. Checked as any draft is.
        if isinstance(content, dict) and isinstance(content.get("draft"), dict):
            self._draft = content["draft"]

    def _on_response(self, change: dict[str, Any]) -> None:
        raw = change["new"]
        if not is_response(raw):
            return
        ended = self._resolution.outcome
        if ended is not None and ended.status != "timeout":
            self._note_late_response()
            return
        try:
            outcome = self.request.parse_and_decide(raw)
        except MalformedResponse as error:
            self._refuse(error)
            return
        user, identity = self._sender(raw)
        if self._refused_sender(user, identity):
            return
        outcome = outcome.model_copy(update={"answered_by_user": user, "identity": identity})
        if ended is None and self._resolution.settle(outcome):
            return
        self._take_late(outcome)

    def _take_late(self, outcome: OutcomeT) -> None:
        """Keep an answer given after the request timed out, without changing what the call
        returned: in the history and ``nbask.late_answers()``, for the agent tools, in the
        resolved block and in the saved notebook's record.
        """
        ended = self._resolution.outcome
        if ended is None or ended.status != "timeout":  # it was cancelled meanwhile
            self._note_late_response()
            return
        with self._late_lock:
            # A dismiss after the time limit says nothing new, and one late answer is kept.
            taken = outcome.status == "answered" and self.late_answer is None
            if taken:
                late = outcome.model_copy(update={"late": True, "timed_out_at": ended.resolved_at})
                self.late_answer = late
        if not taken:
            self._response = {}
            return
        manager().record_late(self.request, late)
        with self.hold_sync():
            self._result = {**self._result_for(late), **who(late), "late": True, "note": ANSWERED_LATE_NOTE}
            self._show_names = several_answered(late.answered_by_user)
            self._response = {}
            self._draft = {}
        if self._display_handle is not None:
            records = {RECORD_KEY: record_of(self.request, ended), LATE_RECORD_KEY: record_of(self.request, late)}
            self._display_handle.update(self, metadata=records)

    def _on_side_reply(self, raw: dict[str, Any]) -> None:
        # As if the comm had brought it: the trait's observer parses and decides it, and the
        # comm's own copy, delivered once the cell ends, then changes nothing.
        self._response = raw

    def _refuse(self, error: MalformedResponse) -> None:
        """Leave the request open after a reply that does not fit it."""
        log.warning("nbask request %s: malformed response ignored: %s", self._request_id, error)
        # Clearing it takes every view out of "Sending…", so the person can try again.
        self._response = {}

    def _note_late_response(self) -> None:
        outcome = self._resolution.outcome
        if outcome is not None and outcome.status in ("timeout", "cancelled"):
            # Shown in the resolved block so the person knows their click did nothing.
            self._result = {**self._result, "note": LATE_ANSWER_NOTE}
        log.debug("nbask request %s: ignored a response after it ended", self._request_id)

    def _show_outcome(self, outcome: OutcomeT) -> None:
        with self.hold_sync():
            self._result = {**self._result_for(outcome), **who(outcome)}
            self._show_names = several_answered(outcome.answered_by_user)
            self._status = outcome.status
            self._deadline_ms = 0.0
            if outcome.status != "timeout":  # a timed-out form may still be answered late
                self._draft = {}

    def _end(self, status: Ending, note: str) -> OutcomeT:
        """End without the person's reply; returns the final outcome (the person's, if it won)."""
        return self._resolution.end(status, note)

    # -- waiting ---------------------------------------------------------------

    def _clock_starter(self, timeout: float | None) -> Callable[[], None]:
        """Publishes the deadline once the engine is really waiting (the front end counts
        down to it, and tests take it as the sign that an interrupt now cancels the wait).
        """
        return lambda: self._start_clock(timeout)

    def _start_clock(self, timeout: float | None) -> None:
        """Show the countdown to ``timeout`` seconds from now (none for None), unless ended."""
        if not self._resolution.done:
            deadline = (time.time() + timeout) * 1000.0 if timeout is not None else 0.0
            quiet = timeout == DEFAULT_TIMEOUT and deadline  # a limit nobody chose: shown late
            self._countdown_from_ms, self._deadline_ms = (
                (deadline - QUIET_COUNTDOWN_S * 1000.0 if quiet else 0.0),
                deadline,
            )

    async def await_answer(self, timeout: float | None = DEFAULT_TIMEOUT) -> OutcomeT:
        """Wait, inside a running cell, until the person answers or dismisses.

        Returns an outcome with status "timeout" after ``timeout`` seconds (``None`` waits
        forever). A kernel interrupt marks the widget "Cancelled" and raises
        KeyboardInterrupt. A response given before this call counts. While it waits, no
        other request may be pending (InteractionPending); the outcome joins the history.
        """
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        return await manager().run(self._resolution, lambda _request: _ShownByHand(self, timeout))

    def wait_answer_sync(self, timeout: float | None = DEFAULT_TIMEOUT) -> OutcomeT:
        """The blocking twin of await_answer, for synchronous callers."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        return manager().run_sync(self._resolution, lambda _request: _ShownByHand(self, timeout))

    async def _wait(self, timeout: float | None) -> OutcomeT:
        """Wait for the outcome of a request the manager already runs (the live resolver's wait)."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        return await self._resolution.wait(timeout, on_waiting=self._clock_starter(timeout))

    def _wait_sync(self, timeout: float | None) -> OutcomeT:
        """The blocking twin of ``wait``."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        return self._resolution.wait_sync(timeout, on_waiting=self._clock_starter(timeout))


class _ShownByHand:
    """The resolver of a widget its caller displayed: it only waits for that widget."""

    def __init__(self, widget: InteractionWidget[Any], timeout: float | None) -> None:
        self.widget = widget
        self.timeout = timeout

    def check_available(self, request: Request[Any]) -> None:
        """The caller displayed the widget; the wait itself says if no answer can arrive here."""

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        del resolution  # the widget's own
        outcome: OutcomeT = await self.widget._wait(self.timeout)  # noqa: SLF001  (its own widget)
        return outcome

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        del resolution
        outcome: OutcomeT = self.widget._wait_sync(self.timeout)  # noqa: SLF001  (its own widget)
        return outcome


class ShowsRefusals(InteractionWidget[OutcomeT]):
    """A widget whose front end says why the kernel refused the person's last reply (an edit
    that does not fit its schema, a form value out of range) and keeps the request open to fix it.
    """

    # Why the kernel refused the last reply ("" = none).
    _error = traitlets.Unicode("").tag(sync=True)

    def _refuse(self, error: MalformedResponse) -> None:
        with self.hold_sync():
            self._error = str(error)
            super()._refuse(error)

    def _refused_sender(self, user: str | None, identity: Verification) -> bool:
        with self.hold_sync():
            refused = super()._refused_sender(user, identity)
            if refused:
                self._error = f"Not accepted: {self._refusal}."
            return refused
