"""nbask's settings: the policy that decides who answers, the replay file, whether the agent
tools (``nbask.tools``) are offered, and where the inbox of requests answered later is kept.

``SETTINGS`` lists every setting once: its ``configure`` keyword, its ``NBASK_*`` environment
variable, its default and what it means. Set them with ``nbask.configure(...)`` or the
environment; what ``configure`` sets wins, and passing ``None`` to it goes back to the
environment (then the default). The environment is read at each request, so a
notebook run by papermill or nbclient follows the variables its runner was started with.
"""

from __future__ import annotations

import os
import pathlib
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, cast, get_args

from .identity import ApproversDefault, checked_default, parse_env

Policy = Literal["interactive", "recommended", "replay", "dismiss", "error", "later"]
POLICIES: Final[tuple[str, ...]] = get_args(Policy)
DEFAULT_POLICY: Final[Policy] = "interactive"
_TRUE_WORDS: Final = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS: Final = frozenset({"0", "false", "no", "off"})


def _check_policy(value: str, source: str) -> Policy:
    name = value.strip().lower()
    if name not in POLICIES:
        msg = f"{source}={value!r} is not an nbask policy; use one of: {', '.join(POLICIES)}"
        raise ValueError(msg)
    return cast("Policy", name)


def _read_path(value: str, source: str) -> pathlib.Path:
    del source  # any text names a path; whether it can be read is checked when it is used
    return pathlib.Path(value).expanduser()


#: The URL schemes of a PostgreSQL inbox (libpq reads both).
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def inbox_location(value: str, source: str) -> str | pathlib.Path:
    """A ``postgresql://`` URL (kept as text) or a SQLite file's path; another URL is an error."""
    text = value.strip()
    if text.lower().startswith(POSTGRES_SCHEMES):
        return text
    if "://" in text:
        scheme = text.split("://", 1)[0]
        msg = (
            f"{source} names a {scheme}:// URL; the inbox is a SQLite file (a path) or PostgreSQL "
            "(a postgresql://user@host/database URL)"
        )
        raise ValueError(msg)
    return pathlib.Path(text).expanduser()


def _read_flag(value: str, source: str) -> bool | None:
    """A flag's word: 1/true/yes/on, 0/false/no/off; anything else is not a setting (None)."""
    del source  # a flag never raises: an odd word leaves the default in force
    word = value.strip().lower()
    return True if word in _TRUE_WORDS else False if word in _FALSE_WORDS else None


#: How long a request waits in the inbox before it expires unless set otherwise: a week.
DEFAULT_INBOX_EXPIRES: Final = 7 * 24 * 3600.0


def _read_seconds(value: str, source: str) -> float:
    """A positive number of seconds; anything else is an error naming the variable."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        msg = f"{source}={value!r} is not a positive number of seconds"
        raise ValueError(msg)
    return seconds


@dataclass(frozen=True)
class Setting:
    """One setting: its ``configure`` keyword, environment variable, default and meaning."""

    name: str
    env: str
    default: Any
    meaning: str
    #: Reads the variable's text (raising ValueError naming the variable, or None: not set).
    read: Callable[[str, str], Any]


#: Every setting, in the order docs/reference/settings.md lists them (tests/unit/test_settings.py checks the table).
SETTINGS: Final = (
    Setting(
        name="policy",
        env="NBASK_POLICY",
        default=DEFAULT_POLICY,
        meaning="who answers: interactive (a person), recommended, replay, dismiss, error, or later (the inbox)",
        read=_check_policy,
    ),
    Setting(
        name="replay_file",
        env="NBASK_REPLAY_FILE",
        default=None,
        meaning="the recording replay answers from: a save_history JSONL file, an answered .ipynb, or a .json map",
        read=_read_path,
    ),
    Setting(
        name="tools_enabled",
        env="NBASK_TOOLS_ENABLED",
        default=True,
        meaning="whether nbask.tools offers its tools to agents (off: no definitions, calls refused)",
        read=_read_flag,
    ),
    Setting(
        name="notify",
        env="NBASK_NOTIFY",
        default=False,
        meaning="a desktop notification when a question starts waiting unseen",
        read=_read_flag,
    ),
    Setting(
        name="share_username",
        env="NBASK_SHARE_USERNAME",
        default=False,
        meaning="whether the agent tools tell the model the username of who answered",
        read=_read_flag,
    ),
    Setting(
        name="inbox",
        env="NBASK_INBOX",
        default=None,
        meaning="where requests answered later wait: a SQLite file or a postgresql:// URL (None: the per-user file)",
        read=inbox_location,
    ),
    Setting(
        name="inbox_expires",
        env="NBASK_INBOX_EXPIRES",
        default=DEFAULT_INBOX_EXPIRES,
        meaning="seconds a request waits in the inbox before it expires (a week)",
        read=_read_seconds,
    ),
    Setting(
        name="inbox_mirror",
        env="NBASK_INBOX_MIRROR",
        default=False,
        meaning="whether every request a person is asked also waits in the inbox, as with inbox=True",
        read=_read_flag,
    ),
    Setting(
        name="approvers",
        env="NBASK_APPROVERS",
        default=None,
        meaning="who alone may approve: usernames for every approval, or tool-name patterns to usernames",
        read=parse_env,
    ),
)
_BY_NAME: Final = {setting.name: setting for setting in SETTINGS}
ENV_POLICY: Final = _BY_NAME["policy"].env
ENV_REPLAY_FILE: Final = _BY_NAME["replay_file"].env
ENV_TOOLS_ENABLED: Final = _BY_NAME["tools_enabled"].env
ENV_NOTIFY: Final = _BY_NAME["notify"].env
ENV_SHARE_USERNAME: Final = _BY_NAME["share_username"].env
ENV_INBOX: Final = _BY_NAME["inbox"].env
ENV_INBOX_EXPIRES: Final = _BY_NAME["inbox_expires"].env
ENV_INBOX_MIRROR: Final = _BY_NAME["inbox_mirror"].env
ENV_APPROVERS: Final = _BY_NAME["approvers"].env


@dataclass(frozen=True)
class Settings:
    """The settings in force for one request."""

    policy: Policy
    replay_file: pathlib.Path | None
    #: Whether ``nbask.tools`` offers its tools to agents (``definitions()`` empty when not).
    tools_enabled: bool
    #: Where the policy came from: "configure", the variable's name, or "default".
    policy_source: str
    #: Whether the widget shows a desktop notification when a question starts waiting unseen.
    notify: bool = False
    #: Whether the agent tools tell the model the username of the person who answered.
    share_username: bool = False
    #: The inbox store: a SQLite file, a ``postgresql://`` URL, or None for the per-user file.
    inbox: pathlib.Path | str | None = None
    #: How many seconds a request waits in the inbox before it expires.
    inbox_expires: float = DEFAULT_INBOX_EXPIRES
    #: Whether every request asked interactively also waits in the inbox (``inbox=True`` for all).
    inbox_mirror: bool = False
    #: Who alone may approve, where an approval names no approvers of its own (None: anyone).
    approvers: ApproversDefault | None = None


class _Unset:
    def __repr__(self) -> str:
        return "<unchanged>"


_UNSET: Final = _Unset()
_lock = threading.Lock()
_configured: dict[str, Any] = {}


def configure(
    *,
    policy: str | _Unset | None = _UNSET,
    replay_file: str | os.PathLike[str] | _Unset | None = _UNSET,
    tools_enabled: bool | _Unset | None = _UNSET,
    enabled: bool | _Unset | None = _UNSET,
    notify: bool | _Unset | None = _UNSET,
    share_username: bool | _Unset | None = _UNSET,
    inbox: str | os.PathLike[str] | _Unset | None = _UNSET,
    inbox_expires: float | _Unset | None = _UNSET,
    inbox_mirror: bool | _Unset | None = _UNSET,
    approvers: Any = _UNSET,
) -> Settings:
    """Set who answers nbask's requests in this process, and return the settings now in force.

    ``policy``: ``"interactive"`` (default: a person, through the widget or a terminal prompt),
    ``"recommended"`` (each question's "(Recommended)" option, else its first; approvals are
    rejected), ``"replay"`` (answers recorded in ``replay_file``), ``"dismiss"``, ``"error"``, or
    ``"later"`` (what no one answered yet waits in the inbox and the run stops with
    ``nbask.AnswerLater``; once answered there, the same run again takes the answer).
    ``replay_file``: a JSONL file written by ``nbask.save_history``, a saved ``.ipynb`` whose
    nbask outputs hold the answers, or a ``.json`` object of question text -> answer.
    ``tools_enabled=False`` takes nbask's agent tools away: ``nbask.tools.definitions()`` is
    empty and a tool call is refused with a tool error (``enabled`` is its old name).
    ``notify=True``: the widget shows a desktop notification when a question starts waiting
    while the page is hidden or the widget is out of view (the browser asks for permission
    then, never before); ``NBASK_NOTIFY=1`` does the same.
    ``tools_enabled``: also ``NBASK_TOOLS_ENABLED=0``.
    ``share_username=True``: the agent tools (``nbask.tools``) tell the model who answered, by the
    username the front end reported (shared notebooks); off by default, the username is then kept
    in the history and shown in the cell only. ``NBASK_SHARE_USERNAME=1`` does the same.
    ``inbox``: where requests answered later are kept (``nbask.inbox_store``): a SQLite file's path, or
    a ``postgresql://user@host/database`` URL; None is the per-user file
    (``$XDG_DATA_HOME/nbask/inbox.sqlite3``). ``NBASK_INBOX`` does the same.
    ``inbox_expires``: how many seconds a request waits in the inbox before it expires (a week by
    default; an expired one ends as a timeout); ``NBASK_INBOX_EXPIRES`` does the same.
    ``inbox_mirror=True``: every request asked with a person to answer waits in the inbox too, as
    ``inbox=True`` makes one do, so the server's inbox page lists it; ``NBASK_INBOX_MIRROR=1`` does
    the same, and nbask's server extension sets it for the kernels its server starts.
    ``approvers``: who alone may approve an approval that names no approvers of its own: a list
    of usernames (``["alice", "bob"]``) for every approval, or a mapping from a glob pattern of
    the tool's name to usernames (``{"shell_*": ["alice"]}``); only their verified answer
    resolves it. ``NBASK_APPROVERS=alice,bob`` does the same for every approval.
    Arguments left out stay as they are; ``None`` goes back to the environment variable
    (``NBASK_POLICY``, ``NBASK_REPLAY_FILE``), then to the default.

        nbask.configure(policy="replay", replay_file="answers.jsonl")
    """
    global _configured  # noqa: PLW0603 - the one module-level store of what configure set
    with _lock:
        updates: dict[str, Any] = {}
        given = (
            ("policy", policy),
            ("replay_file", replay_file),
            ("inbox", inbox),
            ("inbox_expires", inbox_expires),
            ("approvers", approvers),
        )
        for name, value in given:
            if not isinstance(value, _Unset):
                updates[name] = None if value is None else _read_given(name, value)
        if not isinstance(enabled, _Unset):
            warnings.warn("nbask.configure(enabled=...) is now tools_enabled=...", DeprecationWarning, stacklevel=2)
            if isinstance(tools_enabled, _Unset):
                tools_enabled = enabled
        flags = (
            ("tools_enabled", tools_enabled),
            ("notify", notify),
            ("share_username", share_username),
            ("inbox_mirror", inbox_mirror),
        )
        for name, flag in flags:
            if isinstance(flag, _Unset):
                continue
            if flag is not None and not isinstance(flag, bool):
                msg = f"{name} must be True, False or None, got {flag!r}"
                raise TypeError(msg)
            updates[name] = flag
        candidate = {**_configured, **updates}
        result = _settings_from(candidate)
        if result.policy == "replay" and result.replay_file is None:
            msg = (
                "the 'replay' policy needs a recording: pass replay_file=... (a JSONL file from "
                f"nbask.save_history, or a saved .ipynb) or set {ENV_REPLAY_FILE}"
            )
            raise ValueError(msg)
        # Replaced whole, never changed in place: readers take the dict without the lock.
        _configured = {key: value for key, value in candidate.items() if value is not None}
        return result


def _read_given(name: str, value: Any) -> Any:
    """A value given to ``configure``, checked as its variable's text would be."""
    if name == "policy":
        return _check_policy(value, name)
    if name == "replay_file":
        return pathlib.Path(value).expanduser()
    if name == "inbox":
        return inbox_location(os.fspath(value), name)
    if name == "approvers":
        return checked_default(value, name)
    return _read_seconds(str(value), name)


def settings() -> Settings:
    """The settings in force now: what ``configure`` set, else the environment, else defaults.

    Raises ValueError when ``NBASK_POLICY`` names no policy.
    """
    return _settings_from(_configured)


def value_of(name: str) -> tuple[Any, str]:
    """(the value of setting ``name`` in force, where it came from: "configure", its variable's
    name, or "default"); the one reader every setting goes through.
    """
    return _value_from(_configured, _BY_NAME[name])


def _value_from(configured: dict[str, Any], setting: Setting) -> tuple[Any, str]:
    value = configured.get(setting.name)
    if value is not None:
        return value, "configure"
    text = os.environ.get(setting.env, "").strip()
    if text:
        read = setting.read(text, setting.env)
        if read is not None:
            return read, setting.env
    return setting.default, "default"


def policy_in_force() -> tuple[Policy, str]:
    """(the policy in force, where it came from), read on every request."""
    policy: tuple[Policy, str] = _value_from(_configured, _BY_NAME["policy"])
    return policy


def _settings_from(configured: dict[str, Any]) -> Settings:
    values = {setting.name: _value_from(configured, setting) for setting in SETTINGS}
    return Settings(
        policy=values["policy"][0],
        replay_file=values["replay_file"][0],
        tools_enabled=values["tools_enabled"][0],
        policy_source=values["policy"][1],
        notify=values["notify"][0],
        share_username=values["share_username"][0],
        inbox=values["inbox"][0],
        inbox_expires=values["inbox_expires"][0],
        inbox_mirror=values["inbox_mirror"][0],
        approvers=values["approvers"][0],
    )


def notify_in_force() -> bool:
    """Whether widgets ask for a desktop notification. Never raises."""
    flag: bool = value_of("notify")[0]
    return flag


def share_username_in_force() -> bool:
    """Whether the agent tools tell the model who answered. Never raises."""
    flag: bool = value_of("share_username")[0]
    return flag


def how_to_set_a_policy() -> str:
    """The sentence every "no one can answer" error ends with: which policy to set, and how."""
    return (
        f"To run without a person, set a policy: {ENV_POLICY}=recommended (answer with each "
        f"question's recommended option; approvals are rejected), {ENV_POLICY}=replay with "
        f"{ENV_REPLAY_FILE}=<a nbask.save_history JSONL file or an answered .ipynb>, "
        f"{ENV_POLICY}=dismiss or {ENV_POLICY}=error; or call nbask.configure(policy=...) "
        "before asking. No one will answer here, so do not ask again in this run."
    )
