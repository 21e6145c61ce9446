"""LangChain's ``HumanInTheLoopMiddleware`` as nbask asks about it (used by
nbask.integrations.langgraph): one approval per gated tool call, and the middleware's decision for
the person's, only of a type the tool allows.

- A batched ``HITLRequest`` (``action_requests`` + ``review_configs``) resumes with
  ``{"decisions": [...]}``; a per-call ``ToolApprovalRequest`` (``type: "tool_approval"``) with one
  decision, its edit checked against the tool's argument schema from the interrupt's
  ``response_schema`` (the batched request carries none).
- Approve -> ``{"type": "approve"}``, edit -> ``{"type": "edit", "edited_action": ...}``, anything
  else -> ``{"type": "reject", "message": reason}`` (or ``respond`` where only that is allowed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...errors import ApprovalRejected
from ...kinds import ApprovalRequest
from ...models import Decision, Outcome
from .._seam import (
    Asking,
    EditNotUsable,
    approval,
    arguments_text,
    call_title,
    edited_arguments,
    not_run_text,
    together,
)

#: The middleware's own description prefix; a description made of it alone says nothing new.
DEFAULT_PREFIX = "Tool execution requires approval"
ALL_DECISIONS = ("approve", "edit", "reject", "respond")
NO_EDIT_NOTE = "Editing is not allowed for this call: approve it as it is, or reject it."
NO_APPROVE_NOTE = "This call cannot be approved here (allowed: {allowed}); reject it."
RESPOND_NOTE = "Reject with a reason to reply in the tool's place: the model reads your reason as the tool's result."
#: How many ``$ref`` hops are followed into ``$defs`` before giving up.
_MAX_HOPS = 8


def is_batch(value: object) -> bool:
    """Whether ``value`` is the middleware's batched request (a ``HITLRequest``)."""
    return isinstance(value, Mapping) and "action_requests" in value and "review_configs" in value


def is_per_call(value: object) -> bool:
    """Whether ``value`` is the middleware's per-call request (a ``ToolApprovalRequest``)."""
    return isinstance(value, Mapping) and value.get("type") == "tool_approval"


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
        return call_title(self.name)

    def request(self, timeout: float | None) -> ApprovalRequest:
        """The approval: the arguments as JSON (then the note); checked against ``args_schema``
        only when the details are exactly the arguments and an edit is allowed.
        """
        details = arguments_text(self.args) + (f"\n\n{self.note}" if self.note else "")
        schema = self.args_schema if not self.note and "edit" in self.allowed else None
        return approval(self.title, details, timeout=timeout, tool_call_id=self.tool_call_id, schema=schema)


def ask_batch(value: Mapping[str, Any], timeout: float | None) -> Asking[dict[str, Any]]:
    actions, configs = value.get("action_requests"), value.get("review_configs")
    if not isinstance(actions, list) or not isinstance(configs, list):
        raise TypeError("action_requests and review_configs: must both be lists (a HITLRequest)")
    allowed = {c.get("action_name"): c.get("allowed_decisions", ()) for c in configs if isinstance(c, Mapping)}
    reviews = []
    for index, action in enumerate(actions):
        name = action.get("name") if isinstance(action, Mapping) else None
        reviews.append(_review_of(action, allowed.get(name, ("approve", "reject")), f"action_requests[{index}]"))
    return _decide_each(reviews, timeout)


def _decide_each(reviews: list[Review], timeout: float | None) -> Asking[dict[str, Any]]:
    """The middleware's batch of action requests, shown together; the decisions in its order."""
    decisions = yield from together([_decide_one(review, timeout) for review in reviews])
    return {"decisions": decisions}


def ask_per_call(value: Mapping[str, Any], schema: object, timeout: float | None) -> Asking[dict[str, Any]]:
    call_id = value.get("tool_call_id")
    review = _review_of(value, _allowed_by(schema), "value", call_id if isinstance(call_id, str) else None)
    return _decide_one(replace(review, args_schema=edit_args_schema(schema)), timeout)


def _decide_one(review: Review, timeout: float | None) -> Asking[dict[str, Any]]:
    return _decide(review, (yield review.request(timeout)))


def _review_of(action: object, allowed: Sequence[str], where: str, tool_call_id: str | None = None) -> Review:
    if not isinstance(action, Mapping):
        raise TypeError(f"{where}: must be an object with name and args, got {type(action).__name__}")
    name, args = action.get("name"), action.get("args", {})
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}.name: must be the tool's name (non-empty text)")
    if not isinstance(args, Mapping):
        raise TypeError(f"{where}.args: must be an object of the call's arguments, got {type(args).__name__}")
    kept = tuple(d for d in allowed if d in ALL_DECISIONS)
    if not kept:
        raise ValueError(f"{where}: allowed_decisions must name some of {', '.join(ALL_DECISIONS)}")
    notes = [_description(action.get("description"), name, args)]
    if "edit" not in kept and "approve" in kept:
        notes.append(NO_EDIT_NOTE)
    if "edit" not in kept and "approve" not in kept:
        notes.append(NO_APPROVE_NOTE.format(allowed=", ".join(kept)))
    if "respond" in kept and "reject" not in kept:
        notes.append(RESPOND_NOTE)
    return Review(name, dict(args), kept, "\n".join(n for n in notes if n), tool_call_id)


def _description(description: object, name: str, args: object) -> str:
    """The middleware's description, without its default "Tool: .../Args: ..." repetition."""
    if not isinstance(description, str):
        return ""
    text = description.removesuffix(f"\n\nTool: {name}\nArgs: {args}").strip()
    return "" if text == DEFAULT_PREFIX else text


def _allowed_by(schema: object) -> tuple[str, ...]:
    """The decision types a per-call ``response_schema`` accepts (its ``type`` consts)."""
    if not isinstance(schema, Mapping):
        return ("approve", "reject")
    mapping = (schema.get("discriminator") or {}).get("mapping")
    if isinstance(mapping, Mapping):
        return tuple(mapping)
    const = ((schema.get("properties") or {}).get("type") or {}).get("const")
    return (const,) if isinstance(const, str) else ("approve", "reject")


def _decide(review: Review, outcome: Outcome) -> dict[str, Any]:
    """The middleware's Decision for the person's: only a type the tool allows."""
    assert isinstance(outcome, Decision)  # noqa: S101 - an approval's outcome
    if outcome.decision == "approve":
        if "approve" in review.allowed:
            return {"type": "approve"}
        if "edit" in review.allowed:
            return _edit(review, review.args)
        return _refuse(review, outcome, f"approving {review.name} is not allowed here; it did not run")
    if outcome.decision == "edit":
        if "edit" not in review.allowed:
            why = f"the person edited the arguments, but editing {review.name} is not allowed here; it did not run"
            return _refuse(review, outcome, why)
        return _edited(review, outcome)
    return _refuse(review, outcome, None)


def _edited(review: Review, outcome: Decision) -> dict[str, Any]:
    """The edit decision with the person's arguments, or the rejection saying why they are not usable."""
    try:
        edited = edited_arguments(outcome.model_copy(update={"edited": _without_note(outcome, review.note)}))
    except EditNotUsable as error:
        return _refuse(review, outcome, not_run_text(outcome, review.title, error))
    return _edit(review, edited)


def _without_note(outcome: Decision, note: str) -> str:
    """The edited details with the note shown below the arguments left out."""
    text = (outcome.edited or "").rstrip()
    return text[: -len(note)] if note and text.endswith(note) else text


def _edit(review: Review, args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "edit", "edited_action": {"name": review.name, "args": args}}


def _refuse(review: Review, outcome: Decision, why: str | None) -> dict[str, Any]:
    """A rejection as the tool allows it: reject, else respond, else ApprovalRejected."""
    if why is None and outcome.status == "answered" and outcome.decided_by == "person":
        message = outcome.reason.strip()  # the person's own words (the middleware words an empty one)
    else:
        message = why or not_run_text(outcome, review.title)
    if "reject" in review.allowed:
        return {"type": "reject", "message": message} if message else {"type": "reject"}
    if "respond" in review.allowed:
        return {"type": "respond", "message": message or f"The person did not approve {review.name}; it did not run."}
    reason = message or "rejected, and the tool allows no rejection, so the graph stays paused"
    raise ApprovalRejected(outcome.model_copy(update={"decision": "reject", "reason": reason}), review.title)


# -- the tool's argument schema in a per-call response_schema -----------------------------------


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
