"""Every public name resolves after a plain ``import nbask``, in a fresh interpreter: every name
of ``nbask.__all__``, ``nbask.tools``, ``nbask.mcp``, and every framework module of
``nbask.integrations.FRAMEWORKS`` as an attribute (``nbask.integrations.openai_agents``), which is
how the README's one-liners reach them.

A module name (a submodule, a framework module) gets an interpreter of its own, so no earlier
import can have set the attribute up; the other names of ``__all__`` are each loaded from their
own module on first use and share one interpreter.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest

import nbask
import nbask.integrations

MODULES = sorted({"tools", "mcp", "integrations"} | {f"integrations.{m}" for m in nbask.integrations.FRAMEWORKS})
NAMES = sorted(set(nbask.__all__) - set(MODULES))

#: Run in the fresh interpreter: resolve each ``nbask.<name>`` attribute by attribute and print
#: {name: outcome} as JSON. A framework that is not installed (nbask without the agents extra) is
#: "missing ...", not a failure.
RESOLVE = """
import json, sys
import nbask
loaded = [m for m in sys.modules if m.startswith("nbask.")]
outcomes = {}
for name in sys.argv[1:]:
    value = nbask
    try:
        for part in name.split("."):
            value = getattr(value, part)
    except ModuleNotFoundError as error:
        outcomes[name] = ("missing " if (error.name or "nbask").split(".")[0] != "nbask" else "error ") + repr(error)
    except Exception as error:
        outcomes[name] = "error " + repr(error)
    else:
        outcomes[name] = "resolved " + type(value).__name__
print(json.dumps({"loaded by import nbask": loaded, "outcomes": outcomes}))
"""


def resolve(*names: str) -> dict[str, str]:
    """Each name's outcome in one fresh interpreter (after a check that ``import nbask`` loaded
    no submodule).
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RESOLVE), *names], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["loaded by import nbask"] == []
    return report["outcomes"]


@pytest.fixture(scope="module")
def plain_names() -> dict[str, str]:
    return resolve(*NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_name_resolves_after_a_plain_import(name: str, plain_names: dict[str, str]):
    assert plain_names[name].startswith("resolved"), f"nbask.{name}: {plain_names[name]}"


@pytest.mark.parametrize("name", MODULES)
def test_module_resolves_after_a_plain_import(name: str):
    outcome = resolve(name)[name]
    if outcome.startswith("missing"):
        pytest.skip(f"nbask.{name} needs a framework not installed here: {outcome}")
    assert outcome == "resolved module", f"nbask.{name}: {outcome}"


def test_unknown_names_still_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'not_a_framework'"):
        _ = nbask.integrations.not_a_framework
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        _ = nbask.not_a_name


def _twins() -> list[tuple[str, object, object]]:
    """Every public call with a ``_sync`` twin, and every public method of a public class with
    one, in nbask, its tools, its MCP client and each framework module installed here.
    """
    modules = ["nbask", "nbask.tools", "nbask.mcp"] + [f"nbask.integrations.{m}" for m in nbask.integrations.FRAMEWORKS]
    twins: list[tuple[str, object, object]] = []
    for module_name in modules:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # a framework not installed in this environment
            continue
        public = {name: getattr(module, name) for name in getattr(module, "__all__", [])}
        owners: list[tuple[str, object, list[str]]] = [(module_name, module, list(public))]
        owners += [
            (f"{module_name}.{name}", value, [a for a in dir(value) if not a.startswith("_")])
            for name, value in public.items()
            if inspect.isclass(value)
        ]
        for owner_name, owner, names in owners:
            twins += [
                (f"{owner_name}.{name}", getattr(owner, name), getattr(owner, f"{name}_sync"))
                for name in names
                if f"{name}_sync" in names
            ]
    return twins


TWINS = _twins()


def test_the_twins_are_found():
    found = {name for name, _, _ in TWINS}
    assert {"nbask.approve", "nbask.ask", "nbask.ask_form", "nbask.tools.call"} <= found


@pytest.mark.parametrize(("name", "calling", "blocking"), TWINS, ids=[name for name, _, _ in TWINS])
def test_each_blocking_twin_takes_the_same_parameters_in_the_same_order(name: str, calling: Any, blocking: Any) -> None:
    """A call and its ``_sync`` twin read the same: the same parameters in the same order, each
    keyword with the same default (``ask_sync`` also takes a list of questions, so its leading
    ``options`` may be left out).
    """

    def read(call: Any) -> list[tuple[str, object, object]]:
        parameters = inspect.signature(call).parameters.values()
        return [(p.name, p.kind, p.default if p.kind is p.KEYWORD_ONLY else None) for p in parameters]

    assert read(calling) == read(blocking), name
