"""Saved notebooks keep each ended request's record (the Markdown summary and the
machine-readable record), not only a widget view that needs the live kernel.

A cell's output of a request is a widget view whose bundle also holds the Markdown summary and,
in its metadata, the record. JupyterLab and Notebook 7 prefer the widget view, and after the
kernel is gone (the server restarted, the notebook reopened the next day) the view has no model
to show: "Error displaying widget: model not found", the decision invisible. So when a notebook
is saved, the widget view of every request that has ended for good is left out of the file: a
reopened notebook, nbconvert and GitHub show the summary. The live page keeps its widget until
it is reloaded. A request that timed out keeps its view, since a late answer may still come
while the kernel lives.
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["WIDGET_VIEW", "keep_records"]

log = logging.getLogger("nbask")

#: The MIME type of a widget view in an output bundle.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The output metadata key of a request's record (``nbask.core.history.RECORD_KEY``): said here as
#: text, so the server loads nothing of nbask's kernel side.
_RECORD_KEY = "nbask"
_LATE_RECORD_KEY = "nbask_late"


def keep_records(model: dict[str, Any], **_: Any) -> None:
    """The server's pre-save hook: leave out the widget view of each ended request's output."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    kept = 0
    for cell in model["content"].get("cells") or []:
        for output in cell.get("outputs") or [] if isinstance(cell, dict) else []:
            if isinstance(output, dict) and _ended_for_good(output):
                del output["data"][WIDGET_VIEW]
                kept += 1
    if kept:
        log.debug("nbask: %d ended request(s) saved as their record", kept)


def _ended_for_good(output: dict[str, Any]) -> bool:
    """An output of a request whose outcome can no longer change, still holding its widget view
    beside the summary that replaces it.
    """
    data, metadata = output.get("data"), output.get("metadata")
    if not isinstance(data, dict) or not isinstance(metadata, dict) or WIDGET_VIEW not in data:
        return False
    record = metadata.get(_RECORD_KEY)
    if not isinstance(record, dict) or not (data.get("text/markdown") or data.get("text/plain")):
        return False
    # A timed-out request may still take a late answer while its kernel lives; one that got it has ended.
    return record.get("status") != "timeout" or _LATE_RECORD_KEY in metadata
