"""One call gated by LangChain's HumanInTheLoopMiddleware, as nbask asks about it (used by
nbask.integrations.langgraph): the approval it shows, and the tool's argument schema that a
per-call interrupt's ``response_schema`` carries in its edit branch.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..kinds import ApprovalRequest
from ..models import MAX_ACTION_CHARS, Approval

#: How many ``$ref`` hops are followed into ``$defs`` before giving up.
_MAX_HOPS = 8


@dataclass(frozen=True)
class Review:
    """One gated tool call: what is shown, the decisions the tool allows, and the JSON Schema of
    its arguments when the interrupt gave one (an edit that does not fit it is refused).
    """

    name: str
    args: dict[str, Any]
    allowed: tuple[str, ...]
    note: str
    tool_call_id: str | None
    args_schema: dict[str, Any] | None = None

    @property
    def title(self) -> str:
        return f"Call {self.name}"[:MAX_ACTION_CHARS]

    def request(self, timeout: float | None) -> ApprovalRequest:
        """The approval: the arguments as JSON (then the note); checked against ``args_schema``
        only when the details are exactly the arguments and an edit is allowed.
        """
        details = json_text(self.args) + (f"\n\n{self.note}" if self.note else "")
        schema = self.args_schema if not self.note and "edit" in self.allowed else None
        approval = Approval(action=self.title, details=details, details_schema=schema)
        return ApprovalRequest(approval=approval, timeout=timeout, tool_call_id=self.tool_call_id)


def json_text(value: object) -> str:
    """``value`` as pretty JSON, as approvals show it."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def edit_args_schema(response_schema: object) -> dict[str, Any] | None:
    """The JSON Schema of the tool's arguments in a per-call interrupt's ``response_schema``
    (its edit branch's ``edited_action.args``, with the root's ``$defs`` it refers to), or None
    when the schema has no edit branch.
    """
    if not isinstance(response_schema, Mapping):
        return None
    root = dict(response_schema)
    mapping = (root.get("discriminator") or {}).get("mapping")
    if isinstance(mapping, Mapping) and "edit" in mapping:
        branch = _resolved({"$ref": mapping["edit"]}, root)
    elif ((root.get("properties") or {}).get("type") or {}).get("const") == "edit":
        branch = root
    else:
        return None
    action = _resolved((branch.get("properties") or {}).get("edited_action"), root)
    args = (action.get("properties") or {}).get("args")
    if not isinstance(args, Mapping) or not args:
        return None
    defs = root.get("$defs")
    return {"$defs": defs, **args} if isinstance(defs, Mapping) else dict(args)


def _resolved(schema: object, root: Mapping[str, Any]) -> Mapping[str, Any]:
    for _ in range(_MAX_HOPS):
        ref = schema.get("$ref") if isinstance(schema, Mapping) else None
        if not (isinstance(ref, str) and ref.startswith("#/$defs/")):
            break
        schema = (root.get("$defs") or {}).get(ref.removeprefix("#/$defs/"))
    return schema if isinstance(schema, Mapping) else {}
