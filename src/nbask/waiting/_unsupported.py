"""``WaitingUnsupported``, in a module of its own: importing it loads neither pyzmq nor ipykernel."""

from __future__ import annotations


class WaitingUnsupported(RuntimeError):
    """No strategy can receive widget messages here, so waiting would hang."""
