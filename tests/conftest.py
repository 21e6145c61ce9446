"""Set-up every test shares: each starts with no policy from the environment or an earlier test,
nbask's own defaults and an empty history (tests that run nbask in this process depend on it; the
others are unaffected); ``person``, the scripted person; and support.plugin (the failure report,
axe-core, the markers a test gets from the real parts it uses). The layout: tests/README.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.person import Person

import nbask
from nbask import config
from nbask.core.manager import manager
from nbask.integrations import _bounded

pytest_plugins = ["support.plugin"]


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


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    """The scripted person answering every request of this test, in place of the widget."""
    fake = Person()
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: fake)
    return fake
