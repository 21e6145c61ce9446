"""Going on from a paused run instead of starting over, under the ``later`` policy: a framework
whose paused run outlives its process (a persistent checkpointer, a serialised run state) is
resumed by the next run of the same code, with the answers the inbox holds, so the work done
before the pause is not done again. Which run is "the same": the framework's own key (a thread,
a session) and the fingerprint of the input it was started with; another input never resumes it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from ... import config
from ...errors import AnswerLater
from ...inbox_store import open_inbox


def answering_later() -> bool:
    """Whether the policy in force is ``later`` (a paused run is then resumed, not restarted)."""
    return config.policy_in_force()[0] == "later"


def input_key(value: Any) -> str:
    """A fingerprint of a run's input: equal for the same input asked again, in any process."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=_described)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _described(value: Any) -> Any:
    """What a non-JSON input is fingerprinted by: a pydantic model's (or a LangChain message's)
    data, else its type and ``repr`` (which never includes a memory address for the types a run
    is started with: strings, messages, dicts).
    """
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return [type(value).__name__, dump(mode="json")]
    return [type(value).__name__, repr(value)]


def kept(key: str | None) -> str | None:
    """The paused run kept under ``key`` (as the framework wrote it); None if none, or no key."""
    return None if key is None else open_inbox().run_state(key)


@contextlib.contextmanager
def keeping(key: str | None, state: Callable[[], str]) -> Iterator[None]:
    """Keep ``state()`` under ``key`` when the asking inside stops the run to answer later."""
    try:
        yield
    except AnswerLater:
        if key is not None:
            open_inbox().keep_run(key, state())
        raise


def resumed(key: str | None) -> None:
    """The run went on to its end: what was kept of it under ``key`` is done with."""
    if key is not None:
        open_inbox().forget_run(key)
