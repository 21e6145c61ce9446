"""Import cost of nbask beside anywidget (its floor), and the size of the shipped front end.

    python benchmarks/bench_import.py [--runs 21]

Each import runs in a fresh interpreter, the modules taking turns (anywidget, nbask,
anywidget, ...) so a busy moment of the machine falls on both alike. The time is measured
inside the child, so interpreter start-up is excluded. The ratio is the median of the
per-round ratios nbask / anywidget. A second table times what a first call loads:
``nbask.ask`` (the public calls, pydantic and the widget) and ``nbask.tools``.
"""

from __future__ import annotations

import argparse
import gzip
import pathlib
import statistics
import subprocess
import sys

STATIC = pathlib.Path(__file__).resolve().parents[1] / "src" / "nbask" / "static"

CHILD = """
import time
t0 = time.perf_counter()
{code}
print(time.perf_counter() - t0)
"""

CASES = {
    "anywidget": "import anywidget",
    "nbask": "import nbask",
    "nbask + nbask.ask": "import nbask; nbask.ask",
    "nbask + nbask.tools": "import nbask; nbask.tools.definition",
}


def time_once(code: str) -> float:
    """Milliseconds ``code`` takes in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(code=code)], check=True, capture_output=True, text=True
    ).stdout
    return float(out.strip()) * 1000


def main() -> None:
    """Print the import-time table, the ratio, and the bundle sizes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs

    samples: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(runs):
        for name, code in CASES.items():
            samples[name].append(time_once(code))
    print(f"import time, {runs} rounds of fresh interpreters, interleaved (ms)")
    print(f"{'what':<22} {'median':>8} {'best':>8}")
    for name, values in samples.items():
        print(f"{name:<22} {statistics.median(values):8.1f} {min(values):8.1f}")
    ratios = [n / a for n, a in zip(samples["nbask"], samples["anywidget"], strict=True)]
    print(f"import nbask / import anywidget: {statistics.median(ratios):.2f}x (median of per-round ratios)")

    print("\nfront-end bundle (minified)")
    for name in ("widget-question.js", "widget-approval.js", "widget-form.js", "widget.css"):
        data = (STATIC / name).read_bytes()
        print(f"{name:<20} {len(data):8d} bytes  {len(gzip.compress(data, 9)):8d} gzip")


if __name__ == "__main__":
    main()
