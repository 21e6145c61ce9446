"""What a headless policy costs per request, and what the history costs at scale.

    python benchmarks/bench_headless.py [--asks 5000] [--entries 10000]

1. µs per ``ask_sync`` under ``recommended`` and ``replay`` (from a recorded JSONL), against
   validating the same QuestionSet alone (the floor: every ask validates its input), all in
   this run, in a plain process (no kernel, so nothing is displayed).
2. The history at 10,000 entries: the memory it holds (tracemalloc, for the entries alone)
   and the time of ``save_history`` and of loading the file back for replay.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable

import nbask
from nbask.core.history import Recording, load
from nbask.core.manager import manager
from nbask.models import one_question_set

QUESTION = "Which database should the app use?"
OPTIONS = ["PostgreSQL (Recommended)", "SQLite", "DuckDB"]


def per_call_us(function: Callable[[], object], calls: int, repeats: int = 5) -> tuple[float, float]:
    """(median, best) of ``repeats`` runs of ``calls`` calls, in µs per call."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        runs.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(runs), min(runs)


def main() -> None:  # noqa: PLR0915 - one script, read top to bottom
    """Print both tables."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--asks", type=int, default=5000)
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args()
    os.environ.pop("NBASK_POLICY", None)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="nbask-bench-"))

    def validate() -> object:
        return one_question_set(QUESTION, OPTIONS, header="DB")

    def ask() -> object:
        return nbask.ask_sync(QUESTION, OPTIONS, header="DB")

    nbask.configure(policy="recommended")
    # The floor and the ask take turns, so a busy moment of the machine falls on both alike.
    floor_runs, ask_runs = [], []
    for _ in range(7):
        floor_runs.append(per_call_us(validate, args.asks, repeats=1)[0])
        ask_runs.append(per_call_us(ask, args.asks, repeats=1)[0])
        manager().clear_history()  # each round starts with an empty history, as a session does
    ratio = statistics.median(a / f for a, f in zip(ask_runs, floor_runs, strict=True))
    rows = [
        ("validate the QuestionSet alone", statistics.median(floor_runs), min(floor_runs)),
        ("ask_sync, policy recommended", statistics.median(ask_runs), min(ask_runs)),
    ]
    # Replay hands out each recorded answer once: record one answer per replayed ask (5 runs).
    manager().clear_history()
    for _ in range(args.asks * 5):
        ask()
    recording = nbask.save_history(folder / "recording.jsonl")
    manager().clear_history()
    nbask.configure(policy="replay", replay_file=recording)
    rows.append(("ask_sync, policy replay", *per_call_us(ask, args.asks)))
    nbask.configure(policy=None, replay_file=None)
    manager().clear_history()

    floor = rows[0][1]
    print(f"per request, {args.asks} calls x 5 runs (µs per call)")
    print(f"{'':34} {'median':>8} {'best':>8} {'x floor':>8}")
    for name, median, best in rows:
        print(f"{name:34} {median:8.1f} {best:8.1f} {median / floor:8.1f}")
    print(f"ask_sync (recommended) / validating alone: {ratio:.2f}x (median of 7 interleaved rounds)")
    print("the history keeps every ask, so the timed asks also grew it (by --asks a round); cleared between rounds")

    # -- the history at scale ------------------------------------------------------------------
    nbask.configure(policy="recommended")
    manager().clear_history()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for index in range(args.entries):
        nbask.ask_sync(f"{QUESTION} #{index}", OPTIONS, header="DB")
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    path = folder / "history.jsonl"
    start = time.perf_counter()
    nbask.save_history(path)
    saved_s = time.perf_counter() - start
    start = time.perf_counter()
    entries = load(path)
    loaded_s = time.perf_counter() - start
    start = time.perf_counter()
    Recording(entries)
    indexed_s = time.perf_counter() - start
    nbask.configure(policy=None)
    manager().clear_history()

    size = path.stat().st_size
    print(f"\nhistory of {args.entries} entries (one question each)")
    print(f"memory held by the entries  {held / 1e6:8.1f} MB  ({held / args.entries:,.0f} bytes per entry)")
    print(f"save_history                {saved_s * 1000:8.1f} ms  ({size / 1e6:.1f} MB of JSONL)")
    print(f"load it back for replay     {loaded_s * 1000:8.1f} ms")
    print(f"index it for replay         {indexed_s * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
