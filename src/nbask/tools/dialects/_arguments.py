"""Reading a model's untrusted arguments into a ``Plan``: size, nesting and Unicode checks, the
pydantic validation, and its errors as sentences naming the field (in the dialect's own names)
and the rule it breaks.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from ...contract import MAX_HEADER_CHARS
from ...errors import ArgumentError
from ...models import QuestionSet

#: The longest arguments text accepted (the JSON, or the XML of the 004 dialect), in characters.
#: Four questions with four options and generous descriptions take a few thousand.
MAX_ARGUMENT_CHARS: Final = 100_000
#: How many problems one error lists, and how long each may be: an error must not flood the
#: model's context any more than an answer may.
#: The longest tooltip a shortened header keeps: a tooltip is no place for an essay.
MAX_TOOLTIP_CHARS: Final = 200

#: Where a validation error is, as pydantic gives it: ``("questions", 0, "options")``.
Location = tuple[int | str, ...]


@dataclass(frozen=True)
class Plan:
    """Parsed arguments: what nbask asks, and what the reply needs to name each question."""

    question_set: QuestionSet
    #: Per question, the key the reply uses: the question text as the model wrote it, or its id.
    keys: tuple[str, ...]
    #: A time limit the arguments themselves carry (the 001 ``timeout_seconds``), else None.
    timeout: float | None = None
    #: How long the model is content to wait (Codex's ``autoResolutionMs``, in seconds), else
    #: None: it may shorten the caller's timeout, never lengthen it.
    wait_at_most: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# -- the raw arguments ------------------------------------------------------------------------


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


# -- validation, with errors as sentences -----------------------------------------------------


def renamed_key(index: int, question: object, spelling: str, ours: str) -> object:
    """``questions[index]`` with its ``spelling`` key renamed ``ours`` (a protocol's own spelling
    of one of nbask's fields, such as ``multiSelect``); giving both at once is an error.
    """
    if not isinstance(question, dict) or spelling not in question:
        return question
    if ours in question:
        raise ArgumentError(f"questions[{index}]: give {spelling} or {ours}, not both")
    return {(ours if key == spelling else key): value for key, value in question.items()}


def field_path(loc: Sequence[int | str]) -> str:
    """A validation error's location as the field's path: ``("questions", 0, "options")`` ->
    ``"questions[0].options"``; the empty location is ``"arguments"``.
    """
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "arguments"


def one_question_locator(options_field: str) -> Callable[[Location], str]:
    """The ``locate`` of a dialect that asks one question with its options in ``options_field``:
    nbask's ``questions[0].options[i]`` is that field's ``[i]``, ``questions[0].question`` is
    ``question``, anything else keeps nbask's path.
    """

    def locate(loc: Location) -> str:
        if loc[:3] == ("questions", 0, "options"):
            return field_path((options_field, *loc[3:4]))
        if loc[:3] == ("questions", 0, "question"):
            return "question"
        return field_path(loc)

    return locate


def problems_of(
    error: ValidationError,
    locate: Callable[[Location], str] = field_path,
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
    locate: Callable[[Location], str] = field_path,
    hints: Mapping[str, str] | None = None,
) -> Any:
    """``model.model_validate(data)``, with ArgumentError instead of ValidationError."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ArgumentError(*problems_of(error, locate, hints)) from None
    except RecursionError:
        raise ArgumentError("arguments: nested too deeply to read") from None


def validated_question_set(
    questions: list[dict[str, Any]],
    locate: Callable[[Location], str] = field_path,
    hints: Mapping[str, str] | None = None,
) -> QuestionSet:
    """The QuestionSet nbask asks (every limit of ``nbask.models``), errors named by ``locate``."""
    result: QuestionSet = validate(QuestionSet, {"questions": questions}, locate, hints)
    return result


# -- headers longer than the chip -------------------------------------------------------------


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
    (itself capped at ``MAX_TOOLTIP_CHARS``).
    """
    short = short_header(text)
    if short == text:
        return {"header": short}
    return {"header": short, "header_tooltip": text[:MAX_TOOLTIP_CHARS]}
