"""Who answered, and who may answer.

nbask's Jupyter server extension writes the authenticated user of each kernel websocket into
every message that connection sends to the kernel (``nbask.server_extension.stamping``): the
message's ``metadata[STAMP_KEY]`` holds the username, the display name and ``sig``, an
HMAC-SHA256 over ``[msg_id, username, display_name]`` keyed with the kernel's own connection key.
The server holds that key (it signs every message it sends the kernel with it) and so does the
kernel; a page never sees it. So the kernel tells a stamp the server wrote from one a page made
up on a server without the extension, which forwards the page's metadata untouched.

``approvers`` on a request name the only people whose verified answer resolves it
(``refusal`` says why any other answer does not).
"""

from __future__ import annotations

import fnmatch
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .models import Verification

#: The key of the server's stamp in a message's metadata.
STAMP_KEY: Final = "nbask_identity"


@dataclass(frozen=True)
class Stamp:
    """The server's authenticated user of the connection a message came through."""

    username: str
    display_name: str


def signature(key: bytes, msg_id: str, stamp: Stamp) -> str:
    """The stamp's ``sig``: hex HMAC-SHA256 over ``[msg_id, username, display_name]`` as JSON."""
    text = json.dumps([msg_id, stamp.username, stamp.display_name], ensure_ascii=False, separators=(",", ":"))
    return hmac.new(key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def verify(msg: Mapping[str, Any], key: bytes) -> Stamp | None:
    """The user the server stamped ``msg`` with; None when it carries no stamp, or one the
    server did not write (no key to check it with: the kernel has none, so none is verified).
    """
    metadata, header = msg.get("metadata"), msg.get("header")
    if not key or not isinstance(metadata, Mapping) or not isinstance(header, Mapping):
        return None
    stamp, msg_id = metadata.get(STAMP_KEY), header.get("msg_id")
    if not isinstance(stamp, Mapping) or not isinstance(msg_id, str):
        return None
    username, display_name, sig = stamp.get("username"), stamp.get("display_name"), stamp.get("sig")
    if not isinstance(username, str) or not isinstance(display_name, str) or not isinstance(sig, str):
        return None
    found = Stamp(username, display_name)
    return found if hmac.compare_digest(sig, signature(key, msg_id, found)) else None


def refusal(approvers: tuple[str, ...] | None, user: str | None, identity: Verification) -> str | None:
    """Why an answer by ``user`` (known as ``identity`` says) may not resolve a request that
    only ``approvers`` may answer; None when it may (or the request names no approvers).
    """
    if not approvers:
        return None
    if identity != "verified" or user is None:
        return f"only {waiting_for(approvers)} may answer, and who answered could not be verified here"
    if user not in approvers:
        return f"{user} is not one of the approvers ({', '.join(approvers)})"
    return None


def waiting_for(approvers: Iterable[str]) -> str:
    """``alice``, ``alice or bob``, ``alice, bob or carol``."""
    names = list(approvers)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def checked_approvers(value: object, field: str = "approvers") -> tuple[str, ...] | None:
    """``value`` as approvers: None, or a non-empty list of distinct usernames (text, no blanks).
    Anything else raises ValueError (TypeError for a single string) naming ``field`` and the rule.
    """
    if value is None:
        return None
    if isinstance(value, str):
        msg = f"{field} must be a list of usernames, not a single string: {field}=[{value!r}]"
        raise TypeError(msg)
    if not isinstance(value, Iterable) or isinstance(value, Mapping):
        msg = f"{field} must be a list of usernames, got {type(value).__name__}"
        raise TypeError(msg)
    names = list(value)
    if not names:
        msg = f"{field} must name at least one username (None: anyone may answer)"
        raise ValueError(msg)
    for name in names:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            msg = f"{field} must hold usernames as non-empty text without surrounding spaces, got {name!r}"
            raise ValueError(msg)
    if len(set(names)) != len(names):
        msg = f"{field} names a username twice: {names!r}"
        raise ValueError(msg)
    return tuple(names)


#: The configured default: approvers for every approval, or by a glob pattern of the tool's name.
ApproversDefault = tuple[str, ...] | tuple[tuple[str, tuple[str, ...]], ...]


def checked_default(value: object, field: str = "approvers") -> ApproversDefault:
    """``configure(approvers=...)``: a list of usernames (every approval), or a mapping from a
    glob pattern of the tool's name (``"shell_*"``) to usernames.
    """
    if isinstance(value, Mapping):
        if not value:
            msg = f"{field} must map at least one tool-name pattern to usernames (None: no default)"
            raise ValueError(msg)
        pairs = []
        for pattern, names in value.items():
            if not isinstance(pattern, str) or not pattern.strip():
                msg = f"{field} keys must be glob patterns of tool names (text), got {pattern!r}"
                raise ValueError(msg)
            checked = checked_approvers(names, f"{field}[{pattern!r}]")
            assert checked is not None  # noqa: S101 - None is refused for a pattern below
            pairs.append((pattern, checked))
        return tuple(pairs)
    checked = checked_approvers(value, field)
    if checked is None:
        msg = f"{field}=None means no default; give a list of usernames or a mapping of patterns"
        raise ValueError(msg)
    return checked


def default_for(default: ApproversDefault, action: str) -> tuple[str, ...] | None:
    """The approvers ``default`` gives an approval titled ``action``: the list itself, or the
    names of the first pattern that matches the action or, for an integration's "Call <tool>"
    title, the tool's name.
    """
    if not default:
        return None
    if isinstance(default[0], str):
        return default
    candidates = [action]
    if action.startswith("Call "):
        candidates.append(action[len("Call ") :].split(" ", 1)[0])
    for pattern, names in default:
        if any(fnmatch.fnmatchcase(candidate, pattern) for candidate in candidates):
            return names
    return None


def parse_env(text: str, source: str) -> ApproversDefault | None:
    """``NBASK_APPROVERS``: usernames separated by commas; empty is no default."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    return checked_default(names, source) if names else None
