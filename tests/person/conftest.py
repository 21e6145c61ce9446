"""Fixtures for the widget as a person meets it, in real hosts driven by headless Chromium:
JupyterLab and Notebook 7 (a Jupyter server per front end for the session; `open_notebook`),
VS Code's widget host (the extension's ipywidgets 8 bundle on a page of our own over one
jupyter_server; `open_host`) and JupyterLite (a site built offline; `lite`).

`host` runs one scenario in each host: a module lists where its scenarios run in `HOSTS` (by
default JupyterLab, Notebook 7 and VS Code); a test that a host cannot run skips there, saying why.
The marker of each (browser, vscode, lite) comes with the host, so scripts/test.sh picks suites by
marker. NBASK_BROWSER_FRONTENDS=lab runs JupyterLab only (the colab-web suite does).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from support.hosts import Host, JupyterHost, VSCodeWidgetHost
from support.jupyter import JupyterServer
from support.lite_host import LiteHost
from support.lite_page import LitePage
from support.notebook_page import NotebookPage, write_notebook
from support.plugin import safe_name, watch
from support.processes import chromium_browser, end_process, free_port, watch_console  # noqa: F401 - the fixture "browser"
from support.vscode.host import VSCodeHost
from support.vscode.server import FULL_KERNEL, HostServer, ensure_built, ensure_kernelspecs

ROOT = pathlib.Path(__file__).resolve().parents[2]
FRONTENDS = [name for name in os.environ.get("NBASK_BROWSER_FRONTENDS", "lab,notebook7").split(",") if name]
VIEWPORT = {"width": 1280, "height": 900}
VSCODE_VIEWPORT = {"width": 1000, "height": 800}
DEFAULT_TIMEOUT_MS = 30_000
#: How long an ``expect`` waits (Playwright's own default is 5 s): when the browser lane runs
#: beside the kernel suites, two cores can take longer than that to show a widget's text.
expect.set_options(timeout=15_000)

#: Each host a scenario can run in, the marker that selects it, and (VS Code) its kernel.
HOST_MARKS = {
    "lab": "browser",
    "notebook7": "browser",
    "vscode": "vscode",
    "vscode-7.3": "vscode",
    "vscode-6.29": "vscode",
    "lite": "lite",
}
VSCODE_KERNELS = {"vscode": FULL_KERNEL, "vscode-7.3": "nbask-ipykernel-7.3", "vscode-6.29": "nbask-ipykernel-6.29"}
DEFAULT_HOSTS = ("lab", "notebook7", "vscode")
#: The empty notebook JupyterLite's tests add their cells to; "python" is the Pyodide kernel's name.
LITE_NOTEBOOK = "lite.ipynb"
QUICKSTART = ROOT / "notebooks" / "01_quickstart.ipynb"
LITE_BUILD_TIMEOUT_S = 900


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`host` tests run once per host of their module's HOSTS; other tests that open a notebook
    run in each of FRONTENDS unless they name their front end themselves.
    """
    if "frontend" not in metafunc.fixturenames:
        return
    if any("frontend" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")):
        return
    if "host" in metafunc.fixturenames:
        hosts = getattr(metafunc.module, "HOSTS", DEFAULT_HOSTS)
        hosts = [h for h in hosts if HOST_MARKS[h] != "browser" or h in FRONTENDS]
        params = [pytest.param(h, marks=getattr(pytest.mark, HOST_MARKS[h]), id=h) for h in hosts]
    else:
        params = [pytest.param(f, id=f) for f in FRONTENDS]
    metafunc.parametrize("frontend", params, indirect=True, scope="session")


@pytest.fixture(scope="session")
def frontend(request: pytest.FixtureRequest) -> str:
    """Where the test runs: "lab" or "notebook7" (a test in one front end only says
    `@pytest.mark.parametrize("frontend", ["lab"], indirect=True)`), or a host of HOST_MARKS.
    """
    return str(request.param)


@pytest.fixture
def host(frontend: str, request: pytest.FixtureRequest) -> Host:
    """The scenario's host: its notebook is opened by the scenario (`host.open(cells)`)."""
    if frontend in ("lab", "notebook7"):
        return JupyterHost(request.getfixturevalue("open_notebook"), frontend)
    if frontend in VSCODE_KERNELS:
        open_host = request.getfixturevalue("open_host")
        return VSCodeWidgetHost(lambda: open_host(kernel=VSCODE_KERNELS[frontend]))
    lite: LitePage = request.getfixturevalue("lite")
    return LiteHost(lite)


# -- JupyterLab and Notebook 7 ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def jupyter(frontend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    """The running server for `frontend` (started once, stopped when the session moves on)."""
    server = JupyterServer(frontend, tmp_path_factory.mktemp(f"jupyter-{frontend}"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    in_vscode = "open_host" in request.fixturenames or str(
        getattr(getattr(request.node, "callspec", None), "params", {}).get("frontend", "")
    ).startswith("vscode")
    ctx = browser.new_context(viewport=VSCODE_VIEWPORT if in_vscode else VIEWPORT)
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def console(request: pytest.FixtureRequest) -> list[str]:
    """The console errors of every page the test opens (for the failure report)."""
    return []


@pytest.fixture
def page(context: BrowserContext, console: list[str]) -> Page:
    pg = context.new_page()
    watch_console(pg, console)
    return pg


OpenNotebook = Callable[..., NotebookPage]


@pytest.fixture
def open_notebook(
    jupyter: JupyterServer, context: BrowserContext, page: Page, console: list[str], request: pytest.FixtureRequest
) -> Iterator[OpenNotebook]:
    """`open_notebook(cells)` writes a notebook with those cells (source strings, or
    ("markdown", text)), opens it in `page` (or a new page of the same context with
    `new_page=True`), waits for its kernel to be idle and returns a NotebookPage.
    """
    opened: list[NotebookPage] = []
    base = safe_name(request.node.name)

    def _open(
        cells: Sequence[str | tuple[str, str]], *, name: str | None = None, new_page: bool = False
    ) -> NotebookPage:
        path = f"{safe_name(name or base)}-{uuid.uuid4().hex[:6]}.ipynb"
        write_notebook(jupyter.root_dir / path, cells)
        target = page
        if new_page or any(nb.page is page for nb in opened):
            target = context.new_page()
            watch_console(target, console)
        nb = NotebookPage(target, jupyter, path)
        opened.append(nb)
        watch(request.node, nb, console)
        return nb.open()

    yield _open

    for nb in opened:
        with contextlib.suppress(Exception):
            nb.page.close()
        jupyter.shutdown_sessions(nb.path)


# -- VS Code's widget host ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def host_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    ensure_built()
    kernel_dirs = ensure_kernelspecs()
    server = HostServer(tmp_path_factory.mktemp("vscode-host"), kernel_dirs)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def kernel_name() -> str:
    """The kernelspec a VS Code host test runs on; tests parametrize it to run on several ipykernels."""
    return FULL_KERNEL


OpenHost = Callable[..., VSCodeHost]


@pytest.fixture
def open_host(
    host_server: HostServer, page: Page, console: list[str], kernel_name: str, request: pytest.FixtureRequest
) -> Iterator[OpenHost]:
    """`open_host(theme="dark")` starts a kernel, opens the host page on it and returns the host."""
    hosts: list[VSCodeHost] = []

    def _open(theme: str = "dark", kernel: str | None = None) -> VSCodeHost:
        opened = VSCodeHost(page, host_server, kernel or kernel_name, theme)
        hosts.append(opened)
        watch(request.node, opened, console)
        return opened.open()

    yield _open
    for opened in hosts:
        opened.close()


# -- JupyterLite -------------------------------------------------------------------------------------


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
        timeout=LITE_BUILD_TIMEOUT_S,
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
    """The test notebook open in JupyterLite with its Pyodide kernel started and idle (a kernel
    takes 20-30 s to start, so a module's tests share one).
    """
    context = browser.new_context(viewport=VIEWPORT)
    page = LitePage(context, lite_url)
    page.open(LITE_NOTEBOOK)
    yield page
    context.close()
    # Every module on the page ends with this check: the site works with no network.
    assert page.offsite == [], f"requests that tried to leave 127.0.0.1: {page.offsite}"


@pytest.fixture(autouse=True)
def _report_lite(request: pytest.FixtureRequest) -> None:
    """A test on the JupyterLite page gets the page in its failure report."""
    if "lite" in request.fixturenames or request.node.get_closest_marker("lite"):
        with contextlib.suppress(pytest.FixtureLookupError):
            lite: LitePage = request.getfixturevalue("lite")
            watch(request.node, lite, lite.console)
