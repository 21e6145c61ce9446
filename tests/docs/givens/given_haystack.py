"""Haystack's names the README's Haystack line uses (``Agent``), and ``chat_generator``: Haystack's
own ``MockChatGenerator`` playing the tests' offline script (tests/integrations/haystack_scripted.py),
which calls ``delete_file`` once, then answers.
"""

from __future__ import annotations

import sys
from pathlib import Path

from haystack.components.agents import Agent

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from haystack_scripted import scripted

__all__ = ["Agent", "chat_generator"]

chat_generator, _script = scripted([[("delete_file", {"path": "notes.txt"})], "done"])
