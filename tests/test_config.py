"""The one table of settings: every setting has a configure keyword, an NBASK_* variable that
works, and a row in docs/reference/settings.md saying the same.
"""

from __future__ import annotations

import inspect
import pathlib

import pytest

import nbask
from nbask import config

SETTINGS_PAGE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "reference" / "settings.md"


def test_every_configure_keyword_is_a_setting_and_every_setting_a_keyword():
    keywords = set(inspect.signature(nbask.configure).parameters) - {"enabled"}  # enabled: tools_enabled's old name
    assert keywords == {setting.name for setting in config.SETTINGS}


@pytest.mark.parametrize("setting", config.SETTINGS, ids=lambda setting: setting.name)
def test_every_setting_has_its_nbask_variable_and_a_row_on_the_settings_page(setting):
    assert setting.env == f"NBASK_{setting.name.upper()}"
    row = f"| `{setting.name}` | `{setting.env}` | `{setting.default!r}` | {setting.meaning} |"
    assert row in SETTINGS_PAGE.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("policy", "Recommended", "recommended"),
        ("replay_file", "~/answers.jsonl", pathlib.Path("~/answers.jsonl").expanduser()),
        ("tools_enabled", "off", False),
        ("notify", "yes", True),
        ("share_username", "1", True),
    ],
)
def test_each_variable_is_read_and_configure_wins_over_it(monkeypatch, name, text, expected):
    setting = next(setting for setting in config.SETTINGS if setting.name == name)
    monkeypatch.setenv(setting.env, text)
    assert config.value_of(name) == (expected, setting.env)
    assert getattr(config.settings(), name) == expected
    nbask.configure(**{name: setting.default if setting.default is not None else "other.jsonl"})
    assert config.value_of(name)[1] == "configure"


def test_tools_enabled_from_the_environment_takes_the_tools_away(monkeypatch):
    monkeypatch.setenv("NBASK_TOOLS_ENABLED", "0")
    assert nbask.tools.definitions() == []
    monkeypatch.setenv("NBASK_TOOLS_ENABLED", "maybe")  # not a flag word: the default stands
    assert nbask.tools.definitions() != []


def test_a_policy_variable_naming_no_policy_is_an_error_naming_it(monkeypatch):
    monkeypatch.setenv("NBASK_POLICY", "sometimes")
    with pytest.raises(ValueError, match=r"NBASK_POLICY='sometimes' is not an nbask policy"):
        config.settings()


def test_approvers_are_read_from_the_environment_and_checked_when_configured(monkeypatch):
    monkeypatch.setenv("NBASK_APPROVERS", "alice, bob")
    assert config.value_of("approvers") == (("alice", "bob"), "NBASK_APPROVERS")
    assert nbask.configure(approvers={"shell_*": ["carol"]}).approvers == (("shell_*", ("carol",)),)
    assert config.value_of("approvers")[1] == "configure"
    with pytest.raises(TypeError, match=r"approvers must be a list of usernames, not a single string"):
        nbask.configure(approvers="alice")
    with pytest.raises(ValueError, match=r"approvers\['deploy'\] names a username twice"):
        nbask.configure(approvers={"deploy": ["alice", "alice"]})
    with pytest.raises(ValueError, match=r"approvers must name at least one username"):
        nbask.configure(approvers=[])
    nbask.configure(approvers=None)  # back to the variable
    assert config.value_of("approvers") == (("alice", "bob"), "NBASK_APPROVERS")
