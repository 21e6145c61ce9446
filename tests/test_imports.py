"""The import graph of src/nbask: no cycles (imports inside functions count too), imports go one
way through the layers, and ``import nbask`` loads nothing heavy.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "nbask"

#: Lowest first. A module may import from its own layer and the layers below it, never above.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("exceptions", ("nbask.errors",)),
    ("waiting engine", ("nbask.waiting",)),
    (
        "foundation",
        (
            "nbask.contract",
            "nbask.models",
            "nbask.forms",
            "nbask.replies",
            "nbask.config",
            "nbask.nesting",
            "nbask.host",
            "nbask.markdown",
            "nbask.terminal",
            "nbask.identity",
        ),
    ),
    ("interaction core", ("nbask.core",)),
    ("widget base", ("nbask.widget",)),
    ("request kinds", ("nbask.kinds",)),
    ("the inbox store", ("nbask.inbox_store",)),
    ("resolvers", ("nbask.resolvers",)),
    ("public calls", ("nbask.api", "nbask.approvals", "nbask.inbox_view")),
    (
        "agent tools, integrations and the server",
        ("nbask.tools", "nbask.mcp", "nbask.integrations", "nbask.server_extension", "nbask.cli", "nbask.__main__"),
    ),
    ("package", ("nbask",)),
]


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(name: str, *, type_checking: bool = False) -> set[str]:
    """The nbask modules ``name`` imports anywhere in its body (functions included); those under
    ``if TYPE_CHECKING:`` (which never runs) only with ``type_checking``.
    """
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking_block(node) and not type_checking:
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                # "from . import config" names a module; "from .models import Answer" a name in one.
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imports_of(name) for name in MODULES}
#: The same, with the imports only a type checker makes: a circle there is a circle in the design.
TYPED_GRAPH = {name: imports_of(name, type_checking=True) for name in MODULES}


def find_cycle(graph: dict[str, set[str]], starts: list[str] | None = None) -> list[str] | None:
    """One import cycle reachable from ``starts`` (default: every module) as a path, the first
    module repeated at the end; None if there is none.
    """
    state: dict[str, str] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := walk(target)):
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for start in starts or sorted(graph):
        if start not in state and (cycle := walk(start)):
            return cycle
    return None


def layer_of(name: str) -> int:
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[0]


def test_the_graph_sees_lazy_and_relative_imports():
    # The checks below are only as good as the graph: these edges are known to exist.
    assert "nbask.core.manager" in GRAPH["nbask.widget.base"]
    assert "nbask.kinds" in GRAPH["nbask.resolvers.policies"]
    assert "nbask.waiting" in GRAPH["nbask.core.lifecycle"]
    assert "nbask.core.lifecycle" in GRAPH["nbask.kinds.question.request"]


def test_the_cycle_finder_finds_a_cycle_made_by_a_function_level_import():
    graph = {**GRAPH, "nbask.core.manager": GRAPH["nbask.core.manager"] | {"nbask.resolvers.policies"}}
    assert find_cycle(GRAPH, ["nbask.core.manager"]) is None
    cycle = find_cycle(graph, ["nbask.core.manager"])
    assert cycle is not None
    assert "nbask.core.manager" in cycle
    assert "nbask.resolvers.policies" in cycle


def test_no_import_cycles_not_even_for_the_type_checker():
    assert find_cycle(TYPED_GRAPH) is None, " -> ".join(find_cycle(TYPED_GRAPH) or [])


def test_the_typed_graph_sees_imports_made_for_the_type_checker_only():
    typed = {name: targets - GRAPH[name] for name, targets in TYPED_GRAPH.items() if targets - GRAPH[name]}
    assert typed, "no module imports under TYPE_CHECKING any more: this test can go"
    assert all(GRAPH[name] <= TYPED_GRAPH[name] for name in MODULES)


def test_imports_go_down_the_layers_only():
    upward = [
        f"{source} ({LAYERS[layer_of(source)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for source, targets in GRAPH.items()
        for target in targets
        if layer_of(target) > layer_of(source)
    ]
    assert upward == []


def test_every_module_is_short():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > 400}
    assert long == {}


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


HEAVY = ("zmq", "ipykernel", "jupyter_client", "pydantic", "anywidget", "ipywidgets", "IPython", "openai")


def test_import_nbask_loads_no_dependency():
    loaded = _run(
        f"""
        import sys
        import nbask
        print(sorted(m for m in {HEAVY!r} if m in sys.modules))
        """
    )
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("blocked", ["zmq", "ipykernel"])
def test_headless_asks_and_tool_calls_work_without_kernel_packages(blocked):
    # sys.modules[name] = None makes any import of it fail, as if it were not installed.
    out = _run(
        f"""
        import sys
        sys.modules[{blocked!r}] = None
        import nbask
        nbask.configure(policy="recommended")
        print(nbask.ask_sync("Which database?", ["SQLite", "Postgres (Recommended)"]).answers)
        print(nbask.approve_sync("Drop table", "users").decision)
        print(len(nbask.tools.definition(format="openai-chat")["function"]["parameters"]["properties"]) > 0)
        args = '{{"questions": [{{"question": "Go on?", "header": "Go", "options": '
        args += '[{{"label": "Yes"}}, {{"label": "No"}}], "multiSelect": false}}]}}'
        print(nbask.tools.call_sync(args).is_error)
        print(sorted(m for m in ("zmq", "ipykernel", "jupyter_client") if sys.modules.get(m) is not None))
        """
    )
    assert out.splitlines() == [
        "{'Which database?': 'Postgres (Recommended)'}",
        "reject",
        "True",
        "False",
        "[]",
    ]
