"""notebooks/02_agent.ipynb: headless under NBASK_POLICY=recommended (nbclient), and with a person
answering its widgets (the kernel harness plays the front end).
"""

from __future__ import annotations

import json
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from support.person import REPO

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CommInfo, KernelHarness, kernel_fixture

pytestmark = pytest.mark.kernel

NOTEBOOK = REPO / "notebooks" / "02_agent.ipynb"
QUESTION = "Which table should I drop to free up space?"


def outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                parts.append(output["text"])
            elif "data" in output:
                parts.append(output["data"].get("text/markdown", ""))
    return "".join(parts)


def test_headless_under_the_recommended_policy(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NBASK_POLICY", "recommended")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # the scripted model, offline
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    text = outputs_text(nb)
    assert "model: scripted (offline)" in text
    assert '"answered_by": "policy"' in text  # what the model read after asking
    assert "<- Not approved: Drop a warehouse table did not run. It was rejected by policy" in text
    assert "agent: I dropped nothing: the drop did not run." in text
    assert "tables left: ['events_2023', 'events_2024', 'users']" in text
    assert "question  answered  by policy" in text
    assert "approval  answered  by policy  reject" in text
    assert "**nbask** (answered by policy)" in text  # the saved notebook shows the outcome


k = kernel_fixture()


def test_a_person_answers_and_edits_the_drop(k: KernelHarness, monkeypatch: pytest.MonkeyPatch):
    """The person picks events_2024 and edits the approval to drop events_2023 instead."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cells = [c.source for c in nbformat.read(NOTEBOOK, as_version=4).cells if c.cell_type == "code"]
    k.run_ok("import os; os.environ.pop('OPENAI_API_KEY', None); os.environ.pop('NBASK_POLICY', None)")
    for source in cells[:3]:
        k.run_ok(source, timeout=60)
    k.drain(0.1)
    k.iopub_log.clear()
    run = k.execute(cells[3])

    def shows_question(comm: CommInfo) -> bool:
        return any(q.get("question") == QUESTION for q in comm.state.get("_questions", []))

    question = k.wait_for_comm_open(predicate=shows_question, timeout=30)
    labels = [o["label"] for o in question.state["_questions"][0]["options"]]
    assert labels == ["events_2023 (Recommended)", "events_2024", "None"]
    answer = {
        "action": "submit",
        "answers": [{"selected": ["events_2024"], "other": None}],
        "view_id": "t",
        "sent_at_ms": 0,
    }
    k.update_widget(question.comm_id, {"_response": answer})
    approval = k.wait_for_comm_open(predicate=lambda comm: comm.state.get("_kind") == "approval", timeout=30)
    assert json.loads(approval.state["_details"]) == {"name": "events_2024"}
    edited = {
        "action": "approve",
        "edited_details": '{"name": "events_2023"}',
        "reason": "",
        "view_id": "t",
        "sent_at_ms": 0,
    }
    k.update_widget(approval.comm_id, {"_response": edited})
    result = k.result(run, 60)
    assert result.ok, result.error_text
    assert '<- {"answers": {"Which table should I drop to free up space?": "events_2024"}}' in result.stdout
    assert "<- Dropped events_2023 (1,204,331 rows)." in result.stdout
    assert "tables left: ['events_2024', 'users']" in result.stdout
    history = k.run_ok(cells[4]).stdout
    assert "question  answered  by person" in history
    assert "approval  answered  by person  edit" in history
