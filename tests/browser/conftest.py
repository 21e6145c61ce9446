"""Fixtures for the real-browser tests: Jupyter servers, headless Chromium, notebooks.

Every scenario runs in JupyterLab and in Jupyter Notebook 7: the session-scoped `frontend`
fixture is parametrized over both, so pytest groups the tests by front end and one server
per front end serves the whole session. Each test writes its own notebook file, opens it in
a fresh browser context and shuts its kernel down afterwards.

On a failure the report gets every cell's prompt and outputs, the page's console errors and
the server log's tail, and a screenshot lands in `test-artifacts/`.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .notebook_page import NotebookPage, write_notebook
from .processes import chromium_browser, watch_console  # noqa: F401 - the fixture "browser"
from .server import JupyterServer

HERE = pathlib.Path(__file__).parent
# NBASK_BROWSER_FRONTENDS=lab runs JupyterLab only (the Colab suite does, see scripts/test.sh).
FRONTENDS = [name for name in os.environ.get("NBASK_BROWSER_FRONTENDS", "lab,notebook7").split(",") if name]
VIEWPORT = {"width": 1280, "height": 900}
DEFAULT_TIMEOUT_MS = 30_000


# -- servers ---------------------------------------------------------------------


@pytest.fixture(scope="session", params=FRONTENDS)
def frontend(request: pytest.FixtureRequest) -> str:
    """Return "lab" or "notebook7". A test that runs in one front end only overrides it with
    `@pytest.mark.parametrize("frontend", ["lab"], indirect=True)`.
    """
    return str(request.param)


@pytest.fixture(scope="session")
def jupyter(frontend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    """The running server for `frontend` (started once, stopped when the session moves on)."""
    server = JupyterServer(frontend, tmp_path_factory.mktemp(f"jupyter-{frontend}"))
    server.start()
    yield server
    server.stop()


# -- pages and notebooks -----------------------------------------------------------


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext, request: pytest.FixtureRequest) -> Page:
    pg = context.new_page()
    _watch_console(pg, request.node)
    return pg


def _watch_console(pg: Page, node: pytest.Item) -> None:
    messages: list[str] = getattr(node, "_nbask_console", [])
    node._nbask_console = messages  # type: ignore[attr-defined]
    watch_console(pg, messages)


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80]


OpenNotebook = Callable[..., NotebookPage]


@pytest.fixture
def open_notebook(
    jupyter: JupyterServer, context: BrowserContext, page: Page, request: pytest.FixtureRequest
) -> Iterator[OpenNotebook]:
    """`open_notebook(cells)` writes a notebook with those cells (source strings, or
    ("markdown", text)), opens it in `page` (or a new page of the same context with
    `new_page=True`), waits for its kernel to be idle and returns a NotebookPage.
    """
    opened: list[NotebookPage] = []
    request.node._nbask_pages = opened  # type: ignore[attr-defined]
    base = _safe_name(request.node.name)

    def _open(
        cells: Sequence[str | tuple[str, str]], *, name: str | None = None, new_page: bool = False
    ) -> NotebookPage:
        path = f"{_safe_name(name or base)}-{uuid.uuid4().hex[:6]}.ipynb"
        write_notebook(jupyter.root_dir / path, cells)
        target = page
        if new_page or any(nb.page is page for nb in opened):
            target = context.new_page()
            _watch_console(target, request.node)
        nb = NotebookPage(target, jupyter, path)
        opened.append(nb)
        return nb.open()

    yield _open

    for nb in opened:
        with contextlib.suppress(Exception):
            nb.page.close()
        jupyter.shutdown_sessions(nb.path)


# -- axe-core ------------------------------------------------------------------


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe.min.js from tests/browser/node_modules (installed from tests/browser/package.json)."""
    script = HERE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("axe-core is not installed and npm is missing: run `npm ci` in tests/browser")
        lock = HERE / "package-lock.json"
        cmd = [npm, "ci" if lock.is_file() else "install", "--no-audit", "--no-fund", "--ignore-scripts"]
        done = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not script.is_file():
            pytest.fail(f"`{' '.join(cmd)}` in {HERE} failed:\n{done.stdout}\n{done.stderr}")
    return script.read_text()


# -- failure reports -------------------------------------------------------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when not in ("setup", "call") or not report.failed:
        return
    pages: list[NotebookPage] = getattr(item, "_nbask_pages", [])
    artifacts = item.config.rootpath / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    name = _safe_name(item.nodeid.split("::", 1)[-1])
    texts: list[str] = []
    for i, nb in enumerate(pages):
        texts.append(nb.describe_cells())
        shot = artifacts / f"{name}{'' if i == 0 else f'-{i}'}.png"
        try:
            nb.page.screenshot(path=str(shot), full_page=True)
            texts.append(f"screenshot: {shot}")
        except Exception as error:
            texts.append(f"(no screenshot: {error})")
    console = getattr(item, "_nbask_console", [])
    if console:
        texts.append("browser console:\n" + "\n".join(console[-40:]))
    server: JupyterServer | None = pages[0].server if pages else None
    if server is not None:
        texts.append("server log (tail):\n" + server.log_tail(40))
    if texts:
        text = "\n".join(texts)
        (artifacts / f"{name}.txt").write_text(text)
        # Shown under the failure in pytest's report.
        report.sections.append(("nbask browser state", text))
