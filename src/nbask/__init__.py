"""nbask: pause a notebook cell, ask the person 1-4 structured questions (or for approval, or a
typed form), and continue with the answers.

For example::

    answer = await nbask.ask("Which database?", ["PostgreSQL (Recommended)", "SQLite"])
    answer.answers  # {"Which database?": "PostgreSQL (Recommended)"}

``import nbask`` costs next to nothing: each public name is loaded from its module (the
``_PUBLIC`` table below) when it is first used, so neither pydantic, the widget nor the kernel's
machinery is imported before a call needs it.
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import integrations, mcp, tools
    from .api import (
        HistoryEntry,
        approve,
        approve_sync,
        ask,
        ask_form,
        ask_form_sync,
        ask_questions,
        ask_sync,
        history,
        late_answers,
        save_history,
    )
    from .approvals import requires_approval
    from .config import configure
    from .contract import NO_PREFERENCE
    from .core.lifecycle import DEFAULT_TIMEOUT
    from .errors import (
        AlreadyAnswered,
        ApprovalRejected,
        AskedAgain,
        FormSchemaError,
        FrameworkChanged,
        InboxError,
        InboxRequestClosed,
        InboxRequestNotFound,
        InboxUnavailable,
        InteractionPending,
        Interrupted,
        NbaskError,
        NoFrontEnd,
        NoOneCanAnswer,
        NotAnswered,
        QuestionsNotAllowed,
        ReplayMissing,
        WaitingUnsupported,
    )
    from .kinds import ApprovalWidget, FormWidget, QuestionWidget
    from .models import Answer, Approval, Decision, FormAnswer, Option, Question, QuestionSet
    from .nesting import no_questions

#: Public name -> the module (relative to this package) that defines or re-exports it.
_PUBLIC: dict[str, str] = {
    "DEFAULT_TIMEOUT": ".core.lifecycle",
    "NO_PREFERENCE": ".contract",
    "Answer": ".models",
    "Approval": ".models",
    "Decision": ".models",
    "FormAnswer": ".models",
    "Option": ".models",
    "Question": ".models",
    "QuestionSet": ".models",
    "AlreadyAnswered": ".errors",
    "AnswerLater": ".errors",
    "ApprovalRejected": ".errors",
    "AskedAgain": ".errors",
    "FormSchemaError": ".errors",
    "FrameworkChanged": ".errors",
    "InboxError": ".errors",
    "InboxRequestClosed": ".errors",
    "InboxRequestNotFound": ".errors",
    "InboxUnavailable": ".errors",
    "InteractionPending": ".errors",
    "Interrupted": ".errors",
    "NbaskError": ".errors",
    "NoFrontEnd": ".errors",
    "NoOneCanAnswer": ".errors",
    "NotAnswered": ".errors",
    "QuestionsNotAllowed": ".errors",
    "ReplayMissing": ".errors",
    "WaitingUnsupported": ".errors",
    "no_questions": ".nesting",
    "ApprovalWidget": ".kinds",
    "QuestionWidget": ".kinds",
    "FormWidget": ".kinds",
    # api imports the kinds, so a HistoryEntry read back knows every kind's outcome model.
    "HistoryEntry": ".api",
    "approve": ".api",
    "approve_sync": ".api",
    "ask": ".api",
    "ask_form": ".api",
    "ask_form_sync": ".api",
    "ask_questions": ".api",
    "ask_sync": ".api",
    "history": ".api",
    "late_answers": ".api",
    "save_history": ".api",
    "requires_approval": ".approvals",
    "inbox": ".inbox_view",
    "InboxAnswer": ".inbox_view",
    "configure": ".config",
}

__all__ = [
    "DEFAULT_TIMEOUT",
    "NO_PREFERENCE",
    "AlreadyAnswered",
    "Answer",
    "AnswerLater",
    "Approval",
    "ApprovalRejected",
    "ApprovalWidget",
    "AskedAgain",
    "Decision",
    "FormAnswer",
    "FormSchemaError",
    "FormWidget",
    "FrameworkChanged",
    "HistoryEntry",
    "InboxAnswer",
    "InboxError",
    "InboxRequestClosed",
    "InboxRequestNotFound",
    "InboxUnavailable",
    "InteractionPending",
    "Interrupted",
    "NbaskError",
    "NoFrontEnd",
    "NoOneCanAnswer",
    "NotAnswered",
    "Option",
    "Question",
    "QuestionSet",
    "QuestionWidget",
    "QuestionsNotAllowed",
    "ReplayMissing",
    "WaitingUnsupported",
    "__version__",
    "approve",
    "approve_sync",
    "ask",
    "ask_form",
    "ask_form_sync",
    "ask_questions",
    "ask_sync",
    "configure",
    "history",
    "inbox",
    "integrations",
    "late_answers",
    "mcp",
    "no_questions",
    "requires_approval",
    "save_history",
    "tools",
]

# A library never configures logging; applications decide where records go.
logging.getLogger(__name__).addHandler(logging.NullHandler())


def _chain_kernel_interrupts() -> None:
    """Inside a running ipykernel, imported on its main thread: an interrupt also reaches a
    thread that waits for an answer while the cell blocks the main thread on it
    (nbask.waiting._blocked_main). Outside a kernel this does nothing and imports nothing.
    """
    kernelbase = sys.modules.get("ipykernel.kernelbase")
    if kernelbase is not None and kernelbase.Kernel.initialized():
        from .waiting import _blocked_main  # noqa: PLC0415 - only inside a kernel

        _blocked_main.install(kernelbase.Kernel.instance())


_chain_kernel_interrupts()


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module, __name__), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    if name in ("tools", "mcp", "integrations"):
        # nbask.tools (dialects, schemas, SDK shapes), nbask.mcp (elicitation) and
        # nbask.integrations (frameworks' own pauses) load on first use.
        return importlib.import_module(f".{name}", __name__)
    if name == "__version__":
        # Read from the installed metadata (pyproject.toml is the one source) when asked:
        # importlib.metadata costs ~50 ms, too much to pay on every import.
        from importlib import metadata  # noqa: PLC0415

        try:
            return metadata.version("nbask")
        except metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
            return "0+unknown"
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
