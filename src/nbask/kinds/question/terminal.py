"""The question kind at a terminal: the prompt the ``console`` policy shows."""

from __future__ import annotations

from ...contract import MAX_OTHER_CHARS
from ...models import Answer, Question
from ...replies import QuestionReply, QuestionResponse
from ...terminal import Dismissed, Terminal, printable
from .request import QuestionRequest


def ask_at_terminal(term: Terminal, request: QuestionRequest) -> Answer:
    """Numbered options, then Other (a typed answer) and Skip (no preference); a multi-select
    question takes several numbers (``1,3``); ``d`` or Ctrl-D dismisses the whole set.
    """
    questions = request.question_set.questions
    term.say("")
    term.say(
        f"nbask: the agent asks {len(questions)} question{'s' * (len(questions) > 1)}"
        + term.tool_call(request.tool_call_id)
    )
    replies = []
    try:
        for number, question in enumerate(questions, start=1):
            replies.append(_ask_one(term, question, number, len(questions)))
    except (Dismissed, EOFError):
        term.say("(dismissed)")
        return request.decide(QuestionResponse(action="dismiss"))
    answer = request.decide(QuestionResponse(action="submit", replies=tuple(replies)))
    for text, given in answer.answers.items():  # each question by its first line
        term.say(f"  {printable(text.split(chr(10))[0])} -> {printable(given)}")
    return answer


def _ask_one(term: Terminal, question: Question, number: int, count: int) -> QuestionReply:
    header = f" [{printable(question.header)}]" if question.header else ""
    term.say("")
    # Line breaks in the question (a framework's message above the draft it quotes) stay line
    # breaks; every other control character is shown escaped.
    first, *rest = printable(question.question, keep_newlines=True).split("\n")
    term.say(f"({number}/{count}){header} {first}")
    for line in rest:
        term.say(f"    {line}" if line else "")
    for index, option in enumerate(question.options, start=1):
        description = f" - {printable(option.description)}" if option.description else ""
        term.say(f"  {index}. {printable(option.label)}{description}")
    other, skip = len(question.options) + 1, len(question.options) + 2
    term.say(f"  {other}. Other (type your own answer)")
    term.say(f"  {skip}. Skip (no preference)")
    how = f"one or more of 1-{skip}, e.g. 1,{other}" if question.multi_select else f"1-{skip}"
    while True:
        raw = term.line(f"Choose {how} (d dismisses): ").strip().lower()
        if raw in ("d", "dismiss"):
            raise Dismissed
        picks = _numbers(raw)
        if picks is None or not picks or any(not 1 <= pick <= skip for pick in picks):
            term.say(f"Please type {'numbers' if question.multi_select else 'a number'} from 1 to {skip}, or d.")
            continue
        if skip in picks:
            if len(picks) > 1:
                term.say("Skip cannot be combined with other choices.")
                continue
            return QuestionReply(selected=(), other=None)
        if not question.multi_select and len(picks) > 1:
            term.say("This question takes one choice.")
            continue
        text = (term.limited_line("Your answer: ", MAX_OTHER_CHARS) or None) if other in picks else None
        chosen = {question.options[pick - 1].label for pick in picks if pick != other}
        selected = tuple(option.label for option in question.options if option.label in chosen)
        if other in picks and text is None and not selected:
            continue  # an empty Other and nothing else: ask again
        return QuestionReply(selected=selected, other=text)


def _numbers(raw: str) -> list[int] | None:
    parts = [part for part in raw.replace(",", " ").split() if part]
    if not all(part.isdigit() for part in parts):
        return None
    return sorted({int(part) for part in parts})
