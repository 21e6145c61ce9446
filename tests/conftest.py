"""Set-up every suite shares: each test starts with no policy from the environment or an
earlier test, nbask's own defaults and an empty history (tests that run nbask in this process
depend on it; the others are unaffected).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import nbask
from nbask.core.manager import manager


@pytest.fixture(autouse=True)
def clean_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("NBASK_POLICY", raising=False)
    monkeypatch.delenv("NBASK_REPLAY_FILE", raising=False)
    nbask.configure(policy=None, replay_file=None, tools_enabled=None)
    manager().clear_history()
    yield
    nbask.configure(policy=None, replay_file=None, tools_enabled=None)
    manager().clear_history()
