"""Build a JupyterLite site that runs nbask in the browser, offline, from registry packages only.

Run by scripts/lite.sh with the Python of .venvs/lite (jupyterlite-core, the Pyodide kernel
addon, hatchling, and nbask's own dependencies, whose lab extensions the site ships):

    python scripts/lite_site.py --out DIR [--cache DIR] CONTENT...

- Pyodide's core files come from npm (``npm pack pyodide@PYODIDE_VERSION``). That package has no
  Python packages, only their list, ``pyodide-lock.json``; the kernel loads micropip, IPython and
  jedi (and nbask needs pydantic) from that list, so their wheels are fetched from PyPI into the
  Pyodide folder and the list's sha256 rewritten (PyPI's builds are not byte for byte Pyodide's).
  pydantic_core is compiled code: PyPI has WebAssembly wheels for this Pyodide ABI from 2.47 on,
  so pydantic and pydantic_core float to a pair that has one, and the list says so.
- Every other wheel nbask needs (anywidget, ipywidgets, comm, psygnal, ...) and nbask's own wheel,
  built from this checkout, join that list too, with the modules they provide and what they
  depend on, so ``import nbask`` in a cell loads them all (Pyodide loads a listed package when a
  cell imports it); no ``%pip install`` is needed. Fetching from PyPI at run time is turned off:
  the site works with no network at all.
- Downloads are cached in ``--cache`` and reused while pyproject.toml and the pins here are
  unchanged; only nbask's own wheel is rebuilt every time.
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYODIDE_VERSION = "314.0.6"
#: The wheel tags of that Pyodide (its lock's "abi_version" 2026_0, Python 3.14).
PLATFORM = "pyemscripten_2026_0_wasm32"
PYTHON_VERSION = "3.14"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)
#: The kernelspec of JupyterLite's Pyodide kernel, given to the site's notebooks.
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: What the kernel itself loads from the lock when it starts (the Pyodide kernel addon).
KERNEL_ROOTS = ("micropip", "ipython", "jedi")
#: Lock packages that may not keep the lock's version: no WebAssembly pydantic_core of the lock's
#: version is on PyPI, and the pydantic that fits the one there needs a newer typing-extensions.
#: Needed by ipywidgets' metadata only (the classic notebook's files): the Pyodide kernel brings
#: its own empty stand-in, so the real one stays out of the site.
NOT_IN_BROWSER = ("widgetsnbextension",)
FLOATING = ("pydantic", "pydantic-core", "typing-extensions", "typing-inspection", "annotated-types")


def log(message: str) -> None:
    """One progress line on stderr."""
    print(f"lite: {message}", file=sys.stderr, flush=True)


def normalise(name: str) -> str:
    """A project name as the lock keys it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_name(path: pathlib.Path) -> tuple[str, str]:
    """(normalised project name, version) from a wheel's file name."""
    name, version = path.name.split("-")[:2]
    return normalise(name), version


def sha256(path: pathlib.Path) -> str:
    """The file's sha256, as the lock records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], cwd: pathlib.Path | None = None) -> None:
    """Run quietly; on failure show what it printed and stop."""
    out = subprocess.run(cmd, cwd=cwd, check=False, capture_output=True, text=True)  # noqa: S603
    if out.returncode != 0:
        print(out.stdout + out.stderr, file=sys.stderr)
        sys.exit(f"lite: {' '.join(cmd[:4])} ... failed ({out.returncode})")


# -- Pyodide from npm --------------------------------------------------------------------------


def extract_safely(tarball: pathlib.Path, dest: pathlib.Path) -> None:
    """Unpack a downloaded tarball into ``dest``, refusing anything that would land outside it.

    Where ``tarfile`` has its extraction filters (3.12, 3.11.4+, 3.10.12+), its ``data`` filter
    does that. On an older 3.10 or 3.11 (Debian 12's python3 is 3.11.2) each member is checked
    here before anything is written: a regular file, a folder or a link; its name, and a link's
    target, relative and without ``..`` (so no path, and no chain of links, can leave ``dest``);
    no devices or FIFOs; folders rwxr-xr-x, files' modes kept within it, owned by whoever unpacks.
    """
    with tarfile.open(tarball) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")  # only where tarfile has the filters
            return
        members = tar.getmembers()
        for member in members:
            paths = [member.name, member.linkname] if member.issym() or member.islnk() else [member.name]
            if not (member.isfile() or member.isdir() or member.issym() or member.islnk()):
                sys.exit(f"lite: {tarball.name}: {member.name} is a device or FIFO; refusing to unpack it")
            for path in map(pathlib.PurePosixPath, paths):
                if path.is_absolute() or ".." in path.parts:
                    sys.exit(f"lite: {tarball.name}: {member.name} points outside the folder; refusing to unpack it")
            member.mode = 0o755 if member.isdir() else member.mode & 0o755
            member.uid, member.gid, member.uname, member.gname = os.getuid(), os.getgid(), "", ""
        tar.extractall(dest, members=members)  # noqa: S202 - every member checked above


def pyodide_package(cache: pathlib.Path) -> pathlib.Path:
    """The unpacked npm package of Pyodide (cached)."""
    folder = cache / f"pyodide-{PYODIDE_VERSION}"
    if (folder / "pyodide-lock.json").is_file():
        return folder
    log(f"npm pack pyodide@{PYODIDE_VERSION}")
    with tempfile.TemporaryDirectory() as tmp:
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("lite: npm is needed to fetch Pyodide (the npm package pyodide)")
        run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=pathlib.Path(tmp))
        (tarball,) = pathlib.Path(tmp).glob("pyodide-*.tgz")
        extract_safely(tarball, pathlib.Path(tmp))
        shutil.rmtree(folder, ignore_errors=True)
        shutil.move(str(pathlib.Path(tmp) / "package"), folder)
    return folder


# -- wheels from PyPI ---------------------------------------------------------------------------


def pip_download(dest: pathlib.Path, requirements: list[str], *, constraints: pathlib.Path | None, deps: bool) -> None:
    """Wheels for Pyodide's platform and Python into ``dest``."""
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "-q",
        "--disable-pip-version-check",
        "--only-binary=:all:",
        "--platform",
        PLATFORM,
        "--platform",
        "any",
        "--python-version",
        PYTHON_VERSION,
        "--implementation",
        "cp",
        "-d",
        str(dest),
    ]
    if constraints is not None:
        cmd += ["-c", str(constraints)]
    if not deps:
        cmd.append("--no-deps")
    # pip repeats a warning per package when a configured index location is absent: drop it.
    out = subprocess.run([*cmd, *requirements], check=False, capture_output=True, text=True)  # noqa: S603
    noise = re.compile(r"^WARNING: Location '.*' is ignored")
    for line in (out.stdout + out.stderr).splitlines():
        if not noise.match(line):
            print(line, file=sys.stderr)
    if out.returncode != 0:
        sys.exit(f"lite: pip download {' '.join(requirements)} failed")


def lock_closure(packages: dict[str, dict[str, object]], roots: set[str]) -> set[str]:
    """The lock's names of ``roots`` and everything they depend on, by the lock's own lists."""
    seen: set[str] = set()
    todo = [r for r in roots if r in packages]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        depends = packages[name].get("depends", [])
        if not isinstance(depends, list):
            sys.exit(f"lite: pyodide-lock.json: {name}'s depends is not a list")
        todo.extend(normalise(str(d)) for d in depends if normalise(str(d)) in packages)
    return seen


def fetch_wheels(cache: pathlib.Path, pyodide: pathlib.Path, nbask_wheel: pathlib.Path) -> pathlib.Path:
    """Every wheel the site needs but nbask's own, for Pyodide's platform (cached)."""
    lock = json.loads((pyodide / "pyodide-lock.json").read_text("utf-8"))
    packages = {normalise(k): v for k, v in lock["packages"].items()}
    # Keyed by what decides the downloads: nbask's requirements (in its wheel) and the pins here.
    with zipfile.ZipFile(nbask_wheel) as whl:
        (metadata,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        requires = email.parser.Parser().parsestr(whl.read(metadata).decode()).get_all("Requires-Dist") or []
    key = hashlib.sha256("\n".join(sorted(r for r in requires if "extra ==" not in r)).encode())
    key.update(f"{PYODIDE_VERSION} {PLATFORM} {KERNEL_ROOTS} {FLOATING}".encode())
    wheels = cache / f"wheels-{key.hexdigest()[:16]}"
    if (wheels / ".complete").is_file():
        return wheels
    # Downloads for other requirements are stale now: keep only this set.
    for old in cache.glob("wheels-*"):
        shutil.rmtree(old, ignore_errors=True)
    wheels.mkdir(parents=True)
    # Keep what the lock has where PyPI has it too; nbask's requirements decide the rest.
    constraints = wheels / "constraints.txt"
    pins = [f"{name}=={info['version']}" for name, info in packages.items() if name not in FLOATING]
    constraints.write_text("\n".join(pins) + "\n", "utf-8")
    log("pip download: nbask's dependencies and the kernel's packages, for Pyodide")
    pip_download(wheels, [str(nbask_wheel), *KERNEL_ROOTS], constraints=constraints, deps=True)
    (wheels / nbask_wheel.name).unlink(missing_ok=True)
    have = {wheel_name(w)[0] for w in wheels.glob("*.whl")}
    # The lock's own dependency lists can name packages PyPI's metadata does not (or not here).
    missing = sorted(lock_closure(packages, set(KERNEL_ROOTS) | (have & set(packages))) - have)
    if missing:
        log(f"pip download (the lock's own dependencies): {', '.join(missing)}")
        pip_download(wheels, [f"{n}=={packages[n]['version']}" for n in missing], constraints=None, deps=False)
    (wheels / ".complete").write_text("", "utf-8")
    return wheels


def lock_entry(wheel: pathlib.Path) -> dict[str, object]:
    """A pyodide-lock.json entry for a pure wheel: its top-level modules and its requirements
    as they apply in Pyodide (Python 3.14 on Emscripten).
    """
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        requires = email.parser.Parser().parsestr(whl.read(metadata).decode()).get_all("Requires-Dist") or []
    imports = sorted(
        {n.split("/")[0].removesuffix(".py") for n in names if "/" in n or n.endswith(".py")}
        - {n.split("/")[0] for n in names if ".dist-info/" in n or ".data/" in n}
    )
    pyodide_env = {"python_version": PYTHON_VERSION, "python_full_version": f"{PYTHON_VERSION}.0",
                   "sys_platform": "emscripten", "platform_system": "Emscripten", "extra": ""}  # fmt: skip
    depends = []
    for text in requires:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate(pyodide_env):
            depends.append(normalise(requirement.name))
    name, version = wheel.name.split("-")[:2]
    return {
        "name": name,
        "version": version,
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256(wheel),
        "package_type": "package",
        "imports": imports,
        "depends": depends,
        "unvendored_tests": False,
    }


# -- the site -----------------------------------------------------------------------------------


def build_nbask_wheel(dest: pathlib.Path) -> pathlib.Path:
    """The wheel of nbask, built from this checkout (with the committed front-end bundle)."""
    log("building nbask's wheel from the checkout")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dest), str(ROOT)])
    (wheel,) = dest.glob("nbask-*.whl")
    return wheel


def lite_dir(work: pathlib.Path, pyodide: pathlib.Path, wheels: pathlib.Path, nbask_wheel: pathlib.Path) -> None:
    """The folder ``jupyter lite build`` reads: its settings, Pyodide with its packages, pypi/."""
    static = work / "static" / "pyodide"
    static.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, static / name)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text("utf-8"))
    by_name = {normalise(k): k for k in lock["packages"]}
    added = []
    for wheel in [*sorted(wheels.glob("*.whl")), nbask_wheel]:
        name, version = wheel_name(wheel)
        if name in NOT_IN_BROWSER:
            continue
        if name in by_name:
            lock["packages"][by_name[name]].update(version=version, file_name=wheel.name, sha256=sha256(wheel))
        else:
            added.append(wheel)
        shutil.copy2(wheel, static / wheel.name)
    for wheel in added:
        lock["packages"][wheel_name(wheel)[0]] = lock_entry(wheel)
    listed = {normalise(k) for k in lock["packages"]}
    for wheel in added:
        entry = lock["packages"][wheel_name(wheel)[0]]
        entry["depends"] = [d for d in entry["depends"] if d in listed]
    (static / "pyodide-lock.json").write_text(json.dumps(lock), "utf-8")
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "nbask in JupyterLite",
            # window.jupyterapp: the browser tests drive the notebook through it.
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    # Every package is in the site: never reach for PyPI from the browser.
                    "disablePyPIFallback": True,
                },
            },
        },
    }
    (work / "jupyter-lite.json").write_text(json.dumps(settings, indent=2), "utf-8")


def with_pyodide_kernel(path: pathlib.Path, dest: pathlib.Path) -> pathlib.Path:
    """A copy of ``path`` whose notebooks name the Pyodide kernel ("python"), so JupyterLite starts
    it at once instead of asking which kernel to use for a notebook saved with "python3".
    """
    dest.mkdir(parents=True, exist_ok=True)
    copy = dest / path.name
    if path.is_dir():
        shutil.copytree(path, copy)
    else:
        shutil.copy2(path, copy)
    for notebook in [copy] if copy.is_file() else copy.rglob("*.ipynb"):
        if notebook.suffix != ".ipynb":
            continue
        data = json.loads(notebook.read_text("utf-8"))
        data.setdefault("metadata", {})["kernelspec"] = PYODIDE_KERNELSPEC
        notebook.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return copy


def main() -> None:
    """Build the site."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, required=True, help="the site's folder (replaced)")
    parser.add_argument("--cache", type=pathlib.Path, default=ROOT / ".venvs" / "lite-cache")
    parser.add_argument("contents", nargs="*", type=pathlib.Path, help="notebooks and files the site opens with")
    args = parser.parse_args()
    started = time.monotonic()
    cache: pathlib.Path = args.cache.resolve()
    out: pathlib.Path = args.out.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    pyodide = pyodide_package(cache)
    with tempfile.TemporaryDirectory() as tmp:
        nbask_wheel = build_nbask_wheel(pathlib.Path(tmp) / "dist")
        wheels = fetch_wheels(cache, pyodide, nbask_wheel)
        work = pathlib.Path(tmp) / "lite"
        work.mkdir()
        lite_dir(work, pyodide, wheels, nbask_wheel)
        shutil.rmtree(out, ignore_errors=True)
        cmd = ["jupyter", "lite", "build", "--output-dir", str(out)]
        for content in args.contents:
            cmd += ["--contents", str(with_pyodide_kernel(content.resolve(), pathlib.Path(tmp) / "contents"))]
        log("jupyter lite build")
        jupyter = pathlib.Path(sys.executable).parent / "jupyter"
        run([str(jupyter), *cmd[1:]], cwd=work)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"site built in {time.monotonic() - started:.0f} s: {out} ({size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
