"""The wire contract file is the one source both sides read; these check the Python side uses it."""

from __future__ import annotations

import json
import pathlib
import typing

import nbask
from nbask import contract, models
from nbask.kinds import KINDS

CONTRACT = json.loads((pathlib.Path(nbask.__file__).parent / "contract.json").read_text("utf-8"))


def test_python_literals_match_the_contract():
    assert set(typing.get_args(models.Status)) | {"pending"} == set(CONTRACT["statuses"])
    assert set(typing.get_args(models.AnsweredBy)) == set(CONTRACT["answered_by"])
    assert set(typing.get_args(models.DecisionKind)) == set(CONTRACT["decisions"])
    assert set(CONTRACT["status_text"]) == set(CONTRACT["statuses"]) - {"pending"}
    assert set(CONTRACT["decision_text"]) == set(CONTRACT["decisions"])


def test_constants_come_from_the_contract():
    assert CONTRACT["no_preference"] == nbask.NO_PREFERENCE
    assert CONTRACT["max_header_chars"] == models.MAX_HEADER_CHARS
    assert models.Question.model_fields["header"].metadata[0].max_length == CONTRACT["max_header_chars"]
    assert CONTRACT["max_note_chars"] == contract.MAX_NOTE_CHARS
    assert CONTRACT["max_preview_chars"] == contract.MAX_PREVIEW_CHARS
    preview = models.Option.model_json_schema()["properties"]["preview"]
    assert preview["maxLength"] == CONTRACT["max_preview_chars"]
    assert contract.is_recommended("Use JWT (recommended) ")
    assert not contract.is_recommended("Recommended: JWT")


def test_every_registered_kind_is_one_the_front_end_renders():
    assert set(KINDS) == set(contract.KINDS) == set(CONTRACT["kinds"])
