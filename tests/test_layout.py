"""The size of src/nbask's modules: none over 400 lines, the cap ESLint's max-lines and
scripts/check_css_lines.mjs put on the front end's (tests, like the front end's, are exempt).
"""

from __future__ import annotations

import pathlib

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "nbask"
MAX_LINES = 400


def test_no_module_is_over_the_cap():
    long = {
        str(path.relative_to(SRC)): lines
        for path in sorted(SRC.rglob("*.py"))
        if (lines := len(path.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these where their design divides (at most {MAX_LINES} lines): {long}"


def test_the_check_reads_the_modules():
    assert len(list(SRC.rglob("*.py"))) > 100
    assert (SRC / "api.py").is_file()
