"""What the real-browser suites share about their processes: Debian's Chromium and how it is
launched here (the session's ``browser`` fixture, which each suite's conftest imports, and a
page's console errors collected for the failure report), a free loopback port, and stopping a
Jupyter server we started.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import urllib.error
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

CHROMIUM = os.environ.get("NBASK_TEST_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling hosts this closed network refuses.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(driver: Playwright) -> Browser:
    """Debian's Chromium through Playwright (never a downloaded browser)."""
    if not os.path.exists(CHROMIUM):  # noqa: PTH110 - a path from the environment, checked as given
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium, or set NBASK_TEST_CHROMIUM)")
    return driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session", name="browser")
def chromium_browser() -> Iterator[Browser]:
    """The fixture ``browser``: Debian's Chromium, one for the test session."""
    with sync_playwright() as driver:
        chromium = launch_chromium(driver)
        yield chromium
        chromium.close()


def watch_console(page: Page, messages: list[str]) -> None:
    """Collect the page's console errors and warnings and its uncaught errors into ``messages``."""

    def on_console(msg: Any) -> None:
        if msg.type in ("error", "warning"):
            messages.append(f"[{msg.type}] {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: messages.append(f"[pageerror] {error}"))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_server(proc: subprocess.Popen[bytes], shut_down: Callable[[], None], timeout: float = 30.0) -> None:
    """Ask the server to end (``shut_down``: its kernels, then POST /api/shutdown); a server that
    does not is ended by its own handle — only our own child, never by name.
    """
    if proc.poll() is not None:
        return
    with contextlib.suppress(urllib.error.URLError, OSError):
        shut_down()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_process(proc)


def end_process(proc: subprocess.Popen[bytes]) -> None:
    """End our own child by its handle: terminate, and kill it if it has not ended in 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10.0)
