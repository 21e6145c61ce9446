#!/usr/bin/env bash
# Install everything the tests need, then run every suite: lint, types, Python 3.10 calls, example
# notebooks, the docs site, front end, unit, the inbox store (on SQLite and a PostgreSQL server it
# starts), headless, agent tools, framework integrations, the docs' snippets, real kernels, real
# browsers, the VS Code host, and JupyterLite (a site built offline by scripts/lite.sh, driven in
# Chromium). Prints one summary line per suite and a total line at the end.
# Usage: bash scripts/test.sh [--no-install] [--quick]
#   --no-install  skip the installs (they must have run once)
#   --quick       the fast path, a minute or two: lint, types, pyver, eslint, vitest and the unit tests
#                 (installs only .venv and npm packages)
# Python packages go into the project environment .venv/ (made from $PYTHON, default python3,
# 3.10+; see scripts/_env.sh); Chromium comes from apt, the front-end tools from npm ci.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ARTIFACTS="$ROOT/test-artifacts"
mkdir -p "$ARTIFACTS"
rm -f "$ARTIFACTS"/*.xml  # the total line counts only this run's suites
# shellcheck source=scripts/_env.sh
. scripts/_env.sh

STEP_STARTED=$SECONDS
step() { STEP_STARTED=$SECONDS; printf '\n== %s\n' "$*"; }
die() { printf 'test.sh: %s\n' "$*" >&2; exit 1; }

INSTALL=1
QUICK=0
for arg in "$@"; do
  case "$arg" in
    --no-install) INSTALL=0 ;;
    --quick) QUICK=1 ;;
    *) die "unknown option $arg (use --no-install and/or --quick)" ;;
  esac
done

# nbask runs on Python 3.10+, but what its tests install does not: the kernels they start pin
# ipykernel 7.4, and the docs site is built with Sphinx 9, both 3.11 or newer.
if [ "$INSTALL" = 1 ]; then
  BASE="$(_nbask_base_python)" || exit 1
  "$BASE" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "the tests need Python 3.11 or newer \
(the kernels they start pin ipykernel 7.4, the docs site needs Sphinx 9); $BASE is $("$BASE" -c 'import platform; print(platform.python_version())'). \
nbask itself and scripts/quickstart.sh need only 3.10. Set PYTHON=/path/to/python3.11+ (on Ubuntu 22.04: \
apt-get install python3.11 python3.11-venv, then PYTHON=python3.11 bash scripts/test.sh)"
fi

if [ "$INSTALL" = 1 ] && [ "$QUICK" = 1 ]; then
  step "install: Python packages (.venv), npm packages"
  command -v npm >/dev/null 2>&1 || die "the front-end build and tests need Node 20+ and npm on PATH"
  nbask_venv test    # sets PY=.venv/bin/python
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
elif [ "$INSTALL" = 1 ]; then
  step "install: Chromium and PostgreSQL (Debian packages), Python packages (.venv), npm packages, kernel environments"
  # The browser suites drive Debian's Chromium; the inbox suite starts Debian's PostgreSQL on a
  # throwaway data directory (the package's own server is not used).
  APT_NEEDS=()
  [ -x /usr/bin/chromium ] || APT_NEEDS+=(chromium)
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || APT_NEEDS+=(postgresql)
  if [ ${#APT_NEEDS[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_NEEDS[@]}" >/dev/null \
      || die "could not install ${APT_NEEDS[*]} with apt-get"
  fi
  command -v npm >/dev/null 2>&1 || die "the front-end build and tests need Node 20+ and npm on PATH"
  nbask_venv test    # sets PY=.venv/bin/python
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
  PYTHON="$PY" bash scripts/make_kernel_envs.sh .venvs/jupyter-data \
    || die "could not create the ipykernel 6.29 / 7.3 and Colab kernel environments"
  bash tests/support/vscode/setup.sh || die "could not install or build the VS Code host page (tests/support/vscode/setup.sh)"
else
  PY="$NBASK_VENV/bin/python"
  [ -x "$PY" ] || die "no .venv yet: run bash scripts/test.sh once without --no-install"
fi
INSTALL_SECONDS=$SECONDS

declare -a SUMMARY=()
FAILED=0
record() {  # record NAME EXIT_CODE DETAIL: a summary line, with the seconds since the last step
  local verdict="passed"; [ "$2" = 0 ] || { verdict="FAILED"; FAILED=1; }
  SUMMARY+=("$(printf '%-12s %-7s %s in %d s' "$1" "$verdict" "$3" $(( SECONDS - STEP_STARTED )))")
}

# count_by_dir FILE: "src 3, tests 2" from the path:line:col lines of ruff's or mypy's output.
count_by_dir() {
  grep -oE '^[^ :]+:[0-9]+:[0-9]+: ' "$1" | cut -d/ -f1 | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}'
}

LINT_PATHS=(src tests benchmarks scripts docs)
step "lint: ruff check and ruff format --check over ${LINT_PATHS[*]}"
"$PY" -m ruff check --output-format concise "${LINT_PATHS[@]}" 2>&1 | tee "$ARTIFACTS/lint.log"
check=${PIPESTATUS[0]}
"$PY" -m ruff format --check --output-format concise "${LINT_PATHS[@]}" 2>&1 | tee "$ARTIFACTS/format.log"
format=${PIPESTATUS[0]}
if [ "$check" -gt 1 ] || [ "$format" -gt 1 ]; then
  detail="ruff could not run: see test-artifacts/lint.log, format.log"
else
  findings=$(grep -cE '^[^ :]+:[0-9]+:[0-9]+: ' "$ARTIFACTS/lint.log")
  unformatted=$(grep -oE '^[0-9]+ files? would be reformatted' "$ARTIFACTS/format.log" | cut -d' ' -f1)
  detail="ruff: $findings finding$([ "$findings" = 1 ] || echo s)"
  [ "$findings" = 0 ] || detail+=" ($(count_by_dir "$ARTIFACTS/lint.log"))"
  detail+="; ${unformatted:-0} files to reformat (ruff format)"
fi
record lint $((check || format)) "$detail"

step "types: mypy --strict over src/nbask"
"$PY" -m mypy 2>&1 | tee "$ARTIFACTS/types.log"
code=${PIPESTATUS[0]}
detail=$(grep -E '^(Found|Success)' "$ARTIFACTS/types.log" | tail -1)
record types $code "mypy: ${detail:-did not run, see test-artifacts/types.log}"

# vermin knows when each standard-library module, function, keyword argument and syntax came in;
# it sees calls on module-level names (tomllib, asyncio.timeout, datetime.UTC, except*), not
# methods of objects it cannot type (a TarFile from tarfile.open): those need a guard by hand.
step "pyver: vermin, no standard-library call or syntax newer than Python 3.10 in ${LINT_PATHS[*]}"
"$PY" -c 'import sys, vermin; sys.exit(vermin.main())' -t=3.10- --no-tips --violations "${LINT_PATHS[@]}" 2>&1 \
  | tee "$ARTIFACTS/pyver.log"
code=${PIPESTATUS[0]}
needs=$(grep -cE '^  .* requires ' "$ARTIFACTS/pyver.log")
if ! grep -q '^Minimum required versions' "$ARTIFACTS/pyver.log"; then
  detail="vermin could not run, see test-artifacts/pyver.log"
elif [ "$code" = 0 ]; then
  detail="vermin: $(grep -oE 'Analyzing [0-9]+ files' "$ARTIFACTS/pyver.log" | cut -d' ' -f2) files, nothing newer than Python 3.10"
else
  detail="vermin: $needs finding$([ "$needs" = 1 ] || echo s) newer than Python 3.10, see test-artifacts/pyver.log"
fi
record pyver $code "$detail"

step "tslint: eslint (typescript-eslint, type-checked) over js/"
npm run --silent lint 2>&1 | tee "$ARTIFACTS/tslint.log"
code=${PIPESTATUS[0]}
problems=$(sed 's/\x1b\[[0-9;]*m//g' "$ARTIFACTS/tslint.log" | grep -oE '[0-9]+ problems? \([^)]*\)' | tail -1)
if [ "$code" -gt 1 ]; then
  detail="could not run, see test-artifacts/tslint.log"
else
  detail="${problems:-0 problems}"
fi
record tslint $code "eslint: $detail"

step "front-end bundle is up to date"
npm run --silent build >/dev/null 2>&1 && git diff --quiet -- src/nbask/static src/nbask/labextension 2>/dev/null
code=$?
record bundle $code "$( [ $code = 0 ] && echo 'src/nbask/static matches js/' || echo 'stale: run npm run build and commit src/nbask/static and src/nbask/labextension')"

step "front end (vitest)"
{ npm run --silent typecheck && npm test; } 2>&1 | tee "$ARTIFACTS/frontend.log"
code=${PIPESTATUS[0]}
record frontend $code "$(sed 's/\x1b\[[0-9;]*m//g' "$ARTIFACTS/frontend.log" | grep -E 'Tests +[0-9]' | tail -1 | xargs)"

if [ "$QUICK" = 0 ]; then
  step "the wheel: ships the front end and py.typed, and works alone in a fresh venv (no Jupyter)"
  WHEEL_DIR=$(mktemp -d)
  rm -f "$ARTIFACTS/package.log"
  "$PY" -m pip wheel -q --no-deps --disable-pip-version-check -w "$WHEEL_DIR" . >/dev/null 2>&1 \
    && "$PY" scripts/check_wheel.py "$WHEEL_DIR" 2>&1 | tee "$ARTIFACTS/package.log"
  code=${PIPESTATUS[0]}  # the wheel build's, or check_wheel.py's when the build worked
  rm -rf "$WHEEL_DIR"
  record package $code "$(tail -1 "$ARTIFACTS/package.log" 2>/dev/null || echo 'wheel build failed')"

  step "notebooks: every notebooks/*.ipynb headless under policy recommended (nbclient)"
  "$PY" scripts/run_notebooks.py --out "$ARTIFACTS/notebooks" 2>&1 | tee "$ARTIFACTS/notebooks.log"
  code=${PIPESTATUS[0]}
  record notebooks $code "$(tail -1 "$ARTIFACTS/notebooks.log")"

  step "docs-site: scripts/docs.sh (Sphinx, warnings as errors, every public name in the reference, the live page)"
  bash scripts/docs.sh --executed "$ARTIFACTS/notebooks" >"$ARTIFACTS/docs-site.out" 2>"$ARTIFACTS/docs-site.log"
  code=$?
  tail -5 "$ARTIFACTS/docs-site.log"
  pages=$(find docs/_build/html -name '*.html' -not -path '*/lite/*' 2>/dev/null | wc -l)
  record docs-site $code "$( [ $code = 0 ] && echo "$pages pages built strictly: $(tail -1 "$ARTIFACTS/docs-site.out")" || echo 'failed: see test-artifacts/docs-site.log')"
fi

# Each suite is a marker expression (pyproject.toml names the markers: what a test needs beyond
# .venv) over the folders it can match in; the folders only keep collection short. "colab" is the
# real-kernel tests marked colab again, against Google Colab's kernel-side packages (kernelspec
# nbask-colab, made by scripts/make_kernel_envs.sh); "colab-web" the browser tests marked colab in
# JupyterLab served from that environment (its ipywidgets 7 kernel, its anywidget 0.9 front end).
# The MCP form test is left out there: Colab has no MCP SDK.
NEEDS="kernel or browser or vscode or lite or agents_more or headless"
declare -A SUITE_ARGS=(
  [unit]="tests -m 'not ($NEEDS)' --ignore=tests/person --ignore=tests/inbox_store --ignore=tests/tools --ignore=tests/integrations --ignore=tests/docs"
  [inbox]="tests/inbox_store -m 'not ($NEEDS)'"
  [headless]="tests -m 'headless and not kernel' --ignore=tests/person"
  [tools]="tests/tools -m 'not ($NEEDS)'"
  [integrations]="tests/integrations -m 'not ($NEEDS)'"
  [agents-more]="tests/integrations -m agents_more"
  [docs]="tests/docs -m 'not ($NEEDS)'"
  [kernel]="tests -m 'kernel and not agents_more' --ignore=tests/person"
  [colab]="tests -m 'kernel and colab' --ignore=tests/person"
  [browser]="tests/person -m browser"
  # the server extension's people and pages, in a process of their own: each test drives its own Chromium
  [server]="tests/server_extension -m browser"
  [colab-web]="tests/person -m 'browser and colab' -k 'not mcp_server'"
  [vscode]="tests/person -m vscode"
  [lite]="tests/person -m lite"
)
SUITES=(unit inbox headless tools integrations agents-more docs kernel colab browser server colab-web vscode lite)
# The suites that drive a browser run in a second lane beside the others: they spend most of
# their time waiting on pages and servers, the others on the CPU. NBASK_TEST_LANES=1 runs all in
# one lane. Each lane runs its suites one after another (no two browser suites share a moment).
BROWSER_LANE=(browser server colab-web vscode lite)
[ "$QUICK" = 1 ] && SUITES=(unit)

run_suite() {  # run_suite NAME: run one suite, leave its summary line in $ARTIFACTS/NAME.line
  local suite="$1" started code detail python="$PY"
  local -a env=()
  started=$(date +%s)
  step "$suite tests (pytest ${SUITE_ARGS[$suite]})"
  case "$suite" in
    colab) env=(NBASK_KERNELS=nbask-colab) ;;
    # CrewAI, Semantic Kernel and Strands, in the environment of their own extra (agents-more)
    agents-more) python="$ROOT/.venvs/agents-more/bin/python" ;;
    colab-web) env=(NBASK_BROWSER_PYTHON="$ROOT/.venvs/colab/bin/python" NBASK_BROWSER_FRONTENDS=lab) ;;
  esac
  eval "env ${env[*]} \"\$python\" -m pytest ${SUITE_ARGS[$suite]} -p no:cacheprovider --junitxml=\"\$ARTIFACTS/\$suite.xml\" -q"
  code=$?
  detail="$("$PY" scripts/junit_summary.py "$ARTIFACTS/$suite.xml") in $(( $(date +%s) - started )) s"
  local verdict="passed"; [ "$code" = 0 ] || verdict="FAILED"
  printf '%-12s %-7s %s\n' "$suite" "$verdict" "$detail" >"$ARTIFACTS/$suite.line"
}

rm -f "$ARTIFACTS"/*.line
LANE_PID=""
if [ "$QUICK" = 0 ] && [ "${NBASK_TEST_LANES:-2}" != 1 ]; then
  ( for suite in "${BROWSER_LANE[@]}"; do run_suite "$suite"; done ) >"$ARTIFACTS/browser-lane.log" 2>&1 &
  LANE_PID=$!
  printf '\n== the browser suites (%s) run beside the others; their output: test-artifacts/browser-lane.log\n' "${BROWSER_LANE[*]}"
fi
for suite in "${SUITES[@]}"; do
  if [ -n "$LANE_PID" ] && [[ " ${BROWSER_LANE[*]} " == *" $suite "* ]]; then continue; fi
  run_suite "$suite"
done
if [ -n "$LANE_PID" ]; then
  wait "$LANE_PID"
  printf '\n== the browser lane (test-artifacts/browser-lane.log), its last lines\n'
  tail -40 "$ARTIFACTS/browser-lane.log"
fi
for suite in "${SUITES[@]}"; do
  if [ -f "$ARTIFACTS/$suite.line" ]; then
    line="$(cat "$ARTIFACTS/$suite.line")"
    SUMMARY+=("$line")
    [[ "$line" == *" FAILED "* ]] && FAILED=1
  else
    STEP_STARTED=$SECONDS
    record "$suite" 1 "did not run"
  fi
done

printf '\n== summary\n'
[ "$INSTALL" = 1 ] && printf '%-12s %-7s %s in %d s\n' install done "what the tests need (Chromium, .venv, npm, kernel environments)" "$INSTALL_SECONDS"
printf '%s\n' "${SUMMARY[@]}"
printf 'total time: %d min %d s\n' $(( SECONDS / 60 )) $(( SECONDS % 60 ))
"$PY" scripts/junit_summary.py --total "$ARTIFACTS"/*.xml
exit $FAILED
