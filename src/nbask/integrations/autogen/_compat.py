"""What nbask reads of AutoGen's internals, in one place: AutoGen passes ``input_func`` only a
prompt, so the messages the ``UserProxyAgent`` was handed are read from its
``on_messages_stream(self, messages, ...)`` frame. ``check`` says when a release moved it.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from autogen_agentchat.agents import UserProxyAgent
from autogen_agentchat.messages import BaseChatMessage

from ...errors import FrameworkChanged
from .._frames import frame_running

__all__ = ["check", "messages_given"]


def messages_given() -> Sequence[BaseChatMessage]:
    """The messages the ``UserProxyAgent`` asking now was given ([] when not called by one)."""
    code = UserProxyAgent.on_messages_stream.__code__
    frame = frame_running(lambda running, _: running is code)
    messages = frame.f_locals.get("messages") if frame is not None else None
    return list(messages) if isinstance(messages, Sequence) else []


def check() -> None:
    """Raise ``FrameworkChanged`` if this AutoGen no longer has what ``messages_given`` reads."""
    code = getattr(getattr(UserProxyAgent, "on_messages_stream", None), "__code__", None)
    if code is None or "messages" not in code.co_varnames[: code.co_argcount]:
        msg = (
            f"autogen-agentchat {version('autogen-agentchat')}: UserProxyAgent.on_messages_stream no longer "
            "takes 'messages', so input_func cannot show the message it answers (it shows AutoGen's prompt)"
        )
        raise FrameworkChanged(msg)
