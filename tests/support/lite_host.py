"""The `Host` of JupyterLite: the Pyodide kernel, over support.lite_page.LitePage."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Locator, Page, expect

from support.hosts import ERRORS, RAISED, STREAMS, parse_line
from support.lite_page import KERNEL_IDLE, Cell, LitePage
from support.lite_page import RUN_TIMEOUT_MS as LITE_TIMEOUT_MS
from support.notebook_page import DONE_PROMPT


class LiteHost:
    """JupyterLite (the Pyodide kernel), over lite.lite_page.LitePage: cells are appended to the
    one notebook the module's tests share, so its kernel is not fresh.
    """

    name = "lite"
    fresh_kernel = False

    def __init__(self, lite: LitePage) -> None:
        self.lite = lite
        self.sources: list[str] = []
        self.cells: dict[int, Cell] = {}

    @property
    def page(self) -> Page:
        return self.lite.page

    def output(self, index: int) -> Locator:
        return self.cells[index].output

    def open(self, cells: Sequence[str]) -> None:
        self.sources = list(cells)
        self.cells = {}

    def _prompt(self, index: int) -> Locator:
        return self.cells[index].root.locator(".jp-InputArea-prompt")

    def run_cell(self, index: int, wait: bool = True) -> int | None:
        self.cells[index] = self.lite.run(self.sources[index])
        return self.wait_done(index) if wait else None

    def wait_running(self, index: int) -> None:
        expect(self._prompt(index)).to_have_text("[*]:", timeout=LITE_TIMEOUT_MS)

    def wait_done(self, index: int) -> int:
        expect(self._prompt(index)).to_have_text(DONE_PROMPT, timeout=LITE_TIMEOUT_MS)
        match = re.fullmatch(r"\[(\d+)\]:", self._prompt(index).inner_text().strip())
        assert match, f"cell {index} has no execution count"
        return int(match.group(1))

    def wait_idle(self) -> None:
        path = self.lite.page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path")
        self.lite.page.wait_for_function(KERNEL_IDLE, arg=path, timeout=LITE_TIMEOUT_MS)

    def failed(self, index: int) -> bool:
        return bool(RAISED.search("\n".join(self.cells[index].root.locator(ERRORS).all_inner_texts())))

    def widget(self, index: int, nth: int = 0) -> Locator:
        root = self.widgets(index).nth(nth)
        expect(root).to_be_visible(timeout=LITE_TIMEOUT_MS)
        return root

    def widgets(self, index: int) -> Locator:
        return self.cells[index].output.locator(".nbask")

    def find(self, index: int, role: str, name: str) -> Locator:
        return self.widget(index).get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def printed(self, index: int) -> str:
        return "".join(self.cells[index].root.locator(STREAMS).all_inner_texts())

    def wait_output(self, index: int, text: str | re.Pattern[str]) -> None:
        expect(self.cells[index].output).to_contain_text(text, timeout=LITE_TIMEOUT_MS)

    def read_line(self, index: int, prefix: str) -> dict[str, Any]:
        self.wait_output(index, re.compile(re.escape(prefix) + r" \{"))
        return parse_line(self.printed(index), prefix, index)

    def interrupt(self) -> None:
        raise NotImplementedError("the Pyodide kernel is not interrupted from the page here")

    def save(self) -> None:
        raise NotImplementedError("JupyterLite's notebooks are not saved here")

    def reload(self) -> None:
        self.lite.page.reload()
        self.wait_idle()

    def expect_host_rules(self, index: int) -> None:
        del index  # no rule of its own

    def keys_mark(self) -> Any:
        raise NotImplementedError("JupyterLite's shortcuts are not watched here")

    def keys_leaked(self, mark: Any) -> list[str]:
        raise NotImplementedError("JupyterLite's shortcuts are not watched here")

    def expect_runs_on(self, index: int) -> None:
        raise NotImplementedError("where focus goes in JupyterLite is not checked here")
