"""The host running this code: who could see a request here (a Jupyter kernel's front end, a
terminal, or no one: a headless notebook runner, or a marimo notebook, whose front end cannot
answer a running cell), and where it runs (the notebook's path, the running cell).

The hard case is a kernel with no front end: a notebook executed by nbclient (and what is
built on it: papermill, ``jupyter nbconvert --execute``, ``jupyter execute``, nbmake) runs
every cell in a real kernel, records the outputs, and never renders a widget. A request
shown there would wait for its whole timeout. It is recognised by positive signs of such a
runner, never by the absence of widget traffic (a background tab or a collapsed output
renders late, and must still get its question):

1. the running cell's ``execute_request`` does not say ``allow_stdin: true``. Every
   interactive front end (JupyterLab, Notebook 7, VS Code, ``jupyter console``) sends
   ``true``; nbclient always sends ``false`` (``NotebookClient.start_new_kernel_client`` sets
   ``kc.allow_stdin = False``). Necessary, not sufficient: a custom client (a test harness
   that answers widgets over the comm) may send ``false`` too. A cell whose request allows
   stdin is never treated as headless; off the cell's thread the request may be unknown,
   and then the second sign alone decides.
2. and the kernel was started by such a runner, shown by either
   - the kernel's own command line holding ``--HistoryManager.hist_file=:memory:``, which
     nbclient adds to every IPython kernel it starts (``NotebookClient.ipython_hist_file``);
     Jupyter servers and VS Code never pass it; or
   - the command line of the process that launched the kernel (``JPY_PARENT_PID``, set by
     jupyter_client) naming a headless runner: papermill, ``jupyter-nbconvert --execute``,
     ``jupyter-execute``, ``pytest --nbmake`` / ``--nbval``, jupyter-book, sphinx-build.
"""

from __future__ import annotations

import functools
import os
import pathlib
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from . import waiting
from .identity import Stamp, verify

#: What nbclient adds to the command line of every IPython kernel it starts.
NBCLIENT_KERNEL_ARGUMENT = "--HistoryManager.hist_file=:memory:"


@dataclass(frozen=True)
class Runner:
    """A headless notebook runner that started this kernel."""

    name: str
    #: What showed it, for the error message (never user data).
    evidence: str


def running_kernel() -> Any | None:
    """The ipykernel kernel of this process, or None outside one."""
    kernelbase = sys.modules.get("ipykernel.kernelbase")
    if kernelbase is None or not kernelbase.Kernel.initialized():
        return None
    return kernelbase.Kernel.instance()


def in_kernel() -> bool:
    """True inside a running ipykernel kernel, or JupyterLite's Pyodide kernel (whose front end
    shows widgets, and which no headless runner starts).
    """
    return running_kernel() is not None or waiting.in_browser_kernel()


def in_marimo_notebook() -> bool:
    """True inside a marimo notebook's kernel (``marimo edit``, ``marimo run``, ``marimo export``).

    Asked through marimo's public ``marimo.running_in_notebook()``, and only where marimo is
    already imported: its kernel imports it before any cell runs, so a process without it is
    not a marimo notebook, and nbask never loads marimo itself. A notebook run as a script
    (``python notebook.py``, ``app.run()``) is not one either: there a terminal may answer.
    """
    marimo = sys.modules.get("marimo")
    running = getattr(marimo, "running_in_notebook", None)
    if not callable(running):
        return False
    try:
        return bool(running())
    except Exception:  # noqa: BLE001 - a marimo that cannot tell is not taken for one
        return False


def cell_allows_stdin(kernel: Any) -> bool | None:
    """The running cell's ``allow_stdin`` (None when no execute_request is known here)."""
    try:
        parent = kernel.get_parent("shell")
    except (LookupError, AttributeError, TypeError):
        return None
    if not isinstance(parent, dict) or parent.get("header", {}).get("msg_type") != "execute_request":
        return None
    value = parent.get("content", {}).get("allow_stdin")
    return value if isinstance(value, bool) else None


#: The longest first line of a cell's code a request carries (js/reload/panel.ts shows it).
CELL_LINE_CHARS = 80


def running_cell_line() -> str:
    """The first line of code of the cell this kernel runs now, shortened to
    ``CELL_LINE_CHARS`` ("" outside a kernel, or when no execute_request is known here): how a
    request shown away from its cell (the Waiting requests panel) says where it comes from.
    """
    kernel = running_kernel()
    try:
        parent = kernel.get_parent("shell") if kernel is not None else None
    except (LookupError, AttributeError, TypeError):
        return ""
    if not isinstance(parent, dict) or parent.get("header", {}).get("msg_type") != "execute_request":
        return ""
    code = parent.get("content", {}).get("code")
    line = next((text.strip() for text in code.splitlines() if text.strip()), "") if isinstance(code, str) else ""
    return line if len(line) <= CELL_LINE_CHARS else line[: CELL_LINE_CHARS - 1] + "\u2026"


def kernel_key() -> bytes:
    """The key this kernel's messages are signed with (its connection file's), b"" outside a
    kernel: what a stamp of nbask's server extension is checked with (``nbask.identity``).
    """
    kernel = running_kernel()
    key = getattr(getattr(kernel, "session", None), "key", b"")
    return key if isinstance(key, bytes) else b""


def running_cell_stamp() -> Stamp | None:
    """Who the Jupyter server says sent the running cell's execute_request (nbask's server
    extension stamps it); None where no server stamped it (VS Code, Colab, a server without the
    extension, no running cell): there, who answers cannot be verified.
    """
    kernel = running_kernel()
    try:
        parent = kernel.get_parent("shell") if kernel is not None else None
    except (LookupError, AttributeError, TypeError):
        return None
    return verify(parent, kernel_key()) if isinstance(parent, dict) else None


def running_cell_request() -> dict[str, str]:
    """The running cell's execute_request as ``{"msg_id", "session"}`` ({} when none is known
    here): a page that did not send it (reloaded while the cell ran) knows by it that the
    notebook no longer shows the cell's output, and follows the run's output itself
    (js/reload/cellrun.ts).
    """
    kernel = running_kernel()
    try:
        parent = kernel.get_parent("shell") if kernel is not None else None
    except (LookupError, AttributeError, TypeError):
        return {}
    header = parent.get("header") if isinstance(parent, dict) else None
    if not isinstance(header, dict) or header.get("msg_type") != "execute_request":
        return {}
    msg_id, session = header.get("msg_id"), header.get("session")
    if not isinstance(msg_id, str) or not isinstance(session, str):
        return {}
    return {"msg_id": msg_id, "session": session}


def notebook_path() -> str | None:
    """The path of the notebook this kernel runs, where the host says it: a Jupyter server's
    session (``JPY_SESSION_NAME``, the path from the server's root) or VS Code
    (``__vsc_ipynb_file__``); None in a script, or where no host says (nbclient, papermill).
    """
    path = os.environ.get("JPY_SESSION_NAME", "").strip()
    if path:
        return path
    kernel = running_kernel()
    shell = getattr(kernel, "shell", None)
    named = getattr(shell, "user_ns", {}).get("__vsc_ipynb_file__") if shell is not None else None
    return named if isinstance(named, str) and named else None


def headless_runner() -> Runner | None:
    """The headless runner executing the current cell, or None (a front end may be there).

    Only called inside a kernel; see the module docstring for the signals and why.
    """
    kernel = running_kernel()
    if kernel is None:
        return None
    if cell_allows_stdin(kernel):
        return None  # an interactive client sent this cell
    return kernel_runner()


@functools.lru_cache(maxsize=1)
def kernel_runner() -> Runner | None:
    """The headless runner that started this kernel process, from its command lines (cached:
    they do not change while the process lives).
    """
    launcher_pid = _launcher_pid()
    launcher = runner_in_command(launcher_command(launcher_pid)) if launcher_pid else None
    if launcher is not None:
        return Runner(launcher, f"the kernel's launcher, process {launcher_pid}, runs `{launcher}`")
    if NBCLIENT_KERNEL_ARGUMENT in sys.argv:
        return Runner("nbclient", f"the kernel was started with nbclient's {NBCLIENT_KERNEL_ARGUMENT}")
    return None


def _launcher_pid() -> int | None:
    """The process that launched this kernel: jupyter_client records it in JPY_PARENT_PID on
    POSIX (on Windows that variable is a handle, not a process id).
    """
    if os.name != "posix":
        return None
    value = os.environ.get("JPY_PARENT_PID", "")
    return int(value) if value.isdigit() and int(value) > 1 else None


def launcher_command(pid: int) -> list[str]:
    """The command line of process ``pid`` ([] where it cannot be read)."""
    proc = pathlib.Path(f"/proc/{pid}/cmdline")
    try:
        if proc.parent.is_dir():
            return [part for part in proc.read_bytes().decode(errors="replace").split("\0") if part]
        if sys.platform == "darwin":
            out = subprocess.run(  # noqa: S603 - a fixed command with a number argument
                ["/bin/ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True, timeout=2, check=False
            )
            return out.stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    return []


_RUNNER_PROGRAMS = {
    "papermill": "papermill",
    "jupyter-execute": "jupyter execute",
    "nbclient": "nbclient",
    "jupyter-book": "jupyter-book",
    "sphinx-build": "sphinx-build",
}
_RUNNER_MODULES = {
    "papermill": "papermill",
    "nbclient": "nbclient",
    "jupyter_book": "jupyter-book",
    "sphinx": "sphinx-build",
}
# Python's own options that take a value, so the script or module after them can be found.
_PYTHON_OPTIONS_WITH_VALUE = {"-W", "-X", "-Q", "--check-hash-based-pycs"}


def runner_in_command(argv: list[str]) -> str | None:
    """The headless runner a command line starts, or None: looks at the program only (the
    interpreter's script or ``-m`` module), never at file names among its arguments.
    """
    if not argv:
        return None
    program, rest = _program_of(argv)
    if program is None:
        return None
    if program in ("jupyter", "jupyter.exe") and rest:
        program, rest = f"jupyter-{rest[0]}", rest[1:]
    if program in _RUNNER_PROGRAMS:
        return _RUNNER_PROGRAMS[program]
    if program in ("jupyter-nbconvert", "nbconvert") and any(
        arg == "--execute" or arg.startswith("--ExecutePreprocessor.enabled=True") for arg in rest
    ):
        return "jupyter nbconvert --execute"
    if program in ("pytest", "py.test") and any(arg.startswith(("--nbmake", "--nbval")) for arg in rest):
        return f"pytest {next(arg for arg in rest if arg.startswith(('--nbmake', '--nbval')))}"
    return None


def _program_of(argv: list[str]) -> tuple[str | None, list[str]]:
    """(program name, its arguments): the script or ``-m`` module when argv[0] is Python."""
    first = pathlib.PurePath(argv[0]).name
    if not first.startswith("python"):
        return first.removesuffix(".exe"), argv[1:]
    args = iter(enumerate(argv[1:], start=1))
    for index, arg in args:
        if arg == "-m":
            module = argv[index + 1] if index + 1 < len(argv) else ""
            name = module.split(".")[0]
            return _RUNNER_MODULES.get(name, name), argv[index + 2 :]
        if arg in _PYTHON_OPTIONS_WITH_VALUE:
            next(args, None)
            continue
        if arg == "-c":
            return None, []
        if arg.startswith("-"):
            continue
        return pathlib.PurePath(arg).name.removesuffix(".py"), argv[index + 1 :]
    return None, []


def describe_process() -> str:
    """Where this process runs, in a few words, for error messages."""
    if in_marimo_notebook():
        return "a marimo notebook"
    if in_kernel():
        return "a Jupyter kernel"
    shell = sys.modules.get("IPython")
    if shell is not None and getattr(shell, "get_ipython", lambda: None)() is not None:
        return "an IPython terminal session"
    return "a plain Python process"
