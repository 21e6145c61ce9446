"""The convention test of ``tests/integrations`` run here, where CrewAI, Semantic Kernel and
Strands are installed (the other frameworks skip).
"""

from __future__ import annotations

from integrations.test_convention import *  # noqa: F403 - the same tests, collected here
