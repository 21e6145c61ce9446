"""MCP elicitation answered in the cell: an MCP server that asks the person for values (form
mode) or to open a page (URL mode) gets the answer through nbask's form.

    async with mcp.Client(server, elicitation_callback=nbask.mcp.elicitation_callback) as client:
        await client.call_tool("deploy", {})

``elicitation_callback`` fits the MCP SDK's ``ClientSession`` / ``Client`` (and so Google ADK's
``McpToolset``); ``fastmcp_handler`` fits ``fastmcp.Client(elicitation_handler=)`` (and so
pydantic-ai's ``MCPToolset``). Requests that arrive as 2026-07-28 input-required rounds go
through the same callback.

Submit is "accept" with the typed values, Dismiss (or Decline) is "decline", a timeout or an
interrupt is "cancel". A schema outside the form subset is answered with an error naming the
property and the rule, and nothing is shown. When no one can be asked (no front end, the
``error`` policy, ``nbask.no_questions()``) the server hears MCP's own refusal, "decline",
and the refusal with nbask's reason is recorded in ``nbask.history()``; a replay miss raises
``nbask.ReplayMissing``, which the MCP client handles as any callback error (a legacy session
sends it to the server as an error response; a 2026-07-28 round stops the call on the client).
A replayed URL-mode request is declined: opening a page is never replayed. Needs the ``mcp``
package.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from mcp_types import INVALID_PARAMS, ElicitRequestURLParams, ElicitResult, ErrorData

from .forms import FormSchemaError
from .integrations import _bounded
from .integrations._seam import Asking, drive
from .kinds import FormRequest
from .kinds.form.request import form_request, url_request
from .models import FormAnswer
from .waiting import cancelled_by_interrupt

__all__ = ["elicitation_callback", "fastmcp_handler", "result_of"]

log = logging.getLogger(__name__)


def result_of(answer: FormAnswer) -> ElicitResult:
    """The MCP result for a form's outcome: accept carries the values, decline and cancel none."""
    if answer.action == "accept":
        return ElicitResult(action="accept", content=dict(answer.values))
    return ElicitResult(action=answer.action)


async def elicitation_callback(context: Any, params: Any) -> ElicitResult | ErrorData:
    """The MCP SDK's ``ElicitationFnT``: asks the person in the running cell, returns their answer."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    del context  # which request asks changes nothing about how the person is asked
    try:
        if isinstance(params, ElicitRequestURLParams) or getattr(params, "mode", "form") == "url":
            request = url_request(params.message, params.url)
        else:
            schema = getattr(params, "requested_schema", None) or getattr(params, "requestedSchema", None) or {}
            request = form_request(params.message, schema)
    except (FormSchemaError, ValueError) as error:
        # Refused before anything is shown: the server hears why, the cell carries on.
        log.warning("nbask: MCP elicitation refused: %s", error)
        return ErrorData(code=INVALID_PARAMS, message=f"nbask cannot show this elicitation: {error}")
    try:
        # drive shows it beside any request waiting: a 2026-07-28 round may carry several
        # elicitations, which the client dispatches concurrently; they are shown together. Each
        # is a run of its own: the server asks per tool call, and a loop of tool calls is the
        # client's framework's to bound, so a policy answers every one alike.
        with _bounded.one_run():
            return await drive(_eliciting(request))
    except KeyboardInterrupt:
        # The person stopped the wait: the server hears "cancel", as MCP asks of a dismissal
        # without a choice. The wait already marked the request cancelled.
        return ElicitResult(action="cancel")
    except asyncio.CancelledError:
        if not cancelled_by_interrupt():
            raise
        return ElicitResult(action="cancel")


def _eliciting(request: FormRequest) -> Asking[ElicitResult]:
    """The Asking of one elicitation: the form (or page) asked, its outcome as MCP's result."""
    answer = yield request
    if not isinstance(answer, FormAnswer):
        msg = f"an elicitation's outcome is a FormAnswer, got {type(answer).__name__}"
        raise TypeError(msg)
    if request.form.url:
        return ElicitResult(action=answer.action)  # URL mode: MCP omits the content
    return result_of(answer)


async def fastmcp_handler(message: str, response_type: Any, params: Any, context: Any) -> ElicitResult:
    """Fastmcp's ``ElicitationHandler`` (``fastmcp.Client(elicitation_handler=...)``,
    pydantic-ai's ``MCPToolset(elicitation_handler=...)``): the same as ``elicitation_callback``.

    A refused schema raises FormSchemaError, which fastmcp sends to the server as an error: an
    ErrorData returned to fastmcp would be taken for the accepted content.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    del message, response_type  # both are read from params, which carries the schema itself
    result = await elicitation_callback(context, params)
    if isinstance(result, ErrorData):
        raise FormSchemaError(result.message)
    return result
