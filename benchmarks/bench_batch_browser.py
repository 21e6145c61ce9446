"""Several requests at once as a person meets them: 20 questions waiting together against one
question alone, in the same run, in real JupyterLab in headless Chromium (the browser suite's
server and page helpers, tests/browser/), the kernel being this interpreter (ipykernel as
installed in .venv).

    python benchmarks/bench_batch_browser.py [--size 20] [--rounds 3]

Per round it measures:

- show: from the cell starting the batch (``time.time()`` in the kernel, printed by the cell) to
  the page drawing the last of its ``--size`` cards (``Date.now()`` in a MutationObserver on the
  cell: every card in the DOM, pending, laid out with its Submit button), the next animation
  frame after it, and when the first card came; beside it the same for one question asked alone;
- answer: from the click on a card's Submit (``Date.now()`` in a capture-phase click listener of
  the page) to that request's own caller running again (``time.time()`` printed by the caller's
  continuation), for each card of the batch (answered last to first, one at a time as a person
  clicks), and for ``--size`` requests asked alone one after another, answered the same way;
- memory: the kernel's Python heap (tracemalloc, after a garbage collection) per waiting request
  while a whole batch waits, as in bench_batch.py, once the figure stops falling (the widgets'
  outgoing messages count until sent), in a batch of its own, not timed, then cancelled.

The batch and the lone requests take turns (batch first in even rounds, alone first in odd ones)
so a busy moment of the machine falls on both alike. Both clocks are this machine's wall clock;
``Date.now()`` counts whole milliseconds, so each figure is good to about 1 ms. The protocol-
level figures without a browser (show up to the last ``display_data``) are bench_batch.py's.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from playwright.sync_api import expect, sync_playwright  # noqa: E402
from tests.browser.ask_widget import AskWidget  # noqa: E402
from tests.browser.conftest import DEFAULT_TIMEOUT_MS, VIEWPORT  # noqa: E402
from tests.browser.notebook_page import NotebookPage, write_notebook  # noqa: E402
from tests.browser.processes import launch_chromium  # noqa: E402
from tests.browser.server import JupyterServer  # noqa: E402

TARGET_MS = 5.0
WAIT_MS = 120_000  # bounds for a 2-core machine shared with other work, not delays

SETUP = r"""
import asyncio, gc, time, tracemalloc, nbask
from nbask.core.manager import manager

async def one(tag, i):
    ans = await nbask.ask(f"{tag} {i}?", ["A", "B"], timeout=600, queue=True)
    print(f"RESUMED {i} {time.time()!r}", flush=True)  # the caller's continuation, kernel clock
    return ans

async def batch(tag, size):
    started = time.time()
    await asyncio.gather(*(one(tag, i) for i in range(size)))
    print(f"STARTED {started!r}", flush=True)  # printed last: a print before would delay the asks

async def alone(tag, size):
    started = time.time()
    for i in range(size):
        await one(tag, i)
    print(f"STARTED {started!r}", flush=True)

def traced():
    gc.collect()
    return tracemalloc.get_traced_memory()[0]

async def held(size):
    tracemalloc.start()
    base = traced()
    tasks = [asyncio.ensure_future(one("mem", i)) for i in range(size)]
    while len(manager().waiting()) < size:
        await asyncio.sleep(0.001)
    # The widgets' comm_open messages count until the iopub thread has sent them: the figure
    # falls while they go out; what stays is what the waiting requests hold.
    now, last = traced(), None
    while last is None or now < last - 1024:
        await asyncio.sleep(0.2)
        now, last = traced(), now
    per = (min(now, last) - base) / size
    tracemalloc.stop()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"HELD {per!r}", flush=True)
"""

# Once per page: every click on a card's Submit noted on the page's clock, before the widget's
# own handler runs (capture phase on the document).
LISTEN = """() => {
  window.__bench = { clicks: [], shown: {} };
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.closest('.nbask') && button.textContent.trim() === 'Submit') {
      window.__bench.clicks.push(Date.now());
    }
  }, true);
}"""

# Before the cell runs: note when its first `count` cards are all drawn, and the next frame.
WATCH = """([cell, count, key]) => {
  const drawn = () => {
    const cards = cell.querySelectorAll('.nbask[data-status="pending"]');
    if (cards.length < count) return false;
    return [...cards].slice(0, count).every((card) => card.getBoundingClientRect().height > 0
      && [...card.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Submit'));
  };
  let first = 0;
  const observer = new MutationObserver(() => {
    if (!first && cell.querySelector('.nbask[data-status="pending"]')) first = Date.now();
    if (!drawn()) return;
    observer.disconnect();
    const shown = { first, dom: Date.now() };
    requestAnimationFrame(() => { shown.frame = Date.now(); window.__bench.shown[key] = shown; });
  });
  observer.observe(cell, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-status'] });
}"""

LINE = re.compile(r"^(STARTED|RESUMED|HELD) (?:(\d+) )?(\S+)$")


def printed(nb: NotebookPage, cell: int) -> dict[str, Any]:
    """What the cell printed: STARTED (s), HELD (bytes), RESUMED {index: s}."""
    got: dict[str, Any] = {"RESUMED": {}}
    for line in nb.printed(cell).splitlines():
        match = LINE.match(line.strip())
        if match is None:
            continue
        kind, index, value = match.groups()
        if kind == "RESUMED":
            got["RESUMED"][int(index)] = float(value)
        else:
            got[kind] = float(value)
    return got


def run_watched(nb: NotebookPage, cell: int, count: int) -> dict[str, float]:
    """Run ``cell`` with its first ``count`` cards watched; the page's times they were drawn (s)."""
    key = f"cell{cell}"
    nb.page.evaluate(WATCH, [nb.cell(cell).element_handle(), count, key])
    nb.run_cell(cell, wait=False)
    nb.page.wait_for_function("key => window.__bench.shown[key]", arg=key, timeout=WAIT_MS)
    shown = nb.page.evaluate("key => window.__bench.shown[key]", key)
    return {name: shown[name] / 1000 for name in ("first", "dom", "frame")}


def answer(nb: NotebookPage, cell: int, tag: str, i: int) -> float:
    """Choose A on card ``i`` and click its Submit, then wait until its caller printed that it
    ran again (one answer at a time, as a person clicks); return the page's time of the click (s).
    """
    question = f"{tag} {i}?"
    card = AskWidget(nb.widget(cell, i))
    card.option(question, "A", exact=True).check()
    before = nb.page.evaluate("() => window.__bench.clicks.length")
    card.submit()
    expect(nb.output_area(cell)).to_contain_text(f"RESUMED {i} ", timeout=WAIT_MS)
    return float(nb.page.evaluate("n => window.__bench.clicks[n]", before)) / 1000


def measure(nb: NotebookPage, cell: int, tag: str, size: int, *, together: bool) -> dict[str, Any]:
    """One batch of ``size`` (``together``) or ``size`` requests alone, in cell ``cell``."""
    shown = run_watched(nb, cell, size if together else 1)
    order = reversed(range(size)) if together else range(size)
    clicks = {i: answer(nb, cell, tag, i) for i in order}
    nb.wait_done(cell, timeout=WAIT_MS)
    got = printed(nb, cell)
    return {
        "show_ms": (shown["dom"] - got["STARTED"]) * 1000,
        "frame_ms": (shown["frame"] - got["STARTED"]) * 1000,
        "first_ms": (shown["first"] - got["STARTED"]) * 1000,
        "answers_ms": {i: (got["RESUMED"][i] - t) * 1000 for i, t in clicks.items()},
    }


def cells_for(size: int, rounds: int) -> tuple[list[str], list[tuple[int, int]]]:
    """The notebook's cells (setup, a warm-up pair, the memory batch, a pair a round) and the
    (batch cell, alone cell) of each round.
    """
    cells = [SETUP, "await batch('warm', 3)", "await alone('warma', 3)", f"await held({size})"]
    pairs = []
    for n in range(rounds):
        pairs.append((len(cells), len(cells) + 1))
        cells += [f"await batch('r{n}', {size})", f"await alone('r{n}a', {size})"]
    return cells, pairs


def run(size: int, rounds: int) -> tuple[list[dict[str, Any]], float, dict[str, str]]:
    """Start the server and Chromium, run the notebook; the rounds, KB a waiting request, versions."""
    cells, pairs = cells_for(size, rounds)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="nbask-bench-") as home, sync_playwright() as driver:
        server = JupyterServer("lab", Path(home))
        server.start()
        browser = launch_chromium(driver)
        try:
            context = browser.new_context(viewport=VIEWPORT)
            context.set_default_timeout(DEFAULT_TIMEOUT_MS)
            path = "bench_batch_browser.ipynb"
            write_notebook(server.root_dir / path, cells)
            nb = NotebookPage(context.new_page(), server, path).open()
            nb.page.evaluate(LISTEN)
            nb.run_cell(0, timeout=WAIT_MS)
            # First-call costs (imports, the widget's first views) are not counted.
            measure(nb, 1, "warm", 3, together=True)
            measure(nb, 2, "warma", 3, together=False)
            nb.run_cell(3, timeout=WAIT_MS)
            held_kb = printed(nb, 3)["HELD"] / 1024
            for n, (batch_cell, alone_cell) in enumerate(pairs):
                turns = [(batch_cell, f"r{n}", True), (alone_cell, f"r{n}a", False)]
                got = {
                    together: measure(nb, cell, tag, size, together=together)
                    for cell, tag, together in (turns if n % 2 == 0 else turns[::-1])
                }
                rows.append({"batch": got[True], "alone": got[False]})
            versions = {"chromium": browser.version}
        finally:
            browser.close()
            server.stop()
    for package in ("jupyterlab", "ipykernel", "anywidget"):
        versions[package] = importlib.metadata.version(package)
    return rows, held_kb, versions


def report(rows: list[dict[str, Any]], held_kb: float, size: int, versions: dict[str, str]) -> None:
    """Print the per-round table, the medians and bests, and each answer against the target."""
    med, best = statistics.median, min
    print(
        f"{size} questions asked together vs one alone, JupyterLab {versions['jupyterlab']} in Chromium "
        f"{versions['chromium']}, ipykernel {versions['ipykernel']}, anywidget {versions['anywidget']}, "
        f"{len(rows)} rounds"
    )
    print(
        f"{'round':>5} {'first card':>11} {'show all ms':>12} {'next frame':>11} {'show 1 ms':>10} {'next frame':>11} "
        f"{'batch p50':>10} {'batch max':>10} {'alone p50':>10} {'alone max':>10}"
    )
    for n, row in enumerate(rows):
        b, a = row["batch"], row["alone"]
        ba, aa = list(b["answers_ms"].values()), list(a["answers_ms"].values())
        print(
            f"{n:>5} {b['first_ms']:11.1f} {b['show_ms']:12.1f} {b['frame_ms']:11.1f} "
            f"{a['show_ms']:10.1f} {a['frame_ms']:11.1f} "
            f"{med(ba):10.1f} {max(ba):10.1f} {med(aa):10.1f} {max(aa):10.1f}"
        )
    shows = {k: [r[k]["show_ms"] for r in rows] for k in ("batch", "alone")}
    print(
        f"show: {size} cards median {med(shows['batch']):.1f} ms, best {best(shows['batch']):.1f} ms; "
        f"one alone median {med(shows['alone']):.1f} ms, best {best(shows['alone']):.1f} ms"
    )
    every = {k: [v for r in rows for v in r[k]["answers_ms"].values()] for k in ("batch", "alone")}
    alone = med(every["alone"])
    print(
        f"answer, click -> caller running: in the batch median {med(every['batch']):.1f} ms, best "
        f"{best(every['batch']):.1f} ms; alone median {alone:.1f} ms, best {best(every['alone']):.1f} ms"
    )
    print(
        f"per answer, last card first (median and best of {len(rows)} rounds, against alone's median {alone:.1f} ms):"
    )
    print(f"{'card':>5} {'p50 ms':>8} {'best ms':>8} {'- alone':>8}  within {TARGET_MS:g} ms")
    met = 0
    for i in reversed(range(size)):
        mine = [r["batch"]["answers_ms"][i] for r in rows]
        gap = med(mine) - alone
        met += gap <= TARGET_MS
        print(f"{i:>5} {med(mine):8.1f} {best(mine):8.1f} {gap:+8.1f}  {'yes' if gap <= TARGET_MS else 'NO'}")
    print(f"{met} of {size} answers within {TARGET_MS:g} ms of a request alone (target: all)")
    print(f"kernel heap per waiting request (tracemalloc, one batch of {size}): {held_kb:.1f} KB")


def main() -> None:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()
    rows, held_kb, versions = run(args.size, args.rounds)
    report(rows, held_kb, args.size, versions)
    after = os.getloadavg()
    print(
        f"load average (1/5/15 min) before {load[0]:.2f}/{load[1]:.2f}/{load[2]:.2f}, "
        f"after {after[0]:.2f}/{after[1]:.2f}/{after[2]:.2f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
