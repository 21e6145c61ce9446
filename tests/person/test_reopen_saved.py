"""What the person decided is still visible when the notebook is reopened: answer a question and an
approval, save, end the kernel (as a restarted server or the next day does), reopen: each cell
shows its decision, not "Error displaying widget: model not found". The server extension leaves an
ended request's widget view out of the saved file, so its Markdown record is what is shown.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget, read_result
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

DB = "Which database should the app use?"
CELLS = [
    "import json, nbask",
    (
        f"ans = await nbask.ask({DB!r}, ['PostgreSQL (Recommended)', 'SQLite', 'DuckDB'])\n"
        'print("RESULT " + json.dumps({"status": ans.status, "answers": ans.answers, "by": ans.answered_by}), '
        "flush=True)"
    ),
    (
        "d = await nbask.approve('Drop table events_2023', 'DROP TABLE events_2023', risk='high')\n"
        'print("DECISION", d.decision, flush=True)'
    ),
]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_decisions_are_visible_when_the_saved_notebook_is_reopened(open_notebook, jupyter):
    nb = open_notebook(CELLS)
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    ask.choose(DB, "DuckDB")
    ask.submit()
    assert read_result(nb, 1)["answers"] == {DB: "DuckDB"}
    nb.run_cell(2, wait=False)
    approval = AskWidget(nb.widget(2))
    expect(approval.root).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    approval.button("Reject").click()
    nb.wait_output(2, "DECISION reject")
    nb.wait_done(2)
    # Live, the cards stay widgets until the page is reloaded.
    expect(AskWidget.in_cell(nb, 1).root).to_have_attribute("data-status", "answered")
    nb.save()

    outputs = [o for cell in nb.disk_notebook()["cells"] for o in cell.get("outputs", [])]
    recorded = [o for o in outputs if "nbask" in o.get("metadata", {})]
    assert len(recorded) == 2
    assert all(WIDGET_VIEW not in o["data"] for o in recorded), "an ended request was saved as a widget view"
    assert any("DuckDB" in o["data"]["text/markdown"] for o in recorded)

    jupyter.shutdown_sessions(nb.path)  # the kernel and its widget models are gone
    nb.reload()
    question, decision = nb.output_area(1), nb.output_area(2)
    expect(question).to_contain_text("DuckDB", timeout=RUN_TIMEOUT_MS)
    expect(question).to_contain_text(DB)
    expect(decision).to_contain_text("Drop table events_2023")
    expect(decision).to_contain_text("Rejected")
    expect(nb.notebook).not_to_contain_text("Error displaying widget")
    expect(nb.notebook).not_to_contain_text("model not found")
