"""Drive one notebook open in JupyterLab or Jupyter Notebook 7 through Playwright.

Everything waits on something visible: prompts (`[*]:` then `[n]:`), output text, roles,
the kernel status indicator, the widget's `data-status`. No fixed sleeps.
"""

from __future__ import annotations

import json
import pathlib
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

import nbformat
from playwright.sync_api import Locator, Page, expect

from .jupyter import KERNEL_DISPLAY_NAME, KERNEL_NAME, JupyterServer

# Generous bounds: a 2-core machine starting a kernel while another test's kernel shuts down.
KERNEL_TIMEOUT_MS = 60_000
RUN_TIMEOUT_MS = 30_000

DONE_PROMPT = re.compile(r"^\[\d+\]:$")


def write_notebook(path: pathlib.Path, cells: Iterable[str | tuple[str, str]]) -> None:
    """Write a notebook whose kernelspec is the test kernel. A cell is source text (code)
    or ("markdown", text).
    """
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": KERNEL_NAME,
        "display_name": KERNEL_DISPLAY_NAME,
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    for cell in cells:
        if isinstance(cell, tuple):
            kind, text = cell
            nb.cells.append(
                nbformat.v4.new_markdown_cell(text) if kind == "markdown" else nbformat.v4.new_code_cell(text)
            )
        else:
            nb.cells.append(nbformat.v4.new_code_cell(cell))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))


class NotebookPage:
    """One notebook document shown in one browser page."""

    def __init__(self, page: Page, server: JupyterServer, path: str) -> None:
        self.page = page
        self.server = server
        self.path = path
        self.frontend = server.frontend
        # JupyterLab restores a workspace's open documents on load; a workspace of our own
        # keeps other tests' notebooks (and their kernels) out of this page.
        self.workspace = f"t-{uuid.uuid4().hex[:10]}"

    # -- opening -----------------------------------------------------------------

    @property
    def url(self) -> str:
        if self.frontend == "lab":
            return f"{self.server.base_url}/lab/workspaces/{self.workspace}/tree/{self.path}"
        return self.server.app_url(self.path)

    def open(self) -> NotebookPage:
        # Start the notebook's kernel session through the REST API first, so the kernel
        # boots while the page loads; the page then attaches to that session, as it does
        # for a notebook whose kernel is already running.
        self.server.api(
            "POST",
            "/api/sessions",
            {"path": self.path, "name": self.path, "type": "notebook", "kernel": {"name": KERNEL_NAME}},
            timeout=KERNEL_TIMEOUT_MS / 1000,
        )
        self.page.goto(self.server.login_url(self.url))
        self.wait_loaded()
        self.wait_kernel_idle()
        return self

    def wait_loaded(self) -> None:
        expect(self.cells.first).to_be_visible(timeout=KERNEL_TIMEOUT_MS)

    def kernel_status(self) -> str | None:
        return self.panel.locator(".jp-Notebook-ExecutionIndicator").first.get_attribute("data-status")

    def wait_kernel_status(self, status: str, timeout: float = KERNEL_TIMEOUT_MS) -> None:
        expect(self.panel.locator(".jp-Notebook-ExecutionIndicator").first).to_have_attribute(
            "data-status", status, timeout=timeout
        )

    def wait_kernel_idle(self, timeout: float = KERNEL_TIMEOUT_MS) -> None:
        """The page is connected to this notebook's kernel and the kernel is idle.

        The toolbar's indicator reads "idle" before any kernel exists, then goes through
        initializing / connecting / unknown / busy; so first wait (bounded poll of the REST
        API) until the server has this notebook's session with a connected, idle kernel,
        then for the page's indicator to say idle.
        """
        self.wait_kernel_connected(timeout)
        self.wait_kernel_status("idle", timeout)

    def wait_kernel_connected(self, timeout: float = KERNEL_TIMEOUT_MS) -> dict[str, Any]:
        deadline = time.monotonic() + timeout / 1000
        kernel: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            kernel = self.server.kernel_for(self.path)
            if (
                kernel
                and kernel.get("connections", 0) >= 1
                and kernel.get("execution_state")
                not in (
                    "starting",
                    "restarting",
                    "dead",
                )
            ):
                return kernel
            self.page.wait_for_timeout(100)  # poll interval of a server-side state, not a delay
        raise AssertionError(f"no connected kernel for {self.path} within {timeout} ms (last: {kernel})")

    def reload(self) -> None:
        """Reload the page (same URL: Lab restores its workspace, Notebook 7 reopens the file)."""
        self.page.reload()
        self.wait_loaded()

    # -- locators ----------------------------------------------------------------

    @property
    def panel(self) -> Locator:
        return self.page.locator(".jp-NotebookPanel:visible").first

    @property
    def notebook(self) -> Locator:
        return self.panel.locator(".jp-Notebook").first

    @property
    def cells(self) -> Locator:
        return self.notebook.locator(".jp-Cell")

    def cell(self, index: int) -> Locator:
        return self.cells.nth(index)

    def prompt(self, index: int) -> Locator:
        return self.cell(index).locator(".jp-InputArea-prompt")

    def output_area(self, index: int) -> Locator:
        return self.cell(index).locator(".jp-Cell-outputArea")

    def widget(self, index: int, nth: int = 0) -> Locator:
        """The nbask widget root inside cell `index`'s outputs (the `nth` one there)."""
        return self.output_area(index).locator(".nbask").nth(nth)

    # -- running -----------------------------------------------------------------

    def select_cell(self, index: int) -> None:
        """Click into the cell's editor (edit mode on that cell)."""
        editor = self.cell(index).locator(".jp-InputArea-editor")
        editor.scroll_into_view_if_needed()
        editor.click()
        expect(self.cell(index)).to_have_class(re.compile(r"\bjp-mod-active\b"))
        # The key that follows goes where focus is: wait until the editor holds it (a widget
        # rendering in another cell at that moment may take it first).
        expect(editor.locator(".cm-content")).to_be_focused()

    def run_cell(self, index: int, wait: bool = True, timeout: float = RUN_TIMEOUT_MS) -> int | None:
        """Run cell `index` with Shift+Enter. With `wait`, wait until it finished and return
        its execution count; otherwise return once it is running (or queued).
        """
        self.select_cell(index)
        self.page.keyboard.press("Shift+Enter")
        if not wait:
            self.wait_started(index)
            return None
        return self.wait_done(index, timeout)

    def wait_started(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> None:
        """The cell is running or queued ([*]) or already done."""
        expect(self.prompt(index)).to_have_text(re.compile(r"^\[(\*|\d+)\]:$"), timeout=timeout)

    def wait_running(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> None:
        expect(self.prompt(index)).to_have_text("[*]:", timeout=timeout)

    def wait_done(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> int:
        expect(self.prompt(index)).to_have_text(DONE_PROMPT, timeout=timeout)
        return self.execution_count(index)

    def execution_count(self, index: int) -> int:
        text = self.prompt(index).inner_text().strip()
        match = re.fullmatch(r"\[(\d+)\]:", text)
        if not match:
            raise AssertionError(f"cell {index} has no execution count yet: prompt {text!r}")
        return int(match.group(1))

    def wait_output(self, index: int, text: str | re.Pattern[str], timeout: float = RUN_TIMEOUT_MS) -> None:
        """Wait until cell `index`'s outputs contain `text`."""
        expect(self.output_area(index)).to_contain_text(text, timeout=timeout)

    def output_text(self, index: int) -> str:
        area = self.output_area(index)
        return area.inner_text() if area.count() else ""

    def printed(self, index: int) -> str:
        """Only what cell `index` printed to stdout."""
        parts = self.cell(index).locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']")
        return "".join(parts.all_inner_texts())

    def stream_text(self, index: int) -> str:
        """Only the printed (stdout/stderr) and error outputs of cell `index`."""
        parts = self.cell(index).locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout'],"
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
        )
        return "".join(parts.all_inner_texts())

    def run_all(self) -> None:
        """Run → Run All Cells from the menu bar."""
        self.page.get_by_role("menuitem", name="Run", exact=True).click()
        self.page.locator(".lm-Menu [data-command='runmenu:run-all']").click()

    def interrupt(self) -> None:
        """Interrupt the kernel with the notebook toolbar's stop button."""
        self.panel.locator(".jp-NotebookPanel-toolbar [data-command='notebook:interrupt-kernel']").click()

    def save(self) -> None:
        """Save with the toolbar button and wait until the file on disk has this page's outputs."""
        before = self._disk_model()["last_modified"]
        self.panel.locator(".jp-NotebookPanel-toolbar [data-command='docmanager:save']").click()
        deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
        while self._disk_model()["last_modified"] == before:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.path} was not saved")
            self.page.wait_for_timeout(50)  # poll of the server's file, not a test delay

    def _disk_model(self) -> dict[str, Any]:
        return self.server.api("GET", f"/api/contents/{self.path}?content=0")

    def disk_notebook(self) -> dict[str, Any]:
        return self.server.api("GET", f"/api/contents/{self.path}")["content"]

    def notebook_state(self) -> dict[str, Any]:
        """What notebook shortcuts would change: cell count and types, active cell, mode.
        Compared before and after keys pressed inside a widget, it shows a key that leaked.
        """
        return dict(
            self.notebook.evaluate(
                """nb => {
                  const cells = [...nb.querySelectorAll('.jp-Cell')];
                  return {
                    count: cells.length,
                    types: cells.map(c => c.classList.contains('jp-CodeCell') ? 'code'
                        : c.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw'),
                    active: cells.findIndex(c => c.classList.contains('jp-mod-active')),
                    selected: cells.filter(c => c.classList.contains('jp-mod-selected')).length,
                    mode: nb.classList.contains('jp-mod-editMode') ? 'edit' : 'command',
                  };
                }"""
            )
        )

    # -- diagnostics -------------------------------------------------------------

    def log_tail(self, lines: int = 40) -> str:
        return self.server.log_tail(lines)

    def describe(self) -> str:
        """Every cell's prompt, source and outputs, for failure reports."""
        try:
            rows = self.page.evaluate(
                """() => {
                  const panel = [...document.querySelectorAll('.jp-NotebookPanel')]
                      .find(p => p.offsetParent !== null) || document;
                  return [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].map((c, i) => ({
                    i,
                    prompt: (c.querySelector('.jp-InputArea-prompt') || {}).innerText || '',
                    source: (c.querySelector('.jp-InputArea-editor') || {}).innerText || '',
                    outputs: (c.querySelector('.jp-Cell-outputArea') || {}).innerText || '',
                    widgets: [...c.querySelectorAll('.nbask')].map(w =>
                        `data-status=${w.getAttribute('data-status')} data-sending=${w.getAttribute('data-sending')}`),
                  }));
                }"""
            )
        except Exception as error:  # the page may be gone
            return f"(cells unavailable: {error})"
        lines = [f"notebook {self.path} in {self.frontend}; kernel status {self._safe_status()}"]
        for row in rows:
            lines.append(f"--- cell {row['i']} {row['prompt']}")
            lines.append("    source: " + row["source"].replace("\n", "\n            "))
            if row["widgets"]:
                lines.append("    nbask widgets: " + "; ".join(row["widgets"]))
            lines.append("    outputs: " + (row["outputs"] or "(none)").replace("\n", "\n             "))
        return "\n".join(lines)

    def _safe_status(self) -> str:
        try:
            return json.dumps(self.kernel_status())
        except Exception:
            return "?"
