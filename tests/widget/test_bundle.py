"""Each kind's widget carries its own front end: the module built for that kind, which holds its
view and not the other kinds'; a checkout never built says how to build.
"""

from __future__ import annotations

import pytest

import nbask
from nbask.widget import bundle

#: A text only each kind's view writes (its own code), looked for in every module.
OWN_TEXT = {
    "question": "Focus or choose an option to see its preview.",  # js/kinds/question/preview.ts
    "approval": "the arguments are not valid JSON",  # the edit check (js/kinds/approval/argcheck.ts)
    "form": "Enter a full address with its scheme",  # a URL field's check (js/kinds/form/fields.ts)
}
WIDGETS = {"question": nbask.QuestionWidget, "approval": nbask.ApprovalWidget, "form": nbask.FormWidget}


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_a_kinds_widget_loads_its_own_module(kind):
    assert str(WIDGETS[kind]._esm) == bundle.module(kind).read_text("utf-8")


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_a_module_holds_its_own_kind_and_not_the_others(kind):
    text = bundle.module(kind).read_text("utf-8")
    for other, words in OWN_TEXT.items():
        if other == kind:
            assert words in text
        else:
            assert words not in text, f"widget-{kind}.js holds {other}'s view"


def test_a_missing_module_says_how_to_build(monkeypatch, tmp_path):
    monkeypatch.setattr(bundle, "STATIC", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"widget-form\.js is missing.*npm ci && npm run build"):
        bundle.require("form")
