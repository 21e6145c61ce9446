"""The live resolver: shows the request's widget in the running cell and waits for the person."""

from __future__ import annotations

from typing import Any

from IPython.display import display

from . import waiting
from .lifecycle import ApprovalRequest, OutcomeT, QuestionRequest, Request, Resolution
from .widgets import ApprovalWidget, InteractionWidget, QuestionWidget


class LiveWidgetResolver:
    """Resolves a request through its widget, displayed in the cell that asked."""

    def check_available(self, request: Request[Any]) -> None:
        del request  # every kind needs the same: a kernel whose running cell can receive messages
        waiting.strategy_name()  # raises WaitingUnsupported where a cell cannot wait

    async def resolve(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        widget = widget_for(resolution)
        handle = _display(widget)
        try:
            return await widget.await_answer(timeout=resolution.request.timeout)
        finally:
            _show_summary(handle, widget)

    def resolve_blocking(self, resolution: Resolution[OutcomeT]) -> OutcomeT:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        widget = widget_for(resolution)
        handle = _display(widget)
        try:
            return widget.wait_answer_blocking(timeout=resolution.request.timeout)
        finally:
            _show_summary(handle, widget)


def widget_for(resolution: Resolution[OutcomeT]) -> InteractionWidget[OutcomeT]:
    """The widget that shows ``resolution``'s request."""
    widget: InteractionWidget[Any]
    if isinstance(resolution.request, QuestionRequest):
        widget = QuestionWidget(resolution=resolution)
    elif isinstance(resolution.request, ApprovalRequest):
        widget = ApprovalWidget(resolution=resolution)
    else:
        msg = f"no widget shows {type(resolution.request).__name__}"
        raise TypeError(msg)
    return widget


def _display(widget: InteractionWidget[Any]) -> Any:
    return display(widget, display_id=True)  # type: ignore[no-untyped-call]


def _show_summary(handle: Any, widget: InteractionWidget[Any]) -> None:
    # Re-publishing the output adds the Markdown summary to what the notebook saves;
    # live front ends re-render the widget view, which now shows the resolved block.
    if handle is not None and widget.answer is not None:
        handle.update(widget)
