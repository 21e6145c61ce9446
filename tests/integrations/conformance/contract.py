"""The contract every nbask integration keeps, as an adapter each framework implements.

An ``Integration`` builds and runs the smallest real scenario with its framework's own classes
(the framework's runner or loop, an offline scripted model from tests/) and reports what the
framework received. It never decides anything itself: who answers (a scripted person, a policy,
a replay) is set by the test before the scenario runs, and any error the run ends with
propagates to the test.

The scenario of every tool check: the model calls the gated tool ``drop_table`` with ``args``
(``ARGS`` unless said), reads what comes back, and ends; with ``calls=n`` it makes the same call
again after reading each result, up to n calls in all (a bounded loop: an unattended run that
answers again instead of stopping ends after n calls, and the test sees it did).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

#: The gated tool, the arguments the model calls it with, a person's edit of them, and a call
#: that a recording of ``ARGS`` does not hold.
TOOL = "drop_table"
ARGS: dict[str, Any] = {"name": "events_2023"}
EDITED: dict[str, Any] = {"name": "events_2022"}
OTHER: dict[str, Any] = {"name": "events_2021"}
#: The batch: the model calls the gated tool with each of these in one turn.
BATCH: tuple[dict[str, Any], ...] = ({"name": "events_a"}, {"name": "events_b"})
REASON = "keep it for the audit"

#: The question scenario: the framework asks this with these options (where it has options; the
#: first is the recommended one), or as free text; the person answers ``ANSWER``.
QUESTION = "Which database should the app use?"
OPTIONS = ("PostgreSQL (Recommended)", "SQLite")
RECOMMENDED = "PostgreSQL"
ANSWER = "SQLite"
#: The typed scenario: the framework asks for an integer; the person answers ``NUMBER``.
NUMBER_QUESTION = "How many replicas should run?"
NUMBER = 3

#: Frameworks that cannot share .venv's resolve: their tests run in this environment.
AGENTS_MORE = frozenset({"crewai", "semantic_kernel", "strands"})


def env_of(framework: str) -> str:
    """The virtual environment a framework's tests run in."""
    return ".venvs/agents-more" if framework in AGENTS_MORE else ".venv"


def where_it_runs(framework: str) -> list[pytest.MarkDecorator]:
    """The marker that sends a framework's tests to its environment's suite (agents-more)."""
    return [pytest.mark.agents_more] if framework in AGENTS_MORE else []


@dataclass
class ToolRun:
    """What a tool scenario did: the arguments of each real run of the gated tool, and each text
    the model read back as a tool's result (in order).
    """

    ran: list[dict[str, Any]] = field(default_factory=list)
    read: list[str] = field(default_factory=list)

    @property
    def read_text(self) -> str:
        return "\n".join(self.read)


@dataclass
class BatchRun:
    """What a batch scenario did: the gated tool's real runs, and how many times the framework
    resumed after pausing for the batch (one resume carries every decision).
    """

    ran: list[dict[str, Any]] = field(default_factory=list)
    resumed: int = 0


class Integration(ABC):
    """One framework's adapter: subclass it in ``conformance/<framework>.py`` as ``Adapter``."""

    #: The name in ``nbask.integrations.FRAMEWORKS``.
    framework: ClassVar[str]
    #: An edit reaches the tool (False: the call does not run and the model reads the edited
    #: arguments, to call again with them).
    carries_edits: ClassVar[bool] = True
    #: A gated tool call is asked as an approval (False: the framework only asks questions, and
    #: the unattended, replay and timeout checks run on ``run_question``).
    has_approvals: ClassVar[bool] = True
    #: The framework asks the person a question of its own (``run_question``).
    has_questions: ClassVar[bool] = False
    #: Its question carries options, so a policy can take the recommended one.
    question_options: ClassVar[bool] = False
    #: It asks for a typed value and receives it typed (``run_typed``).
    has_typed: ClassVar[bool] = False
    #: Parallel calls pause the framework once, for all of them (``run_batch``).
    has_batches: ClassVar[bool] = False

    @abstractmethod
    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        """The model calls ``drop_table(**args)`` (``calls`` times, each after reading the last
        result) through the framework's loop with nbask answering its approvals. ``timeout`` and
        ``approvers`` go to the integration's entry point or callback factory (``entry_kw``).
        """

    def run_question(
        self,
        question: str = QUESTION,
        *,
        rounds: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> Any:
        """The framework asks ``question`` (``rounds`` times at most, the same question); return
        what it received as the answer (the last one). ``timeout`` and ``approvers`` as above.
        """
        raise NotImplementedError

    def run_typed(self) -> Any:
        """The framework asks ``NUMBER_QUESTION`` for an integer; return the value it received."""
        raise NotImplementedError

    def run_batch(self) -> BatchRun:
        """The model calls ``drop_table`` with each of ``BATCH`` in one turn."""
        raise NotImplementedError


class Pending(Integration):
    """The adapter of an integration the suite does not cover yet: every check fails, and the
    suite marks them xfail (strict) so the gap stays visible.
    """

    def run_tool_call(
        self,
        args: dict[str, Any] = ARGS,
        *,
        calls: int = 1,
        timeout: float | None = None,
        approvers: list[str] | None = None,
    ) -> ToolRun:
        raise NotImplementedError(f"no conformance adapter for {self.framework} yet")


def entry_kw(timeout: float | None = None, approvers: list[str] | None = None) -> dict[str, Any]:
    """``timeout=`` and ``approvers=`` for an integration's entry point or callback factory: each
    where given, else left to nbask's default.
    """
    given = {"timeout": timeout, "approvers": approvers}
    return {name: value for name, value in given.items() if value is not None}
