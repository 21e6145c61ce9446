"""nbask: pause a notebook cell, ask the person 1-4 structured questions (or for approval),
continue with the answers.

    ans = await nbask.ask("Which database?", ["PostgreSQL (Recommended)", "SQLite"])
    ans.answers  # {"Which database?": "PostgreSQL (Recommended)"}

This module only re-exports; each name lives in the module its docstring names.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from .api import approve, approve_sync, ask, ask_questions, ask_sync, history
from .approvals import requires_approval
from .config import configure
from .contract import NO_PREFERENCE
from .errors import ApprovalRejected, InteractionPending, NoOneCanAnswer, ReplayMissing
from .lifecycle import DEFAULT_TIMEOUT
from .manager import HistoryEntry
from .models import Answer, Approval, Decision, Option, Question, QuestionSet
from .scope import QuestionsNotAllowed, no_questions
from .transcript import save_history
from .waiting import WaitingUnsupported
from .widgets import ApprovalWidget, QuestionWidget

if TYPE_CHECKING:
    from . import tools

__all__ = [
    "DEFAULT_TIMEOUT",
    "NO_PREFERENCE",
    "Answer",
    "Approval",
    "ApprovalRejected",
    "ApprovalWidget",
    "Decision",
    "HistoryEntry",
    "InteractionPending",
    "NoOneCanAnswer",
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
    "ask_questions",
    "ask_sync",
    "configure",
    "history",
    "no_questions",
    "requires_approval",
    "save_history",
    "tools",
]

# A library never configures logging; applications decide where records go.
logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str) -> Any:
    # nbask.tools (dialects, schemas, SDK shapes) loads on first use: a notebook that only
    # asks questions does not pay for it at import.
    if name == "tools":
        return importlib.import_module(".tools", __name__)
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
