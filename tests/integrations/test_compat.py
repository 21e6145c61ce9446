"""Each integration that reads a framework's internals does it in its ``_compat`` module, whose
``check`` passes on the framework release installed here and fails with a message naming the
framework, its version and what moved when a release moves it.
"""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest
from autogen_agentchat.agents import UserProxyAgent

import nbask
from nbask.integrations.autogen import _compat as autogen_compat
from nbask.integrations.llama_index import _compat as llama_index_compat
from nbask.integrations.smolagents import _compat as smolagents_compat

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "nbask" / "integrations"
#: The frameworks with a ``_compat`` module tested here (Semantic Kernel's: tests/agents_more).
HERE = ("autogen", "llama_index", "smolagents")


def test_stack_walks_and_private_reads_live_only_in_compat_modules() -> None:
    outside = [
        f"{path.relative_to(SRC)}:{number}"
        for path in SRC.rglob("*.py")
        if path.name not in ("_compat.py", "_frames.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"sys\._getframe|sys\._current_frames|frame_running\(", line)
    ]
    # Strands watches its own worker's executor (the standard library's), not Strands' internals.
    assert [where for where in outside if not where.startswith("strands/")] == []


@pytest.mark.parametrize("framework", HERE)
def test_the_installed_release_has_what_compat_reads(framework: str) -> None:
    importlib.import_module(f"nbask.integrations.{framework}._compat").check()


def test_autogen_moved_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    async def on_messages_stream(self, chat, cancellation_token):  # type: ignore[no-untyped-def]
        yield None

    monkeypatch.setattr(UserProxyAgent, "on_messages_stream", on_messages_stream)
    with pytest.raises(nbask.FrameworkChanged, match=r"autogen-agentchat \S+: UserProxyAgent.on_messages_stream"):
        autogen_compat.check()


def test_smolagents_moved_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smolagents_compat, "_HELPER", "run_one_tool_call")
    with pytest.raises(nbask.FrameworkChanged, match=r"smolagents \S+: smolagents.agents has no run_one_tool_call"):
        smolagents_compat.check()


def test_llama_index_moved_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llama_index_compat.inspect, "getsource", lambda obj: "")
    with pytest.raises(nbask.FrameworkChanged, match=r"llama-index-workflows \S+: moved WorkflowHandler._workflow"):
        llama_index_compat.check()
