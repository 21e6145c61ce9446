"""``scripts/lite_site.py``'s ``extract_safely`` where ``tarfile`` has no extraction filters
(Python before 3.11.4 or 3.10.12): the script checks each member itself, so a benign archive
unpacks and one that would write outside the folder is refused before anything is written.
"""

from __future__ import annotations

import importlib.util
import io
import pathlib
import stat
import tarfile
import types
from collections.abc import Callable

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "lite_site.py"


@pytest.fixture
def lite_site(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The script as a module, seeing a ``tarfile`` without ``data_filter`` (tarfile itself is
    left whole: its own default filter may refer to it).
    """
    spec = importlib.util.spec_from_file_location("lite_site_under_test", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    without_filters = types.SimpleNamespace(open=tarfile.open)
    monkeypatch.setattr(module, "tarfile", without_filters)
    assert not hasattr(module.tarfile, "data_filter")
    return module


def archive(path: pathlib.Path, *members: tuple[tarfile.TarInfo, bytes]) -> pathlib.Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return path


def file(name: str, data: bytes = b"x", mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, b""


def folder(name: str) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.mode = tarfile.DIRTYPE, 0o777
    return info, b""


def test_a_benign_archive_unpacks(lite_site: types.ModuleType, tmp_path: pathlib.Path):
    tarball = archive(
        tmp_path / "ok.tgz",
        folder("package"),
        file("package/pyodide.mjs", b"export {}"),
        file("package/run.sh", b"#!/bin/sh", mode=0o4777),
        link("package/latest.mjs", "pyodide.mjs"),
        link("package/hard.mjs", "package/pyodide.mjs", tarfile.LNKTYPE),
    )
    dest = tmp_path / "out"
    dest.mkdir()
    lite_site.extract_safely(tarball, dest)
    assert (dest / "package" / "pyodide.mjs").read_bytes() == b"export {}"
    assert (dest / "package" / "latest.mjs").read_bytes() == b"export {}"
    assert (dest / "package" / "hard.mjs").read_bytes() == b"export {}"
    # setuid and world-writable bits are dropped: modes stay within rwxr-xr-x
    assert stat.S_IMODE((dest / "package" / "run.sh").stat().st_mode) == 0o755


#: Each hostile member, made for a test's tmp_path: an absolute name stays inside it, so a broken
#: check could never write anywhere else.
HOSTILE: dict[str, Callable[[pathlib.Path], tuple[tarfile.TarInfo, bytes]]] = {
    "dot-dot": lambda _: file("../x"),
    "dot-dot-inside": lambda _: file("package/../../x"),
    "absolute": lambda tmp: file(str(tmp / "absolute" / "x")),
    "symlink-up": lambda _: link("package/escape", "../../x"),
    "symlink-absolute": lambda tmp: link("package/escape", str(tmp)),
    "hardlink-up": lambda _: link("package/escape", "../../x", tarfile.LNKTYPE),
}


@pytest.mark.parametrize("hostile", HOSTILE)
def test_an_archive_that_would_leave_the_folder_is_refused(
    lite_site: types.ModuleType, tmp_path: pathlib.Path, hostile: str
):
    tarball = archive(tmp_path / "bad.tgz", file("package/first.txt"), HOSTILE[hostile](tmp_path))
    dest = tmp_path / "deep" / "out"
    dest.mkdir(parents=True)
    with pytest.raises(SystemExit, match="points outside the folder; refusing to unpack it"):
        lite_site.extract_safely(tarball, dest)
    # refused before anything was written, in the folder or beside it
    assert list(dest.iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["out"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tgz", "deep"]


def test_a_device_is_refused(lite_site: types.ModuleType, tmp_path: pathlib.Path):
    fifo = tarfile.TarInfo("package/pipe")
    fifo.type = tarfile.FIFOTYPE
    tarball = archive(tmp_path / "fifo.tgz", (fifo, b""))
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(SystemExit, match="is a device or FIFO"):
        lite_site.extract_safely(tarball, dest)
    assert list(dest.iterdir()) == []
