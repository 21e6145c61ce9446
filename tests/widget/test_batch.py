"""The ``_batch`` trait a card of a batch gets (``nbask.widget.batch.batch_state``): the heading goes to
the first request still waiting, never to an answered card, and every card carries how many
sources the batch's requests come from; a request's ``source`` is one line of plain text.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from nbask.contract import MAX_SOURCE_CHARS
from nbask.core.lifecycle import Resolution
from nbask.core.manager import Batch
from nbask.kinds import QuestionRequest
from nbask.kinds.approval.request import approval_request
from nbask.kinds.form.request import form_request
from nbask.models import one_question_set
from nbask.widget.batch import batch_state

BATCH = Batch("b1", "r0")


def members(n: int) -> list[Resolution[Any]]:
    resolutions = [Resolution(approval_request(f"Drop t{i}", f"DROP TABLE t{i}")) for i in range(n)]
    for i, resolution in enumerate(resolutions):
        resolution.request.request_id = f"r{i}"
        resolution.request.batch_id = BATCH.id
    return resolutions


def card(resolution: Resolution[Any]) -> Any:
    return SimpleNamespace(request=resolution.request)


def test_the_heading_is_on_the_first_request_still_waiting():
    three = members(3)
    assert batch_state(card(three[0]), BATCH, three)["lead"] is True
    assert batch_state(card(three[1]), BATCH, three)["lead"] is False
    # The first card is answered: its card drops the heading, the next one waiting takes it.
    left = three[1:]
    first = batch_state(card(three[0]), BATCH, left)
    assert (first["lead"], first["waiting"]) == (False, 0)
    second = batch_state(card(three[1]), BATCH, left)
    assert (second["lead"], second["waiting"], second["approvals"]) == (True, 2, ["r1", "r2"])
    # A card further down keeps the same state all along.
    assert batch_state(card(three[2]), BATCH, three) == batch_state(card(three[2]), BATCH, left)


def test_every_card_says_how_many_sources_the_batch_has():
    three = members(3)
    for resolution in three:
        assert batch_state(card(resolution), BATCH, three, 2)["sources"] == 2
    assert batch_state(card(three[0]), BATCH, three)["sources"] == 1


def test_a_source_is_one_line_of_text_cut_at_its_limit():
    assert approval_request("a", "b", source="  billing\n\tagent ").source == "billing agent"
    assert approval_request("a", "b", source="   ").source is None
    assert approval_request("a", "b").source is None
    assert form_request("Who?", {"type": "object", "properties": {}}, source="x" * 500).source == "x" * MAX_SOURCE_CHARS
    question = QuestionRequest(question_set=one_question_set("Q?", ["A", "B"]), source="deploy agent")
    assert question.source == "deploy agent"
    with pytest.raises(TypeError, match="source must be a string"):
        approval_request("a", "b", source=3)  # type: ignore[arg-type]
