"""In a marimo notebook, asking mid-cell fails at once with marimo's own reason; a policy still
answers; and nbask never imports marimo to find out. tests/resolvers/test_marimo_notebook.py runs the
same under marimo itself.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import subprocess
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest

import nbask
from nbask import host
from nbask.resolvers.policies import MARIMO_CANNOT_ANSWER

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
FORM = {"type": "object", "properties": {"replicas": {"type": "integer", "default": 2}}}


def fake_marimo(running: Callable[[], bool]) -> types.ModuleType:
    module = types.ModuleType("marimo")
    module.running_in_notebook = running  # type: ignore[attr-defined]
    return module


@pytest.fixture
def in_marimo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "marimo", fake_marimo(lambda: True))


@nbask.requires_approval(action="Delete rows")
def delete_rows(table: str) -> str:
    return f"deleted from {table}"


CALLS: dict[str, Callable[[], Any]] = {
    "requires_approval": lambda: delete_rows("staging"),
    "ask_sync": lambda: nbask.ask_sync("Which database?", ["PostgreSQL", "SQLite"]),
    "approve_sync": lambda: nbask.approve_sync("Drop table", "DROP TABLE users"),
    "ask_form_sync": lambda: nbask.ask_form_sync("Deploy?", FORM),
    "ask": lambda: asyncio.run(nbask.ask("Which database?", ["PostgreSQL", "SQLite"])),
    "ask_questions": lambda: asyncio.run(
        nbask.ask_questions([{"question": "Go on?", "header": "Go", "options": [{"label": "Yes"}, {"label": "No"}]}])
    ),
    "approve": lambda: asyncio.run(nbask.approve("Drop table", "DROP TABLE users")),
    "ask_form": lambda: asyncio.run(nbask.ask_form("Deploy?", FORM)),
}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.usefixtures("in_marimo")
def test_every_ask_fails_at_once_naming_marimo_and_what_to_do(name: str) -> None:
    with pytest.raises(nbask.NoOneCanAnswer) as caught:
        CALLS[name]()
    message = str(caught.value)
    assert message == MARIMO_CANNOT_ANSWER
    assert "marimo cannot deliver a widget's answer to a cell while that cell runs" in message
    assert "nbask.configure(policy=" in message
    assert "in a cell that depends on it" in message
    assert isinstance(caught.value, nbask.waiting.WaitingUnsupported)  # what callers caught before policies


@pytest.mark.usefixtures("in_marimo")
def test_the_tool_layer_tells_the_model_not_to_ask_again() -> None:
    args = {"questions": [{"question": "Go on?", "header": "Go", "options": [{"label": "Y"}, {"label": "N"}]}]}
    result = nbask.tools.call_sync(args)
    assert result.is_error
    assert "marimo cannot deliver a widget's answer" in result.output
    assert "Do not call AskUserQuestion again" in result.output


@pytest.mark.usefixtures("in_marimo")
@pytest.mark.parametrize("policy", ["recommended", "dismiss"])
def test_a_policy_still_answers_in_marimo(policy: str) -> None:
    nbask.configure(policy=policy)
    answer = nbask.ask_sync("Which database?", ["PostgreSQL (Recommended)", "SQLite"])
    decision = asyncio.run(nbask.approve("Drop table", "DROP TABLE users"))
    form = nbask.ask_form_sync("Deploy?", FORM)
    assert answer.answered_by == decision.answered_by == form.answered_by == "policy"
    assert decision.decision == "reject"
    if policy == "recommended":
        assert answer.answers == {"Which database?": "PostgreSQL (Recommended)"}
        assert form.values == {"replicas": 2}
    else:
        assert answer.status == "dismissed"


def test_the_error_policy_names_itself_not_marimo(in_marimo: None) -> None:
    nbask.configure(policy="error")
    with pytest.raises(nbask.NoOneCanAnswer) as caught:
        nbask.ask_sync("Which database?", ["PostgreSQL", "SQLite"])
    assert "marimo" not in str(caught.value)


@pytest.mark.parametrize(
    "module",
    [
        None,  # marimo not imported
        fake_marimo(lambda: False),  # imported, but this is a script run or another process
        fake_marimo(lambda: 1 / 0 == 0),  # a marimo that cannot tell is not taken for one
        types.ModuleType("marimo"),  # a marimo without the public call
    ],
)
def test_outside_a_marimo_notebook_nothing_changes(monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
    if module is None:
        monkeypatch.delitem(sys.modules, "marimo", raising=False)
    else:
        monkeypatch.setitem(sys.modules, "marimo", module)
    assert not host.in_marimo_notebook()
    with pytest.raises(nbask.NoOneCanAnswer) as caught:  # pytest's stdin is no TTY: no one can answer
        nbask.ask_sync("Which database?", ["PostgreSQL", "SQLite"])
    assert "marimo" not in str(caught.value)


def test_asking_never_imports_marimo() -> None:
    code = (
        "import sys, nbask\n"
        "try:\n"
        "    nbask.ask_sync('Which database?', ['PostgreSQL', 'SQLite'])\n"
        "except nbask.NoOneCanAnswer:\n"
        "    pass\n"
        "nbask.configure(policy='recommended')\n"
        "nbask.ask_sync('Which database?', ['PostgreSQL', 'SQLite'])\n"
        "print('marimo' in sys.modules, any(m.startswith('marimo.') for m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    assert out.stdout.strip() == "False False", out.stdout + out.stderr
    import marimo  # noqa: PLC0415 - the test extras install it: the check above is meaningful

    assert callable(marimo.running_in_notebook)
