"""Semantic Kernel's ``_compat`` module: its check passes on the release installed here and
names what moved when a release moves it.
"""

from __future__ import annotations

import pytest
from semantic_kernel.agents.orchestration.handoffs import HandoffAgentActor

import nbask
from nbask.integrations.semantic_kernel import _compat

pytestmark = pytest.mark.agents_more


def test_the_installed_release_has_what_compat_reads() -> None:
    _compat.check()


def test_semantic_kernel_moved_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(HandoffAgentActor, "_call_human_response_function")
    with pytest.raises(nbask.FrameworkChanged, match=r"semantic-kernel \S+: moved HandoffAgentActor"):
        _compat.check()
