"""The jupyter_server behind the VS Code host page: 127.0.0.1, a free port, a random token,
isolated config / data / runtime / IPython dirs, the three test kernels' kernelspecs, and the
page's files as extra static paths.

A kernel's widget scripts are served from that kernel's own environment, as the Jupyter
extension's LocalWidgetScriptSourceProvider does (``<sys.prefix>/share/jupyter/nbextensions``):
each kernel gets ``/static/kernels/<name>/nbextensions/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from support.processes import free_port, stop_server

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


class HostServer:
    """One running jupyter_server serving the host page and the test kernels."""

    def __init__(self, home: pathlib.Path, kernel_dirs: pathlib.Path, build: pathlib.Path = BUILD) -> None:
        self.home = home
        self.kernel_dirs = kernel_dirs
        self.build = build
        self.site = home / "site"
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = home / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None

    def _prepare(self) -> dict[str, str]:
        dirs = {
            "JUPYTER_CONFIG_DIR": self.home / "config",
            "JUPYTER_DATA_DIR": self.home / "data",
            "JUPYTER_RUNTIME_DIR": self.home / "runtime",
            "IPYTHONDIR": self.home / "ipython",
        }
        for path in [self.home / "root", self.site, *dirs.values()]:
            path.mkdir(parents=True, exist_ok=True)
        for name in KERNELS:
            spec = json.loads((self.kernel_dirs / name / "kernel.json").read_text())
            target = dirs["JUPYTER_DATA_DIR"] / "kernels" / name
            target.mkdir(parents=True, exist_ok=True)
            (target / "kernel.json").write_text(json.dumps(spec, indent=1))
            # A venv's interpreter is <prefix>/bin/python.
            prefix = pathlib.Path(spec["argv"][0]).parent.parent
            nbextensions = prefix / "share" / "jupyter" / "nbextensions"
            if not (nbextensions / "anywidget" / "index.js").is_file():
                raise RuntimeError(f"{name}: no anywidget front end in {nbextensions}")
            shutil.copytree(nbextensions, self.site / "kernels" / name / "nbextensions", dirs_exist_ok=True)
        # A bare jupyter_server: the page needs only the REST API, kernels and static files, not
        # the front ends' server extensions installed beside it (JupyterLab's runs yarn at start).
        (dirs["JUPYTER_CONFIG_DIR"] / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"jpserver_extensions": dict.fromkeys(SERVER_EXTENSIONS_OFF, False)}})
        )
        env = dict(os.environ)
        for leaky in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "JUPYTER_TOKEN", "JUPYTER_PREFER_ENV_PATH"):
            env.pop(leaky, None)
        env.update({key: str(value) for key, value in dirs.items()})
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def start(self, ready_timeout: float = 60.0) -> None:
        env = self._prepare()
        argv = [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.home / 'root'}",
            f"--ServerApp.extra_static_paths={json.dumps([str(self.build), str(self.site)])}",
            "--KernelSpecManager.ensure_native_kernel=False",
            "--ServerApp.terminals_enabled=False",
        ]
        self._log_file = self.log_path.open("wb")
        self.proc = subprocess.Popen(argv, env=env, stdout=self._log_file, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter_server exited with {self.proc.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                specs = self.api("GET", "/api/kernelspecs", timeout=2.0)
                missing = set(KERNELS) - set(specs.get("kernelspecs", {}))
                if missing:
                    raise RuntimeError(f"kernelspecs not visible to the server: {sorted(missing)}")
                return
            time.sleep(0.2)  # start-up poll of the server, not a test wait
        self.stop()
        raise RuntimeError(f"jupyter_server not ready within {ready_timeout}s:\n{self.log_tail()}")

    # -- REST ------------------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10.0) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method)  # noqa: S310 - our 127.0.0.1 server
        req.add_header("Authorization", f"token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - localhost only
            raw = resp.read()
        return json.loads(raw) if raw.strip() else None

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

    # -- teardown --------------------------------------------------------------

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        proc = self.proc
        if proc is None:
            return

        def shut_down() -> None:
            for kernel in self.api("GET", "/api/kernels") or []:
                self.shutdown_kernel(kernel["id"])
            self.api("POST", "/api/shutdown", timeout=10.0)

        stop_server(proc, shut_down)
        self.proc = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
