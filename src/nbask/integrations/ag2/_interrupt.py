"""How a wait inside AG2's turn ends on a kernel interrupt: ``Interrupted``, an AG2
``HumanInputError``, which ends the turn.
"""

from __future__ import annotations

from typing import TypeVar

from ag2.exceptions import HumanInputError

from ... import errors
from .. import _seam, _texts

T = TypeVar("T")


class Interrupted(errors.Interrupted, HumanInputError):
    """A kernel interrupt while nbask waited for the person: AG2 ends the turn with it."""

    def __init__(self) -> None:
        super().__init__(_texts.INTERRUPTED)


async def asked(asking: _seam.Asking[T]) -> T:
    """The outcome of ``asking``, driven on the turn's loop; a kernel interrupt raises
    ``Interrupted``, which ends AG2's turn.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _seam.drive_or_raise(asking, Interrupted)
