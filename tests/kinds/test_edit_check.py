"""The kernel's check of edited tool-call arguments (nbask.kinds.approval.edit_check, mirrored by
js/kinds/approval/argcheck.ts): the schema a gated function gives, the problems found, the widget's refusal
that leaves the approval open, the terminal prompt asking again, and a trusted resolver's bad
edit ending as a rejection that never runs the function.
"""

from __future__ import annotations

import io
import json
import pathlib
from typing import Any, Literal

import pytest
from pydantic import BaseModel

import nbask
from nbask.approvals import arguments_schema
from nbask.core.lifecycle import Resolution
from nbask.kinds import ApprovalRequest, ApprovalWidget
from nbask.kinds.approval.edit_check import edit_problems
from nbask.kinds.approval.terminal import ask_at_terminal
from nbask.models import Approval
from nbask.replies import ApprovalResponse
from nbask.terminal import Terminal


class Size(BaseModel):
    cpu: int
    memory: str


def deploy(  # noqa: PLR0917 - a tool with many arguments, as a model would call it
    name: str,
    replicas: int,
    mode: Literal["rolling", "recreate"] = "rolling",
    tags: list[str] | None = None,
    ratio: float = 1.0,
    dry_run: bool = False,
    size: Size | None = None,
    note=None,
) -> None:
    del name, replicas, mode, tags, ratio, dry_run, size, note


SCHEMA = arguments_schema(deploy)


def test_the_schema_of_a_function_is_its_parameters_as_one_object():
    assert SCHEMA is not None
    assert SCHEMA["type"] == "object"
    assert SCHEMA["additionalProperties"] is False
    assert SCHEMA["required"] == ["name", "replicas"]
    assert SCHEMA["properties"]["replicas"]["type"] == "integer"


def test_functions_whose_edits_it_cannot_describe_get_no_schema():
    class Opaque:
        pass

    def with_varargs(*names: str) -> None: ...
    def with_kwargs(name: str, **more: Any) -> None: ...
    def positional(name: str, /) -> None: ...
    def opaque(thing: Opaque) -> None: ...

    for function in (with_varargs, with_kwargs, positional, opaque):
        assert arguments_schema(function) is None, function.__name__


GOOD = {"name": "api", "replicas": 3}
#: The cases js/kinds/approval/argcheck.test.ts checks too: both sides find the same problems in the same words.
CASES_FILE = pathlib.Path(__file__).parents[2] / "js" / "kinds" / "approval" / "argcheck.cases.json"
CASES = json.loads(CASES_FILE.read_text(encoding="utf-8"))


def test_the_shared_cases_are_this_functions_schema():
    assert CASES["schema"] == SCHEMA


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["edit"][:40])
def test_edit_problems_name_the_argument_and_the_rule(case):
    found = edit_problems(case["edit"], SCHEMA)
    assert len(found) == len(case["problems"]), found
    for text, start in zip(found, case["problems"], strict=True):
        assert text.startswith(start), (text, start)


def test_without_a_schema_only_json_objects_are_checked():
    assert edit_problems('{"anything": 1}', None) == []
    assert edit_problems("[]", None) == ["the arguments must be a JSON object of argument names and values, not a list"]


def respond(widget: ApprovalWidget, edited: str | None) -> None:
    widget._response = {"action": "approve", "edited_details": edited, "reason": "", "view_id": "v", "sent_at_ms": 0}


def test_the_widget_refuses_a_bad_edit_and_stays_open_then_takes_a_good_one():
    details = json.dumps(GOOD, indent=2)
    widget = ApprovalWidget(action="Call deploy", details=details, details_schema=SCHEMA)
    assert widget._details_schema == SCHEMA
    respond(widget, json.dumps({**GOOD, "replicas": "three"}))
    assert widget.answer is None
    assert widget._status == "pending"
    assert widget._response == {}, "the views leave 'Sending…' and can try again"
    assert widget._error == (
        'The edit was not accepted: argument "replicas" must be an integer, not a string. '
        "Fix the Details, then approve again."
    )
    respond(widget, json.dumps({**GOOD, "replicas": 4}))
    assert widget.answer is not None
    assert (widget.answer.decision, json.loads(widget.answer.edited or "")) == ("edit", {**GOOD, "replicas": 4})


def test_the_widget_without_a_schema_takes_any_edit_and_syncs_none():
    widget = ApprovalWidget(action="Run shell command", details="rm -rf build/")
    assert widget._details_schema is None
    assert "details_schema" not in widget.approval.model_dump()
    respond(widget, "rm -rf build/tmp")
    assert widget.answer is not None
    assert widget.answer.decision == "edit"


def test_an_unchanged_approval_and_a_reject_are_never_checked():
    request = ApprovalRequest(approval=Approval(action="Call deploy", details="not json", details_schema=SCHEMA))
    assert request.edit_problems(ApprovalResponse("approve", edited_details="not json")) == []
    assert request.edit_problems(ApprovalResponse("reject", edited_details="{")) == []


def test_the_terminal_says_what_is_wrong_and_asks_again():
    details = json.dumps(GOOD)
    request = ApprovalRequest(approval=Approval(action="Call deploy", details=details, details_schema=SCHEMA))
    typed = ["2", '{"name": "api", "replicas": "three"}', ".", "2", '{"name": "api", "replicas": 5}', "."]
    out = io.StringIO()
    decision = ask_at_terminal(Terminal(io.StringIO("\n".join(typed) + "\n"), out, deadline=None), request)
    assert 'argument "replicas" must be an integer, not a string' in out.getvalue()
    assert (decision.decision, decision.edited) == ("edit", '{"name": "api", "replicas": 5}')


def test_a_trusted_resolvers_bad_edit_is_a_rejection_and_the_function_never_runs(monkeypatch):
    ran: list[tuple[str, int]] = []

    @nbask.requires_approval
    def resize(name: str, replicas: int) -> str:
        ran.append((name, replicas))
        return "ok"

    class Trusted:
        def check_available(self, request: Any) -> None:
            del request

        def resolve_sync(self, resolution: Resolution[Any]) -> Any:
            edit = ApprovalResponse("approve", edited_details='{"name": "api", "replicas": "three"}')
            resolution.settle(resolution.request.decide(edit))
            return resolution.outcome

        async def resolve(self, resolution: Resolution[Any]) -> Any:
            return self.resolve_sync(resolution)

    monkeypatch.setattr("nbask.resolvers.run.choose_resolver", lambda request: Trusted())
    with pytest.raises(nbask.ApprovalRejected, match=r'argument "replicas" must be an integer.*did not run'):
        resize("api", 2)
    assert nbask.tools.gate(resize.__wrapped__)("api", 2).startswith("Not approved: Call resize did not run.")
    assert ran == []
