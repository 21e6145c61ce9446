"""Parse what a front end sends (the ``response`` trait) into typed replies.

The payload is untrusted: any front end, or any code holding the comm, can write it. This
module only checks its shape against the request (see js/contract/contract.ts, ``QuestionResponse`` and
``ApprovalResponse``); deciding the outcome is the request's job (``lifecycle``).
"""

from __future__ import annotations

import functools
import getpass
import re
from dataclasses import dataclass
from typing import Any, Literal

from .contract import (
    GENERIC_USERNAMES,
    MAX_DETAILS_CHARS,
    MAX_NOTE_CHARS,
    MAX_OTHER_CHARS,
    MAX_REASON_CHARS,
    MAX_USERNAME_CHARS,
)
from .errors import MalformedResponse
from .identity import Stamp
from .models import Approval, Question, QuestionSet, Verification


@dataclass(frozen=True)
class QuestionReply:
    """The person's reply to one question: chosen labels (option order), the Other text, and
    their note on it ("" for none).
    """

    selected: tuple[str, ...]
    other: str | None
    note: str = ""


@dataclass(frozen=True)
class QuestionResponse:
    """A submit (one reply per question, in order, and a note on the whole set) or a dismiss."""

    action: Literal["submit", "dismiss"]
    replies: tuple[QuestionReply, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class ApprovalResponse:
    """Approve (with the edited details, if the person edited them), reject, or dismiss."""

    action: Literal["approve", "reject", "dismiss"]
    edited_details: str | None = None
    reason: str = ""


def is_response(raw: object) -> bool:
    """True once a front end has written something to answer with (``{}`` means nothing yet)."""
    return isinstance(raw, dict) and bool(raw.get("action"))


def username(value: object) -> str | None:
    """A username worth recording, or None: text, trimmed, at most MAX_USERNAME_CHARS, and not a
    name that every person of a host shares (``GENERIC_USERNAMES``, compared casefolded).
    """
    if not isinstance(value, str):
        return None
    name = value.strip()
    if len(name) > MAX_USERNAME_CHARS or name.casefold() in GENERIC_USERNAMES:
        return None
    return name


#: An identity jupyter_server makes up for a browser under a shared-token login: a random hex
#: username, shown as "Anonymous <a moon of Jupyter>". A new one each browser session, so it
#: names no one in a record read the next day.
_MADE_UP = re.compile(r"Anonymous [A-Z][a-z]+|[0-9a-f]{32}")


@functools.cache
def account_name() -> str | None:
    """The login name of the account this kernel runs as (None where the system has none)."""
    try:
        return username(getpass.getuser())
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER (some containers)
        return None


def answering_user(header_username: object, raw: dict[str, Any]) -> str | None:
    """Who sent ``raw``: the username in the message's header where the front end put one there,
    else the ``user`` the front end read from its Jupyter server's identity; None when neither
    names someone. An identity the server made up for a token login is recorded as the account
    the kernel runs as (the same account served the page): the same name every session.
    """
    name = username(header_username) or username(raw.get("user"))
    return account_name() if name is not None and _MADE_UP.fullmatch(name) else name


def sender(header_username: object, stamp: Stamp | None, raw: dict[str, Any]) -> tuple[str | None, Verification]:
    """Who sent ``raw`` and how that is known: the user the Jupyter server stamped the message
    with ("verified"), else the name the page gave ("reported"), else no one ("none").
    """
    if stamp is not None:
        name = answering_user(stamp.username, {})
        return name, "verified" if name is not None else "none"
    name = answering_user(header_username, raw)
    return name, "reported" if name is not None else "none"


def parse_question_response(raw: dict[str, Any], question_set: QuestionSet) -> QuestionResponse:
    """Check a question's response; raises MalformedResponse naming the field and the rule."""
    action = raw.get("action")
    if action == "dismiss":
        return QuestionResponse(action="dismiss")
    if action != "submit":
        msg = f"response.action must be 'submit' or 'dismiss', got {action!r}"
        raise MalformedResponse(msg)
    entries = raw.get("answers")
    if not isinstance(entries, list) or len(entries) != len(question_set.questions):
        msg = "response.answers must be a list with one entry per question"
        raise MalformedResponse(msg)
    replies = (
        _parse_reply(f"response.answers[{index}]", question, entry)
        for index, (question, entry) in enumerate(zip(question_set.questions, entries, strict=True))
    )
    return QuestionResponse(action="submit", replies=tuple(replies), note=_parse_note("response.note", raw.get("note")))


def _parse_reply(where: str, question: Question, entry: object) -> QuestionReply:
    if not isinstance(entry, dict):
        msg = f"{where} must be an object with 'selected' and 'other'"
        raise MalformedResponse(msg)
    selected = entry.get("selected", [])
    if not isinstance(selected, list) or not all(isinstance(label, str) for label in selected):
        msg = f"{where}.selected must be a list of option labels"
        raise MalformedResponse(msg)
    labels = [option.label for option in question.options]
    unknown = [label for label in selected if label not in labels]
    if unknown:
        msg = f"{where}.selected names options the question does not have: {unknown!r}"
        raise MalformedResponse(msg)
    if len(set(selected)) != len(selected):
        msg = f"{where}.selected names an option twice"
        raise MalformedResponse(msg)
    other = _parse_other(where, entry.get("other"))
    if not question.multi_select and len(selected) + (other is not None) > 1:
        msg = f"{where}: a single-select question takes one choice (an option or the Other text)"
        raise MalformedResponse(msg)
    note = _parse_note(f"{where}.note", entry.get("note"))
    return QuestionReply(selected=tuple(label for label in labels if label in selected), other=other, note=note)


def _capped_text(where: str, value: object, limit: int) -> str:
    """Trimmed text ("" when left out or null); not text, or longer than ``limit``, is malformed."""
    if value is None:
        return ""
    if not isinstance(value, str):
        msg = f"{where} must be text or null"
        raise MalformedResponse(msg)
    text = value.strip()
    if len(text) > limit:
        msg = f"{where} is {len(text)} characters; the limit is {limit}"
        raise MalformedResponse(msg)
    return text


def _parse_other(where: str, other: object) -> str | None:
    """The trimmed Other text, or None when empty."""
    return _capped_text(f"{where}.other", other, MAX_OTHER_CHARS) or None


def _parse_note(where: str, note: object) -> str:
    """The trimmed note ("" when left out, null or blank); a front end without notes sends none."""
    return _capped_text(where, note, MAX_NOTE_CHARS)


def parse_approval_response(raw: dict[str, Any], approval: Approval) -> ApprovalResponse:
    """Check an approval's response; raises MalformedResponse naming the field and the rule."""
    del approval  # every approval takes the same reply; the parameter keeps the parsers alike
    action = raw.get("action")
    if action not in ("approve", "reject", "dismiss"):
        msg = f"response.action must be 'approve', 'reject' or 'dismiss', got {action!r}"
        raise MalformedResponse(msg)
    edited = raw.get("edited_details")
    if edited is not None and not isinstance(edited, str):
        msg = "response.edited_details must be text or null"
        raise MalformedResponse(msg)
    if edited is not None and len(edited) > MAX_DETAILS_CHARS:
        msg = f"response.edited_details is {len(edited)} characters; the limit is {MAX_DETAILS_CHARS}"
        raise MalformedResponse(msg)
    reason = raw.get("reason") or ""
    if not isinstance(reason, str):
        msg = "response.reason must be text"
        raise MalformedResponse(msg)
    reason = reason.strip()
    if len(reason) > MAX_REASON_CHARS:
        msg = f"response.reason is {len(reason)} characters; the limit is {MAX_REASON_CHARS}"
        raise MalformedResponse(msg)
    return ApprovalResponse(action=action, edited_details=edited, reason=reason)
