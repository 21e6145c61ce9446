#!/usr/bin/env bash
# Creates the kernels nbask's real-kernel tests and benchmarks run against, idempotently:
#   .venvs/ipykernel-6.29  (ipykernel==6.29.5)  -> kernelspec nbask-ipykernel-6.29
#   .venvs/ipykernel-7.3   (ipykernel==7.3.0)   -> kernelspec nbask-ipykernel-7.3
#   the interpreter running this script (ipykernel 7.4.x) -> kernelspec nbask-ipykernel-7.4
#   .venvs/colab          (Google Colab's kernel-side packages, $COLAB_PINS) -> kernelspec nbask-colab
#   .venvs/agents-more    (nbask[agents-more], ipykernel 7.4) -> kernelspec nbask-agents-more
#   .venvs/agents-more-7.3, -6.29 (its packages under ipykernel 7.3 / 6.29) -> nbask-agents-more-7.3, -6.29
#   .venvs/frameworks-7.3, -6.29 ($PYTHON's venv, the agents extra, under 7.3 / 6.29) -> nbask-frameworks-7.3, -6.29
#
# Usage: scripts/make_kernel_envs.sh [JUPYTER_DATA_DIR]
#   The kernelspecs go to <dir>/kernels/<name>/kernel.json; <dir> defaults to
#   $JUPYTER_DATA_DIR, else the user's Jupyter data dir (`jupyter --data-dir`).
# Environment:
#   PYTHON   interpreter for the 7.4 kernel and for creating the venvs (default: python3);
#            scripts/test.sh passes the project environment's, .venv/bin/python
#
# Every kernelspec puts this checkout's src/ first on PYTHONPATH, so a kernel always
# imports the nbask being tested, even where another nbask is installed.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/_env.sh
. "$REPO/scripts/_env.sh"   # nbask_new_venv: a venv with pip even where ensurepip is missing
PYTHON="${PYTHON:-python3}"
# Resolve shims (pyenv) to the real interpreter so the kernelspec does not depend on them.
PYTHON="$("$PYTHON" -c 'import sys; print(sys.executable)')"
DATA_DIR="${1:-${JUPYTER_DATA_DIR:-}}"
if [ -z "$DATA_DIR" ]; then
    DATA_DIR="$("$PYTHON" -m jupyter --data-dir 2>/dev/null || echo "$HOME/.local/share/jupyter")"
fi
mkdir -p "$DATA_DIR/kernels"


log() { echo "make_kernel_envs: $*" >&2; }
# pip prints a warning per package for an index mirror that is absent on some machines.
quiet_pip() {
    local out rc=0
    out="$("$@" 2>&1)" || rc=$?
    printf '%s\n' "$out" | grep -v -e "^WARNING: Location" -e "^$" >&2 || :
    return "$rc"
}

make_venv() {  # make_venv <dir> <pin>...
    local venv="$1"
    shift
    local pin="$*"
    local stamp="$venv/.nbask-env-ok"
    # The stamp records what was installed; a changed pin or pyproject rebuilds the env.
    local want
    want="$pin $(sha1sum "$REPO/pyproject.toml" | cut -c1-12)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
        return 0
    fi
    log "creating $venv ($pin)"
    nbask_new_venv "$venv" "$PYTHON"
    "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
    quiet_pip "$venv/bin/python" -m pip install -q -e "$REPO${EXTRAS:-}" "$@"
    echo "$want" >"$stamp"
}

make_layered_venv() {  # make_layered_venv <dir> <base venv> <pin>: <base venv>'s packages under <pin>
    # The frameworks of a big environment with another ipykernel, without installing them again:
    # the base's site-packages come after this venv's own (site.addsitedir in a .pth file), so
    # the pinned ipykernel installed here shadows the base's.
    local venv="$1" base="$2" pin="$3"
    local stamp="$venv/.nbask-env-ok" want what
    [ -x "$base/bin/python" ] || { log "error: $base has no bin/python, so $venv cannot be layered over it"; exit 1; }
    # What the base holds: the stamps nbask's scripts leave in the environments they make, or,
    # in one they did not make (PYTHON=another venv's python), the list of its packages.
    if compgen -G "$base/.nbask-*" >/dev/null; then
        what="$(cat "$base"/.nbask-* | sha1sum | cut -c1-12)"
    else
        log "$base was not made by nbask's scripts: layering over its installed packages as they are"
        what="$("$base/bin/python" -m pip freeze 2>/dev/null | sha1sum | cut -c1-12)" \
            || { log "error: could not list the packages of $base (pip freeze failed)"; exit 1; }
    fi
    want="$pin $what"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
        return 0
    fi
    log "creating $venv ($pin over $base)"
    nbask_new_venv "$venv" "$PYTHON"
    local site base_site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    base_site="$("$base/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    printf 'import site; site.addsitedir(%s)\n' "'$base_site'" >"$site/_nbask_base.pth"
    quiet_pip "$venv/bin/python" -m pip install -q "$pin"
    echo "$want" >"$stamp"
}

write_spec() {  # write_spec <name> <python> <display name>
    local name="$1" python="$2" display="$3"
    mkdir -p "$DATA_DIR/kernels/$name"
    "$PYTHON" - "$DATA_DIR/kernels/$name/kernel.json" "$python" "$display" "$REPO/src" <<'EOF'
import json, sys
path, python, display, src = sys.argv[1:]
spec = {
    "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
    "display_name": display,
    "language": "python",
    "interrupt_mode": "signal",
    "env": {"PYTHONPATH": src},
    "metadata": {"debugger": False},
}
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
EOF
}

# Google Colab's kernel: the versions its runtime's published package list (pip-freeze.txt of
# github.com/googlecolab/backend-info, August 2026) gives for the kernel, the widget stack and
# what they talk through; pip resolves the rest. (Colab runs Python 3.13; this env uses $PYTHON.)
COLAB_PINS=(
    ipykernel==6.17.1 ipython==7.34.0 jupyter_client==7.4.9 jupyter_core==5.9.1
    pyzmq==26.2.1 tornado==6.5.7 traitlets==5.7.1 ipywidgets==7.7.1 widgetsnbextension==3.6.10
    anywidget==0.9.21 psygnal==0.15.1 pydantic==2.13.4 typing_extensions==4.16.0
    debugpy==1.8.15 nest-asyncio==1.6.0
)

mkdir -p "$REPO/.venvs"
make_venv "$REPO/.venvs/ipykernel-6.29" "ipykernel==6.29.5"
make_venv "$REPO/.venvs/ipykernel-7.3" "ipykernel==7.3.0"
make_venv "$REPO/.venvs/colab" "${COLAB_PINS[@]}"
# The frameworks that cannot share .venv's resolve (pyproject.toml, extra "agents-more"), with
# what the agents_more-marked tests need to run there.
EXTRAS="[agents-more]" make_venv "$REPO/.venvs/agents-more" "ipykernel==7.4.0" "pytest>=8" "jupyter_client>=8"
# The same frameworks under ipykernel 7.3 and 6.29, for their blocking calls' kernel tests.
make_layered_venv "$REPO/.venvs/agents-more-7.3" "$REPO/.venvs/agents-more" "ipykernel==7.3.0"
make_layered_venv "$REPO/.venvs/agents-more-6.29" "$REPO/.venvs/agents-more" "ipykernel==6.29.5"
# And the project environment's frameworks (the agents extra), where $PYTHON is a venv's.
PY_ENV="$(dirname "$(dirname "$PYTHON")")"
if [ -f "$PY_ENV/pyvenv.cfg" ]; then
    make_layered_venv "$REPO/.venvs/frameworks-7.3" "$PY_ENV" "ipykernel==7.3.0"
    make_layered_venv "$REPO/.venvs/frameworks-6.29" "$PY_ENV" "ipykernel==6.29.5"
fi

main_ipk="$("$PYTHON" -c 'import ipykernel; print(ipykernel.__version__)')"
case "$main_ipk" in
    7.4*|7.[5-9]*|[8-9].*) ;;
    *) log "warning: $PYTHON has ipykernel $main_ipk, not 7.4+; nbask-ipykernel-7.4 will run $main_ipk" ;;
esac

write_spec nbask-ipykernel-6.29 "$REPO/.venvs/ipykernel-6.29/bin/python" "nbask ipykernel 6.29"
write_spec nbask-ipykernel-7.3 "$REPO/.venvs/ipykernel-7.3/bin/python" "nbask ipykernel 7.3"
write_spec nbask-ipykernel-7.4 "$PYTHON" "nbask ipykernel $main_ipk"
write_spec nbask-colab "$REPO/.venvs/colab/bin/python" "nbask Colab kernel (ipykernel 6.17.1, ipywidgets 7.7.1)"
write_spec nbask-agents-more "$REPO/.venvs/agents-more/bin/python" "nbask CrewAI, Semantic Kernel, Strands (ipykernel 7.4)"
write_spec nbask-agents-more-7.3 "$REPO/.venvs/agents-more-7.3/bin/python" "nbask CrewAI, Semantic Kernel, Strands (ipykernel 7.3)"
write_spec nbask-agents-more-6.29 "$REPO/.venvs/agents-more-6.29/bin/python" "nbask CrewAI, Semantic Kernel, Strands (ipykernel 6.29)"
if [ -f "$PY_ENV/pyvenv.cfg" ]; then
    write_spec nbask-frameworks-7.3 "$REPO/.venvs/frameworks-7.3/bin/python" "nbask agent frameworks (ipykernel 7.3)"
    write_spec nbask-frameworks-6.29 "$REPO/.venvs/frameworks-6.29/bin/python" "nbask agent frameworks (ipykernel 6.29)"
fi
log "kernelspecs in $DATA_DIR/kernels: nbask-ipykernel-6.29 nbask-ipykernel-7.3 nbask-ipykernel-7.4 nbask-colab nbask-agents-more nbask-agents-more-7.3 nbask-agents-more-6.29 (and nbask-frameworks-7.3, -6.29)"
