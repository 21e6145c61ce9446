"""js/contract/contract.ts's BaseModel lists exactly the traits every nbask widget syncs (batch included),
and BatchState the keys the kernel's ``batch`` trait carries.
"""

from __future__ import annotations

import pathlib
import re

import anywidget

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
    assert "batch" in own


def test_the_batch_state_and_message_match_the_kernel():
    assert _interface_fields("BatchState") == {"id", "lead", "waiting", "approvals", "high_risk", "sources"}
    assert _interface_fields("BatchMessage") == {"batch", "batch_id", "request_ids", "user"}
    assert set(BATCH_ACTIONS) == set(re.findall(r'"(\w+_all)"', SOURCE))
