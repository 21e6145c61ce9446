"""Drive the VS Code host page (page/host.ts) from Playwright: run cells, find a cell's widget,
read what the kernel printed and what went over the wire.

Cells are numbered from 0 in the order they were run. Every wait is on something the page
shows (a cell's `data-state`, output text, the widget's `data-status`), never a sleep.
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

from support.ask_widget import PRINT_RESULT, AskWidget

from .server import HostServer

#: The four theme kinds the page can show, as VS Code names their colours (page/themes.json).
THEMES: dict[str, Any] = json.loads((pathlib.Path(__file__).resolve().parent / "page" / "themes.json").read_text())[
    "themes"
]
READY_TIMEOUT_MS = 60_000
RUN_TIMEOUT_MS = 30_000


class VSCodeHost:
    """One host page attached to one kernel."""

    def __init__(self, page: Page, server: HostServer, kernel_name: str, theme: str = "dark") -> None:
        self.page = page
        self.server = server
        self.kernel_name = kernel_name
        self.theme = theme
        self.kernel_id = ""

    # -- opening -----------------------------------------------------------------

    def open(self) -> VSCodeHost:
        self.kernel_id = self.server.start_kernel(self.kernel_name)
        self.page.goto(self.server.page_url(self.kernel_id, self.kernel_name, self.theme))
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        self.page.wait_for_function(
            "() => document.body.dataset.hostReady === 'true' || document.body.dataset.hostError",
            timeout=READY_TIMEOUT_MS,
        )
        error = self.page.locator("body").get_attribute("data-host-error")
        assert error is None, f"the host page failed: {error}\n{self.describe()}"

    def reload(self) -> None:
        """Reload the webview: a fresh widget manager on the same kernel, cells kept."""
        self.page.reload()
        self.wait_ready()

    def set_theme(self, theme: str) -> None:
        """Switch the colour theme live, as VS Code does when the person picks another one."""
        self.page.evaluate("name => window.vscodeTheme.apply(name)", theme)
        self.theme = theme

    # -- cells -------------------------------------------------------------------

    def run(self, code: str) -> int:
        """Send an execute request for `code`; return the new cell's index at once."""
        return int(self.page.evaluate("code => window.vscodeHost.run(code)", code))

    def run_ok(self, code: str, timeout: float = RUN_TIMEOUT_MS) -> int:
        index = self.run(code)
        status = self.wait_done(index, timeout)
        assert status == "ok", f"cell {index} ended with {status}:\n{self.describe()}"
        return index

    def cell(self, index: int) -> Locator:
        return self.page.locator(f"section.cell[data-cell='{index}']")

    def wait_done(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> str:
        """Wait until cell `index` ended (execute_reply + idle); return its reply status."""
        expect(self.cell(index)).to_have_attribute("data-state", "done", timeout=timeout)
        return str(self.cell(index).get_attribute("data-status"))

    def is_running(self, index: int) -> bool:
        return self.cell(index).get_attribute("data-state") == "running"

    def execution_count(self, index: int) -> int:
        return int(self.cell(index).get_attribute("data-execution-count") or "0")

    def widget(self, index: int, nth: int = 0) -> Locator:
        """The nbask root in cell `index`'s outputs (the `nth` one)."""
        return self.cell(index).locator(".nbask").nth(nth)

    def stream_locator(self, index: int, name: str = "stdout") -> Locator:
        return self.cell(index).locator(f".output[data-kind='stream'][data-name='{name}'] pre")

    def stdout(self, index: int) -> str:
        return "".join(self.stream_locator(index).all_text_contents())

    def wait_output(self, index: int, text: str | re.Pattern[str], timeout: float = RUN_TIMEOUT_MS) -> None:
        expect(self.cell(index).locator(".cell-outputs")).to_contain_text(text, timeout=timeout)

    def read_line(self, index: int, prefix: str, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
        """Wait for the one `PREFIX {json}` line cell `index` printed and parse it."""
        self.wait_output(index, re.compile(re.escape(prefix) + r" \{"), timeout=timeout)
        lines = [line for line in self.stdout(index).splitlines() if line.startswith(prefix + " ")]
        assert len(lines) == 1, f"expected one {prefix} line in cell {index}, got {lines}"
        return dict(json.loads(lines[0][len(prefix) + 1 :]))

    def read_result(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
        return self.read_line(index, "RESULT", timeout)

    def read_decision(self, index: int, timeout: float = RUN_TIMEOUT_MS) -> dict[str, Any]:
        return self.read_line(index, "DECISION", timeout)

    def errors(self, index: int) -> str:
        return "".join(self.cell(index).locator(".output[data-kind='error'] pre").all_text_contents())

    def interrupt(self) -> None:
        self.page.evaluate("() => window.vscodeHost.interrupt()")

    # -- what the page recorded ----------------------------------------------------

    def outputs(self, index: int) -> list[dict[str, Any]]:
        return list(self.page.evaluate("i => window.vscodeHost.cells[i].outputs", index))

    def cell_msg_id(self, index: int) -> str:
        return str(self.page.evaluate("i => window.vscodeHost.cells[i].msgId", index))

    def wire(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("() => window.vscodeHost.wire"))

    def stray(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("() => window.vscodeHost.stray"))

    def clicks(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("() => window.vscodeHost.clicks"))

    def forwarded_keys(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("() => window.vscodeHost.forwardedKeys"))

    def host_log(self) -> list[str]:
        return list(self.page.evaluate("() => (window.vscodeHost && window.vscodeHost.log) || []"))

    def describe(self) -> str:
        """Every cell's source, state and outputs, the host's log and stray output: for failure reports."""
        info = self.page.evaluate(
            """() => {
              const h = window.vscodeHost || {};
              return {cells: (h.cells || []).map(c => ({index: c.index, state: c.state, status: c.status,
                        count: c.executionCount, code: c.code,
                        outputs: c.outputs.map(o =>
                          o.kind + ': ' + (o.text || JSON.stringify(o.data || {})).slice(0, 400))})),
                      log: (h.log || []).slice(-30), stray: h.stray || [],
                      error: document.body.dataset.hostError || null};
            }"""
        )
        parts = [f"kernel {self.kernel_name} ({self.kernel_id}), theme {self.theme}"]
        if info["error"]:
            parts.append(f"host error: {info['error']}")
        for cell in info["cells"]:
            parts.append(f"cell {cell['index']} [{cell['state']} {cell['status']} #{cell['count']}]: {cell['code']!r}")
            parts.extend(f"    {line}" for line in cell["outputs"])
        if info["stray"]:
            parts.append(f"stray output: {info['stray']}")
        parts.append("host log:\n  " + "\n  ".join(info["log"]))
        return "\n".join(parts)

    def log_tail(self, lines: int = 40) -> str:
        return self.server.log_tail(lines)

    def close(self) -> None:
        if self.kernel_id:
            self.server.shutdown_kernel(self.kernel_id)


def start_asking(host: VSCodeHost, call: str) -> tuple[int, AskWidget]:
    """Run `ans = await <call>` then PRINT_RESULT in a new cell; return it once its widget is pending."""
    cell = host.run(f"ans = await {call}\n" + PRINT_RESULT)
    ask = AskWidget(host.widget(cell))
    expect(ask.root).to_be_visible(timeout=RUN_TIMEOUT_MS)
    ask.expect_pending()
    return cell, ask


def open_asking(open_host: Callable[..., VSCodeHost], call: str) -> tuple[VSCodeHost, int, AskWidget]:
    """A host with `import json, nbask` run, and a cell waiting on `call`."""
    host = open_host()
    host.run_ok("import json, nbask")
    cell, ask = start_asking(host, call)
    return host, cell, ask
