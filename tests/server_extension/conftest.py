"""The one Chromium every browser test of the server extension shares (Playwright's sync API
allows one session per process): imported here, so both modules take the same fixture.
"""

from __future__ import annotations

from support.processes import chromium_browser

__all__ = ["chromium_browser"]  # the ``browser`` fixture
