"""Notebooks executed headless, by nbclient and papermill: ``interactive`` fails at once with a
clear error, ``recommended`` answers and leaves the Markdown summary in the saved file, and
``replay`` reproduces what a person answered, from a JSONL history or from the saved notebook.

The person is the kernel harness (tests/support/kernel.py): a protocol-level fake front end
that answers each widget over its comm exactly as JupyterLab does; the notebook it produces is
built from the kernel's messages the way JupyterLab saves outputs.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time
from datetime import datetime
from typing import Any

import nbformat
import papermill
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from support.headless import (
    NOTEBOOK_CELLS,
    REPO,
    clean_env,
    markdown_outputs,
    notebook_fixture,
    printed_results,
    write_notebook,
)
from support.kernel import KernelHarness, ensure_kernelspecs

from nbask.core.history import RECORD_KEY, entries_in_notebook, load

pytestmark = pytest.mark.kernel
notebook = notebook_fixture  # the fixture, under the name the tests take

HARNESS_KERNEL = "nbask-ipykernel-7.4"

#: What the person answers in the recording: never the recommended options, so a replay
#: cannot pass by accident under "recommended".
PERSON = [
    {"action": "submit", "answers": [{"selected": ["SQLite"], "other": None}]},
    {
        "action": "submit",
        "answers": [{"selected": ["Login", "Export"], "other": "Audit log"}, {"selected": ["Session cookie"]}],
    },
    {"action": "approve", "edited_details": None, "reason": "checked the path"},
]
PERSON_RESULTS = [
    {"answers": {"Which database should the app use?": "SQLite"}, "status": "answered"},
    {
        "answers": {
            "Which features should the first release have?": "Login, Export, Audit log",
            "How should we authenticate?": "Session cookie",
        },
        "status": "answered",
    },
    {"decision": "approve", "status": "answered"},
]


def execute(path: pathlib.Path, **kwargs: Any) -> tuple[Any, str | None, float]:
    """Run ``path`` with nbclient; (notebook, error text or None, seconds)."""
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    try:
        NotebookClient(nb, timeout=60, **kwargs).execute()
        error = None
    except CellExecutionError as failure:
        error = str(failure)
    return nb, error, time.monotonic() - start


def without(results: list[dict], key: str) -> list[dict]:
    return [{k: v for k, v in result.items() if k != key} for result in results]


# -- interactive: the clear error, at once ------------------------------------------------------


def test_nbclient_interactive_fails_at_once_with_a_clear_error(notebook: pathlib.Path, record_testsuite_property):
    nb, error, seconds = execute(notebook)
    assert error is not None
    assert "NoFrontEnd" in error
    assert "This notebook is being executed by nbclient, which runs every cell but never shows widgets" in error
    assert "no one can answer this question" in error
    assert "NBASK_POLICY=recommended" in error
    timing = nb.cells[1].metadata["execution"]
    cell_seconds = _seconds(timing["shell.execute_reply"]) - _seconds(timing["iopub.execute_input"])
    record_testsuite_property("nbclient_interactive_cell_seconds", round(cell_seconds, 3))
    record_testsuite_property("nbclient_interactive_seconds_with_kernel_start", round(seconds, 1))
    assert cell_seconds < 2.0
    assert not any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in nb.cells[1].outputs)


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_papermill_cli_interactive_fails_at_once_even_with_another_kernel_name(
    tmp_path: pathlib.Path, record_testsuite_property
):
    # A kernel not named python3 gets no nbclient argument; the launcher (papermill) shows it.
    kernels = ensure_kernelspecs()
    source = write_notebook(tmp_path / "in.ipynb", kernel=HARNESS_KERNEL)
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "papermill", str(source), str(tmp_path / "out.ipynb"), "-k", HARNESS_KERNEL],
        capture_output=True,
        text=True,
        timeout=120,
        env=clean_env(JUPYTER_PATH=str(kernels.parent)),
        check=False,
    )
    seconds = time.monotonic() - start
    assert proc.returncode != 0
    assert "This notebook is being executed by papermill" in proc.stderr
    assert "runs `papermill`" in proc.stderr
    assert "NBASK_POLICY=recommended" in proc.stderr
    assert seconds < 60
    record_testsuite_property("papermill_cli_interactive_seconds_with_kernel_start", round(seconds, 1))


# -- recommended ----------------------------------------------------------------------------------


def test_nbclient_recommended_answers_and_the_saved_file_shows_who(
    notebook: pathlib.Path, monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
):
    monkeypatch.setenv("NBASK_POLICY", "recommended")
    nb, error, _ = execute(notebook)
    assert error is None, error
    results = printed_results(nb)
    assert [result["by"] for result in results] == ["policy"] * 3
    assert results[0]["answers"] == {"Which database should the app use?": "PostgreSQL (Recommended)"}
    assert results[1]["answers"]["How should we authenticate?"] == "JWT", "no recommended option: the first"
    assert results[2]["decision"] == "reject"
    saved = tmp_path / "saved.ipynb"
    nbformat.write(nb, saved)
    summaries = markdown_outputs(nbformat.read(saved, as_version=4))
    assert len(summaries) == 3
    assert summaries[0].startswith("**nbask** (answered by policy)")
    assert "**PostgreSQL \\(Recommended\\)**" in summaries[0]
    assert "**Rejected by policy**" in summaries[2]
    assert [entry.answered_by for entry in load(saved)] == ["policy"] * 3


def test_papermill_recommended(notebook: pathlib.Path, monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path):
    monkeypatch.setenv("NBASK_POLICY", "recommended")
    out = tmp_path / "out.ipynb"
    nb = papermill.execute_notebook(str(notebook), str(out), kernel_name="python3", progress_bar=False)
    assert [result["by"] for result in printed_results(nb)] == ["policy"] * 3
    assert len(markdown_outputs(nbformat.read(out, as_version=4))) == 3


def test_run_notebooks_script_executes_every_notebook_under_recommended(tmp_path: pathlib.Path):
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "run_notebooks.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=clean_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = sorted(path.name for path in (REPO / "notebooks").glob("*.ipynb"))
    assert sorted(path.name for path in tmp_path.glob("*.ipynb")) == names
    assert f"{len(names)} of {len(names)} notebooks ran under policy 'recommended'" in proc.stdout


# -- recorded by a person (the fake front end), replayed headless ---------------------------------


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pathlib.Path]:
    """The test notebook answered by a "person" in a real kernel: the JSONL history it saved
    and the notebook as JupyterLab would save it.
    """
    folder = tmp_path_factory.mktemp("recording")
    kernels = ensure_kernelspecs()
    nb = nbformat.v4.new_notebook()
    with KernelHarness(HARNESS_KERNEL, kernel_dirs=[kernels]) as k:
        k.run_ok("import os; os.environ.pop('NBASK_POLICY', None); os.environ.pop('NBASK_REPLAY_FILE', None)")
        for index, source in enumerate(NOTEBOOK_CELLS):
            cell_id = k.execute(source)
            if index:
                comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("_esm") is not None, timeout=20)
                k.update_widget(comm.comm_id, {"_response": PERSON[index - 1]})
            result = k.result(cell_id, timeout=30)
            assert result.ok, result.error_text
            cell = nbformat.v4.new_code_cell(source)
            cell.outputs = outputs_as_saved(result.iopub)
            nb.cells.append(cell)
            k.drain(0.1)
            k.iopub_log.clear()  # the next wait_for_comm_open must see the next widget only
        history = folder / "history.jsonl"
        k.run_ok(f"nbask.save_history({str(history)!r})")
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    saved = folder / "answered.ipynb"
    nbformat.write(nb, saved)
    return {"jsonl": history, "ipynb": saved}


def outputs_as_saved(iopub: list[dict]) -> list[Any]:
    """A cell's outputs as a front end keeps them: update_display_data replaces the output
    with the same display id (JupyterLab saves data and metadata of the update).
    """
    outputs: list[Any] = []
    by_display: dict[str, list[int]] = {}
    for msg in iopub:
        kind = msg["msg_type"]
        if kind not in ("stream", "display_data", "update_display_data", "execute_result", "error"):
            continue
        display_id = msg["content"].get("transient", {}).get("display_id")
        if kind == "update_display_data":
            for index in by_display.get(display_id, []):
                as_display = {**msg, "msg_type": "display_data", "header": {"msg_type": "display_data"}}
                outputs[index] = nbformat.v4.output_from_msg(as_display)
            continue
        if display_id:
            by_display.setdefault(display_id, []).append(len(outputs))
        outputs.append(nbformat.v4.output_from_msg(msg))
    return outputs


def test_the_recording_holds_the_persons_answers_in_jsonl_and_in_the_notebook(recording):
    from_jsonl = load(recording["jsonl"])
    from_notebook = load(recording["ipynb"])
    assert [entry.answered_by for entry in from_jsonl] == ["person"] * 3
    assert [entry.request_id for entry in from_notebook] == [entry.request_id for entry in from_jsonl]
    assert [entry.outcome for entry in from_notebook] == [entry.outcome for entry in from_jsonl]
    nb = json.loads(recording["ipynb"].read_text())
    widget_output = nb["cells"][1]["outputs"][0]
    assert "application/vnd.jupyter.widget-view+json" in widget_output["data"]
    assert "SQLite" in "".join(widget_output["data"]["text/markdown"])
    assert widget_output["metadata"][RECORD_KEY]["answered_by"] == "person"
    assert without(printed_results(nbformat.read(recording["ipynb"], as_version=4)), "by") == PERSON_RESULTS


@pytest.mark.parametrize("source", ["jsonl", "ipynb"])
def test_nbclient_replays_what_the_person_answered(
    recording, source, monkeypatch: pytest.MonkeyPatch, tmp_path, record_testsuite_property
):
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(recording[source]))
    nb, error, seconds = execute(write_notebook(tmp_path / "agent.ipynb"))
    assert error is None, error
    results = printed_results(nb)
    assert without(results, "by") == PERSON_RESULTS
    assert [result["by"] for result in results] == ["replay"] * 3
    summaries = markdown_outputs(nb)
    assert summaries[0].startswith("**nbask** (answered by replay)")
    assert "**Approved by replay**" in summaries[2]
    record_testsuite_property(f"nbclient_replay_{source}_seconds_with_kernel_start", round(seconds, 1))


def test_papermill_replays_from_the_answered_notebook(recording, monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(recording["ipynb"]))
    nb = papermill.execute_notebook(
        str(recording["ipynb"]), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False
    )
    assert without(printed_results(nb), "by") == PERSON_RESULTS


def test_replay_in_another_order_and_a_missing_question_named(recording, monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(recording["ipynb"]))
    cells = [NOTEBOOK_CELLS[0], NOTEBOOK_CELLS[3], NOTEBOOK_CELLS[2], NOTEBOOK_CELLS[1]]
    cells.append('await nbask.ask("A question never recorded?", ["Yes", "No"])')
    nb, error, _ = execute(write_notebook(tmp_path / "reordered.ipynb", cells))
    results = printed_results(nb)
    assert without(results, "by") == [PERSON_RESULTS[2], PERSON_RESULTS[1], PERSON_RESULTS[0]]
    assert error is not None
    assert "ReplayMissing" in error
    assert "'A question never recorded?'" in error


def test_replay_of_a_cell_run_twice_is_a_miss_the_second_time(recording, monkeypatch: pytest.MonkeyPatch, tmp_path):
    # Each recorded answer is used once: a cell asking the same question again, past what was
    # recorded, stops the run naming it instead of handing out the same answer again.
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(recording["ipynb"]))
    cells = [NOTEBOOK_CELLS[0], NOTEBOOK_CELLS[1], NOTEBOOK_CELLS[1]]
    nb, error, _ = execute(write_notebook(tmp_path / "twice.ipynb", cells))
    assert without(printed_results(nb), "by") == [PERSON_RESULTS[0]]
    assert error is not None
    assert "ReplayMissing" in error
    assert "asked again" in error


def test_a_replayed_notebook_can_itself_be_replayed(recording, monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setenv("NBASK_POLICY", "replay")
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(recording["ipynb"]))
    nb, error, _ = execute(write_notebook(tmp_path / "first.ipynb"))
    assert error is None, error
    nbformat.write(nb, tmp_path / "replayed.ipynb")
    entries = entries_in_notebook(json.loads((tmp_path / "replayed.ipynb").read_text()))
    assert [entry.answered_by for entry in entries] == ["replay"] * 3
    monkeypatch.setenv("NBASK_REPLAY_FILE", str(tmp_path / "replayed.ipynb"))
    nb, error, _ = execute(write_notebook(tmp_path / "second.ipynb"))
    assert error is None, error
    assert without(printed_results(nb), "by") == PERSON_RESULTS
