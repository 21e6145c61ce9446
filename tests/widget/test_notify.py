"""nbask.configure(notify=...) and NBASK_NOTIFY: the setting, and the `notify` trait every
widget syncs to the front end (js/shell/attention.ts shows the desktop notification).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import nbask
from nbask import config


@pytest.fixture(autouse=True)
def _reset(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(config.ENV_NOTIFY, raising=False)
    nbask.configure(notify=None)
    yield
    nbask.configure(notify=None)


def test_off_by_default() -> None:
    assert config.settings().notify is False
    assert config.notify_in_force() is False


def test_configure_turns_it_on_and_none_goes_back_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert nbask.configure(notify=True).notify is True
    assert config.notify_in_force() is True
    assert nbask.configure(policy=None).notify is True  # left out: unchanged
    assert nbask.configure(notify=False).notify is False
    monkeypatch.setenv(config.ENV_NOTIFY, "1")
    assert config.notify_in_force() is False  # configure wins over the environment
    assert nbask.configure(notify=None).notify is True


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("on", True), ("0", False), ("", False)])
def test_environment_variable(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv(config.ENV_NOTIFY, value)
    assert config.settings().notify is expected
    assert config.notify_in_force() is expected


def test_refuses_a_non_boolean() -> None:
    with pytest.raises(TypeError, match="notify must be True, False or None"):
        nbask.configure(notify="yes")  # type: ignore[arg-type]


def test_the_widget_syncs_the_setting() -> None:
    question = {"question": "Pick?", "header": "", "options": [{"label": "A"}, {"label": "B"}]}
    assert nbask.QuestionWidget(questions=[question])._notify is False
    nbask.configure(notify=True)
    widget = nbask.ApprovalWidget(action="Run shell command", details="ls")
    assert widget._notify is True
    assert "_notify" in widget.keys
