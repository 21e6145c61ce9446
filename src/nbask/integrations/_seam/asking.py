"""What an integration asks, said once: one request's typed Asking (``ask``), a call's approval
and the words around it (its title, its arguments as shown, its edit read back, what the model
reads when it does not run), the free reply to an agent, and text clipped to a limit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from ...contract import MAX_TITLE_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT, Request
from ...errors import ApprovalRejected, EditNotUsable
from ...kinds.approval.edit_check import json_type
from ...kinds.approval.request import approval_request
from ...kinds.form.request import form_request
from ...models import MAX_ACTION_CHARS, Decision, FormAnswer, Outcome, Risk
from ...tools.function import DO_NOT_RETRY, rejection_text
from .. import _bounded, _texts
from .driving import Asking

OutcomeT = TypeVar("OutcomeT", bound=Outcome)


def ask(request: Request[OutcomeT]) -> Asking[OutcomeT]:
    """The Asking of one request: yields it, returns its outcome, typed as the request's
    (``decision = yield from ask(approval(...))`` is a ``Decision``).
    """
    outcome: OutcomeT = yield request
    return outcome


def clip(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis where it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def call_title(name: str, suffix: str = "") -> str:
    """An approval's title for a call of tool ``name``: "Call <name>[ suffix]", the name
    shortened so the whole fits an approval's action.
    """
    tail = f" {suffix}" if suffix else ""
    room = MAX_ACTION_CHARS - len(f"Call {tail}")
    if len(name) > room:
        name = name[: room - 1] + "…"
    return f"Call {name}{tail}"


def hinted_risk(annotations: Mapping[str, Any] | None) -> Risk | None:
    """The risk a tool's own MCP behaviour hints declare (``ToolAnnotations``, as MCP servers,
    pydantic-ai's MCP toolsets and agno's ``@tool(annotations=...)`` carry them): "high" for a
    tool that says it may destroy (``destructiveHint``), "low" for one that only reads
    (``readOnlyHint``), None when it says neither. The protocol's defaults are not applied: a
    tool that declares nothing is not called destructive, so only what its authors wrote shows.
    """
    if not annotations:
        return None
    if annotations.get("readOnlyHint") is True:
        return "low"
    if annotations.get("destructiveHint") is True:
        return "high"
    return None


#: The approval request for one pending call: ``details`` shown (and editable), an edit checked
#: against ``schema`` (the call's JSON Schema of arguments) where there is one.
approval = approval_request


#: The reply form's one field.
REPLY = _texts.REPLY


def replying(question: str, source: str | None, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[FormAnswer]:
    """The Asking of a person's free reply to ``source`` (an agent): a form of one optional text
    field, "Your reply to <source>", under ``question`` shown as text. Rounds of one conversation
    are the same request for ``_bounded`` whatever the agent said: unattended, the second round
    of a reply no one gave stops the run.
    """
    title = (f"Your reply to {source}" if source else "Your reply")[:MAX_TITLE_CHARS]
    schema = {"type": "object", "properties": {REPLY: {"type": "string", "title": title}}}
    answer = yield _bounded.same_as(form_request(question, schema, timeout=timeout, source=source), title)
    assert isinstance(answer, FormAnswer)  # noqa: S101 - a form's outcome
    return answer


def arguments_text(arguments: object) -> str:
    """A call's arguments as the approval shows them: indented JSON, anything else as its repr."""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=repr)


def edited_arguments(decision: Decision) -> dict[str, Any]:
    """The arguments of an "edit" decision as a JSON object; raises EditNotUsable saying why not."""
    try:
        edited = json.loads(decision.edited or "")
    except json.JSONDecodeError as error:
        msg = f"the edited arguments are not valid JSON ({error})"
        raise EditNotUsable(msg) from None
    if not isinstance(edited, dict):
        msg = f"the edited arguments are a JSON {json_type(edited)}, not an object of argument names"
        raise EditNotUsable(msg)
    return edited


def not_run_text(decision: Decision, title: str, why: EditNotUsable | None = None) -> str:
    """What the model reads when the call titled ``title`` does not run: the person's (or the
    policy's) rejection and reason, or why their edit could not be used.
    """
    if why is not None:
        return f"Not approved: {title} did not run. The person edited its arguments, but {why}. {DO_NOT_RETRY}"
    return rejection_text(ApprovalRejected(decision, title))
