"""Set-up for the tests of the frameworks that live in .venvs/agents-more (CrewAI, Semantic
Kernel, Strands: pyproject.toml's "agents-more" extra, which cannot share .venv's resolve).
scripts/test.sh runs this folder with that environment's interpreter, and its real-kernel tests
use the kernelspec nbask-agents-more; ``person`` is the scripted person of tests/integrations.
"""

from __future__ import annotations

import pytest
from tools.tool_helpers import Person

#: The kernelspec scripts/make_kernel_envs.sh makes for .venvs/agents-more (ipykernel 7.4).
AGENTS_MORE_KERNEL = "nbask-agents-more"
#: The same packages under each ipykernel generation, for the frameworks' blocking calls (their
#: agent runs in a worker thread while the cell blocks the main thread): 7.4, 7.3 and 6.29.
AGENTS_MORE_KERNELS = (AGENTS_MORE_KERNEL, "nbask-agents-more-7.3", "nbask-agents-more-6.29")


@pytest.fixture
def person(monkeypatch: pytest.MonkeyPatch) -> Person:
    """The scripted person answering every request of this test."""
    fake = Person()
    monkeypatch.setattr("nbask.api.choose_resolver", lambda request: fake)
    return fake
