"""``WaitingUnsupported`` for the waiting engine's modules: importing it loads neither pyzmq nor
ipykernel. It lives with every other exception in ``nbask.errors``.
"""

from __future__ import annotations

from ..errors import WaitingUnsupported

__all__ = ["WaitingUnsupported"]
