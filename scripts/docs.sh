#!/usr/bin/env bash
# Build the documentation site into docs/_build/html, strictly: Sphinx warnings are errors, and a
# public name missing from the API reference fails the build. First every example notebook runs
# headless under the "recommended" policy (scripts/run_notebooks.py) into docs/examples/, so the
# gallery shows real outputs; then the JupyterLite site of the "Try it" page is built into the
# site (scripts/lite.sh, every package inside: the page fetches nothing from elsewhere).
# Usage: bash scripts/docs.sh [--no-lite] [--executed DIR] [--serve [PORT]]
#   --no-lite   leave the live page's JupyterLite site out (the page then says how to build it)
#   --executed  take the executed notebooks from DIR (scripts/run_notebooks.py --out DIR ran them)
#   --serve     then serve the site on http://127.0.0.1:PORT (default 8001) until Ctrl-C
# The last line printed is the path of the built index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_env.sh
. scripts/_env.sh

SERVE=""
LITE=1
EXECUTED=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-lite) LITE=0; shift ;;
    --executed) EXECUTED="$2"; shift 2 ;;
    --serve)
      SERVE=8001
      if [[ "${2:-}" =~ ^[0-9]+$ ]]; then SERVE="$2"; shift; fi
      shift ;;
    -h|--help) sed -n '2,11p' "$0" | cut -c3-; exit 0 ;;
    *) _nbask_die "unknown option $1 (use --no-lite and/or --serve [PORT])" ;;
  esac
done

OUT="$NBASK_ROOT/docs/_build/html"
nbask_venv test   # sets PY; the test extra holds the docs tools and what the notebooks run
# The gallery: each example notebook, executed headless, with its outputs.
if [ -n "$EXECUTED" ]; then
  for notebook in notebooks/*.ipynb; do
    cp "$EXECUTED/$(basename "$notebook")" docs/examples/ || _nbask_die "no executed $(basename "$notebook") in $EXECUTED"
  done
else
  # Notebook 06 runs in the kernel of the agents-more environment (CrewAI, Semantic Kernel,
  # Strands cannot share .venv): a fresh clone makes it once (idempotent, stamped).
  if [ ! -f .venvs/jupyter-data/kernels/nbask-agents-more/kernel.json ]; then
    _nbask_log "making the kernels the example notebooks run in (once; a few minutes)"
    PYTHON="$PY" bash scripts/make_kernel_envs.sh .venvs/jupyter-data >&2 \
      || _nbask_die "could not make the notebooks' kernels (scripts/make_kernel_envs.sh)"
  fi
  "$PY" scripts/run_notebooks.py --out docs/examples >&2
fi
rm -rf "$OUT"
"$PY" -m sphinx -W --keep-going -n -q -b html docs "$OUT" >&2
if [ "$LITE" = 1 ]; then
  bash scripts/lite.sh --out "$OUT/lite" notebooks/01_quickstart.ipynb >&2
fi
if [ -n "$SERVE" ]; then
  printf 'Serving %s on http://127.0.0.1:%s/ (Ctrl-C stops)\n' "$OUT" "$SERVE" >&2
  printf '%s\n' "$OUT/index.html"
  exec "$PY" -m http.server --bind 127.0.0.1 --directory "$OUT" "$SERVE"
fi
printf '%s\n' "$OUT/index.html"
