"""The server's word on who sent each kernel message: every message a kernel websocket
connection sends to its kernel carries the connection's authenticated user (the server's
identity provider), in place of whatever the page wrote.

The page's ``header.username`` is overwritten, and ``metadata["nbask_identity"]`` holds the
username, the display name and a signature keyed with that kernel's connection key
(``nbask.identity``), which the kernel checks: a page on a server without this extension can
write the same field, but not sign it.

How it hooks in: jupyter_server's kernel websocket handler makes its connection from the class
in the web app's settings (``kernel_websocket_connection_class``) for each websocket, so at load
time that class is replaced by a subclass of it (whatever the server was configured with: the
default ZMQ channels connection, a gateway's) whose ``handle_incoming_message`` stamps the
websocket's message before the class's own code parses and forwards it. Both wire formats are
stamped: the v1 binary protocol (``v1.kernel.websocket.jupyter.org``: offsets, the channel, then
header, parent header, metadata, content and buffers) and the legacy one (JSON text, or its
binary form with buffers).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from ..identity import STAMP_KEY, Stamp, signature, verify

__all__ = ["STAMP_KEY", "Stamp", "install", "stamp", "verify", "who_is"]

log = logging.getLogger("nbask")

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
_SETTING = "kernel_websocket_connection_class"


def stamp(msg: dict[str, Any], *, key: bytes, who: Stamp) -> dict[str, Any]:
    """Write ``who`` into ``msg`` (in place; returned): its header's username, and the signed
    stamp in its metadata. Without a key (a kernel the server holds none for), the page's stamp
    is taken out and none is written: the kernel then verifies no one.
    """
    header = msg.get("header")
    if not isinstance(header, dict):
        return msg
    header["username"] = who.username
    metadata = msg.get("metadata")
    if not isinstance(metadata, dict):
        metadata = msg["metadata"] = {}
    metadata.pop(STAMP_KEY, None)
    msg_id = header.get("msg_id")
    if key and isinstance(msg_id, str):
        metadata[STAMP_KEY] = {
            "username": who.username,
            "display_name": who.display_name,
            "sig": signature(key, msg_id, who),
        }
    return msg


def who_is(user: Any) -> Stamp:
    """A jupyter_server user (``handler.current_user``, a ``jupyter_server.auth.User``) as a stamp."""
    username = str(getattr(user, "username", "") or "")
    display = getattr(user, "display_name", "") or getattr(user, "name", "") or username
    return Stamp(username, str(display))


def _stamped_ws_message(ws_msg: Any, *, v1: bool, key: bytes, who: Stamp, pack: Callable[[Any], bytes]) -> Any:
    """The websocket message ``ws_msg`` with ``who`` stamped into it, in its own format."""
    from jupyter_server.services.kernels.connection.base import (  # noqa: PLC0415 - server side only
        deserialize_binary_message,
        deserialize_msg_from_ws_v1,
        serialize_binary_message,
        serialize_msg_to_ws_v1,
    )

    if v1:
        channel, parts = deserialize_msg_from_ws_v1(ws_msg)  # type: ignore[no-untyped-call]
        msg = stamp({"header": json.loads(parts[0]), "metadata": json.loads(parts[2])}, key=key, who=who)
        parts[0], parts[2] = pack(msg["header"]), pack(msg["metadata"])
        return serialize_msg_to_ws_v1(parts, channel)  # type: ignore[no-untyped-call]
    if isinstance(ws_msg, bytes):
        msg = deserialize_binary_message(ws_msg)  # type: ignore[no-untyped-call]
        return serialize_binary_message(stamp(msg, key=key, who=who))  # type: ignore[no-untyped-call]
    return json.dumps(stamp(json.loads(ws_msg), key=key, who=who))


class StampsIdentity:
    """Mixed in before a kernel websocket connection class: stamps each incoming message."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        handler: Any = getattr(self, "websocket_handler", None)
        try:
            who = who_is(handler.current_user)
            session = getattr(getattr(self, "kernel_manager", None), "session", None)
            key = getattr(session, "key", b"")
            pack = getattr(session, "pack", None) or _json_bytes
            v1 = getattr(handler, "selected_subprotocol", None) == V1_PROTOCOL
            incoming_msg = _stamped_ws_message(
                incoming_msg, v1=v1, key=key if isinstance(key, bytes) else b"", who=who, pack=pack
            )
        except Exception:  # a message the server itself will refuse: passed on as it came
            # Unstamped, the kernel verifies no one from it: a page's own stamp cannot pass its check.
            log.debug("nbask: a kernel message could not be stamped", exc_info=True)
        super().handle_incoming_message(incoming_msg)  # type: ignore[misc]  # the connection class after this one


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def install(settings: dict[str, Any], configured: type[Any]) -> type[Any]:
    """Make the web app's kernel websocket connections stamp identities; returns the class used."""
    current = settings.get(_SETTING) or configured
    if isinstance(current, type) and issubclass(current, StampsIdentity):
        return current
    stamping = type(f"Stamping{current.__name__}", (StampsIdentity, current), {"__module__": __name__})
    settings[_SETTING] = stamping
    return stamping
