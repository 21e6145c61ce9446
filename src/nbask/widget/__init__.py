"""The widget in the cell: every kind's widget builds on ``base.InteractionWidget`` (the traits
every widget shares, a reply turned into the resolution, the waits), and ``batch`` shows the
batch a request waits in (its heading's counts, and Approve all / Reject all).
"""

from .base import LATE_ANSWER_NOTE, SUMMARIES, InteractionWidget, ShowsRefusals
from .batch import BATCH_ACTIONS, batch_state, follow_batch

__all__ = [
    "BATCH_ACTIONS",
    "LATE_ANSWER_NOTE",
    "SUMMARIES",
    "InteractionWidget",
    "ShowsRefusals",
    "batch_state",
    "follow_batch",
]
