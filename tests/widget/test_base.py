"""js/contract/contract.ts's BaseModel lists exactly the traits every nbask widget syncs (batch included),
and BatchState the keys the kernel's ``_batch`` trait carries; the wire and the plumbing are private:
``dir()`` of a widget of each kind shows only what a caller may use.
"""

from __future__ import annotations

import pathlib
import re

import anywidget

import nbask
from nbask.core.lifecycle import Resolution
from nbask.kinds.form.request import form_request
from nbask.widget import InteractionWidget
from nbask.widget.batch import BATCH_ACTIONS

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "js" / "contract" / "contract.ts").read_text("utf-8")


def _interface_fields(name: str) -> set[str]:
    body = re.search(rf"export interface {name} \{{(.*?)\n\}}", SOURCE, re.DOTALL)
    assert body is not None, name
    return set(re.findall(r"^  (\w+)\??:", body.group(1), re.MULTILINE))


def test_the_base_model_interface_mirrors_the_widgets_traits():
    own = set(InteractionWidget.class_trait_names(sync=True)) - set(anywidget.AnyWidget.class_trait_names(sync=True))
    assert _interface_fields("BaseModel") == own
    assert "_batch" in own


def test_the_batch_state_and_message_match_the_kernel():
    assert _interface_fields("BatchState") == {"id", "lead", "waiting", "approvals", "high_risk", "sources"}
    assert _interface_fields("BatchMessage") == {"batch", "batch_id", "request_ids", "user"}
    assert set(BATCH_ACTIONS) == set(re.findall(r'"(\w+_all)"', SOURCE))


#: What nbask's widgets offer a caller; everything else nbask defines on them starts with "_".
PUBLIC = {
    "request", "answer", "done", "late_answer", "tool_call_id", "asked_at", "summary_markdown",
    "await_answer", "wait_answer_sync", "question_set", "approval", "form",
}  # fmt: skip


def _widgets() -> list[InteractionWidget]:
    asked = [{"question": "Proceed?", "options": [{"label": "Yes"}, {"label": "No"}]}]
    question = nbask.QuestionWidget(questions=asked)
    approval = nbask.ApprovalWidget(action="Drop table", details="DROP TABLE t")
    form = nbask.FormWidget(resolution=Resolution(form_request("Deploy?", {"type": "object", "properties": {}})))
    in_batch = nbask.ApprovalWidget(action="Drop table", details="DROP TABLE u")
    in_batch.request.batch_id = "b1"
    return [question, approval, form, in_batch]


def test_dir_shows_no_wire_trait_and_no_plumbing_without_an_underscore():
    base = set(dir(anywidget.AnyWidget))
    for widget in _widgets():
        ours = {name for name in dir(widget) if name not in base}
        synced = set(widget.trait_names(sync=True)) - set(anywidget.AnyWidget.class_trait_names(sync=True))
        assert synced, type(widget).__name__
        assert {name for name in synced if not name.startswith("_")} == set(), type(widget).__name__
        assert {name for name in ours if not name.startswith("_")} <= PUBLIC, type(widget).__name__
        assert {"_response", "_draft", "_batch", "_reply_channel", "_status", "_result"} <= synced
