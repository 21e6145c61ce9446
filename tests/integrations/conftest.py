"""Set-up for the integration tests (one file per module of src/nbask/integrations): ``person``,
a scripted person (tools.tool_helpers.Person) in place of the widget.
"""

from __future__ import annotations

import pytest
from support.person import Person


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    """The scripted person answering every request of this test."""
    fake = Person()
    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: fake)
    return fake
