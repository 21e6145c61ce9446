"""Fixtures for the VS Code host tests: one jupyter_server for the session, headless Chromium,
and `open_host(...)`, a host page attached to a fresh kernel of the test's ipykernel version.

The page is built (npm ci + esbuild) by tests/vscode/setup.sh the first time; the kernels are
those of scripts/make_kernel_envs.sh. On a failure the report gets every cell's outputs, the
host's log, the page's console errors and the server log's tail; a screenshot and the same
text land in test-artifacts/vscode-<test>.png / .txt.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser.processes import chromium_browser, watch_console  # noqa: F401 - the fixture "browser"
from playwright.sync_api import Browser, BrowserContext, Page

from .host import VSCodeHost
from .server import BUILD, HostServer, ensure_built, ensure_kernelspecs

VIEWPORT = {"width": 1000, "height": 800}
DEFAULT_TIMEOUT_MS = 30_000

#: Every ipykernel the suite knows; the full scenario set runs on the newest, a core set on all.
ALL_KERNELS = ["nbask-ipykernel-6.29", "nbask-ipykernel-7.3", "nbask-ipykernel-7.4"]
FULL_KERNEL = "nbask-ipykernel-7.4"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "vscode: drives nbask in a VS Code-like notebook widget host in Chromium")


# -- session: page build, kernels, server (the browser: browser.processes) -----------------------------------------


@pytest.fixture(scope="session")
def host_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    ensure_built()
    kernel_dirs = ensure_kernelspecs()
    server = HostServer(tmp_path_factory.mktemp("vscode-host"), kernel_dirs)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def axe_source(host_server: HostServer) -> str:
    return (BUILD / "axe.min.js").read_text()


# -- per test: a page and its host -------------------------------------------------------------


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext, request: pytest.FixtureRequest) -> Page:
    pg = context.new_page()
    messages: list[str] = []
    request.node._vscode_console = messages
    watch_console(pg, messages)
    return pg


@pytest.fixture
def kernel_name() -> str:
    """The kernelspec a test runs on; tests parametrize it to run on several ipykernels."""
    return FULL_KERNEL


OpenHost = Callable[..., VSCodeHost]


@pytest.fixture
def open_host(
    host_server: HostServer, page: Page, kernel_name: str, request: pytest.FixtureRequest
) -> Iterator[OpenHost]:
    """`open_host(theme="dark")` starts a kernel, opens the host page on it and returns the host."""
    hosts: list[VSCodeHost] = []
    request.node._vscode_hosts = hosts

    def _open(theme: str = "dark") -> VSCodeHost:
        host = VSCodeHost(page, host_server, kernel_name, theme)
        hosts.append(host)
        return host.open()

    yield _open
    for host in hosts:
        host.close()


# -- failure reports -------------------------------------------------------------------------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when not in ("setup", "call") or not report.failed:
        return
    hosts: list[VSCodeHost] = getattr(item, "_vscode_hosts", [])
    artifacts = item.config.rootpath / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    name = "vscode-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", item.nodeid.split("::", 1)[-1]).strip("-")[:80]
    texts: list[str] = []
    for host in hosts:
        with contextlib.suppress(Exception):
            texts.append(host.describe())
        with contextlib.suppress(Exception):
            host.page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
            texts.append(f"screenshot: {artifacts / f'{name}.png'}")
    console = getattr(item, "_vscode_console", [])
    if console:
        texts.append("browser console:\n" + "\n".join(console[-40:]))
    if hosts:
        texts.append("server log (tail):\n" + hosts[0].server.log_tail(30))
    if texts:
        text = "\n".join(texts)
        (artifacts / f"{name}.txt").write_text(text)
        report.sections.append(("VS Code host state", text))
