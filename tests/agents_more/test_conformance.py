"""The conformance suite of ``tests/integrations`` run here, where CrewAI, Semantic Kernel and
Strands are installed (a framework not installed here skips, naming its environment).
"""

from __future__ import annotations

from integrations.test_conformance import *  # noqa: F403 - the same tests, collected here
