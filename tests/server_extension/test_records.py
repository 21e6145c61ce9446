"""nbask's Jupyter server extension: a saved notebook keeps each ended request's record and
summary, not the widget view that needs a live kernel; what may still change keeps its view.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from nbask.server_extension import WIDGET_VIEW, keep_records

VIEW = {"model_id": "abc", "version_major": 2, "version_minor": 0}


def output(status: str | None, **metadata: Any) -> dict[str, Any]:
    record = {"nbask": {"kind": "question", "status": status}} if status is not None else {}
    return {
        "output_type": "display_data",
        "data": {WIDGET_VIEW: dict(VIEW), "text/markdown": "**nbask question** …", "text/plain": "…"},
        "metadata": {**record, **metadata},
    }


def notebook(*outputs: dict[str, Any]) -> dict[str, Any]:
    cells = [{"cell_type": "code", "source": "", "outputs": list(outputs), "metadata": {}}]
    return {"type": "notebook", "content": {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}


def saved_mimes(model: dict[str, Any]) -> list[list[str]]:
    keep_records(model, path="a.ipynb", contents_manager=None)
    return [sorted(o["data"]) for o in model["content"]["cells"][0]["outputs"]]


def test_an_ended_request_is_saved_as_its_record_and_summary():
    assert (
        saved_mimes(notebook(output("answered"), output("dismissed"), output("cancelled")))
        == [["text/markdown", "text/plain"]] * 3
    )


def test_what_may_still_change_and_what_is_not_nbasks_keep_the_widget_view():
    timed_out = output("timeout")
    late_answered = output("timeout", nbask_late={"status": "answered"})
    someone_elses = output(None)
    kept = saved_mimes(notebook(timed_out, late_answered, someone_elses))
    assert kept[0] == sorted([WIDGET_VIEW, "text/markdown", "text/plain"])  # a late answer may come
    assert kept[1] == ["text/markdown", "text/plain"]  # it came: ended
    assert kept[2] == sorted([WIDGET_VIEW, "text/markdown", "text/plain"])


def test_files_and_odd_models_are_left_as_they_are():
    for model in ({"type": "file", "content": "x"}, {"type": "notebook", "content": None}, {}):
        before = copy.deepcopy(model)
        keep_records(model)
        assert model == before
    odd = notebook({"output_type": "stream", "text": "hi"}, {"output_type": "display_data", "data": None})
    before = copy.deepcopy(odd)
    keep_records(odd)
    assert odd == before


def test_installing_nbask_enables_the_extension_in_its_environment():
    listed = subprocess.run(
        [sys.executable, "-m", "jupyter", "server", "extension", "list"], capture_output=True, text=True, timeout=120
    )
    text = listed.stdout + listed.stderr
    assert "nbask.server_extension" in text
    assert "nbask.server_extension  OK" in text.replace("\x1b[32m", "").replace("\x1b[0m", "")
    config = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "nbask.json"
    assert json.loads(config.read_text())["ServerApp"]["jpserver_extensions"] == {"nbask.server_extension": True}
