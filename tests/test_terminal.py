"""What a person at a terminal reads of a question: its line breaks kept as line breaks (a
framework's message, then the draft it quotes), every other control character escaped.
"""

from __future__ import annotations

import io

from nbask.kinds import QuestionRequest
from nbask.kinds.question.terminal import ask_at_terminal
from nbask.models import one_question_set
from nbask.terminal import Terminal


def test_a_question_at_the_terminal_keeps_its_line_breaks_and_escapes_the_rest():
    out = io.StringIO()
    asked = one_question_set("Publish this draft?\n\nThe draft.\x1b[31m", ["approved", "rejected"])
    answer = ask_at_terminal(
        Terminal(io.StringIO("1\n"), out, deadline=None), QuestionRequest(question_set=asked, timeout=5)
    )
    shown = out.getvalue()
    assert answer.answers == {asked.questions[0].question: "approved"}
    assert "Publish this draft?\n" in shown
    assert "    The draft.\\x1b[31m\n" in shown  # the escape sequence shown, not run
    assert "\\n" not in shown  # no line break shown as the two characters backslash-n
