"""Fixtures for nbask in JupyterLite: the site (built by scripts/lite.sh), a static server on
127.0.0.1, and one JupyterLite page in headless Chromium whose Pyodide kernel the tests share
(a kernel takes 20-30 s to start, so the module keeps one).

Every request the page makes to anywhere but the local server is aborted and recorded: the
site must work with no network. On a failure the report gets the page's console (the Pyodide
worker's included) and a screenshot in test-artifacts/.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser.processes import chromium_browser, end_process, free_port  # noqa: F401 - the fixture "browser"
from playwright.sync_api import Browser

from .lite_page import LitePage

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
#: The empty notebook the tests add their cells to; "python" is the Pyodide kernel's name.
LITE_NOTEBOOK = "lite.ipynb"
QUICKSTART = ROOT / "notebooks" / "01_quickstart.ipynb"
BUILD_TIMEOUT_S = 900


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The site, built from this checkout with scripts/lite.sh (downloads cached in .venvs/)."""
    work = tmp_path_factory.mktemp("lite")
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ""}],
        "metadata": {"kernelspec": {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (work / LITE_NOTEBOOK).write_text(json.dumps(notebook), "utf-8")
    site = work / "site"
    started = time.monotonic()
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "lite.sh"), "--out", str(site), str(work / LITE_NOTEBOOK), str(QUICKSTART)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"scripts/lite.sh failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    size = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
    print(  # noqa: T201 - the build's time and size are reported figures
        f"\nlite: site built in {time.monotonic() - started:.0f} s, {size / 1e6:.0f} MB", file=sys.stderr
    )
    return site


@contextmanager
def served(folder: pathlib.Path, probe: str) -> Iterator[str]:
    """``folder`` served on 127.0.0.1 until the block ends (ours: stopped by its own handle);
    yields its URL once ``probe`` (a path in it) answers.
    """
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/{probe}", timeout=2):  # noqa: S310 - our own http URL
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the static server for {folder} did not start")
                time.sleep(0.2)
        yield url
    finally:
        end_process(proc)


@pytest.fixture(scope="session")
def lite_url(lite_site: pathlib.Path) -> Iterator[str]:
    """A static server for the site on 127.0.0.1."""
    with served(lite_site, "jupyter-lite.json") as url:
        yield url


@pytest.fixture(scope="module")
def lite(browser: Browser, lite_url: str) -> Iterator[LitePage]:
    """The test notebook open in JupyterLite with its Pyodide kernel started and idle."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = LitePage(context, lite_url)
    page.open(LITE_NOTEBOOK)
    yield page
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    page: LitePage | None = getattr(item, "funcargs", {}).get("lite")
    if page is None:
        return
    texts = ["console (last 40 lines):", *page.console[-40:]]
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"lite-{item.name}.png"
        page.page.screenshot(path=str(shot), full_page=True)
        texts.append(f"screenshot: {shot}")
    except Exception as error:
        texts.append(f"(no screenshot: {error})")
    report.sections.append(("JupyterLite page", "\n".join(texts)))
