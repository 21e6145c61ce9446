"""A request's row: the columns the inbox keeps of an ``InboxItem``, and an item to a row and back
(what was asked and the outcome as JSON text, the identity beside them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from ..core.history import json_text
from ..errors import InboxError
from ..kinds import kind_named
from .schema import TABLE
from .store import InboxItem, identity

#: The columns of a request's row, in the order every query reads them.
COLUMNS: Final = (
    "id",
    "kind",
    "asked",
    "identity",
    "request_id",
    "batch_id",
    "notebook",
    "cell_id",
    "run_id",
    "tool_call_id",
    "workdir",
    "asked_at",
    "expires_at",
    "status",
    "answered_by",
    "answered_at",
    "outcome",
    "approvers",
)
#: The statements that read and add a row.
SELECT: Final = f"SELECT {', '.join(COLUMNS)} FROM {TABLE}"  # noqa: S608 - constant names
INSERT: Final = f"INSERT INTO {TABLE} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"  # noqa: S608


def row_of(item: InboxItem) -> tuple[Any, ...]:
    """``item`` as the values of its row, in ``COLUMNS`` order."""
    values = {
        **{column: getattr(item, column, None) for column in COLUMNS},
        "asked": json.dumps(item.asked, ensure_ascii=False),
        "identity": identity(item.kind, item.asked),
        "outcome": None if item.outcome is None else json_text(item.outcome),
        "approvers": None if item.approvers is None else json.dumps(list(item.approvers), ensure_ascii=False),
    }
    return tuple(values[column] for column in COLUMNS)


def item_of(row: Sequence[Any], store: str) -> InboxItem:
    """The item a row of ``COLUMNS`` holds (``store`` names the store in the error of a damaged one)."""
    values = dict(zip(COLUMNS, row, strict=True))
    del values["identity"]
    kind, text = values["kind"], values.pop("outcome")
    part = "what was asked"
    try:
        values["asked"] = json.loads(values["asked"])
        part = "who may answer it"
        values["approvers"] = None if values["approvers"] is None else tuple(json.loads(values["approvers"]))
        part = "its outcome"
        known = kind_named(kind)
        outcome = known.outcome_type.model_validate_json(text) if known is not None and text else None
    except ValueError:
        # Not the parser's words: they quote the record, and a message never shows what was asked.
        msg = f"the inbox {store} holds a damaged record of request {values['id']}: {part} cannot be read"
        raise InboxError(msg, store=store) from None
    return InboxItem(**values, outcome=outcome)
