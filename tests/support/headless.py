"""Shared set-up for the headless tests: a clean policy and history per test, a way to run a
Python snippet in a plain subprocess (no stdin, no kernel), and notebooks to execute.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap
from typing import Any

import nbformat
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))  # the kernel harness (a fake front end)

#: The questions the test notebook asks, in order; printed results are JSON lines.
NOTEBOOK_CELLS = [
    "import json, nbask",
    """\
ans = await nbask.ask("Which database should the app use?", ["PostgreSQL (Recommended)", "SQLite"], header="DB")
print("RESULT", json.dumps({"answers": ans.answers, "status": ans.status, "by": ans.answered_by}))""",
    """\
ans = await nbask.ask_questions([
    {"question": "Which features should the first release have?", "header": "Scope", "multi_select": True,
     "options": [{"label": "Login"}, {"label": "Search (Recommended)"}, {"label": "Export"}]},
    {"question": "How should we authenticate?", "header": "Auth",
     "options": [{"label": "JWT"}, {"label": "Session cookie"}]},
])
print("RESULT", json.dumps({"answers": ans.answers, "status": ans.status, "by": ans.answered_by}))""",
    """\
dec = await nbask.approve("Run shell command", "rm -rf build/")
print("RESULT", json.dumps({"decision": dec.decision, "status": dec.status, "by": dec.answered_by}))""",
]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of this process without NBASK_* (plus ``extra``)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("NBASK_")}
    env.pop("JPY_PARENT_PID", None)
    # ipykernel leaves its stdout/stderr without a file descriptor when it sees this, so an MCP
    # stdio server started from a notebook could not inherit stderr; a person's kernel never sees it.
    env.pop("PYTEST_CURRENT_TEST", None)
    return {**env, **extra}


def run_python(code: str, *, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a plain Python subprocess with no stdin (not a TTY, no kernel)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=clean_env(**env),
        cwd=REPO,
        check=False,
    )


def write_notebook(path: pathlib.Path, cells: list[str] = NOTEBOOK_CELLS, kernel: str = "python3") -> pathlib.Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nb.metadata["kernelspec"] = {"name": kernel, "display_name": kernel, "language": "python"}
    nbformat.write(nb, path)
    return path


def printed_results(nb: Any) -> list[dict[str, Any]]:
    """The RESULT lines the notebook's cells printed, in cell order."""
    results = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                results += [json.loads(line[7:]) for line in output["text"].splitlines() if line.startswith("RESULT ")]
    return results


def markdown_outputs(nb: Any) -> list[str]:
    return [
        output["data"]["text/markdown"]
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if "text/markdown" in output.get("data", {})
    ]


@pytest.fixture(name="notebook")
def notebook_fixture(tmp_path: pathlib.Path) -> pathlib.Path:
    """A notebook that asks, written in the test's folder (import it as ``notebook``)."""
    return write_notebook(tmp_path / "agent.ipynb")
