"""A cell waiting in the inbox (``inbox=True``), beside the same cell answered by its widget, in a
real ipykernel 7.4 kernel driven by the protocol-level fake front end of tests/support/kernel.py.

    python benchmarks/bench_inbox.py [--answers 30] [--cpu-seconds 10] [--no-write]

- latency: time from the answer being given to the waiting cell running again, p50/p99 over
  ``--answers`` answers: given in the inbox by this process (``InboxStore.answer``; SQLite, the
  per-user default), and given in the widget (a ``comm_msg`` "update", as bench_wait.py does);
- CPU: the kernel process's CPU time (all threads, schedstat) while a cell waits
  ``--cpu-seconds`` with no answer, in the inbox and in the widget alone, as % of one core.

Prints a table and writes its section of benchmarks/RESULTS.md (other sections are kept).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kernel"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_wait import cpu_seconds, machine, percentile, write_section  # noqa: E402
from harness import KernelHarness, ensure_kernelspecs  # noqa: E402

from nbask.inbox_store import InboxItem, InboxStore, open_inbox  # noqa: E402
from nbask.replies import ApprovalResponse  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"
SETUP = "import nbask\nnbask.configure(inbox={path!r})"
#: Every round's cell: one approval waiting in the widget and, with ``inbox``, in the inbox too.
CELL = (
    "d = await nbask.approve('Drop table t{i}', 'DROP TABLE t{i}', inbox={inbox}, timeout=600)\n"
    "print('DONE', d.answered_by)"
)
REPLY = {"action": "approve", "edited_details": None, "reason": "", "view_id": "bench", "sent_at_ms": 0}


def waiting_item(store: InboxStore, i: str) -> InboxItem:
    """The inbox request of round ``i``, once the cell has kept it."""
    while True:
        for item in store.pending():
            if item.asked.get("action") == f"Drop table t{i}":
                return item
        time.sleep(0.005)


def latencies(k: KernelHarness, path: Path, rounds: int, *, by_inbox: bool) -> list[float]:
    """Milliseconds from the answer to the cell's result, one per round."""
    store = open_inbox(str(path))
    out = []
    for i in range(rounds):
        tag = f"{'i' if by_inbox else 'w'}{i}"
        cell = k.execute(CELL.format(i=tag, inbox=by_inbox))
        comm = k.wait_for_comm_open(predicate=lambda c, t=tag: c.state.get("title") == f"Drop table t{t}", timeout=30)
        if by_inbox:
            item = waiting_item(store, tag)
            decided = item.asked_again().decide(ApprovalResponse(action="approve"))  # type: ignore[union-attr]
            start = time.perf_counter()
            store.answer(item.id, decided, by="bench")
        else:
            start = time.perf_counter()
            k.update_widget(comm.comm_id, {"response": REPLY})
        result = k.result(cell, 60)
        out.append((time.perf_counter() - start) * 1000)
        if not result.ok:
            raise RuntimeError(result.error_text)
    return out[2:]  # the first rounds pay for imports and the store's first open


def cpu_waiting(k: KernelHarness, seconds: float, *, inbox: bool) -> float:
    """% of one core the kernel uses while a cell waits ``seconds`` with no answer."""
    cell = k.execute(CELL.format(i=f"idle{int(inbox)}", inbox=inbox).replace("timeout=600", f"timeout={seconds + 5}"))
    time.sleep(1.0)  # let the cell reach its wait
    c0, t0 = cpu_seconds(k.pid), time.monotonic()
    time.sleep(seconds)
    used = 100.0 * (cpu_seconds(k.pid) - c0) / (time.monotonic() - t0)
    k.interrupt()
    k.result(cell, 60)
    return used


def main() -> None:
    """Run the benchmark, print the table and write its section of benchmarks/RESULTS.md."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=30)
    ap.add_argument("--cpu-seconds", type=float, default=10.0)
    ap.add_argument("--no-write", action="store_true", help="print only; do not write RESULTS.md")
    args = ap.parse_args()
    kernel_dir = ensure_kernelspecs()
    path = Path(tempfile.mkdtemp(prefix="nbask-bench-inbox-")) / "inbox.sqlite3"
    with KernelHarness(KERNEL, kernel_dirs=[kernel_dir]) as k:
        k.run_ok(SETUP.format(path=str(path)))
        rows = []
        for name, by_inbox in (("answered in the inbox (SQLite)", True), ("answered in the widget", False)):
            ms = latencies(k, path, args.answers + 2, by_inbox=by_inbox)
            cpu = cpu_waiting(k, args.cpu_seconds, inbox=by_inbox)
            rows.append((name, percentile(ms, 50), percentile(ms, 99), statistics.mean(ms), cpu))
    lines = [
        "# Answering from the inbox",
        "",
        f"`python benchmarks/bench_inbox.py --answers {args.answers} --cpu-seconds {args.cpu_seconds:g}`",
        f"on {machine()},",
        f"kernel {KERNEL}: from the answer to the waiting cell running again, and the kernel's CPU while a",
        "cell waits with no answer (`inbox=True` keeps the request in the inbox too: a thread waits on",
        "the store, SQLite's `PRAGMA data_version` read four times a second).",
        "",
        "| answered | p50 ms | p99 ms | mean ms | kernel CPU while waiting |",
        "| --- | ---: | ---: | ---: | ---: |",
        *(f"| {n} | {p50:.1f} | {p99:.1f} | {mean:.1f} | {cpu:.2f} % |" for n, p50, p99, mean, cpu in rows),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(REPO / "benchmarks" / "RESULTS.md", text)
        print("wrote the inbox section of benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
