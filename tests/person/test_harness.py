"""The harness itself, without nbask: servers, kernels, cells, widgets, run all, interrupt.

If these fail, the nbask scenarios' failures say nothing about nbask.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_button_widget_round_trip(open_notebook):
    nb = open_notebook(
        [
            (
                "import ipywidgets as w\n"
                "out = w.Output()\n"
                "b = w.Button(description='Press me')\n"
                "b.on_click(lambda _: out.append_stdout('pressed\\n'))\n"
                "display(b, out)"
            ),
            "print('plain', 6 * 7)",
        ]
    )
    assert nb.run_cell(0) == 1
    nb.cell(0).get_by_role("button", name="Press me").click()
    nb.wait_output(0, "pressed")
    assert nb.run_cell(1) == 2
    assert nb.stream_text(1).strip() == "plain 42"


def test_run_all_and_interrupt(open_notebook):
    nb = open_notebook(
        [
            "import time\nprint('start', flush=True)\ntime.sleep(120)",
            "print('after')",
        ]
    )
    nb.run_all()
    nb.wait_output(0, "start")
    nb.wait_running(1)  # queued behind the sleeping cell
    nb.interrupt()
    nb.wait_output(0, "KeyboardInterrupt")
    # JupyterLab and Notebook 7 drop the queued cells after an error.
    expect(nb.prompt(1)).not_to_have_text("[*]:")
    assert nb.run_cell(1) >= 2
    assert nb.stream_text(1).strip() == "after"
