"""What nbask reads of Semantic Kernel's internals, in one place: a handoff orchestration calls
``human_response_function`` with nothing, so the actor asking and the response it just published
are read from ``HandoffAgentActor._call_human_response_function``'s frame and its caller's; and a
failure is reported through the actor's ``_exception_callback`` (the orchestration's own way to
end). ``check`` says when a release moved them.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version
from typing import Any

from ...errors import FrameworkChanged
from .._frames import frame_running

__all__ = ["check", "end_orchestration", "handoff_asking"]


def handoff_asking() -> tuple[Any, Any]:
    """(the HandoffAgentActor calling, the response it published before asking), or (None, None)."""
    from semantic_kernel.agents.orchestration.handoffs import HandoffAgentActor  # noqa: PLC0415 - SK only here

    code = HandoffAgentActor._call_human_response_function.__code__  # noqa: SLF001 - see the module docstring
    frame = frame_running(lambda running, _: running is code)
    if frame is None:
        return None, None
    caller = frame.f_back
    return frame.f_locals.get("self"), caller.f_locals.get("response") if caller is not None else None


def end_orchestration(actor: Any, error: BaseException) -> None:
    """End the orchestration ``actor`` belongs to with ``error`` (its result would never come)."""
    actor._exception_callback(error)  # noqa: SLF001 - see the module docstring


def check() -> None:
    """Raise ``FrameworkChanged`` if this Semantic Kernel moved what this module reads."""
    from semantic_kernel.agents.orchestration import agent_actor_base  # noqa: PLC0415
    from semantic_kernel.agents.orchestration.handoffs import HandoffAgentActor  # noqa: PLC0415

    missing = []
    if not callable(getattr(HandoffAgentActor, "_call_human_response_function", None)):
        missing.append("HandoffAgentActor._call_human_response_function")
    elif "response" not in inspect.getsource(HandoffAgentActor):
        missing.append("the 'response' its caller publishes")
    if "self._exception_callback" not in inspect.getsource(agent_actor_base):
        missing.append("ActorBase._exception_callback")
    if missing:
        msg = (
            f"semantic-kernel {version('semantic-kernel')}: moved {', '.join(missing)}, so a handoff's "
            "human_response_function cannot show what the agent said, or end the orchestration on an error"
        )
        raise FrameworkChanged(msg)
