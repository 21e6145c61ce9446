"""Every Python snippet of README.md and of the docs site's pages (docs/**/*.md) runs as written,
in a fresh interpreter.

Collected anew from the files at every run: each ```python block, each one-liner of a framework
table (the README's and the docs' framework list: the "the one line to add" column, in
backticks) and of a framework page's "The one line" section is one test named by its file and
line. The same code written in several of those places runs once, named by its first place.
Blocks in other languages (bash) are skipped by their language.

Each runs in a subprocess of this Python (``run_snippet.py``; a snippet of a framework in
``INTERPRETERS``: of the Python of that framework's own environment), in a temporary folder, with
``NBASK_POLICY=recommended`` so nothing waits for a person, and with a prelude that gives only
the names the snippet takes as given: ``import nbask``, then each name the snippet uses without
defining it, from ``givens/`` (the framework's own objects with offline scripted models, per
framework module the snippet names, else ``given_common``). Files a snippet names (``server.py``)
are put in its folder. Top-level ``await`` is run as the body of an async wrapper under
``asyncio.run`` (see run_snippet.py).

A table cell is prose around code: its spans that name nbask (``nbask.…`` or ``...name``) are
the code to add; the names and types it mentions in passing (`str`, `Command`) are not run.
They are read with the abbreviations a table allows: ``...name`` is the row's module's ``name``
(``nbask.integrations.<module>.name``); ``name=...`` stands for the caller's own value of
``name`` (the prelude gives it); a leading positional ``...`` for the rest of the caller's
arguments (left out); ``handler=<expr>`` is the expression an argument takes; an ``async for``
header gets a ``pass`` body. A span that is an expression is evaluated after ``import nbask``
and the framework's names only; either way every ``nbask.integrations.<module>.…`` name in it
must be callable.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

HERE = pathlib.Path(__file__).parent
REPO = HERE.parent.parent
GIVENS = HERE / "givens"
#: Files a snippet may name as its own, and where the prelude takes them from.
FILES = {"server.py": REPO / "notebooks" / "deploy_server.py"}
#: The frameworks whose snippets run in another interpreter: CrewAI, Semantic Kernel and Strands pin
#: older mcp / openai / pydantic than this Python's packages, so they live in their own environment
#: (pyproject's extra "agents-more", made by scripts/make_kernel_envs.sh). Any other: this Python.
AGENTS_MORE = REPO / ".venvs" / "agents-more" / "bin" / "python"
INTERPRETERS = {"crewai": AGENTS_MORE, "semantic_kernel": AGENTS_MORE, "strands": AGENTS_MORE}
TABLE_COLUMN = "the one line to add"
#: A framework page's section that holds its one line, read as a table cell is.
ONE_LINE_HEADING = "## the one line"
FENCE = re.compile(r"^```(\S*)\s*$")
FRAMEWORK = re.compile(r"nbask\.integrations\.(\w+)")
DOTTED_NBASK = re.compile(r"\bnbask(?:\.\w+)+")
RAISES = re.compile(r"raises (nbask\.\w+)")


@dataclass
class Snippet:
    path: pathlib.Path
    line: int  # where it starts in its file
    source: str
    language: str = "python"
    framework: str | None = None  # the nbask.integrations module it is about
    mode: str = "exec"
    callables: list[str] = field(default_factory=list)
    part: int = 1  # the n-th one-liner of a table row

    @property
    def id(self) -> str:
        suffix = f"-{self.part}" if self.part > 1 else ""
        return f"{self.path.relative_to(REPO)}:{self.line}{suffix}"


def _documents() -> list[pathlib.Path]:
    pages = sorted(p for p in (REPO / "docs").rglob("*.md") if "_build" not in p.parts)
    return [REPO / "README.md", REPO / "DEVELOP.md", *pages]


def fenced_blocks(path: pathlib.Path) -> list[Snippet]:
    """Every fenced code block of ``path``, with the line of its first line of code."""
    found: list[Snippet] = []
    opened: tuple[int, str] | None = None
    body: list[str] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(text)
        if fence and opened is None:
            opened, body = (number + 1, fence.group(1) or "text"), []
        elif fence and not fence.group(1) and opened is not None:
            source = "\n".join(body) + "\n"
            framework = FRAMEWORK.search(source)
            found.append(Snippet(path, opened[0], source, opened[1], framework and framework.group(1)))
            opened = None
        elif opened is not None:
            body.append(text)
    return found


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells; a ``|`` inside backticks stays in its cell."""
    cells, current, quoted = [], "", False
    for char in row.strip().strip("|"):
        if char == "`":
            quoted = not quoted
        if char == "|" and not quoted:
            cells.append(current.strip())
            current = ""
        else:
            current += char
    return [*cells, current.strip()]


def table_lines(path: pathlib.Path) -> list[Snippet]:
    """The one-liners of the framework table, read as the module docstring says."""
    found: list[Snippet] = []
    column = None
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.startswith("|"):
            column = None
            continue
        cells = _cells(text)
        if TABLE_COLUMN in [c.lower() for c in cells]:
            column = [c.lower() for c in cells].index(TABLE_COLUMN)
            continue
        if column is None or set(cells[column]) <= set("-: "):
            continue
        found += _prose_snippets(path, number, cells[column])
    return found


def one_line_sections(path: pathlib.Path) -> list[Snippet]:
    """The one-liners of a framework page's "The one line" section (its prose; a fenced block
    in it is one of ``fenced_blocks``), read as a table cell is.
    """
    found: list[Snippet] = []
    inside = fenced = False
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(text):
            fenced = not fenced
        elif text.startswith("#") and not fenced:
            inside = text.strip().lower() == ONE_LINE_HEADING
        elif inside and not fenced and text.strip():
            found += _prose_snippets(path, number, text)
    return found


def _prose_snippets(path: pathlib.Path, number: int, text: str) -> list[Snippet]:
    """The code of one line of prose about a framework: its spans that name nbask."""
    framework = FRAMEWORK.search(text)
    assert framework, f"{path.name}:{number}: the one line to add names no nbask.integrations module"
    # the code to add, not the names and types the cell mentions in passing (`str`, `Command`)
    spans = [s for s in re.findall(r"`([^`]+)`", text) if re.search(r"nbask\.|\.\.\.\w", s)]
    found = []
    for part, span in enumerate(spans, start=1):
        snippet = _table_snippet(path, number, span, framework.group(1))
        snippet.part = part
        found.append(snippet)
    return found


def _table_snippet(path: pathlib.Path, line: int, span: str, framework: str) -> Snippet:
    module = f"nbask.integrations.{framework}"
    source = re.sub(r"(?<![\w.])\.\.\.(?=[A-Za-z_])", f"{module}.", span)  # ...name: the row's module's
    source = re.sub(r"^\w+=(?!=)", "", source)  # handler=<expr>: an argument's value, the expression
    source = re.sub(r"\b(\w+)=\.\.\.", r"\1=\1", source)  # name=... : the caller's own value
    source = re.sub(r"\(\.\.\.,\s*", "(", source)  # (..., : the caller's other arguments
    if re.match(r"(async\s+)?for\b", source) and not source.rstrip().endswith(":"):
        source += ":\n    pass"
    callables = [name for name in DOTTED_NBASK.findall(source) if name.startswith(module + ".")]
    try:
        compile(source, path.name, "eval", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return Snippet(path, line, source + "\n", framework=framework, callables=callables)
    return Snippet(path, line, source, framework=framework, mode="eval", callables=callables)


def snippets() -> list[Snippet]:
    """Every snippet of every document, the same code (a framework's one line in the README,
    the docs' table and its page) kept once, at its first place.
    """
    found: dict[tuple[str, str, str | None, str], Snippet] = {}
    for document in _documents():
        for snippet in (*fenced_blocks(document), *table_lines(document), *one_line_sections(document)):
            found.setdefault((snippet.language, snippet.source, snippet.framework, snippet.mode), snippet)
    return list(found.values())


def collect() -> list[object]:
    params: list[object] = []
    for snippet in snippets():
        marks = []
        if snippet.language != "python":
            marks.append(pytest.mark.skip(reason=f"a {snippet.language} block, not Python"))
        params.append(pytest.param(snippet, id=snippet.id, marks=marks))
    return params


def _given_names(module: str) -> set[str]:
    """A givens module's ``__all__``, read without importing it (that imports the framework)."""
    tree = ast.parse((GIVENS / f"{module}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def free_names(source: str, mode: str) -> set[str]:
    """Names the snippet reads without defining them (builtins included: ``input``)."""
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = compile(source, "<snippet>", mode, flags=flags)
    read, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return read - bound - {"nbask"}


def prelude(snippet: Snippet) -> dict[str, str]:
    """Name -> the givens module that gives it, for each name the snippet takes as given."""
    modules = [f"given_{snippet.framework}"] if snippet.framework else []
    modules = [m for m in modules if (GIVENS / f"{m}.py").is_file()] + ["given_common"]
    given: dict[str, str] = {}
    for name in sorted(free_names(snippet.source, snippet.mode)):
        module = next((m for m in modules if name in _given_names(m)), None)
        if module is not None:
            given[name] = module
        else:
            assert hasattr(builtins, name), f"{snippet.id} uses {name!r}, which neither it nor the prelude defines"
    return given


FRAMEWORK_PAGES = REPO / "docs" / "how-to" / "frameworks"


def test_every_framework_table_is_read():
    """A table whose column says what line to add is read under one heading, in every document
    (the README's and the frameworks index's tables among them, so the check cannot pass on none).
    """
    with_a_table = set()
    for document in _documents():
        for number, text in enumerate(document.read_text(encoding="utf-8").splitlines(), start=1):
            headings = [c.lower() for c in _cells(text)] if text.startswith("|") else []
            for heading in (h for h in headings if "line to add" in h):
                assert heading == TABLE_COLUMN, f"{document.name}:{number}: call the column {TABLE_COLUMN!r}"
                with_a_table.add(document.resolve())
    assert {(REPO / "README.md").resolve(), (FRAMEWORK_PAGES / "index.md").resolve()} <= with_a_table


@pytest.mark.parametrize("document", [REPO / "README.md", FRAMEWORK_PAGES / "index.md"], ids=lambda p: p.name)
def test_each_framework_of_a_table_has_its_lines_collected(document: pathlib.Path):
    pages = {p.stem for p in FRAMEWORK_PAGES.glob("*.md")} - {"index"}
    assert {snippet.framework for snippet in table_lines(document)} == pages


def test_each_framework_page_has_its_one_line_collected():
    for page in sorted(FRAMEWORK_PAGES.glob("*.md")):
        if page.stem != "index":
            found = one_line_sections(page)
            assert found, f"{page.name}: no code in its section 'The one line'"
            assert {snippet.framework for snippet in found} == {page.stem}, page.name


def test_the_same_code_in_several_places_runs_once():
    collected = snippets()
    keys = [(s.language, s.source, s.framework, s.mode) for s in collected]
    assert len(keys) == len(set(keys))
    # every one line of the docs' table and the pages is run: under its own id, or the README's
    run = set(keys)
    for document in [FRAMEWORK_PAGES / "index.md", *FRAMEWORK_PAGES.glob("*.md")]:
        for snippet in (*table_lines(document), *one_line_sections(document)):
            assert (snippet.language, snippet.source, snippet.framework, snippet.mode) in run


@pytest.mark.parametrize("snippet", collect())
def test_snippet_runs_as_written(snippet: Snippet, tmp_path: pathlib.Path):
    for name, origin in FILES.items():
        if name in snippet.source:
            shutil.copy(origin, tmp_path / name)
    spec = {
        "filename": str(snippet.path),
        # blank lines first, so a traceback names the snippet's line in its file
        "source": "\n" * (snippet.line - 1) + snippet.source if snippet.mode == "exec" else snippet.source,
        "mode": snippet.mode,
        "given": prelude(snippet),
        "callables": snippet.callables,
        "raises": RAISES.findall(snippet.source),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    python = INTERPRETERS.get(snippet.framework or "", pathlib.Path(sys.executable))
    assert python.exists(), f"{snippet.id} runs in {python}, which is missing: run scripts/make_kernel_envs.sh"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NBASK_")}
    env["NBASK_POLICY"] = "recommended"
    # "python" in a snippet (an MCP server's command) is the snippet's Python, with the same packages
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        [str(python), str(HERE / "run_snippet.py"), str(tmp_path / "spec.json")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    report = f"{snippet.id}:\n{snippet.source}\n-- stdout:\n{done.stdout}\n-- stderr:\n{done.stderr[-4000:]}"
    assert done.returncode == 0, report
    assert done.stdout.rstrip().endswith("ok"), report
