#!/usr/bin/env bash
# Install nbask with JupyterLab and open the quickstart notebook.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -m pip install -q --disable-pip-version-check -e ".[notebook]"
args=()
[ "$(id -u)" = 0 ] && args+=(--allow-root)   # JupyterLab refuses to run as root otherwise
exec "$PYTHON" -m jupyter lab "${args[@]}" notebooks/01_quickstart.ipynb
