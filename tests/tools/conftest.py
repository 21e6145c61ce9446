"""Shared set-up for the agent-tool tests: a clean configuration and history per test, and
``person``, a scripted person (tool_helpers.Person) in place of the widget.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import nbask
from nbask.core.manager import manager

from .tool_helpers import Person


@pytest.fixture(autouse=True)
def clean_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No policy from the environment or an earlier test, the tool on, an empty history."""
    monkeypatch.delenv("NBASK_POLICY", raising=False)
    monkeypatch.delenv("NBASK_REPLAY_FILE", raising=False)
    nbask.configure(policy=None, replay_file=None, tools_enabled=None)
    manager().clear_history()
    yield
    nbask.configure(policy=None, replay_file=None, tools_enabled=None)
    manager().clear_history()


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    """The scripted person answering every request of this test."""
    fake = Person()
    monkeypatch.setattr("nbask.api.choose_resolver", lambda request: fake)
    return fake
