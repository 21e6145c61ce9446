"""The wire contract shared with the front end, read from ``contract.json``.

``js/contract/contract.ts`` imports the same file, so statuses, fixed texts and limits cannot drift
apart between the kernel and the browser.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any, Final

_CONTRACT: Final[dict[str, Any]] = json.loads((pathlib.Path(__file__).parent / "contract.json").read_text("utf-8"))

#: The kinds of request the front end can render (every registered kind must be one).
KINDS: Final[tuple[str, ...]] = tuple(_CONTRACT["kinds"])
DECISIONS: Final[tuple[str, ...]] = tuple(_CONTRACT["decisions"])
#: How much is at stake in an approval (``approve(risk=...)``), and the tag the person sees.
APPROVAL_RISKS: Final[tuple[str, ...]] = tuple(_CONTRACT["approval_risks"])
RISK_TEXT: Final[dict[str, str]] = dict(_CONTRACT["risk_text"])
STATUS_TEXT: Final[dict[str, str]] = dict(_CONTRACT["status_text"])
DECISION_TEXT: Final[dict[str, str]] = dict(_CONTRACT["decision_text"])
#: The decision's text when an edit went back to the model instead of running.
EDIT_SENT_BACK_TEXT: Final[str] = _CONTRACT["edit_sent_back_text"]
NO_PREFERENCE: Final[str] = _CONTRACT["no_preference"]
ANSWER_SEPARATOR: Final[str] = _CONTRACT["answer_separator"]
RECOMMENDED: Final[re.Pattern[str]] = re.compile(_CONTRACT["recommended_suffix_pattern"], re.IGNORECASE)
MAX_HEADER_CHARS: Final[int] = _CONTRACT["max_header_chars"]
MAX_OTHER_CHARS: Final[int] = _CONTRACT["max_other_chars"]
#: A person's note on one question or on the whole set (as long as an Other answer may be).
MAX_NOTE_CHARS: Final[int] = _CONTRACT["max_note_chars"]
#: An option's preview (a snippet, a small table, a diff), shown as monospace text.
MAX_PREVIEW_CHARS: Final[int] = _CONTRACT["max_preview_chars"]
MAX_REASON_CHARS: Final[int] = _CONTRACT["max_reason_chars"]
MAX_DETAILS_CHARS: Final[int] = _CONTRACT["max_details_chars"]
#: The person's unsent draft as the front end syncs it, in characters of its JSON.
MAX_DRAFT_CHARS: Final[int] = _CONTRACT["max_draft_chars"]

FIELD_TYPES: Final[tuple[str, ...]] = tuple(_CONTRACT["field_types"])
STRING_FORMATS: Final[tuple[str, ...]] = tuple(_CONTRACT["string_formats"])
MAX_FORM_FIELDS: Final[int] = _CONTRACT["max_form_fields"]
MAX_FIELD_CHARS: Final[int] = _CONTRACT["max_field_chars"]
MAX_CHOICE_OPTIONS: Final[int] = _CONTRACT["max_choice_options"]
MAX_TITLE_CHARS: Final[int] = _CONTRACT["max_title_chars"]
MAX_DESCRIPTION_CHARS: Final[int] = _CONTRACT["max_description_chars"]
#: Who answered: a username longer than this, or one that names no one in particular (a host's
#: fixed default), is not recorded.
MAX_USERNAME_CHARS: Final[int] = _CONTRACT["max_username_chars"]
#: A request's ``source`` ("billing agent"), one line: longer is cut (the card's header names it).
MAX_SOURCE_CHARS: Final[int] = _CONTRACT["max_source_chars"]
GENERIC_USERNAMES: Final[frozenset[str]] = frozenset(_CONTRACT["generic_usernames"])


def is_recommended(label: str) -> bool:
    """A label ending in "(Recommended)" marks the option the model suggests."""
    # Most labels have no ")" at all: that answer needs no pattern (asked on every request).
    return ")" in label and bool(RECOMMENDED.search(label))


def agent_text(ending: str, **fill: Any) -> str:
    """The agent's wording of an ending (contract.json ``wording``), placeholders filled.

    The widget shows the person's wording of the same ending in its place.
    """
    text: str = _CONTRACT["wording"][ending]["agent"]
    return text.format(**fill) if fill else text
