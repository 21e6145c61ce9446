"""A form's fields, as the front end renders them (``FormField`` in js/contract/contract.ts), and the
kernel's check of a reply against them: the front end checks too, but it is untrusted.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import urllib.parse
from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from ..contract import MAX_DETAILS_CHARS, MAX_FIELD_CHARS, MAX_FORM_FIELDS
from ..models import FieldValue, NonEmptyText, StrictModel

FieldType = Literal["string", "number", "integer", "boolean", "choice", "multi_choice"]
StringFormat = Literal["", "email", "uri", "date", "date-time"]

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class FieldOption(StrictModel):
    """One choice of a single or multi choice field: the value sent back, and its label."""

    value: str
    title: str


class FormField(StrictModel):
    """One field of a form, as the front end renders it (``FormField`` in js/contract/contract.ts)."""

    name: str
    title: str
    description: str = ""
    type: FieldType
    required: bool = False
    format: StringFormat = ""
    min_length: int | None = None
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None
    options: list[FieldOption] = Field(default_factory=list)
    default: FieldValue | None = None


class Form(StrictModel):
    """What a form request shows: the message and its fields, or (URL mode) a page to open."""

    message: NonEmptyText = Field(max_length=MAX_DETAILS_CHARS)
    fields: list[FormField] = Field(default_factory=list, max_length=MAX_FORM_FIELDS)
    #: Non-empty in URL mode: the page the person may choose to open (no fields then).
    url: str = Field(default="", max_length=MAX_FIELD_CHARS)


# -- checking values --------------------------------------------------------------------------


def _is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == []


def check_values(fields: list[FormField], raw: object) -> dict[str, FieldValue]:
    """The reply's values typed as the fields say; raises ValueError naming the field and rule.

    Blank optional fields are left out; unknown names are refused.
    """
    if not isinstance(raw, Mapping):
        msg = f"values must be an object mapping field names to values, got {type(raw).__name__}"
        raise ValueError(msg)  # noqa: TRY004 - a reply that breaks the contract, reported as a bad value
    by_name = {field.name: field for field in fields}
    for name in raw:
        if name not in by_name:
            msg = f"values: {str(name)[:80]!r} is not a field of this form"
            raise ValueError(msg)
    values: dict[str, FieldValue] = {}
    for field in fields:
        value = raw.get(field.name)
        if _is_blank(value) and field.type != "boolean":
            if field.required:
                msg = f"field {field.name!r} ({field.title}) is required"
                raise ValueError(msg)
            continue
        try:
            values[field.name] = check_value(field, value)
        except ValueError as error:
            msg = f"field {field.name!r} ({field.title}): {error}"
            raise ValueError(msg) from None
    return values


def check_value(field: FormField, value: object) -> FieldValue:  # noqa: C901, PLR0912 - one branch per type
    """``value`` typed as ``field`` says; raises ValueError with the rule it breaks."""
    if field.type == "string":
        if not isinstance(value, str):
            msg = f"must be text, got {type(value).__name__}"
            raise ValueError(msg)
        _check_length(field, value)
        _check_format(field.format, value)
        return value
    if field.type in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            msg = f"must be a number, got {value!r}"
            raise ValueError(msg)
        number: int | float = float(value)
        if field.type == "integer":
            if not float(value).is_integer():
                msg = f"must be a whole number, got {value!r}"
                raise ValueError(msg)
            number = int(value)
        if field.minimum is not None and number < field.minimum:
            msg = f"must be at least {field.minimum:g}, got {number:g}"
            raise ValueError(msg)
        if field.maximum is not None and number > field.maximum:
            msg = f"must be at most {field.maximum:g}, got {number:g}"
            raise ValueError(msg)
        return number
    if field.type == "boolean":
        if value is None:
            return False
        if not isinstance(value, bool):
            msg = f"must be true or false, got {value!r}"
            raise ValueError(msg)
        return value
    allowed = [option.value for option in field.options]
    if field.type == "choice":
        if value not in allowed:
            msg = f"must be one of the choices, got {str(value)[:80]!r}"
            raise ValueError(msg)
        return str(value)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        msg = "must be a list of choices"
        raise ValueError(msg)
    unknown = [item for item in value if item not in allowed]
    if unknown:
        msg = f"{unknown[0][:80]!r} is not one of the choices"
        raise ValueError(msg)
    if len(set(value)) != len(value):
        msg = "a choice is listed twice"
        raise ValueError(msg)
    if field.min_items is not None and len(value) < field.min_items:
        msg = f"choose at least {field.min_items}"
        raise ValueError(msg)
    if field.max_items is not None and len(value) > field.max_items:
        msg = f"choose at most {field.max_items}"
        raise ValueError(msg)
    return [option for option in allowed if option in value]


def _check_length(field: FormField, value: str) -> None:
    if field.min_length is not None and len(value) < field.min_length:
        msg = f"must be at least {field.min_length} characters"
        raise ValueError(msg)
    limit = field.max_length if field.max_length is not None else MAX_FIELD_CHARS
    if len(value) > limit:
        msg = f"must be at most {limit} characters"
        raise ValueError(msg)


def _check_format(fmt: str, value: str) -> None:
    if fmt == "email" and not _EMAIL.fullmatch(value):
        msg = f"must be an email address, got {value[:80]!r}"
        raise ValueError(msg)
    if fmt == "uri":
        parts = urllib.parse.urlsplit(value)
        if not parts.scheme or not (parts.netloc or parts.path) or " " in value:
            msg = f"must be a URI with a scheme (such as https://...), got {value[:80]!r}"
            raise ValueError(msg)
    if fmt == "date":
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            msg = f"must be a date as YYYY-MM-DD, got {value[:80]!r}"
            raise ValueError(msg) from None
    if fmt == "date-time":
        try:
            dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            msg = f"must be a date and time as YYYY-MM-DDTHH:MM, got {value[:80]!r}"
            raise ValueError(msg) from None


def defaults_of(fields: list[FormField]) -> tuple[dict[str, FieldValue], str | None]:
    """The schema's defaults as values, and the first required field without one (or None)."""
    values = {field.name: field.default for field in fields if field.default is not None}
    missing = next((field for field in fields if field.required and field.default is None), None)
    return values, None if missing is None else missing.name
