"""nbask inside a real marimo notebook: marimo's own runner executes a notebook file in its
kernel (``marimo export ipynb --include-outputs`` runs every cell as ``marimo edit`` does) and
the test reads each cell's outputs. Asking mid-cell fails at once with marimo's reason, in the
async and the sync calls (from a thread of the cell's own, with nbask's general message); with a
policy configured, a question is answered without a person.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from nbask.resolvers.policies import MARIMO_CANNOT_ANSWER

pytestmark = pytest.mark.headless

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"

NOTEBOOK = """
import marimo

app = marimo.App()


@app.cell
def _():
    import time

    import nbask

    return nbask, time


@app.cell
async def _(nbask, time):
    started = time.monotonic()
    for name in ("ask", "approve", "ask_form"):
        try:
            if name == "ask":
                await nbask.ask("Which database?", ["PostgreSQL", "SQLite"])
            elif name == "approve":
                await nbask.approve("Drop table", "DROP TABLE users")
            else:
                await nbask.ask_form("Deploy?", {"type": "object", "properties": {"n": {"type": "integer"}}})
        except nbask.NoOneCanAnswer as error:
            print("REFUSED", name, type(error).__name__, str(error))
    print("SECONDS", time.monotonic() - started)
    refused = True
    return (refused,)


@app.cell
def _(nbask):
    nbask.ask_sync("Which cache?", ["Redis", "Memcached"])
    return


@app.cell
async def _(nbask, time):
    import asyncio

    # marimo's context is per thread: from a thread the cell starts, nbask cannot see marimo,
    # and refuses with its general "no front end" message; at once all the same.
    started_thread = time.monotonic()
    try:
        await asyncio.to_thread(nbask.ask_sync, "Which broker?", ["Redis", "NATS"])
    except nbask.NoOneCanAnswer as error:
        print("THREAD", type(error).__name__, time.monotonic() - started_thread)
    threaded = True
    return (threaded,)


@app.cell
def _(nbask, refused, threaded):
    # Set and reset here, so whatever order marimo runs the independent cells in, the others
    # ask with no policy.
    nbask.configure(policy="recommended")
    try:
        answer = nbask.ask_sync("Which queue?", ["RabbitMQ (Recommended)", "Kafka"])
    finally:
        nbask.configure(policy=None)
    print("POLICY", refused, answer.answered_by, answer.answers["Which queue?"])
    return
"""


def cell_outputs(path: pathlib.Path) -> list[list[dict]]:
    notebook = json.loads(path.read_text())
    return [cell.get("outputs", []) for cell in notebook["cells"] if cell["cell_type"] == "code"]


def stdout_of(outputs: list[dict]) -> str:
    return "".join(
        "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        for o in outputs
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )


def test_asking_mid_cell_in_marimo_fails_at_once_and_a_policy_answers(tmp_path: pathlib.Path) -> None:
    source = tmp_path / "agent.py"
    source.write_text(NOTEBOOK)
    out = tmp_path / "agent.ipynb"
    proc = subprocess.run(
        [sys.executable, "-m", "marimo", "export", "ipynb", str(source), "-o", str(out), "--include-outputs", "-f"],
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SRC), "NBASK_POLICY": ""},
    )
    # marimo exports the outputs and exits 1 because a cell (the ask_sync one) raised.
    assert out.exists(), proc.stdout + proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    cells = cell_outputs(out)
    everything = json.dumps(cells, indent=1)  # shown with any failure below
    assert len(cells) == 5, everything

    refused = stdout_of(cells[1])
    for name in ("ask", "approve", "ask_form"):
        assert f"REFUSED {name} NoFrontEnd {MARIMO_CANNOT_ANSWER}\n" in refused, everything
    seconds = float(refused.split("SECONDS ")[1])
    assert seconds < 2.0, f"three refusals took {seconds:.2f}s: they must not wait"

    errors = [o for o in cells[2] if o.get("output_type") == "error"]
    assert [e["ename"] for e in errors] == ["NoFrontEnd"], everything
    assert errors[0]["evalue"] == MARIMO_CANNOT_ANSWER

    thread = stdout_of(cells[3]).split()
    assert thread[:2] == ["THREAD", "NoFrontEnd"], everything
    assert float(thread[2]) < 5.0, everything

    assert stdout_of(cells[4]).strip() == "POLICY True policy RabbitMQ (Recommended)", everything
