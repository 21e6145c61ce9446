"""The jupyter_server behind the VS Code host page, started by the one launcher
(support.jupyter.JupyterServer: 127.0.0.1, a free port, a random token, isolated config / data /
runtime / IPython dirs) with the three test kernels' kernelspecs and the page's files as extra
static paths.

A kernel's widget scripts are served from that kernel's own environment, as the Jupyter
extension's LocalWidgetScriptSourceProvider does (``<sys.prefix>/share/jupyter/nbextensions``):
each kernel gets ``/static/kernels/<name>/nbextensions/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

from support.jupyter import JupyterServer

REPO = pathlib.Path(__file__).resolve().parents[3]
HERE = pathlib.Path(__file__).resolve().parent
BUILD = HERE / "build" / "static"
KERNEL_DATA_DIR = REPO / ".venvs" / "jupyter-data"
KERNELS = ("nbask-ipykernel-6.29", "nbask-ipykernel-7.3", "nbask-ipykernel-7.4")
#: Every ipykernel the host is tried on; the full scenario set runs on the newest, a core set on all.
ALL_KERNELS = list(KERNELS)
FULL_KERNEL = "nbask-ipykernel-7.4"
SERVER_EXTENSIONS_OFF = ("jupyterlab", "notebook", "jupyter_lsp", "jupyter_server_terminals", "notebook_shim")


def ensure_built() -> pathlib.Path:
    """Install the page's npm packages and build it (tests/support/vscode/setup.sh, a no-op when current)."""
    done = subprocess.run(["bash", str(HERE / "setup.sh")], capture_output=True, text=True, timeout=900)
    if done.returncode != 0 or not (BUILD / "host.js").is_file():
        raise RuntimeError(f"tests/support/vscode/setup.sh failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return BUILD


def ensure_kernelspecs() -> pathlib.Path:
    """The kernels of scripts/make_kernel_envs.sh (idempotent, quick when they exist)."""
    env = dict(os.environ, PYTHON=sys.executable)
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "make_kernel_envs.sh"), str(KERNEL_DATA_DIR)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(f"make_kernel_envs.sh failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return KERNEL_DATA_DIR / "kernels"


class HostServer(JupyterServer):
    """The one Jupyter server launcher (support.jupyter) as a bare jupyter_server serving the host
    page and the test kernels.
    """

    def __init__(self, home: pathlib.Path, kernel_dirs: pathlib.Path, build: pathlib.Path = BUILD) -> None:
        self.kernel_dirs = kernel_dirs
        self.build = build
        self.site = home / "site"
        super().__init__(
            "vscode",
            home,
            args=(f"--ServerApp.extra_static_paths={json.dumps([str(build), str(self.site)])}",),
            # Not the front ends' server extensions installed beside it (JupyterLab's runs yarn at start).
            server_config={"ServerApp": {"jpserver_extensions": dict.fromkeys(SERVER_EXTENSIONS_OFF, False)}},
        )

    def _prepare(self) -> dict[str, str]:
        env = super()._prepare()
        self.site.mkdir(parents=True, exist_ok=True)
        for name in KERNELS:
            spec = json.loads((self.kernel_dirs / name / "kernel.json").read_text())
            target = pathlib.Path(env["JUPYTER_DATA_DIR"]) / "kernels" / name
            target.mkdir(parents=True, exist_ok=True)
            (target / "kernel.json").write_text(json.dumps(spec, indent=1))
            # A venv's interpreter is <prefix>/bin/python.
            prefix = pathlib.Path(spec["argv"][0]).parent.parent
            nbextensions = prefix / "share" / "jupyter" / "nbextensions"
            if not (nbextensions / "anywidget" / "index.js").is_file():
                raise RuntimeError(f"{name}: no anywidget front end in {nbextensions}")
            shutil.copytree(nbextensions, self.site / "kernels" / name / "nbextensions", dirs_exist_ok=True)
        return env

    def start(self, ready_timeout: float = 60.0) -> None:
        super().start(ready_timeout)
        missing = set(KERNELS) - set(self.api("GET", "/api/kernelspecs").get("kernelspecs", {}))
        if missing:
            self.stop()
            raise RuntimeError(f"kernelspecs not visible to the server: {sorted(missing)}")

    def start_kernel(self, name: str) -> str:
        return str(self.api("POST", "/api/kernels", {"name": name}, timeout=60.0)["id"])

    def kernel(self, kernel_id: str) -> dict[str, Any]:
        return dict(self.api("GET", f"/api/kernels/{kernel_id}"))

    def shutdown_kernel(self, kernel_id: str) -> None:
        with contextlib.suppress(urllib.error.HTTPError, urllib.error.URLError, OSError):
            self.api("DELETE", f"/api/kernels/{kernel_id}", timeout=30.0)

    def page_url(self, kernel_id: str, kernel_name: str, theme: str) -> str:
        return (
            f"{self.base_url}/static/vscode.html?token={self.token}&kernel={kernel_id}"
            f"&kernelName={kernel_name}&theme={theme}&nbextensions=/static/kernels/{kernel_name}/nbextensions/"
        )
