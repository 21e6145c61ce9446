"""What the model reads after a replayed answer is what it read live: in every dialect, an
answer the ``recommended`` policy gave reads the same when the ``replay`` policy gives it back
from the saved history (replay must not change what the agent does next).
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any

import pytest

import nbask
from nbask.tools import TOOL_NAMES, ToolResult, call, call_sync

DB = "Which database?"
OPTIONS = [{"label": "SQLite"}, {"label": "Postgres (Recommended)"}]

ARGUMENTS: dict[str, dict[str, Any]] = {
    "AskUserQuestion": {"questions": [{"question": DB, "header": "DB", "options": OPTIONS}]},
    "ask_user_question": {"questions": [{"question": DB, "header": "DB", "options": OPTIONS}]},
    "ask_user": {"question": DB, "choices": ["SQLite", "Postgres (Recommended)"]},
    "ask_followup_question": {"question": DB, "follow_up": ["SQLite", "Postgres (Recommended)"]},
    "request_user_input": {
        "questions": [
            {
                "id": "db",
                "header": "DB",
                "question": DB,
                "options": [
                    {"label": "SQLite", "description": "A file."},
                    {"label": "Postgres (Recommended)", "description": "A server."},
                ],
            }
        ]
    },
}


def test_every_dialect_has_arguments_here():
    assert set(ARGUMENTS) == set(TOOL_NAMES)


@pytest.mark.parametrize("blocking", [False, True], ids=["call", "call_sync"])
@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_a_policys_answer_replayed_reads_as_it_did_live(tmp_path: pathlib.Path, tool_name: str, blocking: bool):
    def ask() -> ToolResult:
        arguments = ARGUMENTS[tool_name]
        if blocking:
            return call_sync(arguments, tool_name=tool_name)
        return asyncio.run(call(arguments, tool_name=tool_name))

    nbask.configure(policy="recommended")
    live = ask()
    assert (live.status, live.outcome.answered_by if live.outcome else None) == ("answered", "policy")
    assert "'recommended' policy" in live.output
    recording = nbask.save_history(tmp_path / "answers.jsonl")

    nbask.configure(policy="replay", replay_file=recording)
    replayed = ask()
    assert replayed.outcome is not None
    assert (replayed.outcome.answered_by, replayed.outcome.recorded_by) == ("replay", "policy")
    assert (replayed.output, replayed.message, replayed.is_error) == (live.output, live.message, live.is_error)
