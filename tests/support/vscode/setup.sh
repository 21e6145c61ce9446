#!/usr/bin/env bash
# Install the VS Code host fixture's npm packages (exact versions from package-lock.json) and
# build its page into tests/support/vscode/build/static. Idempotent: does nothing when the build is newer
# than its sources and the lock file. Usage: bash tests/support/vscode/setup.sh [--force]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
OUT="$HERE/build/static"
STAMP="$HERE/build/.stamp"

sources=(package-lock.json setup.sh page/host.ts page/theme.ts page/themes.json page/vscode.html)
if [ "${1:-}" != "--force" ] && [ -f "$STAMP" ] && [ -d node_modules ]; then
  stale=0
  for f in "${sources[@]}"; do [ "$f" -nt "$STAMP" ] && stale=1; done
  [ "$stale" = 0 ] && exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "tests/support/vscode/setup.sh: npm (Node 20+) is needed" >&2; exit 1; }
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
fi

rm -rf "$OUT"
mkdir -p "$OUT"
ESBUILD=node_modules/.bin/esbuild
"$ESBUILD" page/host.ts --bundle --format=esm --target=es2022 --log-level=warning --outfile="$OUT/host.js"
"$ESBUILD" page/theme.ts --bundle --format=iife --target=es2022 --log-level=warning --outfile="$OUT/theme.js"
cp page/vscode.html "$OUT/vscode.html"
cp node_modules/@vscode/jupyter-ipywidgets8/dist/ipywidgets.js "$OUT/ipywidgets8.js"
cp node_modules/requirejs/require.js "$OUT/require.js"
cp node_modules/jquery/dist/jquery.min.js "$OUT/jquery.min.js"
cp node_modules/axe-core/axe.min.js "$OUT/axe.min.js"
touch "$STAMP"
echo "tests/support/vscode: page built in $OUT"
