"""Replaying an approval recorded in another checkout: a path under the recorded working
directory reads as the same path under this one, and only at a path boundary, so a folder whose
name merely starts (or ends) with the recorded one keeps its path.
"""

from __future__ import annotations

import json
import pathlib

import pytest

import nbask
from nbask.core.manager import manager
from nbask.kinds.approval.replay import _as_here
from nbask.kinds.approval.request import approval_request
from nbask.replies import ApprovalResponse


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/a/proj", "/b/work"),
        ("/a/proj/data/x.csv", "/b/work/data/x.csv"),
        ('{"path": "/a/proj"}', '{"path": "/b/work"}'),
        ("cd /a/proj && make\nls /a/proj/build", "cd /b/work && make\nls /b/work/build"),
        ("/a/proj\\data", "/b/work\\data"),
    ],
)
def test_the_recorded_folder_and_paths_under_it_move(text: str, expected: str):
    assert _as_here(text, "/a/proj", "/b/work") == expected


@pytest.mark.parametrize(
    "text",
    [
        "/a/proj-old/data/x.csv",
        "/a/proj-old",
        "/a/proj2/x",
        "/a/proj.bak/x",
        "/a/project",
        "/x/a/proj/data",
        "rsync /a/proj_backup/ /tmp",
    ],
)
def test_a_folder_that_only_starts_or_ends_like_it_keeps_its_path(text: str):
    assert _as_here(text, "/a/proj", "/b/work") == text


def test_both_in_one_text():
    text = "cp /a/proj/x /a/proj-old/x"
    assert _as_here(text, "/a/proj", "/b/work") == "cp /b/work/x /a/proj-old/x"


def test_a_sibling_folder_replays_unmoved(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch):
    """Recorded in .../proj with a path in .../proj-old: replayed in another checkout, the same
    details (the sibling's path unchanged) match, and the edit keeps the sibling's path too.
    """
    recorded_in = tmp_path / "proj"
    sibling = tmp_path / "proj-old" / "sales.csv"
    replayed_in = tmp_path / "ci"
    for folder in (recorded_in, replayed_in):
        folder.mkdir()
    details = json.dumps({"from": str(sibling), "to": str(recorded_in / "sales.csv")})
    edited = json.dumps({"from": str(sibling), "to": str(recorded_in / "out.csv")})
    monkeypatch.chdir(recorded_in)
    nbask.configure(policy="replay", replay_file=_recording(tmp_path, "Copy", details, edited))

    monkeypatch.chdir(replayed_in)
    decision = nbask.approve_sync("Copy", json.dumps({"from": str(sibling), "to": str(replayed_in / "sales.csv")}))
    assert decision.decision == "edit"
    assert json.loads(decision.edited or "") == {"from": str(sibling), "to": str(replayed_in / "out.csv")}


def _recording(tmp_path: pathlib.Path, action: str, details: str, edited: str) -> pathlib.Path:
    """A history of one edited approval, recorded in the current working directory."""
    request = approval_request(action, details)
    manager().record(request, request.decide(ApprovalResponse("approve", edited_details=edited)))
    path = nbask.save_history(tmp_path / "recorded.jsonl")
    manager().clear_history()
    return path
