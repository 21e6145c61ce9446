"""Run one documentation snippet in this (fresh) interpreter: ``python run_snippet.py SPEC.json``.

The spec gives the snippet's source (padded with blank lines so a traceback names its README
line), the names it takes as given and the module of ``givens/`` that gives each, and how to
judge it:

- ``"mode": "exec"``: run it. Top-level ``await`` / ``async for`` is compiled as IPython and
  Jupyter compile a cell (``PyCF_ALLOW_TOP_LEVEL_AWAIT``): the code object is then a coroutine,
  the body of an async wrapper, run to its end with ``asyncio.run``. It must end normally, or in
  an exception the snippet itself says it raises (``"raises"``: nbask names such as
  ``nbask.ApprovalRejected``).
- ``"mode": "eval"``: evaluate the expression, then every dotted name in ``"callables"`` must
  resolve to something callable.

Before the snippet runs, no nbask submodule may be loaded: the snippet itself must reach
``nbask.tools``, ``nbask.mcp`` and ``nbask.integrations.<framework>`` after a plain ``import nbask``.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import json
import pathlib
import sys
from typing import Any


def say(line: str) -> None:
    """The verdict, on stdout (the test reads its last line)."""
    sys.stdout.write(line + "\n")


def main() -> int:
    spec = json.loads(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))
    sys.path.insert(0, str(pathlib.Path(__file__).parent / "givens"))
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec("import nbask", namespace)  # noqa: S102 - the one name every snippet takes as given
    for name, module in spec["given"].items():
        namespace[name] = getattr(importlib.import_module(module), name)
    loaded = sorted(m for m in sys.modules if m.startswith("nbask."))
    if loaded:
        say(f"the prelude loaded {loaded}: the snippet would not show whether import nbask reaches them")
        return 2
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    code = compile(spec["source"], spec["filename"], spec["mode"], flags=flags)
    raises = tuple(eval(name, namespace) for name in spec.get("raises", []))  # noqa: S307 - nbask's own names
    try:
        value = eval(code, namespace)  # noqa: S307 - the documented snippet is what this runs
        if code.co_flags & inspect.CO_COROUTINE:
            value = asyncio.run(value)
    except raises as error:
        say(f"ended as documented: {type(error).__name__}: {error}")
    for name in spec.get("callables", []):
        target = eval(name, namespace)  # noqa: S307 - a dotted name from the snippet
        if not callable(target):
            say(f"{name} is {target!r}, not callable")
            return 1
    say("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
