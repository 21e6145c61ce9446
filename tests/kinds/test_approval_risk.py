"""An approval's risk: validated where it is asked, sent to the widget, printed at a terminal,
and the same on both sides of the wire contract.
"""

from __future__ import annotations

import asyncio
import io
import json
import pathlib
import re
import typing

import pytest
from pydantic import ValidationError

import nbask
from nbask import contract, models
from nbask.core.lifecycle import Resolution
from nbask.kinds import ApprovalWidget
from nbask.kinds.approval.request import approval_request
from nbask.kinds.approval.terminal import ask_at_terminal
from nbask.terminal import Terminal
from nbask.widget import InteractionWidget

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONTRACT = json.loads((pathlib.Path(nbask.__file__).parent / "contract.json").read_text("utf-8"))


@pytest.mark.parametrize("risk", ["low", "medium", "high"])
def test_each_risk_reaches_the_widget(risk):
    request = approval_request("Delete rows", "DELETE FROM events", risk=risk)
    assert request.approval.risk == risk
    assert request.asked()["risk"] == risk
    widget = ApprovalWidget(resolution=Resolution(request))
    assert widget.get_state()["_risk"] == risk


def test_no_risk_is_the_default_look_and_leaves_records_unchanged():
    request = approval_request("Run shell command", "ls")
    assert request.approval.risk is None
    assert "risk" not in request.asked()
    assert ApprovalWidget(resolution=Resolution(request)).get_state()["_risk"] == ""
    assert ApprovalWidget(action="Run", details="ls", risk="high")._risk == "high"


@pytest.mark.parametrize("bad", ["extreme", "HIGH", "", 3])
def test_a_bad_risk_names_the_field_and_the_allowed_values(bad):
    with pytest.raises(ValidationError) as caught:
        approval_request("Delete rows", "DELETE FROM events", risk=bad)
    (error,) = caught.value.errors()
    assert error["loc"] == ("risk",)
    assert "'low', 'medium', 'high'" in error["msg"]
    assert "risk" in str(caught.value)


def test_approve_and_approve_sync_take_risk():
    for call in (nbask.approve, nbask.approve_sync):
        assert "risk" in typing.get_type_hints(call)
        assert call.__kwdefaults__["risk"] is None


def test_the_terminal_prompt_prints_the_risk():
    out = io.StringIO()
    term = Terminal(io.StringIO("3\n\n"), out, deadline=None)
    decision = ask_at_terminal(term, approval_request("Delete rows", "DELETE FROM events", risk="high"))
    assert decision.decision == "reject"
    assert "  !! High risk\n" in out.getvalue()
    quiet = io.StringIO()
    ask_at_terminal(Terminal(io.StringIO("3\n\n"), quiet, deadline=None), approval_request("Run", "ls"))
    assert "risk" not in quiet.getvalue()


def test_risks_are_the_contracts():
    assert set(typing.get_args(models.Risk)) == set(CONTRACT["approval_risks"]) == set(contract.APPROVAL_RISKS)
    assert set(CONTRACT["risk_text"]) == set(CONTRACT["approval_risks"])
    assert CONTRACT["risk_text"]["high"] == "High risk"


def _interface_fields(source: str, name: str) -> set[str]:
    body = re.search(rf"export interface {name} extends BaseModel \{{(.*?)\n\}}", source, re.DOTALL)
    assert body is not None, name
    return set(re.findall(r"^  (\w+)\??:", body.group(1), re.MULTILINE))


def test_the_approval_model_interface_mirrors_the_widgets_traits():
    source = (ROOT / "js" / "contract" / "contract.ts").read_text("utf-8")
    base = set(InteractionWidget.class_trait_names(sync=True))
    own = set(ApprovalWidget.class_trait_names(sync=True)) - base
    assert _interface_fields(source, "ApprovalModel") == own
    assert "_risk" in own


def test_a_gated_function_asks_with_its_risk_and_refuses_a_bad_one_when_decorated():
    nbask.configure(policy="recommended")

    @nbask.requires_approval(risk="high")
    def drop_table(name: str) -> str:
        return f"dropped {name}"

    @nbask.tools.gate(risk="medium")
    async def resize(replicas: int) -> str:
        return f"{replicas} replicas"

    with pytest.raises(nbask.ApprovalRejected):
        drop_table("events")
    assert asyncio.run(resize(3)).startswith("Not approved")
    risks = [entry.asked.get("risk") for entry in nbask.history()[-2:]]
    assert risks == ["high", "medium"]
    for decorate in (nbask.requires_approval, nbask.tools.gate):
        with pytest.raises(ValidationError, match="risk"):
            decorate(risk="severe")(drop_table)
