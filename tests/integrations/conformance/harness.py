"""The test side of the conformance suite: who answers (a scripted person, a silent one, the
policy in force), a deadline no scenario may pass, and what a run ended with.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from support.person import Decide, Person

import nbask
from nbask.core.lifecycle import Resolution, timeout_note
from nbask.kinds import FormRequest, QuestionRequest
from nbask.replies import ApprovalResponse, QuestionReply, QuestionResponse

from .contract import ANSWER, NUMBER

#: The longest a scenario may take before the test fails as hung.
DEADLINE = 30.0
#: What nbask's AskedAgain and ReplayMissing say, found in a framework's error that carries them.
ASKED_AGAIN_MARK = "asked again what was already decided"
REPLAY_MISSING_MARK = "replay: no recorded"


@dataclass
class Who:
    """Who answers each request of the test: a scripted person, else the policy in force."""

    policies: Callable[[Any], Any]
    person: Person | None = None

    def __call__(self, request: Any) -> Any:
        return self.person if self.person is not None else self.policies(request)

    def answers(self, *decisions: Decide) -> Person:
        self.person = Person().answers(*decisions)
        return self.person

    def silent(self) -> Person:
        self.person = Silent()
        return self.person

    def policy(self, policy: str, **settings: Any) -> None:
        self.person = None
        nbask.configure(policy=policy, **settings)


class Silent(Person):
    """A person who sees every request and never answers: each ends when its timeout has passed,
    as the widget's wait ends it (the wait itself needs a kernel).
    """

    async def resolve(self, resolution: Resolution[Any]) -> Any:
        self.asked.append(resolution.request)
        await asyncio.sleep(resolution.request.timeout or DEADLINE)
        return resolution.end("timeout", timeout_note(resolution.request.timeout))

    def resolve_sync(self, resolution: Resolution[Any]) -> Any:
        self.asked.append(resolution.request)
        time.sleep(resolution.request.timeout or DEADLINE)
        return resolution.end("timeout", timeout_note(resolution.request.timeout))


class Hung(BaseException):
    """A scenario ran past ``DEADLINE`` (a BaseException, so no framework keeps it)."""


@contextlib.contextmanager
def deadline(seconds: float = DEADLINE) -> Iterator[None]:
    def hung(signum: int, frame: Any) -> None:
        raise Hung(f"the run did not end within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def ends_with(error: type[BaseException], mark: str, scenario: Callable[[], Any]) -> BaseException:
    """Run ``scenario``; it must raise ``error``, or the framework's error carrying its message."""
    try:
        with deadline():
            result = scenario()
    except Hung:
        raise
    except BaseException as raised:
        seen: BaseException | None = raised
        while seen is not None:
            if isinstance(seen, error) or mark in str(seen):
                return seen
            seen = seen.__cause__ or seen.__context__
        pytest.fail(f"the run ended with {raised!r}, not {error.__name__}")
    pytest.fail(f"the run ended normally ({result!r}) instead of raising {error.__name__}")


def answer(text: str = ANSWER, number: int = NUMBER) -> Decide:
    """Answer a question with the option starting ``text`` (else ``text`` typed as Other), a
    form with ``text`` or ``number`` by each field's type, and approve an approval.
    """

    def decide(request: Any) -> Any:
        if isinstance(request, QuestionRequest):
            replies = []
            for question in request.question_set.questions:
                chosen = tuple(o.label for o in question.options if o.label.startswith(text))[:1]
                replies.append(QuestionReply(selected=chosen, other=None if chosen else text))
            return request.decide(QuestionResponse(action="submit", replies=tuple(replies)))
        if isinstance(request, FormRequest):
            values: dict[str, Any] = {}
            for field in request.form.fields:
                if field.type in ("integer", "number"):
                    values[field.name] = number
                elif field.type == "boolean":
                    values[field.name] = True
                elif field.options:
                    fits = [o.value for o in field.options if text in (o.value, o.title) or o.title.startswith(text)]
                    value = (fits or [field.options[0].value])[0]
                    values[field.name] = [value] if field.type == "multi_choice" else value
                else:
                    values[field.name] = text
            return request.decide(values)
        return request.decide(ApprovalResponse("approve"))

    return decide


def mentions(text: str, arguments: dict[str, Any]) -> bool:
    """``text`` holds each of ``arguments``' names and values (as JSON, however spaced)."""
    return all(f'"{key}"' in text and json.dumps(value) in text for key, value in arguments.items())
