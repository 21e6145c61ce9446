"""Mid-cell waiting, nbask vs jupyter-ui-poll 1.1.0, on ipykernel 6.29, 7.3 and 7.4.

    python benchmarks/bench_wait.py [--answers 50] [--cpu-seconds 10] [--no-write]

For every kernel and every method it measures, in real kernels driven by the
protocol-level fake front end of tests/kernel/harness.py:

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
(``waiting.wait_blocking``, what ``ask_sync`` uses) and ``jupyter-ui-poll``
(``run_ui_poll_loop`` with its default 20 ms sleep, the library's documented way to wait).
Prints a table and writes benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kernel"))

from harness import KERNEL_NAMES, HarnessTimeout, KernelHarness, ensure_kernelspecs  # noqa: E402

UI_POLL = "jupyter-ui-poll==1.1.0"
UI_POLL_DIR = REPO / ".venvs" / "bench-jupyter-ui-poll"
TARGETS = {"p50_ms": 10.0, "p99_ms": 30.0, "cpu_pct": 0.1}

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
    if not waiting.wait_blocking(p.evt, 5):
        out.append("timeout"); break
    out.append(time.time() - p.got["t"])
print("RESULT", json.dumps(out))
""",
    "jupyter-ui-poll": """
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
}

IDLE_CELL = {
    "nbask await": """
p = make_probe('cpu'); p.fut = p.loop.create_future()
try:
    await waiting.wait_for(p.fut, {s})
except TimeoutError:
    pass
""",
    "nbask blocking": "p = make_probe('cpu'); waiting.wait_blocking(p.evt, {s})",
    "jupyter-ui-poll": """
from jupyter_ui_poll import run_ui_poll_loop
deadline = time.time() + {s}
run_ui_poll_loop(lambda: True if time.time() > deadline else None)
""",
}


@dataclass
class Row:
    kernel: str
    method: str
    answers: int = 0
    p50_ms: float | None = None
    p99_ms: float | None = None
    cpu_pct: float | None = None
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
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / 1e9


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def measure_latency(k: KernelHarness, method: str, n: int, row: Row) -> None:
    label = f"lat-{method}"
    cell = k.execute(LATENCY_CELL[method].format(label=label, n=n))
    queued = None
    try:
        comm = k.wait_for_comm_open(predicate=lambda c: c.state.get("label") == label, timeout=10)
        for i in range(n):
            k.wait_for_iopub(
                lambda m: m["msg_type"] == "comm_msg"
                and m["content"]["comm_id"] == comm.comm_id
                and m["content"]["data"].get("content", {}).get("ready") == i,
                timeout=10,
            )
            if i == 0:
                queued = k.execute("print('queued cell ran')")
            time.sleep(0.005)  # let the cell reach its wait
            k.update_widget(comm.comm_id, {"response": {"i": i, "t": time.time()}})
    except HarnessTimeout:
        row.failures.append("answer lost: the cell stopped announcing rounds")
        k.interrupt()
    try:
        res = k.result(cell, 30)
    except HarnessTimeout:
        row.failures.append("cell never finished")
        return
    line = next((ln for ln in res.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if not res.ok or line is None:
        row.failures.append(f"cell failed: {res.error_text or res.stderr.strip()[-200:]}")
        return
    values = json.loads(line[len("RESULT ") :])
    lat = [v for v in values if isinstance(v, float)]
    if "timeout" in values:
        row.failures.append(f"answer lost: no answer within 5 s after {len(lat)} answers")
    row.answers = len(lat)
    if lat:
        row.p50_ms = statistics.median(lat) * 1000
        row.p99_ms = percentile(lat, 99) * 1000
    idles = [s for s in res.statuses if s == "idle"]
    if len(idles) != 1:
        row.failures.append(f"{len(idles)} idle statuses for the waiting cell (expected 1)")
    if queued is not None:
        try:
            q = k.result(queued, 10)
            if "queued cell ran" not in q.stdout:
                row.failures.append("queued cell ran without its output")
            elif q.execution_count != res.execution_count + 1:
                row.failures.append("queued cell ran out of order")
        except HarnessTimeout:
            row.failures.append("queued cell lost (no reply)")


def measure_cpu(k: KernelHarness, method: str, seconds: float, row: Row) -> None:
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


def idle_baseline(k: KernelHarness, seconds: float) -> float:
    c0, t0 = cpu_seconds(k.pid), time.monotonic()
    time.sleep(seconds)
    return 100.0 * (cpu_seconds(k.pid) - c0) / (time.monotonic() - t0)


def run(answers: int, cpu_secs: float) -> tuple[list[Row], dict[str, dict], dict[str, float]]:
    kernel_dir = ensure_kernelspecs()
    install_ui_poll()
    rows: list[Row] = []
    versions: dict[str, dict] = {}
    baselines: dict[str, float] = {}
    for name in KERNEL_NAMES:
        for method in LATENCY_CELL:
            # A fresh kernel per method: a method that breaks the kernel must not taint the next.
            with KernelHarness(name, kernel_dirs=[kernel_dir]) as k:
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
                rows.append(row)
    return rows, versions, baselines


def fmt(v: float | None, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def table(rows: list[Row]) -> str:
    out = [
        "| kernel | method | answers | p50 ms | p99 ms | CPU % waiting | failure modes |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        out.append(
            f"| {r.kernel.removeprefix('nbask-')} | {r.method} | {r.answers} | {fmt(r.p50_ms)} | "
            f"{fmt(r.p99_ms)} | {fmt(r.cpu_pct, 3)} | {'; '.join(r.failures) or 'none'} |"
        )
    return "\n".join(out)


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--answers", type=int, default=50)
    ap.add_argument("--cpu-seconds", type=float, default=10.0)
    ap.add_argument("--no-write", action="store_true", help="print only; do not write RESULTS.md")
    args = ap.parse_args()
    rows, versions, baselines = run(args.answers, args.cpu_seconds)
    md = table(rows)
    print()
    print(md)
    nbask_rows = [r for r in rows if r.method.startswith("nbask")]
    ok = all(
        not r.failures
        and r.p50_ms is not None and r.p50_ms <= TARGETS["p50_ms"]
        and r.p99_ms is not None and r.p99_ms <= TARGETS["p99_ms"]
        and r.cpu_pct is not None and r.cpu_pct <= TARGETS["cpu_pct"]
        for r in nbask_rows
    )
    print(f"\nnbask targets (p50 <= 10 ms, p99 <= 30 ms, CPU <= 0.1 %): {'met' if ok else 'NOT met'}")
    if args.no_write:
        return
    ver_lines = "\n".join(
        f"- {name.removeprefix('nbask-')}: " + ", ".join(f"{k} {v}" for k, v in ver.items())
        + f"; idle kernel, no cell running: {baselines.get(name, float('nan')):.3f} % CPU"
        for name, ver in versions.items()
    )
    text = f"""# Waiting benchmark: nbask vs jupyter-ui-poll

Generated by `python benchmarks/bench_wait.py --answers {args.answers} --cpu-seconds {args.cpu_seconds:g}`
on {time.strftime('%Y-%m-%d')}.

Machine: {machine()}.

Kernels (versions read inside each kernel):
{ver_lines}

Latency is from the fake front end sending the widget's `comm_msg` to the cell running
again ({args.answers} answers each). CPU is the kernel process (all threads) while a cell waits
{args.cpu_seconds:g} s with no answer, in % of one core. Each row ran in a fresh kernel; during the
latency run an execute request was queued, and must run after the cell, in order.
jupyter-ui-poll is used as documented (`run_ui_poll_loop`, default 20 ms sleep).

{md}

Targets for nbask: p50 <= {TARGETS['p50_ms']:g} ms, p99 <= {TARGETS['p99_ms']:g} ms,
CPU <= {TARGETS['cpu_pct']:g} % -- {'met' if ok else 'NOT met'}.
"""
    (REPO / "benchmarks" / "RESULTS.md").write_text(text)
    print("wrote benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
