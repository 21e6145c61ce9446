"""The documentation site in Chromium: its "Try it live" page runs nbask in JupyterLite, built
from this checkout inside the site, and a reader answers a real question there and sees the same
cell resume; the main pages pass axe (serious and critical) in the light and the dark theme, and
show the screenshot of their theme only.

The site is the one ``scripts/docs.sh`` built into docs/_build/html (the docs-site suite of
scripts/test.sh runs it before this one); if there is none yet it is built here.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Frame, Page, expect
from support.ask_widget import run_axe_serious
from support.lite_page import KERNEL_IDLE, KERNEL_TIMEOUT_MS

from .conftest import served

pytestmark = pytest.mark.lite

ROOT = pathlib.Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"
AXE = ROOT / "tests" / "support" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
QUICKSTART = "01_quickstart.ipynb"
MAIN_PAGES = [
    "index.html",
    "get-started.html",
    "how-to/frameworks/index.html",
    "how-to/headless.html",
    "reference/api.html",
]


@pytest.fixture(scope="module")
def docs_url() -> Iterator[str]:
    """The built site, served on 127.0.0.1 (built first when there is none)."""
    if not (SITE / "lite" / "jupyter-lite.json").is_file():
        # Not inside pytest's environment: ipykernel would leave the notebooks' stderr without a
        # file descriptor there, and the MCP example's stdio server could not inherit it.
        env = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "docs.sh")], capture_output=True, text=True, check=False, env=env
        )
        if done.returncode != 0:
            pytest.fail(f"scripts/docs.sh failed ({done.returncode}):\n{done.stderr[-4000:]}")
    with served(SITE, "index.html") as url:
        yield url


@pytest.fixture(scope="module")
def axe_script() -> str:
    if not AXE.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("axe-core is not installed and npm is missing: run `npm ci` in tests/support/axe")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=AXE.parents[2], check=True)
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def page(browser: Browser, docs_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offsite: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith((f"{docs_url}/", "data:", "blob:")):
            route.continue_()
        else:
            offsite.append(url)
            route.abort()

    context.route("**/*", guard)
    yield context.new_page()
    context.close()
    assert offsite == [], f"the site asked for something elsewhere: {offsite[:5]}"


def lite_frame(page: Page) -> Frame:
    """The live page's JupyterLite frame, once its notebook's kernel is idle."""
    expect(page.locator("iframe.nbask-try")).to_be_visible()
    deadline = time.monotonic() + 60
    while True:
        frame = next((f for f in page.frames if "/lite/lab/" in f.url), None)
        if frame is not None:
            break
        assert time.monotonic() < deadline, "the live page has no JupyterLite frame"
        page.wait_for_timeout(200)
    frame.wait_for_function(KERNEL_IDLE, arg=QUICKSTART, timeout=KERNEL_TIMEOUT_MS)
    return frame


def run_cell(frame: Frame, index: int) -> None:
    frame.evaluate(
        """(index) => {
          const app = window.jupyterapp;
          const notebook = app.shell.currentWidget.content;
          notebook.activeCellIndex = index;
          notebook.deselectAll();
          void app.commands.execute('notebook:run-cell');
        }""",
        index,
    )


def test_the_live_page_answers_a_question_and_the_same_cell_resumes(page: Page, docs_url: str):
    page.goto(f"{docs_url}/try.html")
    expect(page.get_by_role("heading", name="Try it live")).to_be_visible()
    frame = lite_frame(page)
    run_cell(frame, 1)  # import nbask
    run_cell(frame, 3)  # the question
    cell = frame.locator(".jp-Notebook .jp-Cell").nth(3)
    widget = cell.locator(".jp-OutputArea .nbask").last
    expect(widget).to_have_attribute("data-status", "pending", timeout=KERNEL_TIMEOUT_MS)
    widget.get_by_role("radio", name="SQLite").check()
    widget.get_by_role("button", name="Submit").click()
    expect(cell.locator(".jp-OutputArea")).to_contain_text(
        "answered {'Which database should the app use?': 'SQLite'}", timeout=60_000
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("path", MAIN_PAGES)
def test_main_pages_pass_axe_in_both_themes(page: Page, docs_url: str, axe_script: str, path: str, theme: str):
    page.emulate_media(color_scheme=theme)  # the site follows the reader's system theme (mode "auto")
    page.goto(f"{docs_url}/{path}")
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    page.add_script_tag(content=axe_script)
    assert run_axe_serious(page, page.locator("body")) == []
    # A screenshot pair shows the picture of the page's theme only.
    other = "dark" if theme == "light" else "light"
    for image in page.locator(f"img.only-{other}").all():
        expect(image).to_be_hidden()
    for image in page.locator(f"img.only-{theme}").all():
        expect(image).to_be_visible()


def test_the_landing_page_leads_to_each_part_of_the_site(page: Page, docs_url: str):
    for link, heading in (
        ("Get started", "Get started"),
        ("try it live", "Try it live"),
        ("Agent frameworks", "Agent frameworks"),
        ("Headless runs", "Headless runs"),
        ("API reference", "API reference"),
    ):
        page.goto(f"{docs_url}/index.html")
        page.get_by_role("main").get_by_role("link", name=link, exact=True).first.click()
        expect(page.get_by_role("main").get_by_role("heading", level=1)).to_contain_text(heading)
