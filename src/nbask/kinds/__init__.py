"""The kinds of request, registered by name: each is one module declaring its request, widget,
summary, terminal prompt and what each headless policy does with it (see ``_kind``).

To add a kind: write its module with a ``RequestKind`` subclass, and register an instance here.
"""

from __future__ import annotations

from typing import Any

from ..core.history import register_asked_reader, register_outcome_type
from ..core.lifecycle import Request
from ..widget import SUMMARIES
from ._kind import RequestKind
from .approval import ApprovalKind, ApprovalRequest, ApprovalWidget
from .form import FormKind, FormRequest, FormWidget
from .question import QuestionKind, QuestionRequest, QuestionWidget

__all__ = [
    "KINDS",
    "ApprovalRequest",
    "ApprovalWidget",
    "FormRequest",
    "FormWidget",
    "QuestionRequest",
    "QuestionWidget",
    "RequestKind",
    "kind_named",
    "kind_of",
    "register",
]

KINDS: dict[str, RequestKind[Any, Any]] = {}


def register(kind: RequestKind[Any, Any]) -> None:
    """Make ``kind`` known to the resolvers, the history's reader and the widgets' summaries."""
    KINDS[kind.name] = kind
    register_outcome_type(kind.name, kind.outcome_type)
    register_asked_reader(kind.name, kind.asked_from)
    SUMMARIES[kind.name] = kind.summary


def kind_named(name: str) -> RequestKind[Any, Any] | None:
    """The registered kind called ``name`` (a history entry's ``kind``), or None."""
    return KINDS.get(name)


def kind_of(request: Request[Any]) -> RequestKind[Any, Any]:
    """The registered kind of ``request``."""
    kind = KINDS.get(request.kind)
    if kind is None or not isinstance(request, kind.request_type):
        msg = f"{type(request).__name__} is not a registered request kind (known: {', '.join(KINDS)})"
        raise TypeError(msg)
    return kind


register(QuestionKind())
register(ApprovalKind())
register(FormKind())
