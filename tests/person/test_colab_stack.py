"""Google Colab's widget stack in a real page: JupyterLab served from .venvs/colab, whose kernel is
Colab's (ipykernel 6.17.1, ipywidgets 7.7.1, traitlets 5.7.1) and whose anywidget front end is
0.9.21, the version Colab's own widget manager loads for such a kernel. The question renders,
the click reaches the waiting cell, and the output keeps its summary.

Runs only where scripts/test.sh's "colab-web" step points the browser suite at that environment
(NBASK_BROWSER_PYTHON=.venvs/colab/bin/python); Colab's own page is not part of it.
"""

from __future__ import annotations

import json
import os

import pytest
from playwright.sync_api import expect
from support.ask_widget import PRINT_RESULT, AskWidget, read_result

pytestmark = [
    pytest.mark.browser,
    pytest.mark.colab,
    pytest.mark.skipif(
        not os.environ.get("NBASK_BROWSER_PYTHON"), reason="the colab-web step of scripts/test.sh runs this"
    ),
]

QUESTION = "Which notebook host?"
SHOW_VERSIONS = (
    "import json, nbask, ipykernel, ipywidgets, traitlets, anywidget\n"
    "print('VERSIONS ' + json.dumps({m.__name__: m.__version__ "
    "for m in (ipykernel, ipywidgets, traitlets, anywidget)}, sort_keys=True))"
)
COLAB = {"ipykernel": "6.17.1", "ipywidgets": "7.7.1", "traitlets": "5.7.1", "anywidget": "0.9.21"}


def test_colab_kernel_and_anywidget_0_9_answer_through_the_page(open_notebook):
    nb = open_notebook(
        [
            SHOW_VERSIONS,
            f"ans = await nbask.ask({QUESTION!r}, ['Colab (Recommended)', 'JupyterLab'], timeout=600.0)\n"
            + PRINT_RESULT,
        ]
    )
    nb.run_cell(0)
    versions = next(line for line in nb.stream_text(0).splitlines() if line.startswith("VERSIONS "))
    assert versions == "VERSIONS " + json.dumps(COLAB, sort_keys=True)

    nb.run_cell(1, wait=False)
    ask = AskWidget.in_cell(nb, 1)
    ask.expect_pending()
    nb.wait_running(1)
    expect(ask.question(QUESTION).get_by_role("radio")).to_have_count(3)  # two options + Other
    ask.choose(QUESTION, "JupyterLab")
    ask.submit()
    result = read_result(nb, 1)
    assert result["status"] == "answered"
    assert result["answers"] == {QUESTION: "JupyterLab"}
    nb.wait_done(1)
    ask.expect_resolved("answered", {QUESTION: "JupyterLab"})
