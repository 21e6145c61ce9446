"""Fails the docs build when a public name of nbask has no entry in the API reference.

The public names are ``nbask.__all__``, ``nbask.tools.__all__``, ``nbask.mcp.__all__`` and, for
each module of ``nbask.integrations.FRAMEWORKS``, that module's ``__all__``. Each must be an
object the reference documents (autodoc's ``py`` domain entries), so a name added to the package
without a reference entry (or a reference page that drops one) stops the build.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError


def public_names() -> list[str]:
    """Every public name, fully qualified."""
    names: list[str] = []
    for module_name in ("nbask", "nbask.tools", "nbask.mcp"):
        module = importlib.import_module(module_name)
        names += [f"{module_name}.{name}" for name in module.__all__]
    integrations = importlib.import_module("nbask.integrations")
    folder = Path(integrations.__file__).parent
    for framework in integrations.FRAMEWORKS:
        module_name = f"nbask.integrations.{framework}"
        names.append(module_name)
        # Read, not imported: importing an integration imports its framework.
        package = folder / framework / "__init__.py"  # a framework of several files is a package
        names += [
            f"{module_name}.{name}" for name in _all_of(package if package.exists() else folder / f"{framework}.py")
        ]
    return names


def _all_of(path: Path) -> list[str]:
    """A module's ``__all__``, read from its source."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = ast.literal_eval(node.value)  # type: ignore[union-attr]
            return [str(name) for name in value]
    return []


def check(app: Sphinx, env: BuildEnvironment) -> None:
    """Raise, naming them, when public names have no entry in the reference."""
    del app
    documented: set[str] = set(env.get_domain("py").objects) | set(env.get_domain("py").modules)
    missing = [name for name in public_names() if name not in documented]
    if missing:
        listed = ", ".join(missing)
        msg = f"public names missing from the API reference (docs/reference/api.md): {listed}"
        raise ExtensionError(msg)


def setup(app: Sphinx) -> dict[str, Any]:
    """Sphinx's entry point: check once the whole site is read."""
    app.connect("env-check-consistency", check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
