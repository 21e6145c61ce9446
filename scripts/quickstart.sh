#!/usr/bin/env bash
# Install nbask with JupyterLab into the project environment .venv/ and open the quickstart
# notebook. Extra arguments go to `jupyter lab`, e.g. `bash scripts/quickstart.sh --no-browser`.
# PYTHON=/path/to/python3 picks the interpreter .venv is made from (default: python3, 3.10+).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_env.sh
. scripts/_env.sh
nbask_venv notebook
args=()
[ "$(id -u)" = 0 ] && args+=(--allow-root)   # JupyterLab refuses to run as root otherwise
# `-m jupyterlab`, not `-m jupyter lab`: the latter runs the first jupyter-lab on PATH (another
# installation's, without nbask) before this environment's own.
exec "$PY" -m jupyterlab ${args[@]+"${args[@]}"} "$@" notebooks/01_quickstart.ipynb
