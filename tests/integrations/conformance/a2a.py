"""a2a: no conformance adapter yet (the suite marks its checks xfail)."""

from __future__ import annotations

from .contract import Pending


class Adapter(Pending):
    framework = "a2a"
