"""The batch the batch tests ask: three approvals ("Drop table t0".."t2") run together with
run_requests, as cell code; the checks on its cards and the lead's heading; the decisions the cell
prints. The VS Code host suite uses them too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Locator, expect

from support.ask_widget import ApprovalView
from support.notebook_page import RUN_TIMEOUT_MS, NotebookPage

SETUP = (
    "import json, nbask\n"
    "from nbask.kinds.approval.request import approval_request\n"
    "from nbask.resolvers.run import run_requests"
)

# Each decision in request order, once all of them are decided: after run_three() in its cell, or
# in a later cell (a reloaded page no longer owns the waiting cell's output stream).
PRINT_DECISIONS = (
    "for i, d in enumerate(ds):\n"
    '    print("DECISION " + json.dumps({"i": i, "decision": d.decision, "status": d.status, '
    '"reason": d.reason, "edited": d.edited, "answered_by": d.answered_by, "batch": bool(d.batch_id)}), flush=True)'
)
# The line of the last request: every decision has been printed.
LAST_DECISION = re.compile(r'DECISION \{"i": 2')


def run_three(timeout: int | None = None) -> str:
    """The cell code asking the three approvals at once; their decisions land in ``ds``."""
    return (
        'ds = await run_requests([approval_request(f"Drop table t{i}", f"DROP TABLE t{i}", '
        f"timeout={timeout}) for i in range(3)])"
    )


def batch_heading(lead: ApprovalView) -> Locator:
    """The heading the lead card carries ("3 requests waiting", Approve all / Reject all)."""
    return lead.root.get_by_role("group", name=re.compile(r"requests? waiting$"))


def expect_three_pending(roots: list[Locator]) -> tuple[list[ApprovalView], Locator]:
    """The three cards, each shown, pending and showing its own request, the heading on the lead
    card only; return the cards and the lead's heading.
    """
    cards = [ApprovalView(root) for root in roots]
    for i, card in enumerate(cards):
        expect(card.root).to_be_visible(timeout=RUN_TIMEOUT_MS)
        card.expect_status("pending")
        expect(card.root).to_contain_text(f"DROP TABLE t{i}")
    for card in cards[1:]:
        expect(card.root.locator(".nbask-batch")).to_have_count(0)
    return cards, batch_heading(cards[0])


def approve_all_confirmed(cards: list[ApprovalView], heading: Locator) -> None:
    """Approve all three from the lead's heading, confirmed: every card ends Approved."""
    heading.get_by_role("button", name="Approve all (3)", exact=True).click()
    expect(heading.get_by_role("button", name="Keep reviewing", exact=True)).to_be_focused()
    heading.get_by_role("button", name="Approve 3", exact=True).click()
    for card in cards:
        card.expect_status("answered")
        expect(card.root).to_contain_text("Approved")


def approve_last_reject_lead(cards: list[ApprovalView], heading: Locator) -> None:
    """Out of order: approve the last card, then reject the lead. The heading counts down; once
    the lead's own request ended it moves to the first card still waiting (never staying on an
    answered card), with no "all" button once one approval is left.
    """
    cards[2].button("Approve").click()
    cards[2].expect_status("answered")
    expect(heading).to_have_accessible_name("2 requests waiting")
    cards[0].button("Reject").click()
    cards[0].expect_status("answered")
    moved = batch_heading(cards[1])
    expect(moved).to_have_accessible_name("1 request waiting")
    expect(cards[0].root.locator(".nbask-batch")).to_have_count(0)
    expect(moved.get_by_role("button")).to_have_count(0)  # one approval left: no "all" button


def read_decisions(host: Any, cell: int) -> list[dict[str, Any]]:
    """Wait until cell ``cell`` printed PRINT_DECISIONS' last line; every decision, in request
    order. ``host`` is a NotebookPage or the VS Code host (tests/support/vscode/host.py).
    """
    host.wait_output(cell, LAST_DECISION, timeout=RUN_TIMEOUT_MS)
    text = host.stream_text(cell) if isinstance(host, NotebookPage) else host.stdout(cell)
    lines = [line for line in text.splitlines() if line.startswith("DECISION ")]
    return [json.loads(line[len("DECISION ") :]) for line in lines]
