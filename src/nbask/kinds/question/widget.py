"""The question kind's widget: the card in the notebook that shows the request and takes the person's reply."""

from __future__ import annotations

from typing import Any

import traitlets

from ...core.lifecycle import Resolution
from ...models import Answer, Question, QuestionSet
from ...widget import InteractionWidget
from ...widget.bundle import esm_of
from .request import QuestionRequest


class QuestionWidget(InteractionWidget[Answer]):
    """Shows 1-4 questions and resolves with the person's answer.

    Example::

        w = nbask.QuestionWidget(questions=[{"question": "Proceed?",
                                             "options": [{"label": "Yes"}, {"label": "No"}]}])
        display(w)
        answer = await w.await_answer(timeout=None)
    """

    # This kind's own front end (js/kinds/question/widget.ts), not the other kinds'.
    _esm = esm_of("question")

    # Mirrored by QuestionModel in js/contract/contract.ts.
    _questions = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(
        self,
        *,
        questions: list[Question] | list[dict[str, Any]] | QuestionSet | None = None,
        tool_call_id: str | None = None,
        resolution: Resolution[Answer] | None = None,
        **traits: Any,
    ) -> None:
        if resolution is None:
            if questions is None:
                msg = "QuestionWidget needs questions=[...] (or a resolution of a QuestionRequest)"
                raise TypeError(msg)
            question_set = questions if isinstance(questions, QuestionSet) else QuestionSet(questions=questions)
            resolution = Resolution(QuestionRequest(question_set=question_set, tool_call_id=tool_call_id))
        if not isinstance(resolution.request, QuestionRequest):
            msg = "QuestionWidget shows question requests only"
            raise TypeError(msg)
        self.question_set = resolution.request.question_set
        super().__init__(resolution, _questions=[q.model_dump() for q in self.question_set.questions], **traits)

    def _result_for(self, outcome: Answer) -> dict[str, Any]:
        return {"answers": outcome.answers, "notes": outcome.notes, "note": outcome.note}
