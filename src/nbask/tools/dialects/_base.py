"""What every dialect shares: reading the arguments safely, turning validation errors into
sentences the model can act on, and the replies that do not depend on the dialect's format.

A dialect is one "ask the user" tool as some agent knows it: its name, its description, its
argument schema, how its arguments become an nbask ``QuestionSet`` (``parse`` -> ``Plan``), and
how an ``Answer`` goes back in its own reply format (``answered`` / ``dismissed`` / ``timed_out``).
"""

from __future__ import annotations

import inspect
import json
import operator
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Final

from pydantic import BaseModel, Field, ValidationError

from ... import config
from ...contract import MAX_HEADER_CHARS, NO_PREFERENCE
from ...models import Answer, QuestionSet
from ..result import ToolResult

#: The longest arguments text accepted (the JSON, or the XML of the 004 dialect), in characters.
#: Four questions with four options and generous descriptions take a few thousand.
MAX_ARGUMENT_CHARS: Final = 100_000
#: How many problems one error lists, and how long each may be: an error must not flood the
#: model's context any more than an answer may.
MAX_PROBLEMS: Final = 8
MAX_PROBLEM_CHARS: Final = 300

Location = tuple[int | str, ...]


class ArgumentError(ValueError):
    """The arguments cannot be asked; ``problems`` name each field and the rule it breaks."""

    def __init__(self, *problems: str) -> None:
        self.problems = [_clip(p) for p in problems[:MAX_PROBLEMS]]
        if len(problems) > MAX_PROBLEMS:
            self.problems.append(f"... and {len(problems) - MAX_PROBLEMS} more problem(s)")
        super().__init__("; ".join(self.problems))


def _clip(text: str, limit: int = MAX_PROBLEM_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Plan:
    """Parsed arguments: what nbask asks, and what the reply needs to name each question."""

    question_set: QuestionSet
    #: Per question, the key the reply uses: the question text as the model wrote it, or its id.
    keys: tuple[str, ...]
    #: A time limit the arguments themselves carry (the 001 ``timeout_seconds``), else None.
    timeout: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# -- reading arguments ---------------------------------------------------------------------


def load_json_object(arguments: object) -> dict[str, Any]:
    """The arguments as a dict: from JSON text (as a model sends it), a mapping or a pydantic
    model; ``None`` or blank text is ``{}``. Raises ArgumentError for anything else, for text
    over the size limit, nesting too deep to read, or text that is not valid Unicode.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, bytes | bytearray):
        try:
            arguments = bytes(arguments).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ArgumentError(f"arguments: not valid UTF-8 ({error.reason} at byte {error.start})") from None
    data: object
    if isinstance(arguments, str):
        data = _from_json_text(arguments)
    elif isinstance(arguments, BaseModel):
        data = arguments.model_dump()
    elif isinstance(arguments, Mapping):
        data = dict(arguments)
    else:
        msg = f"arguments: must be a JSON object (as text or a dict), got {type(arguments).__name__}"
        raise ArgumentError(msg)
    if not isinstance(data, dict):
        msg = f"arguments: must be a JSON object {{...}} of named fields, got {_json_kind(data)}"
        raise ArgumentError(msg)
    check_json_data(data)
    return data


def _from_json_text(text: str) -> object:
    check_length(text)
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        msg = f"arguments: not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        raise ArgumentError(msg) from None
    except RecursionError:
        raise ArgumentError("arguments: nested too deeply to read") from None


def check_length(text: str) -> None:
    if len(text) > MAX_ARGUMENT_CHARS:
        msg = f"arguments: {len(text)} characters; the limit is {MAX_ARGUMENT_CHARS}. Ask shorter questions"
        raise ArgumentError(msg)


def check_json_data(data: object) -> None:
    """Plain JSON data, within the size limit, with valid Unicode text (no lone surrogates,
    which could not be sent to the notebook's front end).
    """
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise ArgumentError("arguments: nested too deeply to read") from None
    except (TypeError, ValueError) as error:
        msg = f"arguments: must be plain JSON data (text, numbers, booleans, null, lists, objects): {error}"
        raise ArgumentError(msg) from None
    check_length(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        msg = f"arguments: contain text that is not valid Unicode (a lone surrogate {error.object[error.start]!r})"
        raise ArgumentError(msg) from None


def _json_kind(value: object) -> str:
    kinds = {list: "a list", str: "a string", bool: "true/false", int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


# -- validation errors as sentences ---------------------------------------------------------


def where(loc: Sequence[int | str]) -> str:
    """``("questions", 0, "options")`` -> ``"questions[0].options"``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "arguments"


def problems_of(
    error: ValidationError,
    locate: Callable[[Location], str] = where,
    hints: Mapping[str, str] | None = None,
) -> list[str]:
    """One sentence per validation error: the field (in the dialect's own names, by ``locate``),
    then the rule. ``hints`` adds advice to errors of a field (keyed by ``locate``'s name).
    """
    problems = []
    for item in error.errors(include_url=False, include_input=False, include_context=False):
        loc = tuple(item["loc"])
        name = locate(loc)
        kind = item["type"]
        if kind == "missing":
            text = f"{name}: required, but missing"
        elif kind == "extra_forbidden":
            text = f"{name}: not a field of this tool; remove it"
            if loc and loc[-1] == "answers":
                text = f"{name}: not an input; the person's answers come back in the result, so leave it out"
        else:
            message = str(item["msg"]).removeprefix("Value error, ")
            text = f"{name}: {message}"
        hint = (hints or {}).get(name)
        problems.append(f"{text} ({hint})" if hint else text)
    return problems


def validate(
    model: type[BaseModel],
    data: object,
    locate: Callable[[Location], str] = where,
    hints: Mapping[str, str] | None = None,
) -> Any:
    """``model.model_validate(data)``, with ArgumentError instead of ValidationError."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ArgumentError(*problems_of(error, locate, hints)) from None
    except RecursionError:
        raise ArgumentError("arguments: nested too deeply to read") from None


def build_question_set(
    questions: list[dict[str, Any]],
    locate: Callable[[Location], str] = where,
    hints: Mapping[str, str] | None = None,
) -> QuestionSet:
    """The QuestionSet nbask asks (every limit of ``nbask.models``), errors named by ``locate``."""
    result: QuestionSet = validate(QuestionSet, {"questions": questions}, locate, hints)
    return result


MAX_TOOLTIP_CHARS = 200


def short_header(text: str) -> str:
    """A header that fits nbask's chip (12 characters): cut at a word boundary where one keeps
    at least half of it, else at a character (never between a letter and its accents), with "…".
    """
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    if len(text) <= MAX_HEADER_CHARS:
        return text
    room = MAX_HEADER_CHARS - 1
    end = room
    while end > 0 and unicodedata.combining(text[end]):
        end -= 1
    cut = text[:end]
    space = cut.rfind(" ")
    if space >= room // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def header_fields(text: str) -> dict[str, str]:
    """The chip's header, and the whole header as its tooltip when it had to be shortened
    (itself capped: a tooltip is no place for an essay).
    """
    short = short_header(text)
    if short == text:
        return {"header": short}
    return {"header": short, "header_tooltip": text[:MAX_TOOLTIP_CHARS]}


# -- replies --------------------------------------------------------------------------------


def dumps(value: object) -> str:
    """JSON as the model reads it: non-ASCII text kept as it is."""
    return json.dumps(value, ensure_ascii=False)


def machine_note(answer: Answer) -> str:
    """Says so when no person decided: the model must be able to tell a policy's answer apart."""
    if answer.answered_by == "policy":
        try:
            policy = f"nbask's '{config.settings().policy}' policy"
        except ValueError:  # NBASK_POLICY names no policy; the request was decided all the same
            policy = "a headless policy of nbask"
        return f"Answered by {policy}, not by a person: no one was asked."
    if answer.answered_by == "replay":
        return "Answered from a recorded transcript (replay), not by a person in this run."
    return ""


def join_notes(*notes: str) -> str:
    return " ".join(note.strip() for note in notes if note and note.strip())


def answer_for(answer: Answer, plan: Plan, index: int) -> str:
    """The answer text of question ``index`` ("[No preference]" when it was left empty)."""
    return answer.answers.get(plan.question_set.questions[index].question, NO_PREFERENCE)


def selections_for(answer: Answer, plan: Plan, index: int) -> list[str]:
    return list(answer.selections.get(plan.question_set.questions[index].question, []))


DISMISSED_NOTE: Final = (
    "The person dismissed the question(s) without answering. That is not consent and not an answer: "
    "do not assume one; continue with what you know and say what you assumed, or stop and explain what you need."
)
CANCELLED_NOTE: Final = (
    "The question was cancelled before anyone answered (the run was interrupted). Do not assume an answer."
)


class Dialect(ABC):
    """One "ask the user" tool: its name, description, schema, parsing and reply format."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: Where the dialect comes from, for the docs.
    origin: ClassVar[str]
    #: The argument schema the model is given (definitions) and the Python function takes.
    arguments: ClassVar[type[BaseModel]]
    description: ClassVar[str]

    # -- arguments ---------------------------------------------------------------------

    def load(self, arguments: object) -> dict[str, Any]:
        """The raw arguments as a dict (JSON text or a mapping)."""
        return load_json_object(arguments)

    @abstractmethod
    def parse(self, data: dict[str, Any]) -> Plan:
        """Validate the arguments and build what nbask asks; raises ArgumentError."""

    def invalid(self, error: ArgumentError) -> ToolResult:
        problems = "; ".join(error.problems)
        text = f"Invalid arguments for {self.name}: {problems}. Fix the arguments and call {self.name} again."
        return self.error("invalid", text)

    # -- replies -----------------------------------------------------------------------

    def reply(self, answer: Answer, plan: Plan) -> ToolResult:
        if answer.status == "answered":
            return self.answered(answer, plan)
        if answer.status == "dismissed":
            return self.dismissed(answer, plan)
        if answer.status == "timeout":
            return self.timed_out(answer, plan)
        return self.error("cancelled", join_notes(CANCELLED_NOTE), outcome=answer)

    @abstractmethod
    def answered(self, answer: Answer, plan: Plan) -> ToolResult: ...

    @abstractmethod
    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult: ...

    @abstractmethod
    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult: ...

    def dismissed_note(self, answer: Answer) -> str:
        """A person's dismiss is explained here; a policy's dismiss keeps the policy's own note."""
        return DISMISSED_NOTE if answer.answered_by == "person" else answer.note or DISMISSED_NOTE

    @staticmethod
    def answered_message(answer: Answer) -> str:
        return "User has answered." if answer.answered_by == "person" else f"Answered by {answer.answered_by}."

    # The dialects that reply in JSON build the payload in their own key order; these add what
    # every one of them carries and wrap it as the result.

    def json_answered(self, answer: Answer, payload: dict[str, Any]) -> ToolResult:
        """``payload`` plus who answered (when not a person) and the notes."""
        if answer.answered_by != "person":
            payload["answered_by"] = answer.answered_by
        note = join_notes(answer.note, machine_note(answer))
        if note:
            payload["note"] = note
        message = self.answered_message(answer)
        return ToolResult(is_error=False, output=dumps(payload), message=message, status="answered", outcome=answer)

    def json_dismissed(self, answer: Answer, payload: dict[str, Any]) -> ToolResult:
        """``payload`` plus the dismiss note; a dismiss is not an error."""
        payload["note"] = self.dismissed_note(answer)
        message = "User dismissed the question without answering."
        return ToolResult(is_error=False, output=dumps(payload), message=message, status="dismissed", outcome=answer)

    @staticmethod
    def json_timed_out(answer: Answer, payload: dict[str, Any]) -> ToolResult:
        """``payload`` plus the timeout note (no one answered; assume nothing)."""
        payload["note"] = answer.note
        return ToolResult(is_error=False, output=dumps(payload), message=answer.note, status="timeout", outcome=answer)

    def error(self, status: Any, text: str, outcome: Answer | None = None) -> ToolResult:
        """A tool error whose output is the text the model reads."""
        return ToolResult(is_error=True, output=f"Error: {text}", message=text, status=status, outcome=outcome)

    # -- the Python function (nbask.tools.function) --------------------------------------

    def parameters(self) -> list[inspect.Parameter]:
        """The typed parameters of the function: the fields of ``arguments``, each annotated with
        its limits and description (``Annotated[list[Question], MinLen(1), ..., Field(...)]``), so
        a framework that builds a schema from the signature gets the same limits as the definition.
        """
        params = []
        for name, info in self.arguments.model_fields.items():
            default = inspect.Parameter.empty if info.is_required() else info.get_default(call_default_factory=True)
            extras = (*info.metadata, Field(description=info.description))
            annotation = operator.getitem(Annotated, (info.annotation, *extras))  # Annotated[T, *extras]
            params.append(
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
            )
        return params

    def function_doc(self) -> str:
        """The function's docstring: the description, then each argument (Google style)."""
        lines = [self.description.strip(), "", "Args:"]
        for name, info in self.arguments.model_fields.items():
            lines.append(f"    {name}: {info.description or name}")
        lines += ["", "Returns:", "    The person's answer, in this tool's reply format."]
        return "\n".join(lines)
