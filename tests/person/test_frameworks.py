"""A framework's own human-in-the-loop answered in JupyterLab, end to end: a pydantic-ai agent
(its own ``Agent`` with an offline ``FunctionModel``) calls a ``requires_approval=True`` tool, and
``HandleDeferredToolCalls(handler=nbask.integrations.pydantic_ai.handle_deferred)`` shows the call
as an approval in the cell. The person edits the arguments and approves, or rejects with a reason;
the cell prints what the tool ran with and what the model read back.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from support.notebook_page import RUN_TIMEOUT_MS

pytestmark = pytest.mark.browser

SETUP = '''\
import json
from pydantic_ai import Agent, Tool
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel
from nbask.integrations.pydantic_ai import handle_deferred

ran = []

def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible)."""
    ran.append(name)
    return f"dropped {name}"

def respond(messages, info):
    returns = [p for m in messages for p in m.parts if isinstance(p, ToolReturnPart)]
    if not returns:
        return ModelResponse(parts=[ToolCallPart("drop_table", {"name": "events_2023"}, tool_call_id="call_1")])
    return ModelResponse(parts=[TextPart("model read: " + str(returns[-1].content))])

agent = Agent(FunctionModel(respond), tools=[Tool(drop_table, requires_approval=True)],
              capabilities=[HandleDeferredToolCalls(handler=handle_deferred)])'''

RUN = """\
result = await agent.run("Free up space in the warehouse.")
print("AGENT " + json.dumps({"ran": ran, "output": result.output}), flush=True)"""


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
@pytest.mark.parametrize(
    ("edit", "reason", "ran", "read"),
    [
        ('{\n  "name": "events_2022"\n}', "", ["events_2022"], "model read: dropped events_2022"),
        (None, "keep it for the audit", [], "keep it for the audit"),
    ],
    ids=["edit-then-approve", "reject"],
)
def test_pydantic_ai_deferred_approval_answered_in_jupyterlab(open_notebook, edit, reason, ran, read):
    nb = open_notebook([SETUP, RUN])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    view = nb.widget(1)
    expect(view).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    expect(view).to_contain_text("Call drop_table")
    expect(view).to_contain_text('"name": "events_2023"')
    if edit is not None:
        view.get_by_role("button", name="Edit", exact=True).click()
        view.get_by_role("textbox", name="Details", exact=True).fill(edit)
        view.get_by_role("button", name="Approve", exact=True).click()
    else:
        view.get_by_role("textbox", name="Reason", exact=True).fill(reason)
        view.get_by_role("button", name="Reject", exact=True).click()
    nb.wait_output(1, re.compile(r"AGENT \{"), timeout=RUN_TIMEOUT_MS)
    line = next(line for line in nb.stream_text(1).splitlines() if line.startswith("AGENT "))
    printed = json.loads(line[len("AGENT ") :])
    assert printed["ran"] == ran
    assert read in printed["output"]
    expect(view).to_have_attribute("data-status", "answered")
