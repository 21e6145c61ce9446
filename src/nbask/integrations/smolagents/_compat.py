"""What nbask reads of smolagents' internals, in one place: smolagents calls a tool without its
call id, so the id is read from the ``tool_call`` of the ``process_single_tool_call`` helper
running in ``smolagents.agents``. ``check`` says when a release moved it.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version

import smolagents.agents  # type: ignore[import-untyped]  # smolagents is untyped

from ...errors import FrameworkChanged
from .._frames import frame_running

__all__ = ["check", "tool_call_id"]

_HELPER = "process_single_tool_call"


def tool_call_id() -> str | None:
    """The id of the call smolagents is running, or None outside one."""
    frame = frame_running(
        lambda code, globals_: code.co_name == _HELPER and globals_.get("__name__") == "smolagents.agents"
    )
    call_id = getattr(frame.f_locals.get("tool_call"), "id", None) if frame is not None else None
    return str(call_id) if call_id else None


def check() -> None:
    """Raise ``FrameworkChanged`` if this smolagents no longer runs tools through the helper."""
    if f"def {_HELPER}(tool_call" not in inspect.getsource(smolagents.agents):
        msg = (
            f"smolagents {version('smolagents')}: smolagents.agents has no {_HELPER}(tool_call, ...), so "
            "approvals and user_input carry no tool call id (the history cannot tie them to the call)"
        )
        raise FrameworkChanged(msg)
