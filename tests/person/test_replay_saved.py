"""Answer once in a real JupyterLab, save, and the same notebook re-runs headless with the same
answers: nbclient executes the saved file under NBASK_POLICY=replay with the saved file itself
as the recording.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient
from playwright.sync_api import expect
from support.ask_widget import AskWidget, read_result
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

DB = "Which database should the app use?"
SHOW = (
    'print("RESULT " + json.dumps({"status": ans.status, "answers": ans.answers, "by": ans.answered_by}, '
    "ensure_ascii=False, sort_keys=True), flush=True)"
)
CELLS = [
    "import json, nbask",
    f"ans = await nbask.ask({DB!r}, ['PostgreSQL (Recommended)', 'SQLite', 'DuckDB'])\n{SHOW}",
    (
        "d = await nbask.approve('Drop table', 'DROP TABLE events_2023')\n"
        'print("DECISION", d.decision, d.answered_by, flush=True)'
    ),
]


def _printed(nb: nbformat.NotebookNode, prefix: str) -> list[str]:
    return [
        line[len(prefix) :].strip()
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
        for line in output.get("text", "").splitlines()
        if line.startswith(prefix)
    ]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_answered_in_jupyterlab_then_replayed_by_nbclient(open_notebook, jupyter, monkeypatch, tmp_path):
    nb = open_notebook(CELLS)
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    ask.choose(DB, "DuckDB")  # not the recommended option: a replay must not fall back to it
    ask.submit()
    assert read_result(nb, 1) == {"status": "answered", "answers": {DB: "DuckDB"}, "by": "person"}
    nb.run_cell(2, wait=False)
    approval = AskWidget(nb.widget(2))
    expect(approval.root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    approval.button("Approve").click()
    nb.wait_output(2, "DECISION approve person")
    nb.wait_done(2)
    nb.save()

    saved = tmp_path / "answered.ipynb"
    saved.write_text(json.dumps(nb.disk_notebook()), encoding="utf-8")
    # The saved outputs carry the record the replay reads, and a Markdown summary for GitHub.
    outputs = [o for cell in nb.disk_notebook()["cells"] for o in cell.get("outputs", [])]
    assert any("nbask" in o.get("metadata", {}) for o in outputs), "no nbask record in the saved outputs"
    assert any("DuckDB" in o.get("data", {}).get("text/markdown", "") for o in outputs)

    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(saved))
    rerun = nbformat.read(saved, as_version=4)
    for cell in rerun.cells:
        cell.outputs = []
    NotebookClient(rerun, timeout=60, kernel_name="python3").execute()
    assert [json.loads(line) for line in _printed(rerun, "RESULT ")] == [
        {"status": "answered", "answers": {DB: "DuckDB"}, "by": "replay"}
    ]
    assert _printed(rerun, "DECISION ") == ["approve replay"]
