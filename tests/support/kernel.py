"""A small protocol-level fake front end for driving real Jupyter kernels in tests.

It talks to a kernel exactly as JupyterLab does, over jupyter_client's channels, so a test
can run cells without waiting for them, answer a widget the way the ipywidgets front end
does (a ``comm_msg`` "update" on the shell channel, optionally on a kernel subshell),
interrupt, type into ``input()``, and then read what each request produced.

Typical use::

    from support.kernel import KernelHarness, ensure_kernelspecs   # tests/ is on sys.path

    kernel_dir = ensure_kernelspecs()          # runs scripts/make_kernel_envs.sh once
    with KernelHarness("nbask-ipykernel-7.4", kernel_dirs=[kernel_dir]) as k:
        cell = k.execute("w = make_widget(); display(w); ...")   # returns at once
        comm = k.wait_for_comm_open()                             # the widget's comm_open
        k.update_widget(comm.comm_id, {"_response": {"ok": True}})
        result = k.result(cell)                                   # waits for reply + idle
        assert result.ok and "done" in result.stdout

Everything is single-threaded: each wait reads the channels until its condition holds,
storing whatever else arrives (iopub messages grouped by parent msg id, shell replies by
msg id), so nothing is lost and the order of arrival is kept in ``iopub_log``.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

REPO = Path(__file__).resolve().parents[2]
#: The kernelspecs made by scripts/make_kernel_envs.sh, each with the ipykernel generation the
#: tests branch on ("6": shell stream on the main loop; "7.0-7.3": a shell-channel thread and
#: a lock; "7.4": concurrent comm dispatch). nbask-colab is Google Colab's published set:
#: ipykernel 6.17.1, ipywidgets 7.7.1, traitlets 5.7.1, anywidget 0.9.21 and their pins.
KERNEL_GENERATIONS = {
    "nbask-ipykernel-6.29": "6",
    "nbask-ipykernel-7.3": "7.0-7.3",
    "nbask-ipykernel-7.4": "7.4",
    "nbask-colab": "6",
    # CrewAI, Semantic Kernel and Strands (.venvs/agents-more) under each ipykernel
    "nbask-agents-more": "7.4",
    "nbask-agents-more-7.3": "7.0-7.3",
    "nbask-agents-more-6.29": "6",
    # the project environment's agent frameworks (the agents extra) under 7.3 and 6.29
    "nbask-frameworks-7.3": "7.0-7.3",
    "nbask-frameworks-6.29": "6",
}
#: The project environment's frameworks under each ipykernel generation (7.4 is the project's
#: own kernel), for the integrations' blocking calls.
FRAMEWORK_KERNELS = ("nbask-ipykernel-7.4", "nbask-frameworks-7.3", "nbask-frameworks-6.29")
#: The kernelspec scripts/make_kernel_envs.sh makes for .venvs/agents-more (ipykernel 7.4), and the
#: same packages under each ipykernel generation, for CrewAI's, Semantic Kernel's and Strands'
#: blocking calls (their agent runs in a worker thread while the cell blocks the main thread).
AGENTS_MORE_KERNEL = "nbask-agents-more"
AGENTS_MORE_KERNELS = (AGENTS_MORE_KERNEL, "nbask-agents-more-7.3", "nbask-agents-more-6.29")
#: The kernels the real-kernel tests run against: NBASK_KERNELS (comma-separated names) picks
#: some (scripts/test.sh runs the Colab set as a suite of its own), else the three ipykernels.
_DEFAULT_KERNELS = "nbask-ipykernel-6.29,nbask-ipykernel-7.3,nbask-ipykernel-7.4"
KERNEL_NAMES = tuple(
    name.strip() for name in os.environ.get("NBASK_KERNELS", _DEFAULT_KERNELS).split(",") if name.strip()
)
_unknown = [name for name in KERNEL_NAMES if name not in KERNEL_GENERATIONS]
if _unknown:
    raise RuntimeError(f"NBASK_KERNELS names unknown kernels {_unknown}; known: {sorted(KERNEL_GENERATIONS)}")
#: Where the tests register them (inside the gitignored .venvs, not the user's Jupyter dir).
DEFAULT_DATA_DIR = REPO / ".venvs" / "jupyter-data"

Message = dict[str, Any]


class HarnessTimeout(AssertionError):
    """A kernel did not produce what a test waited for in time."""


def ensure_kernelspecs(data_dir: Path = DEFAULT_DATA_DIR) -> Path:
    """Create the kernel venvs and kernelspecs if needed; return the kernels directory.

    Idempotent and quick when everything exists (the script keeps a stamp per venv).
    """
    script = REPO / "scripts" / "make_kernel_envs.sh"
    env = dict(os.environ, PYTHON=sys.executable)
    proc = subprocess.run(["bash", str(script), str(data_dir)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{script} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return data_dir / "kernels"


@dataclass
class CommInfo:
    """A comm the kernel opened (``comm_open`` on iopub)."""

    comm_id: str
    target_name: str
    data: dict[str, Any]
    msg: Message

    @property
    def state(self) -> dict[str, Any]:
        """The widget state sent with the comm_open (ipywidgets protocol)."""
        return self.data.get("state", {})


@dataclass
class CellResult:
    """Everything one request produced: its reply and its iopub messages."""

    msg_id: str
    reply: Message
    iopub: list[Message] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reply["content"].get("status") == "ok"

    @property
    def status(self) -> str:
        return self.reply["content"].get("status", "")

    @property
    def execution_count(self) -> int | None:
        return self.reply["content"].get("execution_count")

    @property
    def ename(self) -> str | None:
        return self.reply["content"].get("ename")

    def stream(self, name: str) -> str:
        return "".join(
            m["content"]["text"] for m in self.iopub if m["msg_type"] == "stream" and m["content"]["name"] == name
        )

    @property
    def stdout(self) -> str:
        return self.stream("stdout")

    @property
    def stderr(self) -> str:
        return self.stream("stderr")

    @property
    def statuses(self) -> list[str]:
        """The execution states published with this request as parent, in order."""
        return [m["content"]["execution_state"] for m in self.iopub if m["msg_type"] == "status"]

    @property
    def error_text(self) -> str:
        err = [m for m in self.iopub if m["msg_type"] == "error"]
        return "\n".join(f"{m['content']['ename']}: {m['content']['evalue']}" for m in err)


class KernelHarness:
    """One real kernel plus a blocking client acting as the front end."""

    def __init__(
        self,
        kernel_name: str,
        *,
        kernel_dirs: Iterable[str | Path] | None = None,
        startup_timeout: float = 60.0,
        stderr_path: str | Path | None = None,
    ) -> None:
        """``kernel_dirs``: extra kernelspec directories (e.g. from ``ensure_kernelspecs``);
        ``stderr_path``: write the kernel's stderr (its log) there instead of inheriting ours.
        """
        self.kernel_name = kernel_name
        ksm = KernelSpecManager()
        if kernel_dirs is not None:
            ksm.kernel_dirs = [str(d) for d in kernel_dirs] + list(ksm.kernel_dirs)
        # IPC sockets in a private directory: no TCP ports to collide on, no warning about
        # unencrypted TCP in the kernel's stderr.
        self._ipc_dir = tempfile.mkdtemp(prefix="nbask-kernel-")
        self.km = KernelManager(
            kernel_name=kernel_name,
            kernel_spec_manager=ksm,
            transport="ipc",
            ip=str(Path(self._ipc_dir) / "k"),
        )
        self.startup_timeout = startup_timeout
        self.stderr_path = Path(stderr_path) if stderr_path is not None else None
        self._stderr_file: Any = None
        self.kc: Any = None
        self.iopub_log: list[Message] = []
        self._by_parent: dict[str, list[Message]] = defaultdict(list)
        self._replies: dict[str, Message] = {}
        self._control_replies: dict[str, Message] = {}
        self.kernel_info: Message = {}

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> KernelHarness:
        kwargs: dict[str, Any] = {}
        if self.stderr_path is not None:
            self._stderr_file = Path(self.stderr_path).open("ab")  # noqa: SIM115 (closed in shutdown)
            kwargs["stderr"] = self._stderr_file
        self.km.start_kernel(**kwargs)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=self.startup_timeout)
        self.kernel_info = self.kc.kernel_info(reply=True, timeout=10)["content"]
        self.drain(0.2)
        return self

    def shutdown(self) -> None:
        if self.kc is not None:
            self.kc.stop_channels()
            self.kc = None
        if self.km.has_kernel:
            self.km.shutdown_kernel(now=True)
        self.km.cleanup_resources()
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None

    def kernel_log(self) -> str:
        """What the kernel wrote to stderr so far (only with ``stderr_path``)."""
        if self.stderr_path is None or not self.stderr_path.exists():
            return ""
        return self.stderr_path.read_text(errors="replace")

    def restart(self) -> None:
        self.shutdown()
        self.iopub_log.clear()
        self._by_parent.clear()
        self._replies.clear()
        self.start()

    def __enter__(self) -> KernelHarness:  # noqa: PYI034 - start() returns self
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        shutil.rmtree(self._ipc_dir, ignore_errors=True)

    @property
    def pid(self) -> int:
        """The kernel process id."""
        return int(self.km.provisioner.pid)  # type: ignore[union-attr]

    @property
    def generation(self) -> str:
        """The ipykernel generation of this kernelspec ("6", "7.0-7.3" or "7.4")."""
        return KERNEL_GENERATIONS[self.kernel_name]

    @property
    def supports_subshells(self) -> bool:
        """Whether the kernel implements JEP 91 subshells (ipykernel 7+)."""
        return "kernel subshells" in self.kernel_info.get("supported_features", [])

    # -- reading ----------------------------------------------------------------------------

    def _store_iopub(self, msg: Message) -> None:
        msg["_received"] = time.time()  # when this front end had it (benchmarks/bench_batch.py)
        self.iopub_log.append(msg)
        parent_id = msg.get("parent_header", {}).get("msg_id")
        if parent_id:
            self._by_parent[parent_id].append(msg)

    def _read_iopub(self, timeout: float) -> Message | None:
        try:
            msg = self.kc.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            return None
        self._store_iopub(msg)
        return msg

    def drain(self, timeout: float = 0.0) -> None:
        """Store every iopub message that arrives within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self._read_iopub(max(0.0, deadline - time.monotonic())) is not None:
            pass

    def iopub_for(self, msg_id: str) -> list[Message]:
        """The iopub messages (received so far) whose parent is ``msg_id``."""
        return list(self._by_parent.get(msg_id, []))

    def wait_for_iopub(
        self, predicate: Callable[[Message], bool], timeout: float = 10.0, *, seen: bool = True
    ) -> Message:
        """Return the first iopub message matching ``predicate``.

        With ``seen=True`` messages already stored count too (so a predicate should match
        one message only, e.g. a widget with a unique label); otherwise only new ones.
        """
        if seen:
            for old in self.iopub_log:
                if predicate(old):
                    return old
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            msg = self._read_iopub(min(left, 0.5))
            if msg is not None and predicate(msg):
                return msg
        raise HarnessTimeout(f"no matching iopub message within {timeout}s")

    def widget_states(self, comm_id: str) -> list[dict[str, Any]]:
        """Every state update the kernel pushed to the front end for widget ``comm_id``, in order."""
        return [
            m["content"]["data"]["state"]
            for m in self.iopub_log
            if m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm_id
            and m["content"]["data"].get("method") == "update"
        ]

    def wait_for_state(
        self, comm_id: str, test: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The state of the first update the kernel sent for widget ``comm_id`` that passes ``test``."""
        msg = self.wait_for_iopub(
            lambda m: (
                m["msg_type"] == "comm_msg"
                and m["content"]["comm_id"] == comm_id
                and test(m["content"]["data"].get("state", {}))
            ),
            timeout,
        )
        state: dict[str, Any] = msg["content"]["data"]["state"]
        return state

    def wait_idle(self, msg_id: str, timeout: float = 30.0) -> None:
        """Wait for the ``idle`` status whose parent is ``msg_id``."""
        self.wait_for_iopub(
            lambda m: (
                m["msg_type"] == "status"
                and m["parent_header"].get("msg_id") == msg_id
                and m["content"]["execution_state"] == "idle"
            ),
            timeout,
        )

    def reply(self, msg_id: str, timeout: float = 30.0) -> Message:
        """The shell reply to request ``msg_id`` (waits for it)."""
        deadline = time.monotonic() + timeout
        while msg_id not in self._replies:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessTimeout(f"no shell reply to {msg_id} within {timeout}s")
            try:
                msg = self.kc.get_shell_msg(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self._replies[msg["parent_header"].get("msg_id", "")] = msg
        return self._replies[msg_id]

    def has_reply(self, msg_id: str, timeout: float = 0.0) -> bool:
        try:
            self.reply(msg_id, timeout)
        except HarnessTimeout:
            return False
        return True

    def result(self, msg_id: str, timeout: float = 30.0) -> CellResult:
        """Wait for the reply and the closing ``idle`` of a request; return all it produced."""
        reply = self.reply(msg_id, timeout)
        self.wait_idle(msg_id, timeout)
        if reply["content"].get("status") == "error" and reply["msg_type"] == "execute_reply":
            self._until_abort_ends(timeout)
        return CellResult(msg_id=msg_id, reply=reply, iopub=self.iopub_for(msg_id))

    def _until_abort_ends(self, timeout: float) -> None:
        """After a failed cell, until the kernel has stopped aborting execute requests.

        A failed cell makes ipykernel abort the requests queued behind it, until a
        "stop aborting" step it queues. ipykernel 6.17 (Google Colab's) queues that step one
        loop turn later, so a request sent at once may land before it and be aborted (about
        one in 200, with or without nbask; 6.29 queues it at once). A shell request that is
        not an execute request is never aborted, and anything sent after its reply is queued
        behind the step, so the next cell of a test runs as a person's would.
        """
        msg_id = self._send_shell("kernel_info_request", {}, None)
        self.reply(msg_id, timeout)
        self.wait_idle(msg_id, timeout)

    # -- requests ---------------------------------------------------------------------------

    def _send_shell(
        self, msg_type: str, content: dict[str, Any], subshell_id: str | None, username: str | None = None
    ) -> str:
        msg = self.kc.session.msg(msg_type, content)
        if subshell_id is not None:
            msg["header"]["subshell_id"] = subshell_id
        if username is not None:  # the front end's user, as a shared front end names them
            msg["header"]["username"] = username
        self.kc.shell_channel.send(msg)
        return msg["header"]["msg_id"]

    def execute(self, code: str, *, allow_stdin: bool = False, subshell_id: str | None = None) -> str:
        """Send an execute_request and return its msg id without waiting."""
        content = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": allow_stdin,
            "stop_on_error": True,
        }
        return self._send_shell("execute_request", content, subshell_id)

    def request(self, msg_type: str, content: dict[str, Any] | None = None) -> str:
        """Send any shell request (e.g. kernel_info_request) without waiting; returns its id."""
        return self._send_shell(msg_type, content or {}, None)

    def run(self, code: str, timeout: float = 30.0, **kwargs: Any) -> CellResult:
        """Execute ``code`` and wait until it is done."""
        return self.result(self.execute(code, **kwargs), timeout)

    def run_ok(self, code: str, timeout: float = 30.0, **kwargs: Any) -> CellResult:
        """Like :meth:`run`, and fail with the cell's error text if it did not succeed."""
        res = self.run(code, timeout, **kwargs)
        assert res.ok, f"cell failed: {res.error_text}\n{res.stderr}"
        return res

    def wait_for_comm_open(
        self,
        target_name: str = "jupyter.widget",
        predicate: Callable[[CommInfo], bool] | None = None,
        timeout: float = 10.0,
    ) -> CommInfo:
        """The first ``comm_open`` for ``target_name`` (and ``predicate``) on iopub."""

        def match(m: Message) -> bool:
            if m["msg_type"] != "comm_open" or m["content"].get("target_name") != target_name:
                return False
            return predicate is None or predicate(_comm_info(m))

        return _comm_info(self.wait_for_iopub(match, timeout))

    def send_comm_msg(
        self,
        comm_id: str,
        data: dict[str, Any],
        *,
        subshell_id: str | None = None,
        username: str | None = None,
    ) -> str:
        """Send a ``comm_msg`` on the shell channel (as a front end does); returns its id."""
        return self._send_shell("comm_msg", {"comm_id": comm_id, "data": data}, subshell_id, username)

    def update_widget(
        self, comm_id: str, state: dict[str, Any], *, subshell_id: str | None = None, username: str | None = None
    ) -> str:
        """Set widget traits exactly as the ipywidgets front end does (method "update")."""
        data = {"method": "update", "state": state, "buffer_paths": []}
        return self.send_comm_msg(comm_id, data, subshell_id=subshell_id, username=username)

    def interrupt(self) -> None:
        """Interrupt the kernel (SIGINT, as the front end's stop button does)."""
        self.km.interrupt_kernel()

    def _control_request(self, msg_type: str, content: dict[str, Any], timeout: float) -> Message:
        msg = self.kc.session.msg(msg_type, content)
        self.kc.control_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        deadline = time.monotonic() + timeout
        while msg_id not in self._control_replies:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessTimeout(f"no control reply to {msg_type} within {timeout}s")
            try:
                rep = self.kc.control_channel.get_msg(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self._control_replies[rep["parent_header"].get("msg_id", "")] = rep
        return self._control_replies.pop(msg_id)

    def wait_until_waiting(self, comm: CommInfo, timeout: float = 20.0) -> None:
        """Until the widget's deadline is pushed: nbask publishes it once the wait has begun,
        so from then on an interrupt cancels that wait.
        """
        self.wait_for_state(comm.comm_id, lambda state: state.get("_deadline_ms", 0) > 0, timeout)

    def create_subshell(self, timeout: float = 10.0) -> str:
        """Create a kernel subshell (JEP 91 ``create_subshell_request``); return its id."""
        if not self.supports_subshells:
            raise RuntimeError(f"{self.kernel_name} does not support kernel subshells")
        rep = self._control_request("create_subshell_request", {}, timeout)
        assert rep["content"]["status"] == "ok", rep["content"]
        return rep["content"]["subshell_id"]

    def wait_for_input_request(self, timeout: float = 10.0) -> Message:
        """The next ``input_request`` on the stdin channel."""
        try:
            return self.kc.get_stdin_msg(timeout=timeout)
        except queue.Empty:
            raise HarnessTimeout(f"no input_request within {timeout}s") from None

    def send_input(self, value: str) -> None:
        """Answer the pending ``input_request``."""
        self.kc.input(value)


def _comm_info(msg: Message) -> CommInfo:
    c = msg["content"]
    return CommInfo(comm_id=c["comm_id"], target_name=c["target_name"], data=c.get("data", {}), msg=msg)


#: The kernel of the single-kernel suites (tools, integrations): its python is the project's.
PROJECT_KERNEL = "nbask-ipykernel-7.4"


def kernel_fixture(
    setup: str = "",
    *,
    every_kernel: bool = False,
    timeout: float = 60,
    outside_pytest: bool = False,
    kernel: str = PROJECT_KERNEL,
    kernels: Sequence[str] = (),
) -> Any:
    """A test module's module-scoped kernel fixture ``k`` (assign the result to ``k``).

    By default one ``kernel`` (PROJECT_KERNEL unless named, e.g. nbask-agents-more for the
    frameworks that live in .venvs/agents-more; kernelspecs made only if missing); with
    ``kernels``, one of each of them in turn (parametrized by name); with ``every_kernel``, one
    kernel of each of KERNEL_NAMES in turn (parametrized by name; kernelspecs brought up to date
    first). Each has run ``setup`` (if any) and is shut down at the end of the module.

    ``outside_pytest``: start the kernel without pytest's PYTEST_CURRENT_TEST in its environment.
    ipykernel leaves the process's standard streams alone when it finds itself under pytest, and
    its sys.stderr then has no fileno() (which, e.g., mcp's stdio_client gives a server process for
    its stderr); a kernel started by Jupyter has one, and so has this one.
    """
    import pytest  # noqa: PLC0415 - the harness itself also runs outside pytest

    def kernels_dir(name: str) -> Path:
        specs = DEFAULT_DATA_DIR / "kernels"
        return specs if not every_kernel and (specs / name / "kernel.json").exists() else ensure_kernelspecs()

    def started(name: str) -> Iterator[KernelHarness]:
        with ExitStack() as stack:
            with pytest.MonkeyPatch.context() as env:
                if outside_pytest:
                    env.delenv("PYTEST_CURRENT_TEST", raising=False)
                harness = stack.enter_context(KernelHarness(name, kernel_dirs=[kernels_dir(name)]))
            if setup:
                harness.run_ok(setup, timeout=timeout)
            yield harness

    if kernels:  # each of these in turn (kernelspecs made only if missing)

        @pytest.fixture(scope="module", params=list(kernels), name="k")
        def k_listed(request: pytest.FixtureRequest) -> Iterator[KernelHarness]:
            yield from started(str(request.param))

        return k_listed

    if every_kernel:

        @pytest.fixture(scope="module", params=KERNEL_NAMES, name="k")
        def k_each(request: pytest.FixtureRequest) -> Iterator[KernelHarness]:
            yield from started(str(request.param))

        return k_each

    @pytest.fixture(scope="module", name="k")
    def k_project() -> Iterator[KernelHarness]:
        yield from started(kernel)

    return k_project


def printed_json(result: CellResult) -> dict[str, Any]:
    """The JSON object a cell printed on its last line (the cell must have succeeded)."""
    assert result.ok, f"{result.error_text}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def next_approval(k: KernelHarness, answered: set[str], timeout: float = 30) -> CommInfo:
    """The next approval widget the kernel opens whose comm is not in ``answered``."""
    return k.wait_for_comm_open(
        predicate=lambda comm: comm.state.get("_kind") == "approval" and comm.comm_id not in answered,
        timeout=timeout,
    )


def approval_response(action: str, edited: dict[str, Any] | None = None, reason: str = "") -> dict[str, Any]:
    """The ``response`` an approval view sends (js/kinds/approval/view.ts): ``edited``, when given, is the
    person's edited arguments, sent as JSON text.
    """
    details = json.dumps(edited) if edited is not None else None
    return {"action": action, "edited_details": details, "reason": reason, "view_id": "t", "sent_at_ms": 0}
