"""Import cost of nbask beside anywidget (its floor), and the size of the shipped front end.

    python benchmarks/bench_import.py [--runs 15]

Each import runs in a fresh interpreter; the table shows the median and best wall time of
`import X`, measured inside the child so interpreter start-up is excluded.
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
import {module}
print(time.perf_counter() - t0)
"""


def time_import(module: str, runs: int) -> list[float]:
    """Time ``import module`` in ``runs`` fresh interpreters, in milliseconds."""
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD.format(module=module)], check=True, capture_output=True, text=True
        ).stdout
        samples.append(float(out.strip()) * 1000)
    return samples


def main() -> None:
    """Print the import-time table and the bundle sizes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs

    print(f"import time, {runs} fresh interpreters each (ms)")
    print(f"{'module':<12} {'median':>8} {'best':>8}")
    results = {}
    for module in ("anywidget", "ipywidgets", "nbask"):
        samples = time_import(module, runs)
        results[module] = statistics.median(samples)
        print(f"{module:<12} {statistics.median(samples):8.1f} {min(samples):8.1f}")
    print(f"nbask - anywidget: {results['nbask'] - results['anywidget']:+.1f} ms (median)")

    print("\nfront-end bundle (minified)")
    for name in ("widget.js", "widget.css"):
        data = (STATIC / name).read_bytes()
        print(f"{name:<12} {len(data):8d} bytes  {len(gzip.compress(data, 9)):8d} gzip")


if __name__ == "__main__":
    main()
