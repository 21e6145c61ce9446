"""CrewAI's content-approval flow, a review that goes round until approved, on CrewAI's own Flow
runtime with nbask installed: unattended, the second identical round stops the run with nbask's
reason instead of revising until CrewAI's own loop guard (100 calls) gives up.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import nbask

sys.path.insert(0, str(Path(__file__).parent))
pytest.importorskip("crewai_scripted")  # sets CrewAI's offline environment, then imports CrewAI
from crewai.flow import Flow, human_feedback, listen, or_, start
from crewai_scripted import ScriptedLLM

import nbask.integrations.crewai as nbask_crewai


@pytest.fixture(autouse=True)
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)
    nbask_crewai.install(timeout=30)
    yield
    nbask_crewai.uninstall()


def content_flow() -> Any:
    """Write, review, revise and review again; publish once approved."""

    class ContentFlow(Flow):  # type: ignore[type-arg]
        rounds: ClassVar[list[str]] = []

        @start()
        def write(self) -> str:
            return "A first draft."

        @listen(or_("write", "revise"))
        @human_feedback(
            message="Is this content ready to publish?",
            emit=["approved", "needs_revision"],
            llm=ScriptedLLM("needs_revision"),
            default_outcome="needs_revision",
        )
        def review(self) -> str:
            self.rounds.append("review")
            return f"Draft number {len(self.rounds)}."  # a new draft each round

        @listen("needs_revision")
        def revise(self) -> str:
            self.rounds.append("revise")
            return "revised"

        @listen("approved")
        def publish(self) -> str:
            self.rounds.append("publish")
            return "published"

    ContentFlow.rounds = []
    return ContentFlow()


def test_unattended_the_review_loop_ends_after_one_policy_answer():
    nbask.configure(policy="recommended")
    flow = content_flow()
    with pytest.raises(Exception, match="nbask stopped this run: it asked again") as raised:
        flow.kickoff()
    assert not isinstance(raised.value, RecursionError)
    assert flow.rounds == ["review", "revise", "review"]
    assert [(e.kind, e.answered_by) for e in nbask.history()] == [("question", "policy")]
