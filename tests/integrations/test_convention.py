"""Every integration keeps the one convention of ``nbask.integrations`` (its docstring and
``ROLES``): the same role has the same name in every framework's module.
"""

from __future__ import annotations

import importlib
import inspect
import re
from types import ModuleType
from typing import Any, TypeVar, is_typeddict

import pytest

import nbask
from nbask.integrations import FRAMEWORKS, ROLES

from .conformance.contract import where_it_runs

#: Names that once meant a role that now has one name (see CHANGELOG.md): none may come back.
RETIRED = {
    "input_function": "input_func_with",
    "approval_function": "approval_func_with",
    "permission_callback": "can_use_tool_with",
    "handler": "handle_deferred_with",
    "resume": "resolve",
    "resume_sync": "resolve_sync",
    "answer": "resolve",
    "answer_all": "resolve",
}
#: Parameter names of a role that has another name.
RETIRED_PARAMETERS = {"functions": "tools", "response_type": "resume_type"}


#: Modules being brought to the convention: (test, framework) -> what is left. Strict, so each
#: fails the moment it is done and must leave this table.
PENDING: dict[tuple[str, str], str] = {}


def _frameworks(check: str) -> list[Any]:
    return [
        pytest.param(
            framework,
            marks=[
                *[pytest.mark.xfail(strict=True, reason=PENDING[k]) for k in [(check, framework)] if k in PENDING],
                *where_it_runs(framework),
            ],
            id=framework,
        )
        for framework in FRAMEWORKS
    ]


def _module(framework: str) -> ModuleType:
    try:
        return importlib.import_module(f"nbask.integrations.{framework}")
    except ImportError as error:  # CrewAI, Semantic Kernel and Strands live in .venvs/agents-more
        pytest.skip(f"{framework} is not installed here ({error.name})")


def _public(module: ModuleType) -> dict[str, Any]:
    return {name: getattr(module, name) for name in module.__all__}


def _callables(module: ModuleType) -> dict[str, Any]:
    """The public functions, and the public classes' constructors, of ``module``."""
    found = {}
    for name, value in _public(module).items():
        if inspect.isclass(value) and issubclass(value, BaseException):
            continue
        if inspect.isclass(value) and (is_typeddict(value) or issubclass(value, dict)):
            continue  # a TypedDict: a shape the framework passes, not something to call
        if inspect.isfunction(value) or (inspect.isclass(value) and value.__module__.startswith("nbask.")):
            found[name] = value
    return found


def test_every_framework_is_in_the_table() -> None:
    assert sorted(ROLES) == sorted(FRAMEWORKS)


@pytest.mark.parametrize("framework", _frameworks("exported"))
def test_every_public_name_is_exported_and_every_export_exists(framework: str) -> None:
    module = _module(framework)
    defined = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, (ModuleType, TypeVar))
        and getattr(value, "__module__", None) == module.__name__
        and (inspect.isfunction(value) or inspect.isclass(value))
    }
    missing = sorted(defined - set(module.__all__))
    assert not missing, (
        f"{framework}: public-looking names left out of __all__ (make them private or export them): {missing}"
    )
    absent = [name for name in module.__all__ if not hasattr(module, name)]
    assert not absent, f"{framework}: __all__ names what the module lacks: {absent}"


@pytest.mark.parametrize("framework", _frameworks("roles"))
def test_the_roles_in_the_table_exist_in_pairs(framework: str) -> None:
    module = _module(framework)
    for role, names in ROLES[framework].items():
        for name in names:
            assert name in module.__all__, f"{framework}: {role} {name!r} is not exported"
    for awaited in ("run", "resolve"):
        if inspect.iscoroutinefunction(getattr(module, awaited, None)):
            assert f"{awaited}_sync" in module.__all__, f"{framework}: {awaited} has no blocking twin {awaited}_sync"


@pytest.mark.parametrize("framework", _frameworks("retired"))
def test_no_retired_name_or_parameter(framework: str) -> None:
    module = _module(framework)
    for name in module.__all__:
        assert name not in RETIRED, f"{framework}.{name}: this role is called {RETIRED[name]!r}"
    for name, value in _callables(module).items():
        for parameter in inspect.signature(value).parameters:
            assert parameter not in RETIRED_PARAMETERS, (
                f"{framework}.{name}({parameter}=...): this role is called {RETIRED_PARAMETERS[parameter]!r}"
            )


@pytest.mark.parametrize("option", ["timeout", "approvers"])
@pytest.mark.parametrize("framework", _frameworks("options"))
def test_every_entry_point_and_hook_takes_timeout_and_approvers(framework: str, option: str) -> None:
    module = _module(framework)
    without = [
        name
        for name, value in _callables(module).items()
        if name in {role_name for role, names in ROLES[framework].items() if role != "own" for role_name in names}
        and (inspect.isclass(value) or not _is_ready_callback(framework, name))
        and option not in inspect.signature(value).parameters
    ]
    assert not without, f"{framework}: entry points without {option}=: {without}"
    for name, value in _callables(module).items():  # the two options side by side, everywhere
        keywords = inspect.signature(value).parameters.values()
        parameters = [p.name for p in keywords if p.kind is inspect.Parameter.KEYWORD_ONLY]
        if "timeout" in parameters and "approvers" in parameters:
            assert parameters.index("approvers") == parameters.index("timeout") + 1, f"{framework}.{name}"


def _is_ready_callback(framework: str, name: str) -> bool:
    """A framework's own callback, ready made: its signature is the framework's (its ``_with``
    factory takes the options).
    """
    return name in ROLES[framework].get("callbacks", ())


@pytest.mark.parametrize("framework", _frameworks("with"))
def test_every_ready_callback_has_its_with_factory(framework: str) -> None:
    module = _module(framework)
    for callback in ROLES[framework].get("callbacks", ()):
        if callback[0].isupper():  # a class the framework instantiates takes its options itself
            continue
        assert f"{callback}_with" in module.__all__, f"{framework}: {callback} has no {callback}_with(timeout=...)"


@pytest.mark.parametrize("framework", _frameworks("private"))
def test_no_private_type_in_a_public_signature(framework: str) -> None:
    module = _module(framework)
    for name, value in _callables(module).items():
        shown = str(inspect.signature(value))
        assert not re.search(r"\bAsking\b|\b_seam\b|(?<![\w.])_[A-Za-z]\w*\[", shown), (
            f"{framework}.{name}{shown}: a private type in a public signature"
        )


@pytest.mark.parametrize("framework", _frameworks("errors"))
def test_every_exception_is_an_nbask_error(framework: str) -> None:
    module = _module(framework)
    for name, value in _public(module).items():
        if inspect.isclass(value) and issubclass(value, BaseException):
            assert issubclass(value, nbask.NbaskError), f"{framework}.{name} is not an nbask.NbaskError"
