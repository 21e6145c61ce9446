"""The live resolver's blocking batch (``resolve_together_sync``) without a kernel: the wait
itself is a stand-in, so the test sees what the cards show at the moment it begins.
"""

from __future__ import annotations

import threading

import pytest

from nbask import waiting
from nbask.core.lifecycle import Resolution
from nbask.kinds import QuestionRequest
from nbask.models import one_question_set
from nbask.resolvers import live
from nbask.widget import InteractionWidget


def test_the_countdowns_start_once_the_blocking_wait_has_begun(monkeypatch: pytest.MonkeyPatch) -> None:
    # A countdown is the sign that an interrupt now ends the wait with its one line (the kernel
    # tests interrupt on it): shown before the wait began, an interrupt there would come out as
    # a traceback through nbask.
    resolutions = [
        Resolution(QuestionRequest(question_set=one_question_set(f"Q{i}?", ["A", "B"]), timeout=60)) for i in range(3)
    ]
    shown: list[InteractionWidget] = []
    monkeypatch.setattr(live, "_display", shown.append)
    deadlines: dict[str, list[float]] = {}

    def interrupted_wait(_done: threading.Event, _timeout: float | None, on_waiting) -> bool:
        deadlines["before"] = [widget._deadline_ms for widget in shown]
        if on_waiting is not None:
            on_waiting()
        deadlines["begun"] = [widget._deadline_ms for widget in shown]
        raise KeyboardInterrupt

    monkeypatch.setattr(waiting, "wait_sync", interrupted_wait)
    with pytest.raises(KeyboardInterrupt):
        live.LiveWidgetResolver().resolve_together_sync(resolutions)
    assert deadlines["before"] == [0.0, 0.0, 0.0]
    assert all(deadline > 0 for deadline in deadlines["begun"])
    assert [r.outcome.status if r.outcome else None for r in resolutions] == ["cancelled"] * 3
