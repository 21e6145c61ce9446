"""A pydantic-ai agent inside a real kernel: it asks mid-run through nbask's widget and asks
approval before a risky tool; the test plays the front end with tests/support/kernel.py, sending
the comm messages the widget sends. What the model read back is printed by the cell.

Runs on the ipykernel 7.4 kernel, which uses the project environment's python (where the agent
frameworks are installed); the 6.29 / 7.3 kernel environments do not have them.
"""

from __future__ import annotations

import json
import sys

import pytest
from support.person import REPO

sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)
from support.kernel import CellResult, CommInfo, KernelHarness, kernel_fixture

pytest.importorskip("pydantic_ai")
pytestmark = pytest.mark.kernel

KERNEL = "nbask-ipykernel-7.4"
QUESTION = "Which database should the app use?"
REJECTED = (
    "Not approved: Call drop_table did not run. The person rejected it. Reason: keep it for the audit. "
    "Do not retry the same call; choose another way, or ask the person what they want instead."
)

SETUP = r'''
import json, nbask
from pydantic_ai import Agent
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel

ASK = {"questions": [{"question": "Which database should the app use?", "header": "DB",
                      "options": [{"label": "PostgreSQL (Recommended)", "description": "Robust."},
                                  {"label": "SQLite", "description": "A file."}]}]}
seen = []

def respond(messages, info):
    returns = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]
    if not returns:
        return ModelResponse(parts=[ToolCallPart("AskUserQuestion", ASK, tool_call_id="call_1")])
    seen.append(returns[-1].content)
    if len(returns) == 1:
        return ModelResponse(parts=[ToolCallPart("drop_table", {"name": "events_2023"}, tool_call_id="call_2")])
    return ModelResponse(parts=[TextPart("done")])

async def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.
    """
    return f"dropped {name}"

agent = Agent(FunctionModel(respond), tools=[nbask.tools.function(), nbask.tools.gate(drop_table)])
'''

RUN = """\
seen.clear()
result = await agent.run("Set up storage, then clean up the warehouse.")
print(json.dumps({"seen": seen, "output": result.output}, ensure_ascii=False))
"""


k = kernel_fixture(SETUP)


def question_widget(k: KernelHarness) -> CommInfo:
    def shows(comm: CommInfo) -> bool:
        return any(q.get("question") == QUESTION for q in comm.state.get("_questions", []))

    return k.wait_for_comm_open(predicate=shows, timeout=30)


def approval_widget(k: KernelHarness) -> CommInfo:
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "approval" and comm.state.get("_title") == "Call drop_table",
        timeout=30,
    )


def printed(result: CellResult) -> dict:
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ({"action": "approve", "edited_details": None, "reason": ""}, "dropped events_2023"),
        ({"action": "approve", "edited_details": '{"name": "events_2022"}', "reason": ""}, "dropped events_2022"),
        (
            {"action": "reject", "edited_details": None, "reason": "keep it for the audit"},
            REJECTED,
        ),
    ],
    ids=["approve", "edit", "reject"],
)
def test_pydantic_ai_agent_asks_and_is_gated_through_the_widget(k: KernelHarness, response: dict, expected: str):
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN)
    question = question_widget(k)
    assert question.state["_status"] == "pending"
    answer = {"action": "submit", "answers": [{"selected": ["SQLite"], "other": None}], "view_id": "t", "sent_at_ms": 0}
    k.update_widget(question.comm_id, {"_response": answer})
    approval = approval_widget(k)
    assert json.loads(approval.state["_details"]) == {"name": "events_2023"}
    k.update_widget(approval.comm_id, {"_response": {**response, "view_id": "t", "sent_at_ms": 0}})
    out = printed(k.result(cell, 60))
    assert out == {
        "seen": ['{"answers": {"Which database should the app use?": "SQLite"}}', expected],
        "output": "done",
    }


def test_a_synchronous_gated_tool_run_in_a_worker_thread(k: KernelHarness):
    """pydantic-ai runs a plain function tool in a worker thread: the blocking approval waits
    there while the cell's event loop keeps receiving the widget's messages.
    """
    k.run_ok(SETUP.replace("async def drop_table", "def drop_table"), timeout=60)
    k.drain(0.1)
    k.iopub_log.clear()  # the widgets of earlier tests are not this run's
    cell = k.execute(RUN)
    question = question_widget(k)
    answer = {"action": "submit", "answers": [{"selected": [], "other": "DuckDB"}], "view_id": "t", "sent_at_ms": 0}
    k.update_widget(question.comm_id, {"_response": answer})
    approval = approval_widget(k)
    # Answer once the widget waits, as a front end can: it draws the widget only from the
    # display_data that follows the comm_open. An answer sent at the comm_open itself races the
    # worker thread still building the widget (ipywidgets registers its message handler after
    # the comm_open is sent), and a message that arrives then is dropped by the comm.
    k.wait_until_waiting(approval)
    response = {"action": "approve", "edited_details": None, "reason": "", "view_id": "t", "sent_at_ms": 0}
    k.update_widget(approval.comm_id, {"_response": response})
    out = printed(k.result(cell, 60))
    assert out["seen"] == ['{"answers": {"Which database should the app use?": "DuckDB"}}', "dropped events_2023"]
