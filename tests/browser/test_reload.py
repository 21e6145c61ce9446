"""A page reload while a question waits: the question is shown again and still answerable.

A notebook's outputs reach a reloaded page only from the saved file, so the person saves
(toolbar) before reloading, as they would. The reloaded page no longer owns the running
cell's output stream, so the cell's own print is not shown there; the next cell reads the
answer the waiting cell received.
"""

from __future__ import annotations

import pytest

from .ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = pytest.mark.browser

QUESTION = "Which optimizer should the sweep use?"


def test_reload_while_waiting_shows_the_question_again(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            (
                f"ans = await nbask.ask({QUESTION!r}, ['AdamW (Recommended)', 'SGD'], timeout=None)\n"
                "print('ANSWERED', flush=True)"
            ),
            PRINT_RESULT,
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    ask.choose(QUESTION, "AdamW")  # an unsent choice; the reload drops it
    nb.save()

    nb.reload()
    nb.wait_kernel_connected()
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    ask.choose(QUESTION, "SGD")
    ask.submit()
    ask.expect_resolved("answered", {QUESTION: "SGD"})

    nb.run_cell(2, wait=False)
    result = read_result(nb, 2)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "SGD"}
