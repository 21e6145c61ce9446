"""CrewAI: a ``Crew`` whose agent runs on the scripted ``BaseLLM`` of
tests/integrations/crewai_scripted.py (CrewAI's text tool calls) with a recording ``drop_table``
tool, asked about by the before-tool-call hook ``install()`` registers; the framework's question
is a Flow's ``@human_feedback`` with two ``emit`` outcomes (options, ``default_outcome`` the
recommended one), CrewAI collapsing the feedback to an outcome with a scripted model that reads
it. An edit is carried. CrewAI's agent makes one call per reply, each asked on its own: no
batches, no typed replies (``Flow.ask`` and a task's review are text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from crewai import Agent, Crew, Task
from crewai.flow import Flow, human_feedback, listen, start
from crewai.tools import tool

from integrations.crewai_scripted import ScriptedLLM, act, final
from nbask.integrations import crewai

from .contract import ARGS, OPTIONS, QUESTION, RECOMMENDED, TOOL, Integration, ToolRun, entry_kw

#: The outcomes of the feedback: the options, without the "(Recommended)" mark.
OUTCOMES = [option.removesuffix(" (Recommended)") for option in OPTIONS]


@contextmanager
def installed(timeout: float | None, approvers: list[str] | None = None) -> Iterator[None]:
    """Nbask answering CrewAI's human in the loop (process-wide) for one run."""
    crewai.install(tools=[TOOL], **entry_kw(timeout, approvers))
    try:
        yield
    finally:
        crewai.uninstall()


class Collapse(ScriptedLLM):
    """The model CrewAI collapses feedback with: it answers with the feedback it was given, which
    CrewAI matches to an outcome.
    """

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        super().call(messages, *args, **kwargs)  # kept in ``seen``
        found = re.search(r"^Feedback: (.*)$", self.last_text(), re.MULTILINE)
        return found[1].strip() if found else ""


def _read(llm: ScriptedLLM) -> list[str]:
    """What the model read back after its first call: the text after each call's last ``Observation:``."""
    read = []
    for messages in llm.seen[1:]:
        texts = [str(m["content"]) for m in messages if "Observation:" in str(m["content"])]
        if texts:
            read.append(texts[-1].rsplit("Observation:", 1)[1].strip())
    return list(dict.fromkeys(read))


def _flow(question: str, received: list[str]) -> Flow[Any]:
    class Choose(Flow):  # type: ignore[type-arg]
        @start()
        @human_feedback(message=question, emit=OUTCOMES, llm=Collapse("?"), default_outcome=RECOMMENDED)
        def choose(self) -> str:
            return ""

        @listen(OUTCOMES[0])
        def first(self) -> None:
            received.append(OUTCOMES[0])

        @listen(OUTCOMES[1])
        def second(self) -> None:
            received.append(OUTCOMES[1])

    return Choose()


class Adapter(Integration):
    framework = "crewai"
    has_questions = True
    question_options = True

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        ran: list[dict[str, Any]] = []

        @tool(TOOL)
        def drop_table(name: str) -> str:
            """Drop a warehouse table (irreversible)."""
            ran.append({"name": name})
            return f"dropped {name}"

        llm = ScriptedLLM(*[act(TOOL, args, thought=f"Call {i}.") for i in range(calls)], final("done"))
        agent = Agent(role="Janitor", goal="Clean up", backstory="Careful.", llm=llm, tools=[drop_table])
        task = Task(description="Clean up the warehouse.", expected_output="a confirmation", agent=agent)
        with installed(timeout, approvers):
            Crew(agents=[agent], tasks=[task]).kickoff()
        return ToolRun(ran=ran, read=_read(llm))

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        received: list[str] = []
        with installed(timeout, approvers):
            for _ in range(rounds):
                _flow(question, received).kickoff()
        return received[-1] if received else None
