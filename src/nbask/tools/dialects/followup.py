"""``ask_followup_question(question, follow_up)``: Kilo Code's and Roo Code's tool.

One question with 2-4 suggested answers. ``follow_up`` is accepted in each form these tools have
told their models to use: the native tools' JSON list ``[{"text": ..., "mode": ...|null}]`` (Kilo
Code's and Roo Code's ``native-tools/ask_followup_question.ts``), also when the list arrives as
JSON text; the tool's own XML (``<suggest>...</suggest>`` elements, attributes such as ``mode``
ignored); a list of strings; and the JSON form ``[{"answer": ...}]``. The whole XML tool
call (``<ask_followup_question><question>...</question><follow_up>...</follow_up>
</ask_followup_question>``) may be sent as the arguments text. The tool makes ``follow_up``
optional; nbask shows a question as 2-4 options plus a free-text box, so here it is required, with
an error that says what to send.

``mode``: when a suggestion with a mode is picked, Kilo Code and Roo Code switch the agent's mode
in their UI and send the model only the suggestion's text (``AskFollowupQuestionTool.ts``); the
reply cannot say a mode. A notebook has no modes to switch, so a mode is checked (text or null)
and ignored, and the reply is the answer alone, as theirs is.

The reply wraps the answer in ``<answer>`` tags, as the tool's own examples show. Errors follow the tool's
style: "Missing required parameter 'question'", "Failed to parse follow_up: ...", "Invalid
follow_up format: ...", "Wrong number of suggestions in follow_up: ...", and end by showing the
form the call was written in (the XML call, ``follow_up`` as XML, or the JSON list), complete.

The XML reader is a small linear scanner, not an XML parser: the tool's XML is written by a model
and is often not well-formed (a bare "&" or "<" in a suggestion), and a scanner has no entity
expansion to abuse.
"""

from __future__ import annotations

import html
import json
from typing import Any, Final

from pydantic import Field

from ...errors import ArgumentError
from ...models import Answer, StrictModel
from ..result import ToolResult
from . import guidance
from ._arguments import Plan, check_length, load_json_object, one_question_locator, validated_question_set
from ._base import Dialect
from ._replies import (
    answer_for,
    answered_result,
    dismissed_note,
    dismissed_result,
    single_question_notes,
    timed_out_result,
)

#: The forms of a complete call, as each kind of prompt shows it to the model.
FORM_JSON: Final = (
    '{"question": "...", "follow_up": [{"text": "...", "mode": null}, ...]} with 2-4 complete suggestions'
)
FORM_FOLLOW_UP_XML: Final = (
    '{"question": "...", "follow_up": "<suggest>...</suggest><suggest>...</suggest>"} with 2-4 complete suggestions'
)
FORM_CALL_XML: Final = (
    "<ask_followup_question><question>...</question><follow_up><suggest>...</suggest><suggest>...</suggest>"
    "</follow_up></ask_followup_question> with 2-4 complete suggestions"
)
#: The advice after an error in a call whose ``follow_up`` was <suggest> XML.
RETRY: Final = f"Please retry with a complete call: {FORM_FOLLOW_UP_XML}."
#: The keys of one suggestion in the JSON list: its text (``answer`` in the older JSON form) and a mode.
SUGGESTION_KEYS: Final = frozenset({"text", "answer", "mode"})


class FollowupSuggestion(StrictModel):
    """One suggested answer, as Kilo Code's and Roo Code's native tool writes it."""

    text: str = Field(description="A complete answer the user can pick, with no placeholders.")
    mode: str | None = Field(
        default=None, description="Kilo Code's mode to switch to when it is picked; a notebook has none."
    )


class FollowupArguments(StrictModel):
    """The arguments of ``ask_followup_question``."""

    question: str = Field(description="The specific question to ask the user.")
    follow_up: list[FollowupSuggestion | str] | str = Field(
        description=(
            '2-4 suggested answers, each complete (no placeholders to fill in): [{"text": ..., "mode": null}, ...], '
            "a list of strings, or <suggest>...</suggest> elements."
        )
    )


_locate = one_question_locator("follow_up")


class _XmlError(ValueError):
    pass


class Followup(Dialect):
    """The 004 dialect (see the module docstring)."""

    name = "ask_followup_question"
    title = "Ask a follow-up question"
    origin = "Kilo Code, Roo Code"
    arguments = FollowupArguments
    form = FORM_JSON
    description = (
        "Ask the user one specific question to get information you need to continue, with 2-4 suggested "
        f"answers the user can pick from (or answer in their own words). {guidance.WHEN} Each suggestion must be "
        f"a complete answer, with no placeholders. {guidance.NO_OTHER} {guidance.RECOMMENDED} "
        f"The reply is the user's answer in <answer></answer> tags. {guidance.SILENCE}"
    )

    def read(self, arguments: object) -> Plan:
        """The plan; an error remembers the form the call was written in, for its advice."""
        form = FORM_CALL_XML if isinstance(arguments, str) and arguments.lstrip().startswith("<") else FORM_JSON
        try:
            data = self.load(arguments)
            follow_up = data.get("follow_up", data.get("suggest"))
            if form == FORM_JSON and isinstance(follow_up, str) and not follow_up.lstrip().startswith("["):
                form = FORM_FOLLOW_UP_XML
            return self.parse(data)
        except ArgumentError as error:
            error.form = form
            raise

    def load(self, arguments: object) -> dict[str, Any]:
        if isinstance(arguments, str) and arguments.lstrip().startswith("<"):
            check_length(arguments)
            return _parse_tool_xml(arguments)
        return load_json_object(arguments)

    def invalid(self, error: ArgumentError) -> ToolResult:
        problems = " ".join(p if p.endswith(".") else f"{p}." for p in error.problems)
        return self.error("invalid", f"{problems} Please retry with a complete call: {error.form or self.form}.")

    def parse(self, data: dict[str, Any]) -> Plan:
        if "suggest" in data and "follow_up" not in data:  # the JSON form: {"question", "suggest": [...]}
            data = {("follow_up" if key == "suggest" else key): value for key, value in data.items()}
        unknown = [key for key in data if key not in ("question", "follow_up")]
        if unknown:
            raise ArgumentError(*(f"Unknown parameter '{key}'" for key in unknown))
        question = data.get("question")
        if question is None or (isinstance(question, str) and not question.strip()):
            raise ArgumentError("Missing required parameter 'question'")
        if not isinstance(question, str):
            raise ArgumentError("Invalid parameter 'question': must be text")
        if "follow_up" not in data or data["follow_up"] is None:
            raise ArgumentError(
                "Missing required parameter 'follow_up': nbask shows the question with 2-4 suggested answers"
            )
        suggestions = _suggestions(data["follow_up"])
        if not 2 <= len(suggestions) <= 4:  # noqa: PLR2004 - nbask's 2-4 options
            raise ArgumentError(
                f"Wrong number of suggestions in follow_up: give 2-4 suggestions, got {len(suggestions)}"
            )
        question_set = validated_question_set(
            [{"question": question, "options": [{"label": s} for s in suggestions]}], _locate
        )
        return Plan(question_set=question_set, keys=(question,))

    def answered(self, answer: Answer, plan: Plan) -> ToolResult:
        output = f"<answer>\n{answer_for(answer, plan, 0)}\n</answer>"
        note = single_question_notes(answer, plan)
        if note:
            output += f"\n({note})"
        return answered_result(answer, output)

    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return dismissed_result(answer, f"No <answer>: {dismissed_note(answer)}")

    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult:
        del plan
        return timed_out_result(answer, f"No <answer>: {answer.note}")


def _suggestions(follow_up: object) -> list[str]:
    """The suggestions' texts, from <suggest> XML, a JSON list, or that list as JSON text."""
    if isinstance(follow_up, str) and follow_up.lstrip().startswith("["):
        try:
            follow_up = json.loads(follow_up)
        except json.JSONDecodeError as error:
            where = f"{error.msg} at line {error.lineno} column {error.colno}"
            msg = f"Failed to parse follow_up: not a valid JSON list ({where})"
            raise ArgumentError(msg) from None
        if not isinstance(follow_up, list):
            raise ArgumentError("Invalid follow_up format: the JSON text must be a list of suggestions")
    if isinstance(follow_up, str):
        try:
            found = list(_elements(follow_up, "suggest"))
        except _XmlError as error:
            raise ArgumentError(f"Failed to parse follow_up: {error}") from None
        if not found and follow_up.strip():
            raise ArgumentError("Invalid follow_up format: expected <suggest>...</suggest> elements")
        return [html.unescape(text).strip() for text in found]
    if isinstance(follow_up, list):
        return [_suggestion_text(index, item) for index, item in enumerate(follow_up)]
    raise ArgumentError("Invalid follow_up format: must be <suggest> XML text or a list of suggestions")


def _suggestion_text(index: int, item: object) -> str:
    """One suggestion: text, ``{"text": ..., "mode": ...|null}`` or the older ``{"answer": ...}``."""
    if isinstance(item, str):
        return item
    expected = f'Invalid follow_up format: follow_up[{index}] must be {{"text": "...", "mode": null}} (or text)'
    if not isinstance(item, dict):
        raise ArgumentError(expected)
    unknown = sorted(str(key) for key in item if key not in SUGGESTION_KEYS)
    if unknown:
        raise ArgumentError(f"Invalid follow_up format: follow_up[{index}] has unknown key(s) {unknown}")
    texts = [item[key] for key in ("text", "answer") if key in item]
    if len(texts) != 1 or not isinstance(texts[0], str):
        raise ArgumentError(expected)
    mode = item.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise ArgumentError(f"Invalid follow_up format: follow_up[{index}].mode must be a mode name (text) or null")
    # The mode is not carried on: the reply is the answer alone (see the module docstring).
    return texts[0]


def _parse_tool_xml(text: str) -> dict[str, Any]:
    """The whole XML tool call: ``<question>`` and ``<follow_up>`` (the outer tag is optional)."""
    try:
        questions = list(_elements(text, "question"))
        follow_ups = list(_elements(text, "follow_up"))
    except _XmlError as error:
        raise ArgumentError(f"Failed to parse the tool call: {error}") from None
    if len(questions) > 1 or len(follow_ups) > 1:
        raise ArgumentError("Invalid tool call xml format: one <question> and at most one <follow_up>")
    data: dict[str, Any] = {}
    if questions:
        data["question"] = html.unescape(questions[0]).strip()
    if follow_ups:
        data["follow_up"] = follow_ups[0]
    return data


def _elements(text: str, tag: str) -> list[str]:
    """The inner text of every ``<tag ...>...</tag>`` in ``text`` (not nested), in one pass."""
    closing = f"</{tag}>"
    found: list[str] = []
    position = 0
    while True:
        start, after = _find_opening(text, tag, position, len(text))
        if start < 0:
            return found
        end_of_tag = text.find(">", after)
        if end_of_tag < 0:
            msg = f"a <{tag}> tag is not closed with '>'"
            raise _XmlError(msg)
        if text[end_of_tag - 1] == "/":
            msg = f"an empty <{tag}/> element"
            raise _XmlError(msg)
        end = text.find(closing, end_of_tag + 1)
        if end < 0:
            msg = f"a <{tag}> has no closing {closing}"
            raise _XmlError(msg)
        if _find_opening(text, tag, end_of_tag + 1, end)[0] >= 0:
            msg = f"a <{tag}> starts before the previous one is closed"
            raise _XmlError(msg)
        found.append(text[end_of_tag + 1 : end])
        position = end + len(closing)


def _find_opening(text: str, tag: str, start: int, stop: int) -> tuple[int, int]:
    """(index of the next ``<tag`` in text[start:stop], index after the name), or (-1, -1);
    ``<tagname>`` of a longer name does not count.
    """
    opening = f"<{tag}"
    while True:
        found = text.find(opening, start, stop)
        if found < 0:
            return -1, -1
        after = found + len(opening)
        if after >= len(text) or text[after] in "> \t\r\n/":
            return found, after
        start = after
