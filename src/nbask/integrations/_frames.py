"""Finding the frame of a framework's own code on the caller's stack: for the integrations whose
framework calls nbask's callback without what it needs to show (the messages, the call id), and
only from their ``_compat`` modules, where each such read is said once and checked.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import CodeType, FrameType

__all__ = ["frame_running"]


def frame_running(
    wanted: Callable[[CodeType, dict[str, object]], bool], frame: FrameType | None = None
) -> FrameType | None:
    """The nearest frame below the caller's (or from ``frame``) whose code and globals are
    ``wanted``, or None.
    """
    current: FrameType | None = frame if frame is not None else sys._getframe(2)  # noqa: SLF001 - a stack walk is the point
    while current is not None:
        if wanted(current.f_code, current.f_globals):
            return current
        current = current.f_back
    return None
