"""Shared set-up for the agent-tool tests: a clean configuration and history per test, and
``person``, a scripted person (tool_helpers.Person) in place of the widget.
"""

from __future__ import annotations

import pytest

from .tool_helpers import Person


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    """The scripted person answering every request of this test."""
    fake = Person()
    monkeypatch.setattr("nbask.api.choose_resolver", lambda request: fake)
    return fake
