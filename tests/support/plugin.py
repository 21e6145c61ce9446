"""The pytest plugin every test gets (registered by tests/conftest.py): the one failure report of a
test that drove a page, axe-core for the accessibility checks, and the markers a test earns by the
real parts it uses.

A fixture that opens a page registers it with `watch(item, view)`; when the test fails (in set-up
or in its body), the report gets each view's state (its cells and outputs), the page's console and
its server's log, and a screenshot and the same text land in test-artifacts/<test>.png / .txt.
"""

from __future__ import annotations

import contextlib
import pathlib
import re
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any, Protocol

import pytest

AXE_DIR = pathlib.Path(__file__).resolve().parent / "axe"
#: The fixtures that start a real part, and the marker a test using one gets, so that
#: `-m browser`, `-m vscode`, `-m lite` select by what a test needs, not by where it lives.
MARK_BY_FIXTURE = {"open_notebook": "browser", "jupyter": "browser", "open_host": "vscode", "lite": "lite"}


class View(Protocol):
    """A page a test drove: JupyterLab / Notebook 7, the VS Code host, or JupyterLite."""

    page: Any

    def describe(self) -> str:
        """Every cell's prompt and outputs, as text."""

    def log_tail(self, lines: int) -> str:
        """The last lines of its server's log ("" when it has none)."""


def watch(item: pytest.Item, view: View, console: list[str]) -> None:
    """Put `view` (and the list its page's console lines go to) in `item`'s failure report."""
    item.stash.setdefault(_VIEWS, []).append((view, console))


_VIEWS = pytest.StashKey[list[tuple[View, list[str]]]]()


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, mark in MARK_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(mark)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    views = item.stash.get(_VIEWS, [])
    if report.when not in ("setup", "call") or not report.failed or not views:
        return
    artifacts = item.config.rootpath / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    name = safe_name(item.nodeid.split("::", 1)[-1])
    texts: list[str] = []
    for i, (view, console) in enumerate(views):
        with contextlib.suppress(Exception):
            texts.append(view.describe())
        shot = artifacts / f"{name}{'' if i == 0 else f'-{i}'}.png"
        try:
            view.page.screenshot(path=str(shot), full_page=True)
            texts.append(f"screenshot: {shot}")
        except Exception as error:
            texts.append(f"(no screenshot: {error})")
        if console:
            texts.append("browser console:\n" + "\n".join(console[-40:]))
    with contextlib.suppress(Exception):
        log = views[0][0].log_tail(40)
        if log:
            texts.append("server log (tail):\n" + log)
    text = "\n".join(texts)
    (artifacts / f"{name}.txt").write_text(text)
    report.sections.append(("nbask page state", text))  # shown under the failure


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe.min.js from tests/support/axe (npm, its exact version in package.json)."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("axe-core is not installed and npm is missing: run `npm ci` in tests/support/axe")
        cmd = [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"]
        done = subprocess.run(cmd, cwd=AXE_DIR, capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0 or not script.is_file():
            pytest.fail(f"`{' '.join(cmd)}` in {AXE_DIR} failed:\n{done.stdout}\n{done.stderr}")
    return script.read_text()
