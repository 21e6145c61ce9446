"""What a request kind declares, in one module each: its request, widget, Markdown summary,
terminal prompt, and what the headless policies do with it.

The resolvers (``nbask.resolvers``) look a request's kind up in the registry
(``nbask.kinds.kind_of``) instead of testing its class, so a new kind is one module with a
``RequestKind`` plus its registration in ``nbask.kinds``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar, get_args, get_origin

from ..contract import agent_text
from ..core.history import HistoryEntry, Recording
from ..core.lifecycle import Request, Resolution
from ..models import Outcome
from ..terminal import Terminal
from ..widget import InteractionWidget

RequestT = TypeVar("RequestT", bound="Request[Any]")
OutcomeT = TypeVar("OutcomeT", bound=Outcome)

#: What the 'dismiss' policy says, for every kind.
DISMISS_NOTE = agent_text("policy_dismissed")


class RequestKind(ABC, Generic[RequestT, OutcomeT]):
    """One kind of request: how it is shown, summarised, prompted for, and decided unattended.

    A kind says each of its types once, in its class line: ``class ConfirmKind(RequestKind[
    ConfirmRequest, Answer], widget=ConfirmWidget)``; the request and outcome types are read
    from the subscript.
    """

    request_type: ClassVar[type[Request[Any]]]
    outcome_type: ClassVar[type[Outcome]]
    #: The widget class that shows a request of this kind in a cell.
    widget_type: ClassVar[type[InteractionWidget[Any]]]

    def __init_subclass__(cls, *, widget: type[InteractionWidget[Any]], **rest: Any) -> None:
        super().__init_subclass__(**rest)
        subscripts = [get_args(base) for base in cls.__orig_bases__ if get_origin(base) is RequestKind]  # type: ignore[attr-defined]
        if len(subscripts) != 1 or not all(isinstance(t, type) for t in subscripts[0]):
            msg = f"{cls.__name__}: a kind subclasses RequestKind[<its request class>, <its outcome class>]"
            raise TypeError(msg)
        cls.request_type, cls.outcome_type = subscripts[0]
        cls.widget_type = widget

    @property
    def name(self) -> str:
        """The name requests of this kind carry (``Request.kind``) and history entries record."""
        return self.request_type.kind

    def widget(self, resolution: Resolution[OutcomeT]) -> InteractionWidget[OutcomeT]:
        """The widget that shows ``resolution``'s request in a cell."""
        widget: InteractionWidget[OutcomeT] = self.widget_type(resolution=resolution)
        return widget

    @abstractmethod
    def summary(self, request: RequestT, outcome: OutcomeT | None) -> str:
        """The request and its outcome (None while pending) as plain Markdown."""

    @abstractmethod
    def console_prompt(self, term: Terminal, request: RequestT) -> OutcomeT:
        """Ask at a terminal; raises TimedOut, or KeyboardInterrupt on Ctrl-C."""

    @abstractmethod
    def recommended(self, request: RequestT) -> OutcomeT:
        """What the 'recommended' policy decides, unattended (``answered_by="policy"``)."""

    def dismissed(self, request: RequestT) -> OutcomeT:
        """What the 'dismiss' policy decides: the request dismissed, no one asked."""
        outcome: OutcomeT = request.ended("dismissed", DISMISS_NOTE, "policy")
        return outcome

    @abstractmethod
    def request_of(self, asked: dict[str, Any]) -> RequestT:
        """A request that asks again what ``asked`` records (``Request.asked()``, as an inbox
        item or a history record keeps it), checked as when it was first asked.
        """

    @abstractmethod
    def replayed(self, request: RequestT, recording: Recording) -> OutcomeT:
        """The recorded outcome for ``request`` (``answered_by="replay"``); raises ReplayMissing."""

    def match_key(self, asked: dict[str, Any]) -> Any:
        """What a request asked again is matched by, in replay and in the inbox: the parts of
        ``asked`` a person's answer depends on. By default all of it.
        """
        return asked

    def asked_from(self, kept: tuple[Any, ...]) -> dict[str, Any]:
        """``asked()`` of a request whose ``kept_asked`` gave ``kept``, its kind's own form (a
        kind that keeps one reads it here; the others keep JSON text and never get here).
        """
        msg = f"a {self.name} record keeps what was asked as JSON text, not {kept!r}"
        raise TypeError(msg)

    def late_text(self, entry: HistoryEntry) -> str:
        """What the model reads of a late answer (after "the person"): what came, after what
        had timed out, in the kind's words (``late_answer_text``) when the entry's outcome is this
        kind's outcome.
        """
        outcome = entry.outcome
        if isinstance(outcome, self.outcome_type):
            return self.late_answer_text(entry.asked, outcome)  # type: ignore[arg-type]  # checked just above
        return f"answered an earlier {entry.kind} after it had timed out."

    def late_answer_text(self, asked: dict[str, Any], outcome: OutcomeT) -> str:  # noqa: ARG002 - a kind's own reads them
        """A late ``outcome`` of what was ``asked``, worded for the model. A kind words its own;
        this is the fallback.
        """
        return f"answered an earlier {self.name} after it had timed out."


def quoted(text: object) -> str:
    """``text`` as a JSON string (or value), for a sentence the model reads."""
    return json.dumps(text, ensure_ascii=False)
