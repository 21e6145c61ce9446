"""One JupyterLite notebook page driven through the app itself (``window.jupyterapp``, which the
site exposes): add a code cell at the end, run it, read what it printed, find its widget.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Route, expect

#: The Pyodide kernel starts in 20-30 s on 2 cores; more when other work shares them.
KERNEL_TIMEOUT_MS = 240_000
#: A cell that waits for nothing prints within seconds; the first import of nbask loads pydantic.
RUN_TIMEOUT_MS = 90_000

KERNEL_IDLE = """(path) => {
  const widget = window.jupyterapp?.shell?.currentWidget;
  const kernel = widget?.sessionContext?.session?.kernel;
  return widget?.context?.path === path && kernel?.status === 'idle';
}"""

# Appends a code cell, makes it the only selected cell and runs it; returns its index. The run
# is not awaited: the command's promise ends with the cell, and these cells wait for answers.
RUN_CELL = """(source) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  const model = panel.context.model;
  const index = model.cells.length;
  model.sharedModel.insertCell(index, { cell_type: 'code', source });
  panel.content.activeCellIndex = index;
  panel.content.deselectAll();
  void app.commands.execute('notebook:run-cell');
  return [panel.id, index];
}"""


class LitePage:
    """The page, its console lines, and every request that tried to leave 127.0.0.1."""

    def __init__(self, context: BrowserContext, base_url: str) -> None:
        self.base_url = base_url
        self.console: list[str] = []
        self.offsite: list[str] = []
        context.set_default_timeout(30_000)
        context.route("**/*", self._guard)
        # The context's console also has the Pyodide worker's lines (the kernel's own errors).
        context.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        self.page = context.new_page()

    def _guard(self, route: Route) -> None:
        url = route.request.url
        if url.startswith((f"{self.base_url}/", "data:", "blob:")):
            route.continue_()
        else:
            self.offsite.append(url)
            route.abort()

    def describe(self) -> str:
        """What a failure report says of the page beside its console: the requests it refused."""
        return f"JupyterLite at {self.base_url}; requests refused as off the machine: {self.offsite or 'none'}"

    def log_tail(self, lines: int = 40) -> str:
        del lines  # a static server keeps no log worth reading
        return ""

    def open(self, path: str) -> None:
        """Open notebook ``path`` of the site and wait until its kernel is idle."""
        self.page.goto(f"{self.base_url}/lab/index.html?path={path}")
        self.page.wait_for_function(KERNEL_IDLE, arg=path, timeout=KERNEL_TIMEOUT_MS)

    def open_in_app(self, path: str) -> None:
        """Open another notebook of the site in the same page (its own kernel) and wait for it."""
        self.page.evaluate("(path) => window.jupyterapp.commands.execute('docmanager:open', { path })", path)
        self.page.wait_for_function(KERNEL_IDLE, arg=path, timeout=KERNEL_TIMEOUT_MS)

    def run(self, source: str) -> Cell:
        """Add ``source`` as a new last cell of the current notebook and start it."""
        panel_id, index = self.page.evaluate(RUN_CELL, source)
        return Cell(self.page.locator(f"#{panel_id} .jp-Notebook .jp-Cell").nth(index))

    def cell(self, index: int) -> Cell:
        """Cell ``index`` of the current notebook."""
        panel_id = self.page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
        return Cell(self.page.locator(f"#{panel_id} .jp-Notebook .jp-Cell").nth(index))

    def run_existing(self, index: int) -> Cell:
        """Run cell ``index`` of the current notebook as it is."""
        self.page.evaluate(
            """(index) => {
              const app = window.jupyterapp;
              const notebook = app.shell.currentWidget.content;
              notebook.activeCellIndex = index;
              notebook.deselectAll();
              void app.commands.execute('notebook:run-cell');
            }""",
            index,
        )
        return self.cell(index)


class Cell:
    """A notebook cell: its output area, its nbask widget, and the lines it printed."""

    def __init__(self, root: Locator) -> None:
        self.root = root
        self.output = root.locator(".jp-OutputArea")

    @property
    def widget(self) -> Locator:
        """The nbask widget in the cell's output (the last one shown, if several)."""
        return self.output.locator(".nbask").last

    def wait_printed(self, marker: str, timeout: float = RUN_TIMEOUT_MS) -> str:
        """Wait for a printed line starting with ``marker``; returns the rest of that line."""
        expect(self.output).to_contain_text(marker, timeout=timeout)
        for line in self.output.inner_text().splitlines():
            if line.startswith(marker):
                return line[len(marker) :].strip()
        msg = f"no line starts with {marker!r} in: {self.output.inner_text()!r}"
        raise AssertionError(msg)

    def result(self, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
        """The JSON a cell printed after ``RESULT ``."""
        data: dict[str, Any] = json.loads(self.wait_printed("RESULT ", timeout))
        return data

    def error_text(self, timeout: float = RUN_TIMEOUT_MS) -> str:
        """The traceback the cell ended with."""
        error = self.root.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        expect(error.first).to_be_visible(timeout=timeout)
        return re.sub(r"\s+", " ", error.first.inner_text())
