"""Interrupting the kernel while a question waits, on every ipykernel: the widget says
"Cancelled", the cell shows KeyboardInterrupt and ends, and the next question works.
"""

from __future__ import annotations

import pytest
from browser.ask_widget import AskWidget
from playwright.sync_api import expect

from .conftest import ALL_KERNELS
from .host import PRINT_RESULT

pytestmark = pytest.mark.vscode

FIRST = "Start the long training run?"
SECOND = "Then which learning rate?"


@pytest.mark.parametrize("kernel_name", ALL_KERNELS)
def test_interrupt_cancels_and_the_next_question_works(open_host, kernel_name):
    host = open_host()
    host.run_ok("import json, nbask")
    cell = host.run(f"ans = await nbask.ask({FIRST!r}, ['Yes', 'No'], timeout=None)\nprint('NOT REACHED')")
    first = AskWidget(host.widget(cell))
    first.expect_pending()

    host.interrupt()
    first.expect_resolved("cancelled")
    assert host.wait_done(cell) == "error"
    assert "KeyboardInterrupt" in host.errors(cell)
    assert "NOT REACHED" not in host.stdout(cell)

    nxt = host.run(f"ans = await nbask.ask({SECOND!r}, ['1e-3', '1e-4'], timeout=None)\n" + PRINT_RESULT)
    second = AskWidget(host.widget(nxt))
    second.expect_pending()
    second.choose(SECOND, "1e-4")
    second.submit()
    assert host.read_result(nxt)["answers"] == {SECOND: "1e-4"}
    assert host.wait_done(nxt) == "ok"
    first.expect_resolved("cancelled")
    expect(host.widget(cell)).to_have_count(1)
