"""An ACP agent prompted from a cell, its permission request answered in JupyterLab end to end.

The cell starts the scripted ACP agent (tests/integrations/acp_scripted_agent.py, written with
the ACP SDK's own agent side) as a subprocess with ``nbask.integrations.acp.prompt``. The agent
streams a thought, a plan and its message, then asks ``session/request_permission`` for an edit
with four options. The question in the cell offers exactly the agent's options, by its names;
the person picks one, and the cell prints the rest of the stream: the agent says which option
id it received, and its own log (read by the cell) agrees.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from support.ask_widget import AskWidget
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

AGENT = Path(__file__).resolve().parents[1] / "integrations" / "acp_scripted_agent.py"
QUESTION = "Allow Edit tests/test_1.py?"
LABELS = ["Allow once", "Always allow edits", "Reject (Recommended)", "Never allow edits"]


def setup_cell(log: Path) -> str:
    return f"""\
import json, sys
import nbask.integrations.acp as nbask_acp
AGENT = [sys.executable, {str(AGENT)!r}, "--log", {str(log)!r}]"""


RUN = """\
reply = await nbask_acp.prompt(AGENT, "Fix the failing test")
sent = [p.option_id for p in reply.permissions]
print("RESULT " + json.dumps({"stop": reply.stop_reason, "sent": sent}), flush=True)"""


def printed_result(nb: NotebookPage, cell: int) -> dict[str, Any]:
    nb.wait_output(cell, re.compile(r"RESULT \{"), timeout=RUN_TIMEOUT_MS)
    line = next(line for line in nb.stream_text(cell).splitlines() if line.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])  # type: ignore[no-any-return]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
@pytest.mark.parametrize(
    ("label", "option_id"), [("Always allow edits", "allow-always"), ("Never allow edits", "reject-always")]
)
def test_acp_agent_permission_answered_with_its_own_option_in_jupyterlab(
    open_notebook: Any, tmp_path: Path, label: str, option_id: str
):
    log = tmp_path / "agent.jsonl"
    nb = open_notebook([setup_cell(log), RUN])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    widget = AskWidget.in_cell(nb, 1)
    widget.expect_pending()
    group = widget.question(QUESTION)
    expect(group.get_by_role("radio")).to_have_count(len(LABELS) + 1)  # the agent's options and nbask's Other
    for name in LABELS:
        expect(widget.option(QUESTION, name, exact=True)).to_be_visible()
    nb.wait_output(1, "I will fix the failing test.")  # streamed before anyone answered
    assert "RESULT" not in nb.stream_text(1)
    widget.choose(QUESTION, label)
    widget.submit()
    out = printed_result(nb, 1)
    assert out == {"stop": "end_turn", "sent": [option_id]}
    text = nb.stream_text(1)
    assert "thinking: The test fails on a sign." in text
    assert f"permission: Edit tests/test_1.py -> {label} ({option_id}), answered by person" in text
    assert f"The client sent option {option_id}." in text  # what the agent itself said it received
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [line["permission"] for line in lines if "permission" in line] == [
        {"call": "call-1", "outcome": "selected", "option_id": option_id}
    ]
    widget.expect_status("answered")
