"""Start and stop an isolated Jupyter server for the tests in real hosts: JupyterLab, Jupyter
Notebook 7, or a bare jupyter_server behind VS Code's widget host page (support.vscode.server).

Each server gets its own temporary home: root dir (the notebooks), JUPYTER_CONFIG_DIR with
user settings that turn off windowing and the news/update toasts, JUPYTER_DATA_DIR with a
dedicated kernelspec whose argv is this interpreter (the one nbask is installed into),
JUPYTER_RUNTIME_DIR and IPYTHONDIR. Nothing of the developer's own Jupyter setup leaks in.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from support.processes import free_port, stop_server

#: The Python environment that serves the page and runs the kernel: this interpreter, or the one
#: NBASK_BROWSER_PYTHON names (the Colab suite runs JupyterLab from .venvs/colab, whose
#: anywidget 0.9 front end and ipywidgets 7 kernel are Colab's).
SERVER_PYTHON = os.environ.get("NBASK_BROWSER_PYTHON") or sys.executable
KERNEL_NAME = "nbask-browser-test"
KERNEL_DISPLAY_NAME = "nbask test kernel"

# Which application serves which front end.
APPS = {
    "lab": "jupyterlab",
    "notebook7": "notebook",
    # VS Code's host page needs only the REST API, kernels and static files.
    "vscode": "jupyter_server",
}

USER_SETTINGS: dict[str, dict[str, Any]] = {
    # Keep every cell in the DOM: the tests find cells by position.
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # No "get notified about news?" / "update available" toasts over the page.
    "@jupyterlab/apputils-extension/notification": {
        "checkForUpdates": False,
        "fetchNews": "false",
        "doNotDisturbMode": True,
    },
}


class JupyterServer:
    """One running `jupyter lab` or `jupyter notebook` process."""

    def __init__(
        self,
        frontend: str,
        home: pathlib.Path,
        *,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        server_config: dict[str, Any] | None = None,
        server_token: str | None = None,
    ) -> None:
        """``args``: more command-line options; ``env``: more environment variables;
        ``server_config``: the user's jupyter_server_config.json (an identity provider, an
        extension turned off); ``server_token``: the server's own token, where it is not the one
        the tests' REST calls send (an identity provider of its own knows theirs).
        """
        if frontend not in APPS:
            raise ValueError(f"frontend must be one of {sorted(APPS)}, got {frontend!r}")
        self.frontend = frontend
        self.home = home
        self.root_dir = home / "notebooks"
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = home / "server.log"
        self._log_file: Any = None
        self.args = args
        self.env = env or {}
        self.server_config = server_config
        self.server_token = self.token if server_token is None else server_token

    # -- setup -----------------------------------------------------------------

    def _prepare(self) -> dict[str, str]:
        dirs = {
            "JUPYTER_CONFIG_DIR": self.home / "config",
            "JUPYTER_DATA_DIR": self.home / "data",
            "JUPYTER_RUNTIME_DIR": self.home / "runtime",
            "IPYTHONDIR": self.home / "ipython",
        }
        for path in [self.root_dir, *dirs.values()]:
            path.mkdir(parents=True, exist_ok=True)

        settings_dir = dirs["JUPYTER_CONFIG_DIR"] / "lab" / "user-settings"
        for name, value in USER_SETTINGS.items():
            plugin_dir, _, plugin = name.rpartition("/")
            target = settings_dir / plugin_dir / f"{plugin}.jupyterlab-settings"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(value, indent=2))

        # No "is the build up to date?" check on every page load: it runs a subprocess in
        # the server, seconds of CPU on a small machine, and nothing here rebuilds Lab.
        labconfig = dirs["JUPYTER_CONFIG_DIR"] / "labconfig"
        labconfig.mkdir(parents=True, exist_ok=True)
        (labconfig / "page_config.json").write_text(json.dumps({"buildCheck": False, "buildAvailable": False}))

        if self.server_config is not None:
            (dirs["JUPYTER_CONFIG_DIR"] / "jupyter_server_config.json").write_text(json.dumps(self.server_config))

        kernel_dir = dirs["JUPYTER_DATA_DIR"] / "kernels" / KERNEL_NAME
        kernel_dir.mkdir(parents=True, exist_ok=True)
        (kernel_dir / "kernel.json").write_text(
            json.dumps(
                {
                    "argv": [SERVER_PYTHON, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                    "display_name": KERNEL_DISPLAY_NAME,
                    "language": "python",
                    "metadata": {"debugger": False},
                },
                indent=2,
            )
        )

        env = dict(os.environ)
        for leaky in (
            "JUPYTER_PATH",
            "JUPYTER_CONFIG_PATH",
            "JUPYTERLAB_SETTINGS_DIR",
            "JUPYTERLAB_WORKSPACES_DIR",
            "JUPYTER_TOKEN",
            "JUPYTER_PREFER_ENV_PATH",
            # ipykernel leaves its stdout/stderr without a file descriptor when it sees this
            # (so a subprocess such as an MCP stdio server could not inherit stderr); a kernel
            # a person starts never sees it.
            "PYTEST_CURRENT_TEST",
        ):
            env.pop(leaky, None)
        env.update({key: str(value) for key, value in dirs.items()})
        env["JUPYTERLAB_SETTINGS_DIR"] = str(settings_dir)
        env["JUPYTERLAB_WORKSPACES_DIR"] = str(dirs["JUPYTER_CONFIG_DIR"] / "lab" / "workspaces")
        env["PYTHONUNBUFFERED"] = "1"
        # The server's own inbox: nbask's extension has its kernels keep every request there
        # (NBASK_INBOX_MIRROR), and the inbox page reads it, never the developer's per-user file.
        env["NBASK_INBOX"] = str(self.home / "inbox.sqlite3")
        env.update(self.env)
        return env

    def start(self, ready_timeout: float = 90.0) -> None:
        env = self._prepare()
        argv = [
            SERVER_PYTHON,
            "-m",
            APPS[self.frontend],
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.server_token}",
            f"--ServerApp.root_dir={self.root_dir}",
            "--ServerApp.open_browser=False",
            "--ServerApp.disable_check_xsrf=False",
            "--KernelSpecManager.ensure_native_kernel=False",
            f"--MappingKernelManager.default_kernel_name={KERNEL_NAME}",
            "--ServerApp.terminals_enabled=False",
            *self.args,
        ]
        self._log_file = pathlib.Path(self.log_path).open("wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            argv, env=env, cwd=str(self.root_dir), stdout=self._log_file, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + ready_timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.frontend} server exited with {self.proc.returncode} before it was ready:\n"
                    + self.log_tail()
                )
            try:
                status = self.api("GET", "/api/status", timeout=2.0)
                specs = self.api("GET", "/api/kernelspecs", timeout=2.0)
                if KERNEL_NAME not in specs.get("kernelspecs", {}):
                    raise RuntimeError(f"kernelspec {KERNEL_NAME} not visible to the server: {specs}")
                # The front end's HTML page must be served too, not only the REST API.
                self.request("GET", self.app_url(""), timeout=5.0)
                if status is not None:
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as error:
                last_error = error
            time.sleep(0.2)  # server start-up poll, not a test wait
        self.stop()
        raise RuntimeError(
            f"{self.frontend} server not ready within {ready_timeout}s ({last_error}):\n" + self.log_tail()
        )

    # -- REST ------------------------------------------------------------------

    def request(self, method: str, url: str, body: Any = None, timeout: float = 10.0) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)  # noqa: S310 - our own http://127.0.0.1 server
        req.add_header("Authorization", f"token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - localhost only
            return resp.read()

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10.0) -> Any:
        raw = self.request(method, self.base_url + path, body, timeout)
        return json.loads(raw) if raw.strip() else None

    def sessions(self) -> list[dict[str, Any]]:
        return self.api("GET", "/api/sessions") or []

    def kernels(self) -> list[dict[str, Any]]:
        return self.api("GET", "/api/kernels") or []

    def kernel_for(self, path: str) -> dict[str, Any] | None:
        for session in self.sessions():
            if session.get("path") == path and session.get("kernel"):
                return session["kernel"]
        return None

    def shutdown_sessions(self, path: str | None = None) -> None:
        """Shut down the kernels of the sessions on `path` (all sessions when None)."""
        for session in self.sessions():
            if path is None or session.get("path") == path:
                with contextlib.suppress(urllib.error.HTTPError):
                    self.api("DELETE", f"/api/sessions/{session['id']}", timeout=30.0)

    def shutdown_kernels(self) -> None:
        for kernel in self.kernels():
            with contextlib.suppress(urllib.error.HTTPError):
                self.api("DELETE", f"/api/kernels/{kernel['id']}", timeout=30.0)

    # -- URLs ------------------------------------------------------------------

    def app_url(self, path: str) -> str:
        """The page that shows `path` (a notebook) in this front end; '' is the app's home."""
        quoted = urllib.parse.quote(path)
        if self.frontend == "vscode":
            return f"{self.base_url}/static/vscode.html"  # the host page, among the extra static paths
        if self.frontend == "lab":
            return f"{self.base_url}/lab" + (f"/tree/{quoted}" if path else "")
        return f"{self.base_url}/" + (f"notebooks/{quoted}" if path else "tree")

    def login_url(self, next_url: str) -> str:
        return f"{next_url}{'&' if '?' in next_url else '?'}token={self.token}"

    # -- teardown --------------------------------------------------------------

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self, timeout: float = 30.0) -> None:
        proc = self.proc
        if proc is None:
            return

        def shut_down() -> None:
            self.shutdown_sessions()
            self.shutdown_kernels()
            self.api("POST", "/api/shutdown", timeout=10.0)

        stop_server(proc, shut_down, timeout)
        self.proc = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
