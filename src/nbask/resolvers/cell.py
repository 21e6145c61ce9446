"""What a request decided at once, without a person, leaves in its cell: its Markdown summary,
with the machine-readable record in the output's metadata, so a saved notebook shows what was
decided and by whom (and can itself be replayed).
"""

from __future__ import annotations

from typing import Any

from IPython.display import display

from .. import host
from ..core.history import RECORD_KEY, record_of
from ..core.lifecycle import Request
from ..kinds import RequestKind
from ..models import Outcome


def show_in_cell(kind: RequestKind[Any, Any], request: Request[Any], outcome: Outcome) -> None:
    """In a kernel: the outcome's Markdown summary as cell output, the record in its metadata."""
    if not host.in_kernel():
        return
    text = kind.summary(request, outcome)
    display(  # type: ignore[no-untyped-call]
        {"text/markdown": text, "text/plain": text},
        raw=True,
        metadata={RECORD_KEY: record_of(request, outcome)},
    )
