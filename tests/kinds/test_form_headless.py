"""Forms where no widget can answer: the headless policies, replay from JSONL and from a saved
notebook, and the terminal prompt (pexpect plays the person).
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import sys
import textwrap

import nbformat
import pexpect
import pytest
from nbclient import NotebookClient
from support.headless import REPO, clean_env, printed_results, write_notebook

import nbask
from nbask.core.history import entries_in_notebook

pytestmark = pytest.mark.headless

SCHEMA = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "title": "Service", "default": "web"},
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 2},
        "canary": {"type": "boolean", "title": "Canary", "default": True},
        "region": {"type": "string", "title": "Region", "enum": ["eu", "us"], "default": "eu"},
        "checks": {"type": "array", "title": "Checks", "items": {"enum": ["lint", "unit"]}, "default": ["unit"]},
        "owner": {"type": "string", "title": "Owner", "format": "email"},
    },
    "required": ["service", "replicas"],
}
DEFAULTS = {"service": "web", "replicas": 2, "canary": True, "region": "eu", "checks": ["unit"]}
NO_DEFAULT = {**SCHEMA, "required": ["service", "owner"]}


def test_recommended_accepts_the_defaults_when_every_required_field_has_one():
    nbask.configure(policy="recommended")
    answer = nbask.ask_form_sync("Deployment settings?", SCHEMA)
    assert (answer.status, answer.action, answer.answered_by) == ("answered", "accept", "policy")
    assert answer.values == DEFAULTS
    assert type(answer.values["replicas"]) is int


def test_recommended_declines_naming_the_required_field_without_a_default():
    nbask.configure(policy="recommended")
    answer = nbask.ask_form_sync("Deployment settings?", NO_DEFAULT)
    assert (answer.status, answer.action, answer.answered_by, answer.values) == ("dismissed", "decline", "policy", {})
    assert "'owner' has no default" in answer.note


def test_dismiss_declines_and_error_raises():
    nbask.configure(policy="dismiss")
    answer = asyncio.run(nbask.ask_form("Deployment settings?", SCHEMA))
    assert (answer.action, answer.answered_by) == ("decline", "policy")
    nbask.configure(policy="error")
    with pytest.raises(nbask.NoOneCanAnswer, match="error"):
        asyncio.run(nbask.ask_form("Deployment settings?", SCHEMA))


def test_replay_returns_the_recorded_values_typed(tmp_path: pathlib.Path):
    nbask.configure(policy="recommended")
    nbask.ask_form_sync("Deployment settings?", SCHEMA)
    nbask.ask_form_sync("Deployment settings?", NO_DEFAULT)
    path = nbask.save_history(tmp_path / "h.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(line["kind"], line["answered_by"]) for line in lines] == [("form", "policy"), ("form", "policy")]
    nbask.configure(policy="replay", replay_file=path)
    replayed = nbask.ask_form_sync("Deployment settings?", SCHEMA)
    assert (replayed.action, replayed.answered_by, replayed.values) == ("accept", "replay", DEFAULTS)
    declined = nbask.ask_form_sync("Deployment settings?", NO_DEFAULT)
    assert (declined.action, declined.answered_by) == ("decline", "replay")
    with pytest.raises(nbask.ReplayMissing, match="'Another form\\?'"):
        nbask.ask_form_sync("Another form?", SCHEMA)


FORM_CELL = f"""\
import json, nbask
answer = await nbask.ask_form("Deployment settings?", {SCHEMA!r})
print("RESULT", json.dumps({{"values": answer.values, "action": answer.action, "by": answer.answered_by}}))"""


def execute(path: pathlib.Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def test_a_notebook_answered_by_policy_is_replayed_from_the_saved_file(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("NBASK_POLICY", "recommended")
    first = execute(write_notebook(tmp_path / "deploy.ipynb", [FORM_CELL]))
    assert printed_results(first) == [{"values": DEFAULTS, "action": "accept", "by": "policy"}]
    nbformat.write(first, tmp_path / "answered.ipynb")
    entries = entries_in_notebook(json.loads((tmp_path / "answered.ipynb").read_text()))
    assert [(entry.kind, entry.answered_by) for entry in entries] == [("form", "policy")]
    markdown = "".join(o["data"]["text/markdown"] for o in first.cells[0].outputs if "data" in o)
    assert "**nbask form** — Deployment settings?: **Answered by policy**" in markdown
    assert "- Replicas: **2**" in markdown
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(tmp_path / "answered.ipynb"))
    second = execute(write_notebook(tmp_path / "again.ipynb", [FORM_CELL]))
    assert printed_results(second) == [{"values": DEFAULTS, "action": "accept", "by": "replay"}]


ASK_AT_TERMINAL = f"""
import json, nbask
answer = nbask.ask_form_sync("Deployment settings?", {NO_DEFAULT!r}, timeout=60)
print("RESULT " + json.dumps({{"values": answer.values, "action": answer.action, "by": answer.answered_by}}))
"""


def spawn(code: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable, ["-c", textwrap.dedent(code)], cwd=str(REPO), env=clean_env(), encoding="utf-8", timeout=20
    )


def test_the_terminal_asks_field_by_field_and_checks_each_value():
    child = spawn(ASK_AT_TERMINAL)
    child.expect("Service")
    child.sendline("")  # the default
    child.expect("Replicas")
    child.sendline("12")
    child.expect("must be at most 10")
    child.sendline("3")
    child.expect("Canary")
    child.sendline("n")
    child.expect("Region")
    child.sendline("2")
    child.expect("Checks")
    child.sendline("1, 2")
    child.expect("Owner")
    child.sendline("not-an-address")
    child.expect("must be an email address")
    child.sendline("ops@example.test")
    child.expect(r"RESULT (\{.*\})\r?\n")
    result = json.loads(child.match.group(1))
    assert result == {
        "values": {
            "service": "web",
            "replicas": 3,
            "canary": False,
            "region": "us",
            "checks": ["lint", "unit"],
            "owner": "ops@example.test",
        },
        "action": "accept",
        "by": "person",
    }


def test_end_of_input_at_the_terminal_declines():
    child = spawn(ASK_AT_TERMINAL)
    child.expect("Service")
    child.sendeof()
    child.expect(r"RESULT (\{.*\})\r?\n")
    assert json.loads(child.match.group(1)) == {"values": {}, "action": "decline", "by": "person"}
