"""The live resolver: shows the request's widget in the running cell and waits for the person."""

from __future__ import annotations

from typing import Any

from IPython.display import display

from .. import waiting
from ..config import how_to_set_a_policy
from ..core.history import RECORD_KEY, record_of
from ..core.lifecycle import INTERRUPTED_NOTE, OutcomeT, Request, Resolution, wait_all_sync
from ..errors import NoFrontEnd
from ..host import headless_runner
from ..kinds import kind_of
from ..waiting import WaitingUnsupported
from ..widget import InteractionWidget


class LiveWidgetResolver:
    """Resolves a request through its kind's widget, displayed in the cell that asked."""

    def check_available(self, request: Request[Any]) -> None:
        # Every kind needs the same: a kernel whose running cell can receive messages, and a
        # front end that will show the widget.
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        try:
            waiting.strategy_name()
        except WaitingUnsupported as error:
            raise NoFrontEnd(f"{error}. {how_to_set_a_policy()}") from error
        runner = headless_runner()
        if runner is not None:
            msg = (
                f"This notebook is being executed by {runner.name}, which runs every cell but never "
                f"shows widgets, so no one can answer this {request.kind} (detected: {runner.evidence}). "
                + how_to_set_a_policy()
            )
            raise NoFrontEnd(msg)

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        widget: InteractionWidget[OutcomeT] = kind_of(resolution.request).widget(resolution)
        handle = _display(widget)
        try:
            return await widget._wait(resolution.request.timeout)  # noqa: SLF001  (the resolver drives the widget it shows)
        finally:
            _show_summary(handle, widget)

    def resolve_sync(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        # Where a blocking wait cannot work at all (JupyterLite without JSPI), say so before
        # a widget no one could answer is shown.
        try:
            waiting.check_sync()
        except WaitingUnsupported as error:
            raise NoFrontEnd(str(error)) from error
        widget: InteractionWidget[OutcomeT] = kind_of(resolution.request).widget(resolution)
        handle = _display(widget)
        try:
            return widget._wait_sync(resolution.request.timeout)  # noqa: SLF001  (the resolver drives the widget it shows)
        finally:
            _show_summary(handle, widget)

    def resolve_together_sync(self, resolutions: list[Resolution[Any]]) -> list[Any]:
        """Show every request at once, one widget each in this cell, and wait for them all."""
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        try:
            waiting.check_sync()
        except WaitingUnsupported as error:
            raise NoFrontEnd(str(error)) from error
        widgets: list[InteractionWidget[Any]] = [kind_of(r.request).widget(r) for r in resolutions]
        handles: list[Any] = []
        try:
            handles.extend(_display(widget) for widget in widgets)  # one by one: some, if interrupted

            def start_clocks() -> None:
                # Only once the wait has begun, as for one request: a countdown tells the person
                # (and a front end) that an interrupt now cancels the wait with its one line.
                for widget in widgets:
                    widget._start_clock(widget.request.timeout)  # noqa: SLF001  (the resolver drives the widget it shows)

            return wait_all_sync(resolutions, start_clocks)
        except KeyboardInterrupt:
            # An interrupt may come while the cards are being shown, before the wait has begun:
            # every request shown (or about to be) still ends cancelled, and is recorded.
            for resolution in resolutions:
                if not resolution.done:
                    resolution.end("cancelled", INTERRUPTED_NOTE)
            raise
        finally:
            for handle, widget in zip(handles, widgets, strict=False):  # fewer if one never showed
                _show_summary(handle, widget)


def _display(widget: InteractionWidget[Any]) -> Any:
    handle = display(widget, display_id=True)  # type: ignore[no-untyped-call]
    widget._display_handle = handle  # noqa: SLF001  (a late answer updates the record through it)
    return handle


def _show_summary(handle: Any, widget: InteractionWidget[Any]) -> None:
    # Re-publishing the output adds the Markdown summary to what the notebook saves, and the
    # record (nbask.core.history) to its metadata, so the saved notebook can be replayed;
    # live front ends re-render the widget view, which now shows the resolved block.
    if handle is not None and widget.answer is not None:
        handle.update(widget, metadata={RECORD_KEY: record_of(widget.request, widget.answer)})
