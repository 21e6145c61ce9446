"""What the real-browser suites share about their processes: Debian's Chromium and how it is
launched here, a free loopback port, and stopping a Jupyter server we started.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import urllib.error
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Playwright

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
        proc.terminate()
        try:
            proc.wait(timeout=10.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10.0)
