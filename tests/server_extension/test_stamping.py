"""The server's stamp written into each wire format a page may send its kernel."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)

from nbask.identity import STAMP_KEY, Stamp, verify
from nbask.server_extension.stamping import V1_PROTOCOL, StampsIdentity, install, stamp, who_is

KEY = b"kernel-key"
BOB = Stamp("bob", "Bob B.")


def page_message() -> dict[str, Any]:
    """A comm message as a page sends it, claiming to be alice in every field it can."""
    forged = {"username": "alice", "display_name": "Alice", "sig": "0" * 64}
    return {
        "header": {"msg_id": "abc", "msg_type": "comm_msg", "username": "alice", "session": "s", "version": "5.3"},
        "parent_header": {},
        "metadata": {STAMP_KEY: forged},
        "content": {"comm_id": "c", "data": {"method": "update", "state": {"_response": {"user": "alice"}}}},
        "channel": "shell",
    }


def test_stamp_replaces_what_the_page_claimed() -> None:
    msg = stamp(page_message(), key=KEY, who=BOB)
    assert msg["header"]["username"] == "bob"
    assert verify(msg, KEY) == BOB


def test_without_a_key_the_pages_stamp_is_taken_out() -> None:
    msg = stamp(page_message(), key=b"", who=BOB)
    assert STAMP_KEY not in msg["metadata"]
    assert msg["header"]["username"] == "bob"


class Recorder:
    def __init__(self) -> None:
        self.received: list[Any] = []

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        self.received.append(incoming_msg)


def connection(protocol: str | None) -> Any:
    cls = install({}, Recorder)
    assert issubclass(cls, StampsIdentity)
    conn = cls()
    user = SimpleNamespace(username="bob", name="Bob", display_name="Bob B.")
    conn.websocket_handler = SimpleNamespace(current_user=user, selected_subprotocol=protocol)
    conn.kernel_manager = SimpleNamespace(session=Session(key=KEY))
    return conn


def test_the_v1_binary_protocol_is_stamped() -> None:
    msg = page_message()
    session = Session(key=KEY)
    parts = [session.pack(msg[part]) for part in ("header", "parent_header", "metadata", "content")]
    conn = connection(V1_PROTOCOL)
    conn.handle_incoming_message(serialize_msg_to_ws_v1([*parts, b"a buffer"], "shell"))
    channel, out = deserialize_msg_from_ws_v1(conn.received[0])
    assert channel == "shell"
    header, metadata = json.loads(out[0]), json.loads(out[2])
    assert header["username"] == "bob"
    assert verify({"header": header, "metadata": metadata}, KEY) == BOB
    assert out[3] == parts[3]
    assert out[4] == b"a buffer"


def test_the_legacy_json_protocol_is_stamped() -> None:
    conn = connection(None)
    conn.handle_incoming_message(json.dumps(page_message()))
    msg = json.loads(conn.received[0])
    assert msg["channel"] == "shell"
    assert verify(msg, KEY) == BOB


def test_the_legacy_binary_form_is_stamped() -> None:
    conn = connection("")
    msg = page_message()
    msg["buffers"] = [memoryview(b"data")]
    conn.handle_incoming_message(serialize_binary_message(msg))
    out = deserialize_binary_message(conn.received[0])
    assert verify(out, KEY) == BOB
    assert bytes(out["buffers"][0]) == b"data"


def test_a_message_that_cannot_be_read_is_passed_on_unchanged() -> None:
    conn = connection(None)
    conn.handle_incoming_message("not json")
    assert conn.received == ["not json"]


def test_install_subclasses_the_configured_class_once() -> None:
    settings: dict[str, Any] = {}
    first = install(settings, Recorder)
    assert install(settings, Recorder) is first
    assert settings["kernel_websocket_connection_class"] is first


def test_who_is_falls_back_to_the_username() -> None:
    assert who_is(SimpleNamespace(username="u", name="", display_name="")) == Stamp("u", "u")
