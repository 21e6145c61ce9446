"""Single select in the VS Code host on every ipykernel: the cell waits, the person picks and
submits, the same cell prints the answer. The wire follows VS Code's rules: every
comm message on the main shell (no subshell), and the printed answer published under the
execute request's parent.
"""

from __future__ import annotations

import pytest
from browser.ask_widget import AskWidget
from playwright.sync_api import expect

from .conftest import ALL_KERNELS
from .host import PRINT_RESULT

pytestmark = pytest.mark.vscode

QUESTION = "Which database should the app use?"
ASK = (
    f"ans = await nbask.ask({QUESTION!r}, ['PostgreSQL (Recommended)', 'SQLite'],\n"
    "                      header='DB', timeout=600.0)\n" + PRINT_RESULT
)


@pytest.mark.parametrize("kernel_name", ALL_KERNELS)
def test_single_select_prints_answer_under_execute_request(open_host, kernel_name):
    host = open_host()
    assert host.run_ok("import json, nbask") == 0
    cell = host.run(ASK)
    ask = AskWidget(host.widget(cell))
    expect(ask.root).to_be_visible()
    ask.expect_pending()
    assert host.is_running(cell)
    expect(ask.question(QUESTION).get_by_role("radio")).to_have_count(3)
    expect(ask.root).to_contain_text("DB")

    ask.choose(QUESTION, "SQLite")
    ask.submit()
    result = host.read_result(cell)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SQLite"}
    assert host.wait_done(cell) == "ok"
    assert host.execution_count(cell) == 2
    ask.expect_resolved("answered", {QUESTION: "SQLite"})

    # VS Code's rule: output that must appear in the cell is published under the execute request.
    execute_id = host.cell_msg_id(cell)
    printed = [o for o in host.outputs(cell) if o["kind"] == "stream" and "RESULT" in o["text"]]
    assert printed, host.describe()
    assert all(o["parentId"] == execute_id and o["parentType"] == "execute_request" for o in printed)
    assert host.stray() == [], "output published under another parent is not shown in a VS Code cell"

    # VS Code's proxy kernel: every comm message on the main shell channel, none on a subshell.
    wire = host.wire()
    sent_comm = [m for m in wire if m["direction"] == "send" and m["type"].startswith("comm_")]
    assert any(m["type"] == "comm_msg" for m in sent_comm), "the answer went to the kernel as a comm_msg"
    assert all(m["channel"] == "shell" and m["subshellId"] is None for m in sent_comm), sent_comm
    assert not [m for m in wire if "subshell" in m["type"]], "no subshell was created"
