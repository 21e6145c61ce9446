"""What nbask reads of LlamaIndex's internals, in one place: a running handler's workflow and
that workflow's own timeout (both private in LlamaIndex), so a request waits no longer than the
run may last. ``check`` says when a release moved them.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version

from workflows import Workflow
from workflows.handler import WorkflowHandler

from ...errors import FrameworkChanged

__all__ = ["check", "workflow_timeout"]


def workflow_timeout(handler: WorkflowHandler) -> object:
    """The timeout (seconds) of the workflow ``handler`` runs, as LlamaIndex keeps it, or None."""
    return getattr(getattr(handler, "_workflow", None), "_timeout", None)


def check() -> None:
    """Raise ``FrameworkChanged`` if this LlamaIndex no longer keeps what ``workflow_timeout`` reads."""
    missing = [
        where
        for where, source, name in (
            ("WorkflowHandler._workflow", inspect.getsource(WorkflowHandler), "self._workflow"),
            ("Workflow._timeout", inspect.getsource(Workflow), "self._timeout"),
        )
        if name not in source
    ]
    if missing:
        msg = (
            f"llama-index-workflows {version('llama-index-workflows')}: moved {', '.join(missing)}, so a "
            "request no longer knows when LlamaIndex ends the workflow's run (it waits its own timeout)"
        )
        raise FrameworkChanged(msg)
