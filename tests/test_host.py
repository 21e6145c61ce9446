"""Recognising a headless notebook runner from positive signs only (nbask.host)."""

from __future__ import annotations

import pytest

from nbask import host

NBCONVERT = "jupyter nbconvert --execute"


@pytest.mark.parametrize(
    ("argv", "runner"),
    [
        (["/venv/bin/python", "/venv/bin/papermill", "in.ipynb", "out.ipynb"], "papermill"),
        (["python3", "-u", "-m", "papermill", "in.ipynb", "out.ipynb"], "papermill"),
        (["papermill", "in.ipynb", "out.ipynb", "-k", "python3"], "papermill"),
        (["/usr/bin/python3.11", "/usr/bin/jupyter-nbconvert", "--to", "notebook", "--execute", "a.ipynb"], NBCONVERT),
        (["python", "/venv/bin/jupyter-nbconvert", "--execute", "--to", "html", "a.ipynb"], NBCONVERT),
        (["python", "-m", "jupyter", "nbconvert", "--execute", "a.ipynb"], NBCONVERT),
        (["python", "/venv/bin/jupyter-nbconvert", "--to", "html", "a.ipynb"], None),
        (["python", "/venv/bin/jupyter-execute", "a.ipynb"], "jupyter execute"),
        (["jupyter", "execute", "a.ipynb"], "jupyter execute"),
        (["python", "-m", "pytest", "--nbmake", "notebooks/"], "pytest --nbmake"),
        (["/venv/bin/python", "/venv/bin/pytest", "--nbval-lax", "x.ipynb"], "pytest --nbval-lax"),
        (["python", "-X", "dev", "-m", "sphinx", "-b", "html", "docs", "_build"], "sphinx-build"),
        # Front ends and ordinary programs are never runners, whatever their arguments say.
        (["/venv/bin/python", "/venv/bin/jupyter-lab", "--notebook-dir=/home/me/papermill"], None),
        (["python", "-m", "jupyter_server", "/srv/nbconvert", "--execute"], None),
        (["node", "/opt/vscode/extensionHost.js"], None),
        (["python", "-m", "pytest", "tests/kernel"], None),
        (["python", "-c", "import papermill"], None),
        (["python", "run_my_papermill_jobs.py"], None),
        ([], None),
    ],
)
def test_runner_in_command(argv, runner):
    assert host.runner_in_command(argv) == runner


class FakeKernel:
    def __init__(self, parent) -> None:
        self.parent = parent

    def get_parent(self, channel: str):
        assert channel == "shell"
        return self.parent


def execute_request(*, allow_stdin: bool | None) -> dict:
    content = {"code": "", "silent": False}
    if allow_stdin is not None:
        content["allow_stdin"] = allow_stdin
    return {"header": {"msg_type": "execute_request"}, "content": content}


@pytest.mark.parametrize(
    ("parent", "expected"),
    [
        (execute_request(allow_stdin=True), True),
        (execute_request(allow_stdin=False), False),
        (execute_request(allow_stdin=None), None),
        ({"header": {"msg_type": "comm_msg"}, "content": {}}, None),
        ({}, None),
    ],
)
def test_cell_allows_stdin(parent, expected):
    assert host.cell_allows_stdin(FakeKernel(parent)) is expected


@pytest.mark.parametrize(
    ("allow_stdin", "started_by_runner", "headless"),
    [
        (False, True, True),  # nbclient: no stdin, and the kernel was started by it
        (None, True, True),  # a worker thread with no known request: the kernel's origin decides
        (True, True, False),  # a person connected to that kernel (jupyter console --existing)
        (False, False, False),  # a custom client that answers widgets (the kernel test harness)
        (True, False, False),  # JupyterLab, Notebook 7, VS Code
    ],
)
def test_headless_needs_a_runner_and_a_cell_without_stdin(monkeypatch, allow_stdin, started_by_runner, headless):
    monkeypatch.setattr(host, "running_kernel", lambda: FakeKernel(execute_request(allow_stdin=allow_stdin)))
    runner = host.Runner("nbclient", "test") if started_by_runner else None
    monkeypatch.setattr(host, "kernel_runner", lambda: runner)
    assert (host.headless_runner() is not None) is headless


def test_no_kernel_is_not_a_headless_runner():
    assert host.running_kernel() is None
    assert host.headless_runner() is None
    assert host.describe_process() == "a plain Python process"
