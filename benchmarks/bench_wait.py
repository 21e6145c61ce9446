"""Mid-cell waiting, nbask vs jupyter-ui-poll 1.1.0, on ipykernel 6.29, 7.3 and 7.4.

    python benchmarks/bench_wait.py [--answers 100] [--cpu-seconds 10] [--no-write]

For every kernel and every method it measures, in real kernels driven by the
protocol-level fake front end of tests/support/kernel.py:

- latency: time from the front end sending a widget answer (``comm_msg`` "update") to the
  waiting cell running again, p50/p99 over ``--answers`` answers (the same clock: both
  ends run on this machine);
- CPU: the kernel process's CPU time (all threads, /proc/<pid>/task/*/schedstat) while a
  cell waits ``--cpu-seconds`` with no answer, as a percentage of one core;
- correctness on the way: an execute request queued during the wait must run after the
  cell, and the cell must have exactly one busy/idle pair; a method that loses the answer,
  the queued cell or publishes extra idles gets that failure mode recorded instead of a
  crash.

Methods: ``nbask await`` (``await waiting.wait_for``), ``nbask blocking``
(``waiting.wait_sync``, what ``ask_sync`` uses), and jupyter-ui-poll as documented:
``jupyter-ui-poll sync`` (``run_ui_poll_loop``, default 20 ms sleep) and
``jupyter-ui-poll async`` (``async with ui_events() as poll``: ``await poll(10)`` then a
20 ms ``asyncio.sleep``).
Prints a table and writes its section of benchmarks/RESULTS.md (other sections are kept).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kernel"))

from harness import (  # noqa: E402
    KERNEL_NAMES,
    CellResult,
    HarnessTimeout,
    KernelHarness,
    ensure_kernelspecs,
)

UI_POLL = "jupyter-ui-poll==1.1.0"
UI_POLL_DIR = REPO / ".venvs" / "bench-jupyter-ui-poll"
TARGETS = {"p50_ms": 10.0, "p99_ms": 30.0, "cpu_pct": 0.1}
#: Rounds run before the measured ones (first-call costs: imports, the specializing
#: interpreter warming up), not counted.
WARMUP = 5

SETUP = r"""
import asyncio, json, sys, threading, time
import ipywidgets, traitlets
sys.path.insert(0, {ui_poll_dir!r})
from nbask import waiting

class Probe(ipywidgets.DOMWidget):
    label = traitlets.Unicode().tag(sync=True)
    response = traitlets.Dict().tag(sync=True)

def make_probe(label):
    p = Probe(label=label)
    p.loop = asyncio.get_event_loop()
    p.fut, p.evt, p.got = None, threading.Event(), None
    def on_response(change):
        p.got = change["new"]
        p.evt.set()
        fut = p.fut
        if fut is not None:
            p.loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(change["new"]))
    p.observe(on_response, "response")
    return p

def versions():
    import ipykernel, zmq, tornado, ipywidgets, IPython
    return {{"python": sys.version.split()[0], "ipykernel": ipykernel.__version__,
            "pyzmq": zmq.__version__, "tornado": tornado.version,
            "ipython": IPython.__version__, "ipywidgets": ipywidgets.__version__}}
print(json.dumps(versions()))
"""

# One answer per round: the cell announces it is about to wait (a custom comm message),
# the front end answers with its send time, the cell records the time it resumed.
LATENCY_CELL = {
    "nbask await": """
p = make_probe({label!r}); out = []
for i in range({n}):
    p.fut = p.loop.create_future()
    p.send({{"ready": i}})
    try:
        res = await waiting.wait_for(p.fut, 5)
    except TimeoutError:
        out.append("timeout"); break
    out.append(time.time() - res["t"])
print("RESULT", json.dumps(out))
""",
    "nbask blocking": """
p = make_probe({label!r}); out = []
for i in range({n}):
    p.evt.clear()
    p.send({{"ready": i}})
    if not waiting.wait_sync(p.evt, 5):
        out.append("timeout"); break
    out.append(time.time() - p.got["t"])
print("RESULT", json.dumps(out))
""",
    "jupyter-ui-poll sync": """
from jupyter_ui_poll import run_ui_poll_loop
p = make_probe({label!r}); out = []
for i in range({n}):
    p.got = None
    p.send({{"ready": i}})
    deadline = time.time() + 5
    res = run_ui_poll_loop(lambda: p.got or ("timeout" if time.time() > deadline else None))
    if res == "timeout":
        out.append("timeout"); break
    out.append(time.time() - res["t"])
print("RESULT", json.dumps(out))
""",
    "jupyter-ui-poll async": """
from jupyter_ui_poll import ui_events
p = make_probe({label!r}); out = []
async with ui_events() as poll:
    for i in range({n}):
        p.got = None
        p.send({{"ready": i}})
        deadline = time.time() + 5
        while p.got is None and time.time() < deadline:
            await poll(10)
            await asyncio.sleep(0.02)
        if p.got is None:
            out.append("timeout"); break
        out.append(time.time() - p.got["t"])
print("RESULT", json.dumps(out))
""",
}

IDLE_CELL = {
    "nbask await": """
p = make_probe('cpu'); p.fut = p.loop.create_future()
try:
    await waiting.wait_for(p.fut, {s})
except TimeoutError:
    pass
""",
    "nbask blocking": "p = make_probe('cpu'); waiting.wait_sync(p.evt, {s})",
    "jupyter-ui-poll sync": """
from jupyter_ui_poll import run_ui_poll_loop
deadline = time.time() + {s}
run_ui_poll_loop(lambda: True if time.time() > deadline else None)
""",
    "jupyter-ui-poll async": """
from jupyter_ui_poll import ui_events
deadline = time.time() + {s}
async with ui_events() as poll:
    while time.time() < deadline:
        await poll(10)
        await asyncio.sleep(0.02)
""",
}


# Why jupyter-ui-poll 1.1.0 fails where it does (read from its source and ipykernel's).
FAILURE_NOTES = """Why jupyter-ui-poll 1.1.0 fails where it does:

- ipykernel 6.29: it swaps `shell_handlers["execute_request"]` to hold queued cells, but
  `dispatch_shell` still publishes the queued request's `busy` at once, and its closing `idle`
  goes out after jupyter-ui-poll has reset the parent to the waiting cell: the front end sees
  the waiting cell go idle while it still runs, and the queued cell's busy/idle are split.
- ipykernel 7.3, sync (`run_ui_poll_loop`): `Kernel.do_one_iteration` is gone since
  ipykernel 7.1 and jupyter-ui-poll swallows the AttributeError, so nothing is ever received.
- ipykernel 7.3, async: it replaces `_main_asyncio_lock` with a `contextlib.nullcontext`, so
  every await lets shell messages through; answers arrive, but the queued cell's `busy` is
  published during the wait.
- ipykernel 7.4: `shell_main` calls `asyncio_lock.locked()`, which the `nullcontext` lacks:
  every shell message's task dies with AttributeError, so the answer and the queued cell
  are lost (the kernel log shows the error).

nbask publishes a busy/idle pair for each comm message under that message's own parent (never
the waiting cell's: the ipywidgets front end sends a widget's next update only after the
previous one's idle) and hands every other message back to the kernel untouched.
"""


@dataclass
class Row:
    """One kernel and one method: what was measured and how it failed."""

    kernel: str
    method: str
    answers: int = 0
    p50_ms: float | None = None
    p99_ms: float | None = None
    cpu_pct: float | None = None
    load: float | None = None  # 1-minute load average when the row finished
    failures: list[str] = field(default_factory=list)


def install_ui_poll() -> None:
    """jupyter-ui-poll into one directory every kernel puts on sys.path.

    It is pure Python and needs only IPython, which every kernel env has; one --target
    install serves the two venvs and the main interpreter without touching the latter.
    """
    if (UI_POLL_DIR / "jupyter_ui_poll").is_dir():
        return
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(UI_POLL_DIR), UI_POLL],
        check=True,
    )


def cpu_seconds(pid: int) -> float:
    """CPU time of all threads of ``pid`` (ns precision; /proc/<pid>/stat ticks are 10 ms)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def percentile(values: list[float], q: float) -> float:
    """Return the ``q``-th percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def _announces(comm_id: str, i: int, m: dict) -> bool:
    """Tell whether ``m`` is the cell's "about to wait for answer i" message."""
    return (
        m["msg_type"] == "comm_msg"
        and m["content"]["comm_id"] == comm_id
        and m["content"]["data"].get("content", {}).get("ready") == i
    )


def _answer_rounds(k: KernelHarness, cell: str, label: str, n: int, row: Row) -> str | None:
    """Answer each of the cell's ``n`` rounds; queue one more cell during the first wait.

    Returns the queued cell's message id, or None if no round was announced.
    """
    queued = None
    try:
        comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("label") == label, timeout=10)
        for i in range(n):
            k.wait_for_iopub(partial(_announces, comm.comm_id, i), timeout=7)
            if i == 0:
                queued = k.execute("print('queued cell ran')")
            time.sleep(0.005)  # let the cell reach its wait
            k.update_widget(comm.comm_id, {"response": {"i": i, "t": time.time()}})
    except HarnessTimeout:
        row.failures.append("answer lost: the cell stopped announcing rounds")
        if not k.has_reply(cell):
            k.interrupt()
    return queued


def measure_latency(k: KernelHarness, method: str, n: int, row: Row) -> None:
    """Answer-to-resume latency over ``n`` answers (after the warm-up), and the queued cell's fate."""
    label = f"lat-{method}"
    n += WARMUP
    cell = k.execute(LATENCY_CELL[method].format(label=label, n=n))
    queued = _answer_rounds(k, cell, label, n, row)
    try:
        res = k.result(cell, 30)
    except HarnessTimeout:
        row.failures.append("cell never finished")
        return
    k.drain(0.3)  # a stray early idle can make result() return before the last outputs
    res = CellResult(cell, res.reply, k.iopub_for(cell))
    line = next((ln for ln in res.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if not res.ok or line is None:
        row.failures.append(f"cell failed: {res.error_text or res.stderr.strip()[-200:] or 'no result'}")
        return
    values = json.loads(line[len("RESULT ") :])
    if "timeout" in values:
        answered = values.index("timeout")
        row.failures.append(f"answer lost: no answer within 5 s after {answered} answers")
    lat = [v for v in values[WARMUP:] if isinstance(v, float)]
    row.answers = len(lat)
    if lat:
        row.p50_ms = statistics.median(lat) * 1000
        row.p99_ms = percentile(lat, 99) * 1000
    idles = [s for s in res.statuses if s == "idle"]
    if len(idles) != 1:
        row.failures.append(
            f"{len(idles)} idles with the waiting cell as parent (a stray idle: the front end "
            "sees the cell end while it still waits)"
        )
    if queued is not None:
        _check_queued(k, res, queued, row)


def _check_queued(k: KernelHarness, res: CellResult, queued: str, row: Row) -> None:
    """Check that the cell queued during the wait ran after the waiting cell, in order, with its own output."""
    try:
        q = k.result(queued, 10)
        k.drain(0.2)
    except HarnessTimeout:
        row.failures.append("queued cell lost (no reply)")
        return
    if "queued cell ran" not in q.stdout:
        stray = [m for m in k.iopub_log if "queued cell ran" in str(m["content"].get("text", ""))]
        row.failures.append(
            "queued cell's output attributed to another request" if stray else "queued cell's output lost"
        )
    if res.execution_count is None or q.execution_count != res.execution_count + 1:
        row.failures.append("queued cell ran out of order")
    positions = {id(m): i for i, m in enumerate(k.iopub_log)}
    last_cell_idle = max(positions[id(m)] for m in res.iopub if m["msg_type"] == "status")
    first_queued = min((positions[id(m)] for m in k.iopub_for(queued) if m["msg_type"] == "status"), default=None)
    if first_queued is not None and first_queued < last_cell_idle:
        row.failures.append("queued cell's busy published during the wait")


def measure_cpu(k: KernelHarness, method: str, seconds: float, row: Row) -> None:
    """Measure the kernel's CPU use, in % of one core, while a cell waits ``seconds`` with no answer."""
    cell = k.execute(IDLE_CELL[method].format(s=seconds + 1.0))
    time.sleep(0.5)  # the cell is waiting now
    c0, t0 = cpu_seconds(k.pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_seconds(k.pid), time.monotonic()
    row.cpu_pct = 100.0 * (c1 - c0) / (t1 - t0)
    try:
        k.result(cell, seconds + 10)
    except HarnessTimeout:
        row.failures.append("idle wait did not end")


def _logged_errors(log: str) -> str:
    """Return the distinct exception lines of a kernel log, e.g. the cause of a lost answer."""
    seen: list[str] = []
    for raw in log.splitlines():
        line = raw.strip()
        if re.match(r"^[A-Za-z_.]*(Error|Exception): ", line) and line not in seen:
            seen.append(line)
    return "; ".join(f"`{e}`" for e in seen[:3])


def idle_baseline(k: KernelHarness, seconds: float) -> float:
    """Measure the kernel's CPU use, in % of one core, with no cell running."""
    c0, t0 = cpu_seconds(k.pid), time.monotonic()
    time.sleep(seconds)
    return 100.0 * (cpu_seconds(k.pid) - c0) / (time.monotonic() - t0)


def run(answers: int, cpu_secs: float) -> tuple[list[Row], dict[str, dict], dict[str, float]]:
    """Measure every method on every kernel: the rows, each kernel's versions and idle CPU."""
    # The fake front end's own garbage collections must not count as kernel latency.
    gc.disable()
    kernel_dir = ensure_kernelspecs()
    install_ui_poll()
    rows: list[Row] = []
    versions: dict[str, dict] = {}
    baselines: dict[str, float] = {}
    for name in KERNEL_NAMES:
        for method in LATENCY_CELL:
            # A fresh kernel per method: a method that breaks the kernel must not taint the next.
            log_path = Path(tempfile.mkdtemp(prefix="nbask-bench-")) / "kernel.log"
            with KernelHarness(name, kernel_dirs=[kernel_dir], stderr_path=log_path) as k:
                setup = k.run_ok(SETUP.format(ui_poll_dir=str(UI_POLL_DIR)))
                versions[name] = json.loads(setup.stdout.strip().splitlines()[-1])
                if method == "nbask await":
                    baselines[name] = idle_baseline(k, min(cpu_secs, 5.0))
                row = Row(kernel=name, method=method)
                print(f"{name:22} {method:16} latency...", end="", flush=True)
                measure_latency(k, method, answers, row)
                if k.run("print(1)", timeout=10).ok:
                    print(" cpu...", end="", flush=True)
                    measure_cpu(k, method, cpu_secs, row)
                else:
                    row.failures.append("kernel unusable afterwards")
                print(" done")
                row.load = os.getloadavg()[0]
                errors = _logged_errors(k.kernel_log())
                if errors and row.failures:
                    row.failures.append(f"kernel logged: {errors}")
                rows.append(row)
    return rows, versions, baselines


def fmt(v: float | None, digits: int = 1) -> str:
    """Format a measurement, "-" when there is none."""
    return "-" if v is None else f"{v:.{digits}f}"


def table(rows: list[Row]) -> str:
    """Render the rows as a Markdown table."""
    out = [
        "| kernel | method | answers | p50 ms | p99 ms | CPU % waiting | load | failure modes |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    out.extend(
        f"| {r.kernel.removeprefix('nbask-')} | {r.method} | {r.answers} | {fmt(r.p50_ms)} | "
        f"{fmt(r.p99_ms)} | {fmt(r.cpu_pct, 3)} | {fmt(r.load, 2)} | "
        f"{'; '.join(r.failures) or 'none'} |"
        for r in rows
    )
    return "\n".join(out)


def machine() -> str:
    """Describe the machine: CPU model, core count, kernel release."""
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def _load(avg: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.2f}" for x in avg)


def main() -> None:
    """Run the benchmark, print the table and write benchmarks/RESULTS.md."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--answers", type=int, default=100, help="answers per row (p99 needs >= 50)")
    ap.add_argument("--cpu-seconds", type=float, default=10.0)
    ap.add_argument("--no-write", action="store_true", help="print only; do not write RESULTS.md")
    args = ap.parse_args()
    load_before = os.getloadavg()
    rows, versions, baselines = run(args.answers, args.cpu_seconds)
    load_after = os.getloadavg()
    md = table(rows)
    print()
    print(md)
    nbask_rows = [r for r in rows if r.method.startswith("nbask")]
    ok = all(
        not r.failures
        and r.p50_ms is not None
        and r.p50_ms <= TARGETS["p50_ms"]
        and r.p99_ms is not None
        and r.p99_ms <= TARGETS["p99_ms"]
        and r.cpu_pct is not None
        and r.cpu_pct <= TARGETS["cpu_pct"]
        for r in nbask_rows
    )
    print(f"\nnbask targets (p50 <= 10 ms, p99 <= 30 ms, CPU <= 0.1 %): {'met' if ok else 'NOT met'}")
    if args.no_write:
        return
    ver_lines = "\n".join(
        f"- {name.removeprefix('nbask-')}: "
        + ", ".join(f"{k} {v}" for k, v in ver.items())
        + f"; idle kernel, no cell running: {baselines.get(name, float('nan')):.3f} % CPU"
        for name, ver in versions.items()
    )
    text = f"""# Waiting benchmark: nbask vs jupyter-ui-poll

Generated by `python benchmarks/bench_wait.py --answers {args.answers} --cpu-seconds {args.cpu_seconds:g}`
on {time.strftime("%Y-%m-%d")}.

Machine: {machine()}. Load average (1/5/15 min) before the run {_load(load_before)},
after {_load(load_after)}: latency tails grow with other work on the machine.

Kernels (versions read inside each kernel):
{ver_lines}

Latency is from the fake front end sending the widget's `comm_msg` to the cell running
again ({args.answers} answers each, after {WARMUP} warm-up answers). CPU is the kernel
process (all threads) while a cell waits {args.cpu_seconds:g} s with no answer, in % of one
core. "load" is the machine's 1-minute load average as the row ended (2 cores: above ~1.5
other work competes with the kernel and shows in p99). Each row ran in a fresh kernel;
during the latency run an execute request was queued, and must run after the cell, in
order. jupyter-ui-poll is used as documented: `run_ui_poll_loop` (default 20 ms sleep) and
`async with ui_events()` (`await poll(10)`, then a 20 ms sleep).

{md}

Targets for nbask: p50 <= {TARGETS["p50_ms"]:g} ms, p99 <= {TARGETS["p99_ms"]:g} ms,
CPU <= {TARGETS["cpu_pct"]:g} % -- {"met" if ok else "NOT met"}.

{FAILURE_NOTES}"""
    write_section(REPO / "benchmarks" / "RESULTS.md", text)
    print("wrote the waiting section of benchmarks/RESULTS.md")


def write_section(path: Path, section: str) -> None:
    """Replace this benchmark's section of ``path`` (from its heading to the next top-level
    heading), or append it; other benchmarks' sections stay as they are.
    """
    heading = section.splitlines()[0]
    lines = path.read_text().splitlines(keepends=True) if path.exists() else []
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == heading.rstrip()), None)
    if start is None:
        before, after = "".join(lines).rstrip("\n"), ""
        before = f"{before}\n\n" if before else ""
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("# ")), len(lines))
        before, after = "".join(lines[:start]), "".join(lines[end:])
    body = section.rstrip("\n") + "\n"
    path.write_text(before + body + ("\n" + after if after else ""))


if __name__ == "__main__":
    main()
