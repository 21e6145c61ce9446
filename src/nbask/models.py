"""What may be asked and what comes back: the question schema, the approval payload,
and the two outcomes (``Answer`` for questions, ``Decision`` for approvals).

Every limit lives here, so bad input fails before anything reaches the screen, with
an error that names the field and the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticUndefined
from typing_extensions import Self

from .contract import (
    APPROVAL_RISKS,
    MAX_DETAILS_CHARS,
    MAX_HEADER_CHARS,
    MAX_PREVIEW_CHARS,
    NO_PREFERENCE,
    is_recommended,
)

__all__ = [
    "MAX_HEADER_CHARS",
    "NO_PREFERENCE",
    "Answer",
    "AnsweredBy",
    "Approval",
    "Decision",
    "FieldValue",
    "FormAnswer",
    "Option",
    "Outcome",
    "Question",
    "QuestionSet",
    "Risk",
    "Status",
    "Verification",
    "is_recommended",
]

#: The labels models typically give a free-text "Other" choice (casefolded; "khác" is Vietnamese,
#: as in the ask_user_question protocol). The UI adds its own such choice to every question, so an option labelled
#: like this would show it twice.
OTHER_LABELS = frozenset({"other", "other...", "other…", "something else", "custom", "khác", "khác..."})
MAX_ACTION_CHARS = 200

#: Text that must say something: surrounding whitespace stripped, then at least one character.
NonEmptyText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

Status = Literal["answered", "dismissed", "timeout", "cancelled"]
#: Who decided an outcome: a person (a click, a console prompt), a headless policy, or a recording.
AnsweredBy = Literal["person", "policy", "replay", "inbox"]
DecisionKind = Literal["approve", "edit", "reject"]
#: How who answered is known: stamped by nbask's Jupyter server extension from the server's
#: authenticated user (or the operating-system account at a terminal), said by the page, or not at all.
Verification = Literal["verified", "reported", "none"]
#: How much is at stake in an approval: the widget weighs its buttons and tags it by this.
Risk = Literal["low", "medium", "high"]
#: What an edit of an approval's details does (``Approval.edits``).
EditsMode = Literal["run", "sent_back", "off"]
#: A form field's value, typed as its schema says (see ``nbask.forms``).
FieldValue = str | int | float | bool | list[str]


class StrictModel(BaseModel):
    """A model of untrusted input: unknown keys are refused and text is stripped.

    Unknown keys are mistakes (a typo such as "multiselect" would otherwise be dropped
    silently and the question shown as single select).
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _is_empty(text: str) -> bool:
    return not text


def _is_none(value: object) -> bool:
    return value is None


def _is_false(value: object) -> bool:
    return value is False


def _unset_left_out(description: str, *, unset: bool | None = None) -> Any:
    """A field whose default is ``unset`` (None or False) and which dumps leave out while it is."""
    return Field(default=unset, exclude_if=_is_false if unset is False else _is_none, description=description)


class Option(StrictModel):
    """One choice of a question."""

    label: NonEmptyText = Field(description="Short choice text (1-5 words). End it with '(Recommended)' to suggest it.")
    description: str = Field(default="", description="What this choice means or implies.")
    # Kept as given (indentation matters in a snippet); shown as monospace text beside the
    # options while this one is focused or chosen. An option without one serialises without it.
    preview: Annotated[str, StringConstraints(strip_whitespace=False)] = Field(
        default="",
        max_length=MAX_PREVIEW_CHARS,
        exclude_if=_is_empty,
        description=(
            "Optional monospace text shown beside the options while this one is focused or chosen: "
            f"a code snippet, a small table, a diff (at most {MAX_PREVIEW_CHARS} characters)."
        ),
    )


class Question(StrictModel):
    """One question with 2-4 options; the UI always adds a free-text "Other" choice."""

    question: NonEmptyText = Field(description="The full question, ending with '?'.")
    header: str = Field(
        default="",
        max_length=MAX_HEADER_CHARS,
        description=f"Very short label shown as a chip (at most {MAX_HEADER_CHARS} characters), e.g. 'Auth'.",
    )
    options: list[Option] = Field(
        min_length=2,
        max_length=4,
        description="2-4 distinct choices. Do not add an 'Other' option: the UI adds one.",
    )
    multi_select: bool = Field(default=False, description="Allow choosing several options.")
    # Not part of what a model may send (left out of the JSON Schema): a tool dialect whose
    # own protocol allows longer headers shortens the chip and keeps the whole text here, for its tooltip.
    # Only dialect-shortened headers carry it; everything else serialises without it.
    header_tooltip: SkipJsonSchema[str] = Field(default="", max_length=MAX_ACTION_CHARS, exclude_if=_is_empty)

    @field_validator("options")
    @classmethod
    def _labels_are_distinct_and_not_other(cls, options: list[Option]) -> list[Option]:
        seen: set[str] = set()
        for option in options:
            if option.label.casefold() in OTHER_LABELS:
                msg = (
                    f"option label {option.label!r} is not allowed: the UI adds its own "
                    "free-text 'Other' choice, so leave it out"
                )
                raise ValueError(msg)
            if option.label in seen:
                msg = f"option labels must be unique within a question; {option.label!r} appears twice"
                raise ValueError(msg)
            seen.add(option.label)
        return options

    def recommended_label(self) -> str:
        """The option the model suggests ("(Recommended)"), else the first."""
        for option in self.options:  # a loop, not next(genexpr): asked on every unattended request
            if is_recommended(option.label):
                return option.label
        return self.options[0].label


class QuestionSet(StrictModel):
    """What one ask shows: 1-4 questions, keyed by their text in the answer."""

    questions: list[Question] = Field(min_length=1, max_length=4, description="1-4 questions to ask together.")

    @field_validator("questions")
    @classmethod
    def _question_texts_are_distinct(cls, questions: list[Question]) -> list[Question]:
        seen: set[str] = set()
        for question in questions:
            if question.question in seen:
                msg = (
                    "question texts must be unique within a set (they are the answer keys); "
                    f"{question.question!r} appears twice"
                )
                raise ValueError(msg)
            seen.add(question.question)
        return questions


def one_question_set(
    question: str,
    options: Sequence[str | Option | dict[str, Any]],
    *,
    header: str = "",
    multi_select: bool = False,
) -> QuestionSet:
    """The one-question shorthand of ``nbask.ask`` as a validated QuestionSet."""
    if isinstance(options, str):
        msg = "options must be a list of option labels, not a single string"
        raise TypeError(msg)
    normalised = [{"label": o} if isinstance(o, str) else o for o in options]
    return QuestionSet(
        questions=[Question(question=question, header=header, options=normalised, multi_select=multi_select)]
    )


class Approval(StrictModel):
    """What an approval shows: a proposed action and its details."""

    action: NonEmptyText = Field(
        max_length=MAX_ACTION_CHARS,
        description="Short title of the proposed action, e.g. 'Run shell command'.",
    )
    # Not stripped: leading indentation of a command or a JSON document is meaningful.
    details: Annotated[str, StringConstraints(strip_whitespace=False)] = Field(
        default="",
        max_length=MAX_DETAILS_CHARS,
        description="What exactly would run: the command, the tool arguments. Shown as monospace text.",
    )
    # Not part of what a model may send: the JSON Schema of the tool's arguments when the details
    # are those arguments as JSON (``@requires_approval``). An edit is checked against it; left
    # out of dumps when None, so history and replay of other approvals are unchanged.
    details_schema: SkipJsonSchema[dict[str, Any] | None] = Field(default=None, exclude_if=_is_none)
    # Left out of dumps when None (the default look), so records of other approvals are unchanged.
    risk: Risk | None = Field(
        default=None,
        exclude_if=_is_none,
        description="What is at stake: 'low', 'medium' or 'high' (a red Approve, never focused first).",
    )

    # Not part of what a model may send: what an edit of the details does. "run": the edited
    # action runs; "sent_back": the caller cannot run an edited call and sends the edit back to
    # the model as a request to try again (the card and the record say so, not "Approved with
    # edits"); "off": the caller takes only yes or no, so no Edit is offered and an edit is
    # refused rather than dropped. Left out of dumps when "run", so other records are unchanged.
    edits: SkipJsonSchema[EditsMode] = Field(default="run", exclude_if=lambda value: value == "run")

    @field_validator("risk", mode="before")
    @classmethod
    def _known_risk(cls, value: object) -> object:
        if value is not None and value not in APPROVAL_RISKS:
            allowed = ", ".join(repr(r) for r in APPROVAL_RISKS)
            msg = f"risk must be one of {allowed} or None, not {value!r}"
            raise ValueError(msg)
        return value


#: Per outcome model: every field in order with its default (None where it has none), the
#: fields without a default, and those whose default a factory makes (fresh for each outcome).
_Blank = tuple[dict[str, Any], frozenset[str], tuple[tuple[str, Callable[[], Any]], ...]]
_BLANKS: dict[type[BaseModel], _Blank] = {}
_set = object.__setattr__  # a model's own __setattr__ refuses its internal slots


def _blank_of(model: type[BaseModel]) -> _Blank:
    known = _BLANKS.get(model)
    if known is not None:
        return known
    fields = model.model_fields
    values = {name: None if info.default is PydanticUndefined else info.default for name, info in fields.items()}
    required = frozenset(name for name, info in fields.items() if info.is_required())
    factories = tuple((name, info.default_factory) for name, info in fields.items() if info.default_factory)
    blank: _Blank = (values, required, factories)  # type: ignore[assignment] # a factory here takes no arguments
    _BLANKS[model] = blank
    return blank


class RefusedAnswer(BaseModel):
    """An answer that was not allowed to resolve its request: who sent it, how that is known, why."""

    model_config = ConfigDict(extra="forbid")

    user: str | None
    identity: Verification
    reason: str
    at: float


class Outcome(BaseModel):
    """What every outcome carries: how it ended, for which request, when, and who decided."""

    model_config = ConfigDict(extra="forbid")

    status: Status
    request_id: str
    tool_call_id: str | None = None
    asked_at: float = Field(description="Unix time the request was shown.")
    resolved_at: float = Field(description="Unix time the interaction ended.")
    answered_by: AnsweredBy = Field(
        default="person",
        description="Who decided: person, policy, replay, or inbox (answered later, from the inbox).",
    )
    # Left out of dumps when unset, so records of outcomes without them stay as they were.
    answered_by_user: str | None = _unset_left_out(
        "The username of the person who answered, where the front end names one (shared notebooks)."
    )
    identity: Verification | None = _unset_left_out(
        "How answered_by_user is known: 'verified' (Jupyter server or terminal account), 'reported', 'none'."
    )
    refused: list[RefusedAnswer] | None = _unset_left_out("Answers that were not allowed to resolve it (approvers).")
    recorded_by: AnsweredBy | None = _unset_left_out(
        "For a replayed outcome, or one from the inbox (answered_by 'replay', 'inbox'): who decided it."
    )
    late: bool = _unset_left_out(
        "An answer given after the request had timed out: the call had already returned 'timeout'.", unset=False
    )
    timed_out_at: float | None = _unset_left_out(
        "Unix time the request timed out, for a late answer (resolved_at is when it was answered)."
    )
    batch_id: str | None = _unset_left_out(
        "Shared by requests shown together (asked with queue=True while others waited)."
    )

    @classmethod
    def built(cls, fields: dict[str, Any]) -> Self:
        """The outcome of ``fields``, values nbask has already checked (the validated question,
        the person's parsed reply, the request's ids): pydantic's ``model_construct`` without its
        loop over every field, for an outcome built on every request. ``fields`` must name every
        field without a default, and nothing else.
        """
        blank, required, factories = _blank_of(cls)
        values = {**blank, **fields}
        if not fields.keys() >= required or len(values) != len(blank):
            missing = sorted(required - fields.keys())
            msg = f"{cls.__name__} needs {missing}, knows no {sorted(fields.keys() - blank.keys())}"
            raise TypeError(msg)
        for name, factory in factories:
            if name not in fields:
                values[name] = factory()
        outcome = object.__new__(cls)  # what model_construct does, as pydantic defines these slots
        _set(outcome, "__dict__", values)
        _set(outcome, "__pydantic_fields_set__", set(fields))
        _set(outcome, "__pydantic_extra__", None)
        _set(outcome, "__pydantic_private__", None)
        return outcome

    @property
    def decided_by(self) -> AnsweredBy:
        """Who decided, as the model is told: a replayed outcome, or one answered in the inbox,
        reads as it did when it was decided.
        """
        if self.answered_by in ("replay", "inbox") and self.recorded_by is not None:
            return self.recorded_by
        return self.answered_by

    def replayed_from(self, recorded: Outcome) -> Self:
        """A copy of this replayed outcome that carries who decided ``recorded`` in the recording."""
        who = recorded.recorded_by or recorded.answered_by
        return self.model_copy(
            update={"recorded_by": who, "answered_by_user": recorded.answered_by_user, "identity": recorded.identity}
        )

    @property
    def seconds_waited(self) -> float:
        return max(0.0, self.resolved_at - self.asked_at)


class Answer(Outcome):
    """The outcome of a question: the answers keyed by question text."""

    answers: dict[str, str] = Field(default_factory=dict, description="Question text -> answer text.")
    selections: dict[str, list[str]] = Field(default_factory=dict, description="Question text -> chosen values.")
    notes: dict[str, str] = Field(
        default_factory=dict, description="Question text -> the person's note on it (only questions with one)."
    )
    #: The person's note on the whole set, then what nbask says about the outcome (questions left
    #: without an answer, why there is no answer), separated by a blank line.
    note: str = ""


class Decision(Outcome):
    """The outcome of an approval. Anything but an explicit approval is a rejection."""

    decision: DecisionKind
    edited: str | None = Field(default=None, description="The edited details, when decision is 'edit'.")
    reason: str = Field(default="", description="The person's reason, or why the request ended without one.")

    @property
    def approved(self) -> bool:
        """True for "approve" and "edit": the action may go ahead."""
        return self.decision != "reject"


class FormAnswer(Outcome):
    """The outcome of a form: the values typed as the schema says, keyed by field name.

    ``action`` is what an MCP server hears: accept (answered), decline (dismissed) or cancel.
    """

    # pydantic's "smart" union keeps each value's exact type: an int stays int, a bool bool.
    values: dict[str, FieldValue] = Field(
        default_factory=dict, description="Field name -> value (blank optional fields left out)."
    )
    note: str = ""
    #: The validated model instance, when the form was asked with a pydantic model class.
    data: SkipJsonSchema[Any] = Field(default=None, exclude=True)

    @property
    def action(self) -> Literal["accept", "decline", "cancel"]:
        if self.status == "answered":
            return "accept"
        return "decline" if self.status == "dismissed" else "cancel"
