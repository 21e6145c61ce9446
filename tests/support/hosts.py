"""One way to drive nbask in every real front end: the `Host` interface, and its adapters over
each host's own page object (JupyterLab / Notebook 7: support.notebook_page; VS Code's widget
host: support.vscode.host; JupyterLite's adapter is support.lite_host). The adapters delegate,
and say where the hosts differ (where focus goes, what a key may reach).

A scenario names its notebook's cells up front (`open`), then runs them by index, each once and
in order; a host that appends cells as they run (VS Code, JupyterLite) keeps the mapping. Every
wait is on something shown (a prompt, a role, output text, `data-status`), never a sleep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from playwright.sync_api import Locator, Page, expect

from support.ask_widget import PRINT_RESULT, AskWidget
from support.notebook_page import RUN_TIMEOUT_MS as LAB_TIMEOUT_MS
from support.notebook_page import NotebookPage
from support.vscode.host import VSCodeHost

#: What a cell prints, as lines `PREFIX {json}`, only its stdout, stderr and errors.
STREAMS = (
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout'],"
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
)
#: JupyterLab shows an error output with the stderr renderer: an error is a line naming an exception.
ERRORS = (
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
)
RAISED = re.compile(r"^[\w.]*(Error|Exception|Interrupt|Exit)\b", re.MULTILINE)
#: Keys VS Code's workbench is sent that run nothing on their own.
MOVES_ONLY = ("Tab", "Shift", "Control", "Alt", "Meta")
COMMAND_MODE = re.compile(r"\bjp-mod-commandMode\b")


class Host(Protocol):
    """A front end showing one notebook of cells on one kernel."""

    #: The id scenarios run under ("lab", "notebook7", "vscode", "lite").
    name: str
    #: True when the notebook has a kernel of its own (execution counts start at 1).
    fresh_kernel: bool

    @property
    def page(self) -> Page:
        """The browser page the notebook is shown in (keys, scripts, the title)."""

    def output(self, index: int) -> Locator:
        """Cell `index`'s output area."""

    def open(self, cells: Sequence[str]) -> None:
        """Open a notebook of these code cells (none run yet)."""

    def run_cell(self, index: int, wait: bool = True) -> int | None:
        """Run cell `index`; with `wait`, until it ended, returning its execution count."""

    def wait_running(self, index: int) -> None:
        """Cell `index` is still running (waiting on an answer)."""

    def wait_done(self, index: int) -> int:
        """Wait until cell `index` ended; return its execution count."""

    def wait_idle(self) -> None:
        """The kernel is idle and the page attached to it (after an interrupt)."""

    def failed(self, index: int) -> bool:
        """Cell `index` (ended) shows an error."""

    def widget(self, index: int, nth: int = 0) -> Locator:
        """The `nth` nbask widget in cell `index`'s outputs, once it is shown."""

    def widgets(self, index: int) -> Locator:
        """Every nbask widget in cell `index`'s outputs."""

    def find(self, index: int, role: str, name: str) -> Locator:
        """The control of accessible `role` and `name` in cell `index`'s widget."""

    def printed(self, index: int) -> str:
        """What cell `index` printed (stdout, stderr) and its error, as text."""

    def wait_output(self, index: int, text: str | re.Pattern[str]) -> None:
        """Wait until cell `index`'s outputs contain `text`."""

    def read_line(self, index: int, prefix: str) -> dict[str, Any]:
        """Wait for the one `PREFIX {json}` line cell `index` printed and parse it."""

    def interrupt(self) -> None:
        """Interrupt the kernel as the person would."""

    def save(self) -> None:
        """Save the notebook as the person would before a reload (outputs kept where the host keeps them)."""

    def reload(self) -> None:
        """Reload the page; the kernel and its cells stay; return once it is attached again."""

    def expect_host_rules(self, index: int) -> None:
        """What this host requires of a cell that printed an answer (nothing, but in VS Code)."""

    def keys_mark(self) -> Any:
        """What the host's own shortcuts would change, as it is now (for `keys_leaked`)."""

    def keys_leaked(self, mark: Any) -> list[str]:
        """What keys pressed in a widget since `mark` did in the host itself ([] when nothing)."""

    def expect_runs_on(self, index: int) -> None:
        """Cell `index`'s request ended with focus in its widget: focus is where this host lets
        the person run on, never on the page's body, and Shift+Enter runs on from there.
        """


def parse_line(text: str, prefix: str, index: int) -> dict[str, Any]:
    lines = [line for line in text.splitlines() if line.startswith(prefix + " ")]
    assert len(lines) == 1, f"expected one {prefix} line in cell {index}, got {lines}"
    return dict(json.loads(lines[0][len(prefix) + 1 :]))


class JupyterHost:
    """JupyterLab or Jupyter Notebook 7, over browser.notebook_page.NotebookPage."""

    fresh_kernel = True

    def __init__(self, open_notebook: Callable[..., NotebookPage], frontend: str) -> None:
        self._open_notebook = open_notebook
        self.name = frontend
        self.nb: NotebookPage | None = None

    @property
    def notebook(self) -> NotebookPage:
        assert self.nb is not None, "open() the notebook first"
        return self.nb

    @property
    def page(self) -> Page:
        return self.notebook.page

    def output(self, index: int) -> Locator:
        return self.notebook.output_area(index)

    def open(self, cells: Sequence[str]) -> None:
        self.nb = self._open_notebook(list(cells))

    def run_cell(self, index: int, wait: bool = True) -> int | None:
        return self.notebook.run_cell(index, wait=wait)

    def wait_running(self, index: int) -> None:
        self.notebook.wait_running(index)

    def wait_done(self, index: int) -> int:
        return self.notebook.wait_done(index)

    def wait_idle(self) -> None:
        self.notebook.wait_kernel_idle()

    def failed(self, index: int) -> bool:
        return bool(RAISED.search("\n".join(self.notebook.cell(index).locator(ERRORS).all_inner_texts())))

    def widget(self, index: int, nth: int = 0) -> Locator:
        root = self.notebook.widget(index, nth)
        expect(root).to_be_visible(timeout=LAB_TIMEOUT_MS)
        return root

    def widgets(self, index: int) -> Locator:
        return self.notebook.output_area(index).locator(".nbask")

    def find(self, index: int, role: str, name: str) -> Locator:
        return self.widget(index).get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def printed(self, index: int) -> str:
        return self.notebook.stream_text(index)

    def wait_output(self, index: int, text: str | re.Pattern[str]) -> None:
        self.notebook.wait_output(index, text)

    def read_line(self, index: int, prefix: str) -> dict[str, Any]:
        self.notebook.wait_output(index, re.compile(re.escape(prefix) + r" \{"))
        return parse_line(self.notebook.stream_text(index), prefix, index)

    def interrupt(self) -> None:
        self.notebook.interrupt()

    def save(self) -> None:
        self.notebook.save()

    def reload(self) -> None:
        """A reloaded page shows the outputs of the saved file, and attaches to the running kernel."""
        self.notebook.reload()
        self.notebook.wait_kernel_connected()

    def expect_host_rules(self, index: int) -> None:
        del index  # no rule of its own

    def keys_mark(self) -> Any:
        return self.notebook.notebook_state()

    def keys_leaked(self, mark: Any) -> list[str]:
        """A notebook shortcut that ran adds, removes or retypes cells (a digit makes a heading) or
        changes the selection; where focus lands once a request ends is `expect_runs_on`'s.
        """
        now = self.notebook.notebook_state()
        edits = ("count", "types", "selected")
        return [f"{key}: {mark[key]} -> {now[key]}" for key in edits if now[key] != mark[key]]

    def expect_runs_on(self, index: int) -> None:
        """The cell after the asking one (where Shift+Enter had moved on to) has focus, the notebook
        in command mode; Shift+Enter runs that cell, not the asking one again.
        """
        nb = self.notebook
        count = nb.execution_count(index)
        expect(nb.cell(index + 1)).to_be_focused()
        expect(nb.notebook).to_have_class(COMMAND_MODE)
        assert self.page.evaluate("document.activeElement !== document.body")
        self.page.keyboard.press("Shift+Enter")
        nb.wait_done(index + 1)
        assert nb.execution_count(index) == count


class VSCodeWidgetHost:
    """VS Code's notebook widget host, over vscode.host.VSCodeHost (cells appended as they run)."""

    name = "vscode"
    fresh_kernel = True

    def __init__(self, open_host: Callable[..., VSCodeHost]) -> None:
        self._open_host = open_host
        self.vscode: VSCodeHost | None = None
        self.sources: list[str] = []
        self.cells: dict[int, int] = {}

    @property
    def host(self) -> VSCodeHost:
        assert self.vscode is not None, "open() the notebook first"
        return self.vscode

    @property
    def page(self) -> Page:
        return self.host.page

    def output(self, index: int) -> Locator:
        return self.host.cell(self.cells[index]).locator(".cell-outputs")

    def open(self, cells: Sequence[str]) -> None:
        self.vscode = self._open_host()
        self.sources = list(cells)
        self.cells = {}

    def run_cell(self, index: int, wait: bool = True) -> int | None:
        self.cells[index] = self.host.run(self.sources[index])
        return self.wait_done(index) if wait else None

    def wait_running(self, index: int) -> None:
        expect(self.host.cell(self.cells[index])).to_have_attribute("data-state", "running")

    def wait_done(self, index: int) -> int:
        self.host.wait_done(self.cells[index])
        return self.host.execution_count(self.cells[index])

    def wait_idle(self) -> None:
        return None  # a cell is done only after its execute_reply and the kernel's idle

    def failed(self, index: int) -> bool:
        return self.host.wait_done(self.cells[index]) == "error"

    def widget(self, index: int, nth: int = 0) -> Locator:
        root = self.host.widget(self.cells[index], nth)
        expect(root).to_be_visible()
        return root

    def widgets(self, index: int) -> Locator:
        return self.host.cell(self.cells[index]).locator(".nbask")

    def find(self, index: int, role: str, name: str) -> Locator:
        return self.widget(index).get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def printed(self, index: int) -> str:
        return self.host.stdout(self.cells[index]) + self.host.errors(self.cells[index])

    def wait_output(self, index: int, text: str | re.Pattern[str]) -> None:
        self.host.wait_output(self.cells[index], text)

    def read_line(self, index: int, prefix: str) -> dict[str, Any]:
        return self.host.read_line(self.cells[index], prefix)

    def interrupt(self) -> None:
        self.host.interrupt()

    def save(self) -> None:
        return None  # VS Code's notebook document keeps the outputs across a window reload

    def reload(self) -> None:
        self.host.reload()

    def expect_host_rules(self, index: int) -> None:
        """VS Code shows only output published under the cell's execute request, and its proxy
        kernel sends every comm message on the main shell channel (no subshell).
        """
        cell = self.cells[index]
        execute_id = self.host.cell_msg_id(cell)
        printed = [o for o in self.host.outputs(cell) if o["kind"] == "stream" and o.get("text")]
        assert printed, self.host.describe()
        assert all(o["parentId"] == execute_id and o["parentType"] == "execute_request" for o in printed)
        assert self.host.stray() == [], "output published under another parent is not shown in a VS Code cell"
        wire = self.host.wire()
        sent_comm = [m for m in wire if m["direction"] == "send" and m["type"].startswith("comm_")]
        assert any(m["type"] == "comm_msg" for m in sent_comm), "the answer went to the kernel as a comm_msg"
        assert all(m["channel"] == "shell" and m["subshellId"] is None for m in sent_comm), sent_comm
        assert not [m for m in wire if "subshell" in m["type"]], "no subshell was created"

    def keys_mark(self) -> Any:
        return len(self.host.forwarded_keys())

    def keys_leaked(self, mark: Any) -> list[str]:
        """VS Code's webview forwards each keydown that bubbles up to its window to the workbench,
        which may run a keybinding on it; Tab (focus moving in the page) and a modifier pressed
        alone bubble up too, and run nothing.
        """
        return [k["key"] for k in self.host.forwarded_keys()[mark:] if k["key"] not in MOVES_ONLY]

    def expect_runs_on(self, index: int) -> None:
        """No notebook cell of the page's own to go back to: focus stays on the widget's resolved
        block, and Shift+Enter bubbles from it to the window, where VS Code runs its keybinding.
        """
        block = self.widget(index).locator(".nbask-resolved")
        expect(block).to_be_focused()
        assert self.page.evaluate("document.activeElement !== document.body")
        before = len(self.host.forwarded_keys())
        self.page.keyboard.press("Shift+Enter")
        assert "Enter" in [k["key"] for k in self.host.forwarded_keys()[before:]]
        expect(block).to_be_focused()


def open_asking(host: Host, call: str, *after: str) -> AskWidget:
    """Open a notebook whose cell 1 runs `ans = await <call>` and prints PRINT_RESULT (cell 0
    imports json and nbask; `after` are the cells that follow); return the pending widget.
    """
    host.open(["import json, nbask", f"ans = await {call}\n" + PRINT_RESULT, *after])
    host.run_cell(0)
    host.run_cell(1, wait=False)
    ask = AskWidget(host.widget(1))
    ask.expect_pending()
    return ask
