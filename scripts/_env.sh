# Shared by scripts/quickstart.sh, scripts/test.sh and scripts/make_kernel_envs.sh; source it,
# do not run it. Provides:
#
#   nbask_venv EXTRAS   make the project environment .venv/ if it is missing, install
#                       nbask into it with `pip install -e ".[EXTRAS]"` unless a stamp says
#                       that is already done for this pyproject.toml, and set PY to its python
#   nbask_new_venv DIR PYTHON
#                       make a virtual environment with pip at DIR from interpreter PYTHON
#
# The base interpreter is $PYTHON if set, else python3; it must be Python 3.10+. Works with a
# plain CPython (pyenv, python.org, a distribution's python3) and with Debian's and Ubuntu's own
# /usr/bin/python3, which refuses `pip install` outside a venv (PEP 668) and whose
# `python3 -m venv` fails until the python3-venv package is installed: as root with apt-get
# that package is installed; otherwise the venv is made without pip and pip is installed into
# it from a pip wheel downloaded from the package index.

NBASK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NBASK_VENV="$NBASK_ROOT/.venv"

_nbask_log() { printf 'nbask env: %s\n' "$*" >&2; }
_nbask_die() { printf 'nbask env: %s\n' "$*" >&2; exit 1; }

# The base interpreter: checks it exists and is 3.10+, prints its sys.executable.
_nbask_base_python() {
    local py="${PYTHON:-python3}" exe
    command -v "$py" >/dev/null 2>&1 \
        || _nbask_die "no '$py' found: install Python 3.10 or newer, or set PYTHON=/path/to/python3"
    exe="$("$py" - <<'EOF'
import sys
if sys.version_info < (3, 10):
    # (no f-string: this must run on any old Python to say so)
    sys.exit("nbask needs Python 3.10 or newer; %s is %s. Install a newer Python or set "
             "PYTHON=/path/to/python3.10+" % (sys.executable, sys.version.split()[0]))
print(sys.executable)
EOF
)" || exit 1
    printf '%s\n' "$exe"
}

# Debian and Ubuntu split venv's ensurepip into python3-venv / python3.X-venv.
_nbask_apt_venv() {  # _nbask_apt_venv PYTHON
    local py="$1" minor
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    # Only the distribution's own interpreter (or a venv made from it) gets its venv from apt.
    [ "$("$py" -c 'import sys; print(sys.base_prefix)')" = /usr ] || return 1
    minor="$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    _nbask_log "venv cannot install pip (no ensurepip): apt-get install python$minor-venv"
    local pkgs
    for pkgs in "python$minor-venv python3-venv" "python$minor-venv" "python3-venv"; do
        # shellcheck disable=SC2086  # $pkgs is a list of package names
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null 2>&1 && return 0
    done
    apt-get update -qq >/dev/null 2>&1 || return 1
    for pkgs in "python$minor-venv python3-venv" "python$minor-venv" "python3-venv"; do
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null 2>&1 && return 0
    done
    return 1
}

# Installs pip into a venv made --without-pip, from the newest pip wheel on the index.
_nbask_bootstrap_pip() {  # _nbask_bootstrap_pip VENV_PYTHON
    local vpy="$1" tmp whl
    tmp="$(mktemp -d)"
    _nbask_log "installing pip into the venv from the package index"
    whl="$("$vpy" - "$tmp" <<'EOF'
import hashlib, html, json, os, re, sys, urllib.parse, urllib.request

dest = sys.argv[1]
index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
page = f"{index}/pip/"
req = urllib.request.Request(page, headers={"Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"})
with urllib.request.urlopen(req, timeout=60) as resp:
    body, kind = resp.read(), resp.headers.get("Content-Type", "")
if "json" in kind:  # PEP 691
    files = json.loads(body)["files"]
else:  # PEP 503 HTML: <a href="URL#sha256=..." data-requires-python="&gt;=3.9">NAME</a>
    files = []
    for attrs, name in re.findall(r"<a ([^>]*)>([^<]*)</a>", body.decode()):
        href = html.unescape(re.search(r'href="([^"]*)"', attrs)[1])
        rp = re.search(r'data-requires-python="([^"]*)"', attrs)
        url, _, frag = href.partition("#")
        files.append({"filename": name.strip(), "url": url, "yanked": "data-yanked" in attrs,
                      "requires-python": html.unescape(rp[1]) if rp else None,
                      "hashes": dict([frag.split("=", 1)]) if "=" in frag else {}})

def fits(spec):  # the only form pip has used: ">=3.X" (possibly with more clauses)
    for clause in (spec or "").split(","):
        m = re.fullmatch(r"\s*>=\s*(\d+)\.(\d+)\s*", clause)
        if m and sys.version_info[:2] < (int(m[1]), int(m[2])):
            return False
    return True

best = None
for f in files:
    m = re.fullmatch(r"pip-(\d+(?:\.\d+)*)-py3-none-any\.whl", f["filename"])
    if m and not f.get("yanked") and fits(f.get("requires-python")):
        version = tuple(int(x) for x in m[1].split("."))
        if best is None or version > best[0]:
            best = (version, f)
if best is None:
    sys.exit(f"no pip wheel for this Python at {page}")
f = best[1]
path = os.path.join(dest, f["filename"])
with urllib.request.urlopen(urllib.parse.urljoin(page, f["url"]), timeout=300) as resp:
    data = resp.read()
want = f.get("hashes", {}).get("sha256")
if want and hashlib.sha256(data).hexdigest() != want:
    sys.exit(f"{f['filename']}: sha256 mismatch")
with open(path, "wb") as out:
    out.write(data)
print(path)
EOF
)" || { rm -rf "$tmp"; return 1; }
    # A pip wheel runs from itself: <wheel>/pip is its entry point.
    "$vpy" "$whl/pip" install -q --disable-pip-version-check --no-index "$whl" || { rm -rf "$tmp"; return 1; }
    rm -rf "$tmp"
}

# Node reads a .js file as an ES module when the nearest package.json above it says so, and the
# repository's own (the front end's) does: without a package.json of its own, an environment
# inside the checkout makes Node misread the CommonJS scripts installed in it (JupyterLab's
# yarn.js fails at every start with "Dynamic require of "util" is not supported").
_nbask_commonjs() {  # _nbask_commonjs DIR
    [ -f "$1/package.json" ] || printf '{"type": "commonjs"}\n' >"$1/package.json"
}

nbask_new_venv() {  # nbask_new_venv DIR PYTHON
    local dir="$1" py="$2"
    rm -rf "$dir"
    if "$py" -m venv "$dir" >/dev/null 2>&1; then _nbask_commonjs "$dir"; return 0; fi
    rm -rf "$dir"
    if _nbask_apt_venv "$py" && "$py" -m venv "$dir" >/dev/null 2>&1; then _nbask_commonjs "$dir"; return 0; fi
    rm -rf "$dir"
    "$py" -m venv --without-pip "$dir" || _nbask_die "could not create a virtual environment in $dir with $py"
    _nbask_bootstrap_pip "$dir/bin/python" \
        || _nbask_die "could not install pip into $dir (no ensurepip, and the pip wheel could not be fetched)"
    _nbask_commonjs "$dir"
}

# Does .venv exist, run, have pip, and (if PYTHON was given) come from that interpreter?
_nbask_venv_usable() {  # _nbask_venv_usable BASE_EXECUTABLE
    local vpy="$NBASK_VENV/bin/python" base="$1" home
    "$vpy" -c 'import sys, pip; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1 || return 1
    [ -n "${PYTHON:-}" ] || return 0
    home="$(sed -n 's/^home *= *//p' "$NBASK_VENV/pyvenv.cfg" 2>/dev/null)"
    [ "$(cd "$home" 2>/dev/null && pwd -P)" = "$(cd "$(dirname "$base")" && pwd -P)" ] \
        && [ "$("$vpy" -c 'import sys; print(sys.version)')" = "$("$base" -c 'import sys; print(sys.version)')" ]
}

nbask_venv() {  # nbask_venv EXTRAS
    local extras="$1" base stamp want
    base="$(_nbask_base_python)" || exit 1
    if ! _nbask_venv_usable "$base"; then
        if [ -e "$NBASK_VENV" ]; then
            _nbask_log "replacing $NBASK_VENV (not usable, or made by another interpreter than $base)"
        fi
        _nbask_log "creating $NBASK_VENV with $base"
        nbask_new_venv "$NBASK_VENV" "$base"
    fi
    PY="$NBASK_VENV/bin/python"
    _nbask_commonjs "$NBASK_VENV"
    # Skip pip when nothing it would read has changed since the last install of these extras.
    stamp="$NBASK_VENV/.nbask-installed-$extras"
    want="$("$PY" - "$NBASK_ROOT" "$extras" <<'EOF'
import hashlib, pathlib, sys
root, extras = sys.argv[1:]
h = hashlib.sha256((pathlib.Path(root) / "pyproject.toml").read_bytes())
h.update(f"\0{extras}\0{root}\0{sys.version}".encode())
print(h.hexdigest())
EOF
)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    _nbask_log "pip install -e \".[$extras]\" into $NBASK_VENV"
    rm -f "$stamp"
    local log rc=0
    log="$(mktemp)"
    "$PY" -m pip install -q --disable-pip-version-check -e "$NBASK_ROOT[$extras]" >"$log" 2>&1 || rc=$?
    # Leave out the warning pip repeats for every package when a configured index location is absent.
    grep -v -e "^WARNING: Location '.*' is ignored" "$log" >&2 || :
    rm -f "$log"
    [ "$rc" = 0 ] || _nbask_die "pip install -e \".[$extras]\" failed"
    printf '%s\n' "$want" >"$stamp"
}
