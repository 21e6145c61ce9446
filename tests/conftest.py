"""Set-up every suite shares: each test starts with no policy from the environment or an
earlier test, nbask's own defaults and an empty history (tests that run nbask in this process
depend on it; the others are unaffected).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import nbask
from nbask import config
from nbask.core.manager import manager
from nbask.integrations import _bounded


@pytest.fixture(autouse=True)
def clean_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for setting in config.SETTINGS:
        monkeypatch.delenv(setting.env, raising=False)
    unset = {setting.name: None for setting in config.SETTINGS}
    nbask.configure(**unset)
    manager().clear_history()
    _bounded.forget()
    yield
    for setting in config.SETTINGS:  # a test may have set one without monkeypatch
        monkeypatch.delenv(setting.env, raising=False)
    nbask.configure(**unset)
    manager().clear_history()
