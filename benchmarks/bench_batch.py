"""Several requests at once: 20 questions waiting together against one question alone, in the same
run, in a real ipykernel 7.4 kernel driven by the protocol-level front end of
tests/support/kernel.py.

    python benchmarks/bench_batch.py [--size 20] [--rounds 3]

Per round it measures:

- show: from the cell starting the batch (kernel clock) to the front end holding the last
  widget's ``display_data`` (this machine's clock, the same one), i.e. everything but the
  browser drawing the cards;
- answer: from the front end sending one answer (``comm_msg`` "update") to that request's own
  caller running again, for each of the batch's requests (answered last to first), and for a
  request asked alone (``--size`` of them, one after another) -- the two side by side;
- memory: what the kernel's Python heap (tracemalloc) holds per waiting request while the whole
  batch waits (widget, request, waiter), before any answer.

No other notebook tool shows several requests waiting at once, so there is no peer column.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kernel"))

from harness import CommInfo, KernelHarness, ensure_kernelspecs  # noqa: E402

KERNEL = "nbask-ipykernel-7.4"

SETUP = r"""
import asyncio, json, time, tracemalloc, nbask
from nbask.core.manager import manager
resumed = {}

async def one(tag, i):
    ans = await nbask.ask(f"{tag} {i}?", ["A", "B"], timeout=600, queue=True)
    resumed[f"{tag} {i}?"] = time.time()
    print(f"RESUMED {tag} {i}?", flush=True)  # the front end answers the next one after this
    return ans

async def batch(tag, size):
    resumed.clear()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    started = time.time()
    tasks = [asyncio.ensure_future(one(tag, i)) for i in range(size)]
    while len(manager().waiting()) < size:
        await asyncio.sleep(0.001)
    held = (tracemalloc.get_traced_memory()[0] - base) / size
    tracemalloc.stop()
    print("HELD", flush=True)  # the front end answers only after this: all were measured waiting
    await asyncio.gather(*tasks)
    print("RESULT " + json.dumps({"started": started, "held": held, "resumed": resumed}))

async def alone(tag, size):
    resumed.clear()
    for i in range(size):
        await one(tag, i)
    print("RESULT " + json.dumps({"resumed": resumed}))
"""


def question_widget(k: KernelHarness, text: str) -> CommInfo:
    """The comm_open of the widget asking ``text``."""
    return k.wait_for_comm_open(predicate=lambda c: text in [q.get("question") for q in c.state.get("questions", [])])


def answer(k: KernelHarness, comm: CommInfo, question: str) -> float:
    """Answer one question and wait until its caller ran again (one answer at a time, as a person
    clicks); returns when the answer was sent.
    """
    response = {"action": "submit", "answers": [{"selected": ["A"], "other": None}], "view_id": "b", "sent_at_ms": 0}
    sent = time.time()
    k.update_widget(comm.comm_id, {"response": response})
    k.wait_for_iopub(lambda m: m["msg_type"] == "stream" and f"RESUMED {question}" in m["content"]["text"], timeout=30)
    return sent


def last_display_at(k: KernelHarness, model_ids: set[str]) -> float:
    """When the front end had the display_data of every one of ``model_ids``."""
    seen: dict[str, float] = {}
    while len(seen) < len(model_ids):
        msg = k.wait_for_iopub(
            lambda m: (
                m["msg_type"] == "display_data"
                and m["content"]["data"].get("application/vnd.jupyter.widget-view+json", {}).get("model_id")
                in model_ids
                and m["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] not in seen
            ),
            timeout=30,
        )
        seen[msg["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]] = msg["_received"]
    return max(seen.values())


def result(k: KernelHarness, cell: str) -> dict:
    """The cell's ``RESULT {json}`` line, once it ended."""
    out = k.result(cell, 60).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])


def run_round(k: KernelHarness, tag: str, size: int) -> dict:
    """One batch of ``size`` and ``size`` requests alone: the figures of the module docstring."""
    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(f"await batch({tag!r}, {size})")
    comms = [question_widget(k, f"{tag} {i}?") for i in range(size)]
    shown_at = last_display_at(k, {c.comm_id for c in comms})
    for comm in comms:
        k.wait_until_waiting(comm)
    # An answer before the cell saw every request waiting would leave it counting forever.
    k.wait_for_iopub(lambda m: m["msg_type"] == "stream" and "HELD" in m["content"]["text"], timeout=30)
    sent = {f"{tag} {i}?": answer(k, comm, f"{tag} {i}?") for i, comm in reversed(list(enumerate(comms)))}
    got = result(k, cell)
    per_answer = [(got["resumed"][q] - t) * 1000 for q, t in sent.items()]

    k.drain(0.1)
    k.iopub_log.clear()
    cell = k.execute(f"await alone({tag + 'a'!r}, {size})")
    sent_alone = {}
    for i in range(size):
        comm = question_widget(k, f"{tag}a {i}?")
        k.wait_until_waiting(comm)
        sent_alone[f"{tag}a {i}?"] = answer(k, comm, f"{tag}a {i}?")
    alone = result(k, cell)
    per_alone = [(alone["resumed"][q] - t) * 1000 for q, t in sent_alone.items()]
    return {
        "show_ms": (shown_at - got["started"]) * 1000,
        "answer_ms": statistics.median(per_answer),
        "answer_max_ms": max(per_answer),
        "alone_ms": statistics.median(per_alone),
        "held_kb": got["held"] / 1024,
    }


def main() -> None:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    dirs = [ensure_kernelspecs()]
    with KernelHarness(KERNEL, kernel_dirs=dirs) as k:
        k.run_ok(SETUP, timeout=60)
        run_round(k, "warm", 3)  # first-call costs (imports, the front-end bundle) not counted
        rows = [run_round(k, f"r{n}", args.size) for n in range(args.rounds)]
    print(f"{args.size} questions waiting together vs one alone, {KERNEL}, {args.rounds} rounds")
    print(f"{'round':>5} {'show ms':>9} {'answer p50':>11} {'answer max':>11} {'alone p50':>10} {'KB/request':>11}")
    for n, row in enumerate(rows):
        print(
            f"{n:>5} {row['show_ms']:9.1f} {row['answer_ms']:11.2f} {row['answer_max_ms']:11.2f} "
            f"{row['alone_ms']:10.2f} {row['held_kb']:11.1f}"
        )
    gap = statistics.median(r["answer_ms"] - r["alone_ms"] for r in rows)
    print(f"answer in a batch minus alone (median of rounds): {gap:+.2f} ms (target: within 5 ms)")


if __name__ == "__main__":
    main()
