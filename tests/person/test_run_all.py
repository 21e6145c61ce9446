"""Run All: the cells after a waiting question run after the answer, in order, with the
right execution counts.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = pytest.mark.browser

QUESTION = "Which split should we evaluate?"


def test_run_all_waits_for_the_answer_then_runs_the_rest_in_order(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask\norder = ['import']",
            f"ans = await nbask.ask({QUESTION!r}, ['validation (Recommended)', 'test'], timeout=None)\n"
            "order.append('ask')\n" + PRINT_RESULT,
            "order.append('third')\nprint('THIRD', order)",
            "order.append('fourth')\nprint('FOURTH', order)",
        ]
    )
    nb.run_all()
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    # The later cells are queued behind the waiting one, not run.
    for index in (1, 2, 3):
        expect(nb.prompt(index)).to_have_text("[*]:")
    assert nb.stream_text(2) == ""
    assert nb.stream_text(3) == ""

    ask.choose(QUESTION, "test")
    ask.submit()
    result = read_result(nb, 1)
    assert result["answers"] == {QUESTION: "test"}

    nb.wait_output(3, "FOURTH")
    assert [nb.wait_done(i) for i in range(4)] == [1, 2, 3, 4]
    assert nb.stream_text(2).strip() == "THIRD ['import', 'ask', 'third']"
    assert nb.stream_text(3).strip() == "FOURTH ['import', 'ask', 'third', 'fourth']"
    ask.expect_resolved("answered", {QUESTION: "test"})
