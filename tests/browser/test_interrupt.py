"""Interrupting the kernel from the toolbar while a question waits: the widget says
"Cancelled", the cell raises KeyboardInterrupt, and the next cell (another question) works.
"""

from __future__ import annotations

import pytest

from .ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = pytest.mark.browser

FIRST = "Start the long training run?"
SECOND = "Then which learning rate?"


def test_interrupt_cancels_and_the_next_cell_runs(open_notebook):
    nb = open_notebook(
        [
            "import json, nbask",
            f"ans = await nbask.ask({FIRST!r}, ['Yes', 'No'], timeout=None)\nprint('NOT REACHED')",
            f"ans = await nbask.ask({SECOND!r}, ['1e-3', '1e-4'], timeout=None)\n" + PRINT_RESULT,
            "print('HISTORY', [h.status for h in nbask.history()])",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    first = AskWidget.in_cell(nb, 1)
    first.expect_pending()
    nb.wait_running(1)

    nb.interrupt()
    first.expect_resolved("cancelled")
    nb.wait_output(1, "KeyboardInterrupt")
    assert "NOT REACHED" not in nb.printed(1)
    nb.wait_done(1)
    nb.wait_kernel_idle()

    nb.run_cell(2, wait=False)
    second = AskWidget.in_cell(nb, 2)
    second.expect_pending()
    second.choose(SECOND, "1e-4")
    second.submit()
    result = read_result(nb, 2)
    assert result["status"] == "answered"
    assert result["answers"] == {SECOND: "1e-4"}
    # The first widget stays cancelled.
    first.expect_resolved("cancelled")

    nb.run_cell(3)
    assert nb.stream_text(3).strip() == "HISTORY ['cancelled', 'answered']"
