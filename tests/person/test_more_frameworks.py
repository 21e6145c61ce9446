"""agno and LlamaIndex, each pausing for a person, answered in JupyterLab end to end.

As in notebooks/05_more_frameworks.ipynb:

- agno: an ``Agent`` on a scripted agno ``Model`` calls a ``requires_confirmation`` tool twice in
  one turn; ``nbask.integrations.agno.run`` shows both calls together. The person approves one and
  rejects the other with a reason: only the approved call runs, and the model reads the reason.
- LlamaIndex: a ``Workflow`` step waits for the person's text (which tables), then a step per
  table waits for approval before the drop. The person types the tables, approves one drop and
  rejects the other: only the approved step drops, the rejected one receives the reason.

Each cell prints one ``RESULT`` line of what the tools or steps received.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from support.ask_widget import ApprovalView
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

pytestmark = pytest.mark.browser

AGNO_SETUP = '''\
import json
from agno.agent import Agent
from agno.models.base import Model
from agno.models.message import MessageMetrics
from agno.models.response import ModelResponse
from agno.tools import tool
from nbask.integrations import agno as nbask_agno

received = []

@tool(requires_confirmation=True)
def drop_table(name: str) -> str:
    """Drop a warehouse table (irreversible).

    Args:
        name: The table to drop.
    """
    received.append(name)
    return f"dropped {name}"

class ScriptedModel(Model):
    def reply(self, messages):
        results = [str(m.content) for m in messages if m.role == "tool"]
        if results:
            return ModelResponse(role="assistant", content="\\n".join(results), response_usage=MessageMetrics())
        calls = [{"id": f"call_{t}", "type": "function",
                  "function": {"name": "drop_table", "arguments": json.dumps({"name": t})}}
                 for t in ("events_2022", "events_2023")]
        return ModelResponse(role="assistant", tool_calls=calls, response_usage=MessageMetrics())
    def invoke(self, *a, messages, **k): return self.reply(messages)
    async def ainvoke(self, *a, messages, **k): return self.reply(messages)
    def invoke_stream(self, *a, messages, **k): yield self.reply(messages)
    async def ainvoke_stream(self, *a, messages, **k): yield self.reply(messages)
    def _parse_provider_response(self, response, **k): return response
    def _parse_provider_response_delta(self, response): return response

agent = Agent(model=ScriptedModel(id="scripted"), tools=[drop_table])'''

AGNO_RUN = """\
result = await nbask_agno.run(agent, "Drop events_2022 and events_2023.")
print("RESULT " + json.dumps({"received": received, "read": result.content}), flush=True)"""

LLAMA_SETUP = """\
import json
from workflows import Context, Workflow, step
from workflows.events import Event, HumanResponseEvent, InputRequiredEvent, StartEvent, StopEvent
from nbask.integrations import llama_index as nbask_llama_index

TABLES = {"type": "object", "required": ["tables"], "properties": {
    "tables": {"type": "string", "title": "Tables", "default": "events_2022, events_2023"}}}
received, dropped = {}, []

class DropOne(Event):
    table: str

class Outcome(Event):
    table: str

class Cleanup(Workflow):
    @step
    async def choose(self, ctx: Context, ev: StartEvent) -> DropOne | None:
        asked = InputRequiredEvent(message="Which tables should be dropped?", schema=TABLES, asking="tables")
        reply = await ctx.wait_for_event(HumanResponseEvent, waiter_event=asked, requirements={"asking": "tables"})
        received["choose"] = reply.response
        tables = [t.strip() for t in reply.response["tables"].split(",") if t.strip()]
        await ctx.store.set("count", len(tables))
        for table in tables:
            ctx.send_event(DropOne(table=table))
        return None

    @step(num_workers=4)
    async def drop(self, ctx: Context, ev: DropOne) -> Outcome:
        asked = InputRequiredEvent(action=f"Drop table {ev.table}", details={"table": ev.table}, risk="high",
                                   table=ev.table)
        reply = await ctx.wait_for_event(HumanResponseEvent, waiter_event=asked, requirements={"table": ev.table})
        received[ev.table] = {"approved": reply.approved, "reason": reply.reason, "answered_by": reply.answered_by}
        if reply.approved:
            dropped.append(ev.table)
        return Outcome(table=ev.table)

    @step
    async def report(self, ctx: Context, ev: Outcome) -> StopEvent | None:
        if ctx.collect_events(ev, [Outcome] * await ctx.store.get("count")) is None:
            return None
        return StopEvent(result=sorted(dropped))"""

LLAMA_RUN = """\
result = await nbask_llama_index.run(Cleanup(timeout=None))
print("RESULT " + json.dumps({"received": received, "dropped": dropped, "result": result}), flush=True)"""


def approval_card(nb: NotebookPage, cell: int, title: str) -> ApprovalView:
    """The one approval view in ``cell``'s outputs titled ``title``, once it waits."""
    root: Locator = nb.output_area(cell).locator(".nbask").filter(has_text=title)
    expect(root).to_have_count(1, timeout=RUN_TIMEOUT_MS)
    view = ApprovalView(root)
    view.expect_status("pending")
    return view


def printed_result(nb: NotebookPage, cell: int) -> dict[str, Any]:
    nb.wait_output(cell, re.compile(r"RESULT \{"), timeout=RUN_TIMEOUT_MS)
    line = next(line for line in nb.stream_text(cell).splitlines() if line.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])  # type: ignore[no-any-return]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_agno_two_paused_calls_one_approved_one_rejected_in_jupyterlab(open_notebook):
    nb = open_notebook([AGNO_SETUP, AGNO_RUN])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    keep = approval_card(nb, 1, '"name": "events_2022"')
    drop = approval_card(nb, 1, '"name": "events_2023"')
    expect(keep.root).to_contain_text("Call drop_table")
    keep.textbox("Reason").fill("keep it for the audit")
    keep.button("Reject").click()
    keep.expect_status("answered")
    assert "RESULT" not in nb.stream_text(1)  # the run waits for the other call's decision
    drop.button("Approve").click()
    out = printed_result(nb, 1)
    assert out["received"] == ["events_2023"]  # the rejected call never ran
    rejected, approved = out["read"].splitlines()
    assert rejected.startswith("Not approved: Call drop_table did not run. The person rejected it.")
    assert "Reason: keep it for the audit." in rejected
    assert approved == "dropped events_2023"
    drop.expect_status("answered")


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_llama_index_text_then_one_drop_approved_one_rejected_in_jupyterlab(open_notebook):
    nb = open_notebook([LLAMA_SETUP, LLAMA_RUN])
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    form = nb.output_area(1).locator(".nbask").filter(has_text="Which tables should be dropped?")
    expect(form).to_have_attribute("data-status", "pending", timeout=RUN_TIMEOUT_MS)
    tables = form.get_by_role("textbox", name=re.compile("Tables"))
    expect(tables).to_have_value("events_2022, events_2023")  # prefilled with the schema's default
    tables.fill("events_2021, events_2024")
    form.get_by_role("button", name="Submit", exact=True).click()
    keep = approval_card(nb, 1, "Drop table events_2021")
    drop = approval_card(nb, 1, "Drop table events_2024")
    keep.textbox("Reason").fill("still reporting on it")
    keep.button("Reject").click()
    keep.expect_status("answered")
    drop.button("Approve").click()
    out = printed_result(nb, 1)
    assert out["received"] == {
        "choose": {"tables": "events_2021, events_2024"},
        "events_2021": {"approved": False, "reason": "still reporting on it", "answered_by": "person"},
        "events_2024": {"approved": True, "reason": "", "answered_by": "person"},
    }
    assert out["dropped"] == out["result"] == ["events_2024"]  # the rejected step never dropped
