#!/usr/bin/env bash
# Build a "try nbask in the browser" site: JupyterLite with the Pyodide kernel, nbask and the
# quickstart notebook, with every package inside (the browser fetches nothing from elsewhere).
# Usage: bash scripts/lite.sh [--out DIR] [--serve [PORT]] [FILE_OR_FOLDER...]
#   --out DIR     where the site goes (replaced); default lite-site/ at the top of the checkout
#   --serve       then serve it on http://127.0.0.1:PORT (default 8000) until Ctrl-C
#   FILE...       what the site opens with; default notebooks/01_quickstart.ipynb
# Needs Python 3.10+ and npm. Installs jupyterlite-core and the Pyodide kernel addon into
# .venvs/lite (`pip install -e ".[lite]"`), fetches Pyodide from npm and the wheels from PyPI
# into .venvs/lite-cache (reused while nbask's requirements are unchanged), then runs
# scripts/lite_site.py. A first build takes about two minutes, a rebuild 10-20 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_env.sh
. scripts/_env.sh

OUT="$NBASK_ROOT/lite-site"
SERVE=""
CONTENTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --serve)
      SERVE=8000
      if [[ "${2:-}" =~ ^[0-9]+$ ]]; then SERVE="$2"; shift; fi
      shift ;;
    -h|--help) sed -n '2,11p' "$0" | cut -c3-; exit 0 ;;
    *) CONTENTS+=("$1"); shift ;;
  esac
done
[ ${#CONTENTS[@]} -gt 0 ] || CONTENTS=(notebooks/01_quickstart.ipynb)
command -v npm >/dev/null 2>&1 || _nbask_die "the site's Pyodide comes from npm: install Node 20+ with npm"

# The build tools live in their own environment, so the project's .venv stays as it is.
NBASK_VENV="$NBASK_ROOT/.venvs/lite" nbask_venv lite   # sets PY to .venvs/lite/bin/python
"$PY" scripts/lite_site.py --out "$OUT" "${CONTENTS[@]}"

first="$(basename "${CONTENTS[0]}")"
if [ -n "$SERVE" ]; then
  printf '\nServing %s on http://127.0.0.1:%s/lab/index.html?path=%s (Ctrl-C stops)\n' "$OUT" "$SERVE" "$first"
  exec "$PY" -m http.server "$SERVE" --bind 127.0.0.1 --directory "$OUT"
fi
cat <<EOF

Site ready in $OUT. Serve it with any static web server, for example
  python3 -m http.server 8000 --bind 127.0.0.1 --directory "$OUT"
and open http://127.0.0.1:8000/lab/index.html?path=$first
(or run: bash scripts/lite.sh --serve). The kernel takes 20-30 seconds to start the first time.
EOF
