"""The history keeps each outcome compactly (as JSON text where its model round-trips) and gives
back exactly what the call returned.
"""

from __future__ import annotations

import nbask
from nbask.core.manager import manager
from nbask.kinds import QuestionRequest
from nbask.models import QuestionSet
from nbask.responses import QuestionReply, QuestionResponse


def test_every_outcome_read_back_from_the_history_equals_what_the_call_returned():
    nbask.configure(policy="recommended")
    returned = [
        nbask.ask_sync("Which database?", ["PostgreSQL (Recommended)", "SQLite"], header="DB"),
        nbask.approve_sync("Deploy", "make deploy"),
        nbask.ask_form_sync(
            "Replicas?", {"type": "object", "properties": {"n": {"type": "number", "default": 0.1 + 0.2}}}
        ),
    ]
    assert [entry.outcome for entry in nbask.history()] == returned
    assert nbask.history()[2].outcome.values == {"n": 0.1 + 0.2}  # a float reads back exactly


def test_an_answer_json_cannot_hold_is_kept_as_it_was():
    # A front end may send a lone surrogate in an "Other" text: JSON text cannot hold it.
    question_set = QuestionSet(questions=[{"question": "Name?", "options": [{"label": "A"}, {"label": "B"}]}])
    request = QuestionRequest(question_set=question_set)
    answer = request.decide(QuestionResponse(action="submit", replies=(QuestionReply(selected=(), other="x\ud800"),)))
    manager().record(request, answer)
    (entry,) = nbask.history()
    assert entry.outcome == answer
    assert entry.outcome.answers == {"Name?": "x\ud800"}
