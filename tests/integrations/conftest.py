"""The integration tests are collected in the environment their framework is installed in: CrewAI,
Semantic Kernel and Strands in .venvs/agents-more (pyproject.toml's "agents-more" extra, which
cannot share .venv's resolve; their tests are marked ``agents_more``), every other framework in
.venv. A module is named for its framework (``test_<framework>*.py``, ``<framework>_scripted*.py``);
one of the other environment is not collected here, so it cannot break collection. The modules of
no framework (the conformance and convention suites, the seam) are collected in both; their
parameters of an agents-more framework carry the marker too.
"""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

from .conformance.contract import AGENTS_MORE

#: What a module named for something other than its framework needs (its framework's package).
NAMED_OTHERWISE = {"test_compat": "autogen", "test_later_resume": "langgraph", "langchain_scripted": "langgraph"}
FRAMEWORK_NAMES = ("a2a", "acp", "ag2", "agent_framework", "agno", "autogen", "claude_agent_sdk", "crewai",
                   "google_adk", "haystack", "langgraph", "llama_index", "openai_agents", "pydantic_ai",
                   "semantic_kernel", "smolagents", "strands")  # fmt: skip
#: True in .venvs/agents-more, where CrewAI is installed (and the .venv-only frameworks are not).
HERE_IS_AGENTS_MORE = importlib.util.find_spec("crewai") is not None


def framework_of(stem: str) -> str | None:
    if stem in NAMED_OTHERWISE:
        return NAMED_OTHERWISE[stem]
    name = stem.removeprefix("test_")
    return next((f for f in FRAMEWORK_NAMES if name == f or name.startswith(f + "_")), None)


def pytest_ignore_collect(collection_path: pathlib.Path, config: pytest.Config) -> bool | None:
    del config
    if collection_path.suffix != ".py" or collection_path.parent.name != "integrations":
        return None
    framework = framework_of(collection_path.stem)
    if framework is None:
        return None
    return True if (framework in AGENTS_MORE) != HERE_IS_AGENTS_MORE else None
