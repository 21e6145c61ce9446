"""nbask's settings: the policy that decides who answers, the replay file, and whether the
agent tools (``nbask.tools``) are offered.

Set them with ``nbask.configure(...)`` or the environment (``NBASK_POLICY``,
``NBASK_REPLAY_FILE``); what ``configure`` sets wins, and passing ``None`` to it goes back
to the environment (then the default). The environment is read at each request, so a
notebook run by papermill or nbclient follows the variables its runner was started with.
"""

from __future__ import annotations

import os
import pathlib
import threading
import warnings
from dataclasses import dataclass
from typing import Any, Final, Literal, cast, get_args

Policy = Literal["interactive", "recommended", "replay", "dismiss", "error"]
POLICIES: Final[tuple[str, ...]] = get_args(Policy)
DEFAULT_POLICY: Final[Policy] = "interactive"
ENV_POLICY: Final = "NBASK_POLICY"
ENV_REPLAY_FILE: Final = "NBASK_REPLAY_FILE"
ENV_NOTIFY: Final = "NBASK_NOTIFY"
ENV_SHARE_USERNAME: Final = "NBASK_SHARE_USERNAME"
_TRUE_WORDS: Final = frozenset({"1", "true", "yes", "on"})


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


class _Unset:
    def __repr__(self) -> str:
        return "<unchanged>"


_UNSET: Final = _Unset()
_lock = threading.Lock()
_configured: dict[str, Any] = {}


def _check_policy(value: str, source: str) -> Policy:
    name = value.strip().lower()
    if name not in POLICIES:
        msg = f"{source}={value!r} is not an nbask policy; use one of: {', '.join(POLICIES)}"
        raise ValueError(msg)
    return cast("Policy", name)


def configure(
    *,
    policy: str | _Unset | None = _UNSET,
    replay_file: str | os.PathLike[str] | _Unset | None = _UNSET,
    tools_enabled: bool | _Unset | None = _UNSET,
    enabled: bool | _Unset | None = _UNSET,
    notify: bool | _Unset | None = _UNSET,
    share_username: bool | _Unset | None = _UNSET,
) -> Settings:
    """Set who answers nbask's requests in this process, and return the settings now in force.

    ``policy``: ``"interactive"`` (default: a person, through the widget or a terminal prompt),
    ``"recommended"`` (each question's "(Recommended)" option, else its first; approvals are
    rejected), ``"replay"`` (answers recorded in ``replay_file``), ``"dismiss"`` or ``"error"``.
    ``replay_file``: a JSONL file written by ``nbask.save_history``, a saved ``.ipynb`` whose
    nbask outputs hold the answers, or a ``.json`` object of question text -> answer.
    ``tools_enabled=False`` takes nbask's agent tools away: ``nbask.tools.definitions()`` is
    empty and a tool call is refused with a tool error (``enabled`` is its old name).
    ``notify=True``: the widget shows a desktop notification when a question starts waiting
    while the page is hidden or the widget is out of view (the browser asks for permission
    then, never before); ``NBASK_NOTIFY=1`` does the same.
    ``share_username=True``: the agent tools (``nbask.tools``) tell the model who answered, by the
    username the front end reported (shared notebooks); off by default, the username is then kept
    in the history and shown in the cell only. ``NBASK_SHARE_USERNAME=1`` does the same.
    Arguments left out stay as they are; ``None`` goes back to the environment variable
    (``NBASK_POLICY``, ``NBASK_REPLAY_FILE``), then to the default.

        nbask.configure(policy="replay", replay_file="answers.jsonl")
    """
    global _configured  # noqa: PLW0603 - the one module-level store of what configure set
    with _lock:
        updates: dict[str, Any] = {}
        if not isinstance(policy, _Unset):
            updates["policy"] = None if policy is None else _check_policy(policy, "policy")
        if not isinstance(replay_file, _Unset):
            updates["replay_file"] = None if replay_file is None else pathlib.Path(replay_file).expanduser()
        if not isinstance(enabled, _Unset):
            warnings.warn("nbask.configure(enabled=...) is now tools_enabled=...", DeprecationWarning, stacklevel=2)
            if isinstance(tools_enabled, _Unset):
                tools_enabled = enabled
        for name, flag in (("tools_enabled", tools_enabled), ("notify", notify), ("share_username", share_username)):
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


def settings() -> Settings:
    """The settings in force now: what ``configure`` set, else the environment, else defaults.

    Raises ValueError when ``NBASK_POLICY`` names no policy.
    """
    return _settings_from(_configured)


def policy_in_force() -> tuple[Policy, str]:
    """(the policy in force, where it came from): ``settings()``'s two fields, read on every
    request, without the rest.
    """
    return _policy_from(_configured)


def _policy_from(configured: dict[str, Any]) -> tuple[Policy, str]:
    policy: Policy | None = configured.get("policy")
    if policy is not None:
        return policy, "configure"
    env = os.environ.get(ENV_POLICY, "").strip()
    return (_check_policy(env, ENV_POLICY), ENV_POLICY) if env else (DEFAULT_POLICY, "default")


def _settings_from(configured: dict[str, Any]) -> Settings:
    policy, source = _policy_from(configured)
    replay_file = configured.get("replay_file")
    if replay_file is None:
        env_file = os.environ.get(ENV_REPLAY_FILE, "").strip()
        replay_file = pathlib.Path(env_file).expanduser() if env_file else None
    tools_enabled = configured.get("tools_enabled")
    return Settings(
        policy=policy,
        replay_file=replay_file,
        tools_enabled=True if tools_enabled is None else tools_enabled,
        policy_source=source,
        notify=_notify_from(configured),
        share_username=_flag_from(configured, "share_username", ENV_SHARE_USERNAME),
    )


def notify_in_force() -> bool:
    """Whether widgets ask for a desktop notification: ``configure(notify=...)``, else
    ``NBASK_NOTIFY`` (1/true/yes/on), else off. Never raises.
    """
    return _notify_from(_configured)


def _notify_from(configured: dict[str, Any]) -> bool:
    return _flag_from(configured, "notify", ENV_NOTIFY)


def share_username_in_force() -> bool:
    """Whether the agent tools tell the model who answered: ``configure(share_username=...)``,
    else ``NBASK_SHARE_USERNAME`` (1/true/yes/on), else off. Never raises.
    """
    return _flag_from(_configured, "share_username", ENV_SHARE_USERNAME)


def _flag_from(configured: dict[str, Any], name: str, env: str) -> bool:
    flag: bool | None = configured.get(name)
    if flag is not None:
        return flag
    return os.environ.get(env, "").strip().lower() in _TRUE_WORDS


def how_to_set_a_policy() -> str:
    """The sentence every "no one can answer" error ends with: which policy to set, and how."""
    return (
        f"To run without a person, set a policy: {ENV_POLICY}=recommended (answer with each "
        f"question's recommended option; approvals are rejected), {ENV_POLICY}=replay with "
        f"{ENV_REPLAY_FILE}=<a nbask.save_history JSONL file or an answered .ipynb>, "
        f"{ENV_POLICY}=dismiss or {ENV_POLICY}=error; or call nbask.configure(policy=...) "
        "before asking. No one will answer here, so do not ask again in this run."
    )
