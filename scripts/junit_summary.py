"""Summarise pytest JUnit XML files: one line per file, or a total line with --total."""

import sys
import xml.etree.ElementTree as ET


def counts(path: str) -> dict[str, int]:
    """Add up the counts of every test suite in one file; an unreadable file counts as one failure."""
    try:
        root = ET.parse(path).getroot()  # noqa: S314 - pytest's own report from this run, not untrusted input
    except (OSError, ET.ParseError):
        return {"tests": 0, "failures": 1, "errors": 0, "skipped": 0}
    suites = [root] if root.tag == "testsuite" else list(root)
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in suites:
        for key in total:
            total[key] += int(suite.get(key, 0))
    return total


def line(c: dict[str, int]) -> str:
    """Format counts as "N passed, N failed[, N skipped]"."""
    failed = c["failures"] + c["errors"]
    passed = c["tests"] - failed - c["skipped"]
    return f"{passed} passed, {failed} failed" + (f", {c['skipped']} skipped" if c["skipped"] else "")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--total":
        grand = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for path in args[1:]:
            for key, value in counts(path).items():
                grand[key] += value
        print("pytest: " + line(grand))
    else:
        print(line(counts(args[0])))
