"""Semantic Kernel's own human-in-the-loop answered in the cell: an auto function invocation
filter that asks before a function the model called runs, and the ``human_response_function`` of
SK's orchestrations.

    kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, nbask.integrations.semantic_kernel.approval_filter)
    # an agent: agent.kernel.add_filter(...); another time limit, or only some functions:
    kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, approval_filter_with(timeout=60, tools=["Files"]))

``approval_filter_with`` and ``human_response_function_with`` take ``timeout=`` and
``approvers=`` (who alone may answer what they ask).

- The filter: each call SK is about to run (``FunctionChoiceBehavior.Auto()``, a
  ``ChatCompletionAgent``'s default) is an approval titled "Call <plugin-function>", its details
  the call's arguments as JSON, an edit checked against the function's parameters (the JSON
  Schema SK gives the model: names, types, required ones, nothing else). Approve -> the filter
  calls ``next(context)`` and the function runs; Edit -> ``context.arguments`` holds the edited
  arguments, then it runs; Reject (and a dismissal, a timeout, a headless policy, no one to ask)
  -> ``context.function_result`` is the text the model reads (who decided, and why), and the
  function never runs. An edit that is not a JSON object of its parameters is a rejection saying
  so. ``tools=`` names the functions asked about (``"Plugin-function"``, ``"Plugin"`` or
  ``"function"``) or is a predicate of the ``KernelFunction``; the others run unasked, as do the
  ``Handoff`` plugin's functions a ``HandoffOrchestration`` adds (SK's own control flow).
- Parallel calls: SK runs a model message's calls concurrently (``asyncio.gather``), each
  through the filter. Their approvals are one nbask batch, shown together and answered in any
  order; each call then runs (or not) on its own.
- ``human_response_function``: for ``GroupChatManager(human_response_function=...)`` (SK hands it
  the chat history) and ``HandoffOrchestration(human_response_function=...)`` (SK hands it
  nothing; nbask reads the agent's response the handoff actor holds). The agent's last message is
  shown as text in a one-field text form, "Your reply to <agent>", which may be left blank; the
  reply comes back as ``ChatMessageContent(role=USER)``. Not a person's reply (dismissed, timed
  out, a policy, no one to ask): the user message says the person did not reply, and why.

A replay miss raises ``nbask.ReplayMissing`` (out of the agent's call, or the orchestration's
``result.get()``); a kernel interrupt while nbask waits raises ``Interrupted`` there, the waiting
calls never run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ... import errors
from ...contract import MAX_DETAILS_CHARS
from ...core.lifecycle import DEFAULT_TIMEOUT
from ...identity import checked_approvers
from ...kinds.approval.edit_check import edit_problems
from ...models import Decision, FormAnswer
from ...tools.function import DO_NOT_RETRY
from .. import _seam, _texts
from . import _compat

if TYPE_CHECKING:
    from semantic_kernel.contents import ChatHistory, ChatMessageContent
    from semantic_kernel.filters import AutoFunctionInvocationContext
    from semantic_kernel.functions import KernelFunction

__all__ = [
    "INTERRUPTED",
    "REPLY",
    "Interrupted",
    "approval_filter",
    "approval_filter_with",
    "human_response_function",
    "human_response_function_with",
]

T = TypeVar("T")

Next = Callable[["AutoFunctionInvocationContext"], Awaitable[None]]
Filter = Callable[["AutoFunctionInvocationContext", Next], Awaitable[None]]
HumanResponse = Callable[..., Awaitable["ChatMessageContent"]]
Functions = Collection[str] | Callable[["KernelFunction"], bool] | None

#: The text form's one field.
REPLY: Final = _texts.REPLY
#: Why a run stopped on a kernel interrupt.
INTERRUPTED: Final = _texts.INTERRUPTED
#: The plugin SK's HandoffOrchestration adds (transfer_to_<agent>, complete_task): never asked.
HANDOFF_PLUGIN: Final = "Handoff"


class Interrupted(errors.Interrupted):
    """A kernel interrupt while nbask waited for the person: the agent's run (or the
    orchestration's result) ends with it.
    """


# -- the auto function invocation filter -------------------------------------------------------


async def approval_filter(context: AutoFunctionInvocationContext, next: Next) -> None:  # noqa: A002 - SK's name
    """An auto function invocation filter asking before each call runs. See the module docstring."""
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    await _filtered(context, next, DEFAULT_TIMEOUT, None)


def approval_filter_with(
    *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None, tools: Functions = None
) -> Filter:
    """An ``approval_filter`` that waits ``timeout`` seconds for each decision (None: no limit),
    which only ``approvers`` may give when named, and asks only about ``tools`` (names, or a
    predicate; None: every function).
    """
    checked = checked_approvers(approvers)

    async def approval_filter(context: AutoFunctionInvocationContext, next: Next) -> None:  # noqa: A002
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with _seam.answerable_by(checked):
            await _filtered(context, next, timeout, tools)

    return approval_filter


async def _filtered(
    context: AutoFunctionInvocationContext,
    next: Next,  # noqa: A002 - SK's name
    timeout: float | None,
    functions: Functions,
) -> None:
    if not _asks(context.function, functions):
        await next(context)
        return
    verdict = await _Batch.decided(context, timeout)
    if verdict.not_run is not None:
        from semantic_kernel.functions import FunctionResult  # noqa: PLC0415 - SK only where it runs

        context.function_result = FunctionResult(function=context.function.metadata, value=verdict.not_run)
        return
    if verdict.arguments is not None:
        for name in _called(context):
            del context.arguments[name]
        context.arguments.update(verdict.arguments)
    await next(context)


def _asks(function: KernelFunction, functions: Functions) -> bool:
    if function.plugin_name == HANDOFF_PLUGIN:
        return False
    if functions is None:
        return True
    if callable(functions):
        return bool(functions(function))
    return bool({function.fully_qualified_name, function.name, function.plugin_name} & set(functions))


def _parameters(context: AutoFunctionInvocationContext) -> list[Any]:
    return [p for p in context.function.parameters if p.include_in_function_choices and p.name]


def _called(context: AutoFunctionInvocationContext) -> dict[str, Any]:
    """The call's arguments: the function's parameters the model gave (as SK parsed them)."""
    return {p.name: context.arguments[p.name] for p in _parameters(context) if p.name in context.arguments}


def _schema(context: AutoFunctionInvocationContext) -> dict[str, Any]:
    """The JSON Schema of the function's parameters, as SK shows it to the model; no others."""
    parameters = _parameters(context)
    return {
        "type": "object",
        "properties": {p.name: dict(p.schema_data or {}) for p in parameters},
        "required": [p.name for p in parameters if p.is_required],
        "additionalProperties": False,
    }


class _Verdict:
    """What one call does: run (with ``arguments`` when edited), or not, the model reading ``not_run``."""

    def __init__(self, *, arguments: dict[str, Any] | None = None, not_run: str | None = None) -> None:
        self.arguments, self.not_run = arguments, not_run


def _deciding(context: AutoFunctionInvocationContext, timeout: float | None) -> _seam.Asking[_Verdict]:
    """One call's Asking: its approval, and what the decision means for the call."""
    title = _seam.call_title(context.function.fully_qualified_name)
    schema = _schema(context)
    call = context.function_call_content
    try:
        request = _seam.approval(
            title,
            _seam.arguments_text(_called(context)),
            timeout=timeout,
            tool_call_id=call.id if call is not None else None,
            schema=schema,
        )
    except ValueError as error:  # it cannot be shown (e.g. arguments over the size limit)
        why = f"Not approved: {title} did not run, because it could not be shown for approval: {error}"
        return _Verdict(not_run=f"{why} {DO_NOT_RETRY}")
    decision = yield request
    assert isinstance(decision, Decision)  # noqa: S101 - an approval's outcome
    if decision.decision == "reject":
        return _Verdict(not_run=_seam.not_run_text(decision, title))
    if decision.decision == "edit" and decision.edited is not None:
        try:
            edited = _seam.edited_arguments(decision)
            problems = edit_problems(decision.edited, schema)
            if problems:
                raise _seam.EditNotUsable(_unfit(context.function.fully_qualified_name, problems))  # noqa: TRY301
        except _seam.EditNotUsable as why:
            return _Verdict(not_run=_seam.not_run_text(decision, title, why))
        return _Verdict(arguments=edited)
    return _Verdict()


def _unfit(name: str, problems: list[str]) -> str:
    return f"they do not fit the parameters of {name}: {'; '.join(problems)}"


class _Batch:
    """The calls of one model message that reach the filter together (SK gathers them), asked as
    one nbask batch: the first to arrive asks, once the others have arrived.
    """

    _open: dict[tuple[int, int, int], _Batch] = {}  # noqa: RUF012 - shared by design: one per gather

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.members: list[tuple[AutoFunctionInvocationContext, asyncio.Future[_Verdict]]] = []

    @classmethod
    async def decided(cls, context: AutoFunctionInvocationContext, timeout: float | None) -> _Verdict:
        loop = asyncio.get_running_loop()
        key = (id(loop), id(context.chat_history or context), context.request_sequence_index)
        batch = cls._open.get(key)
        future: asyncio.Future[_Verdict] = loop.create_future()
        if batch is not None:  # another call of the same message asks: wait for its answer
            batch.members.append((context, future))
            return await future
        batch = cls._open[key] = _Batch(context.function_count)
        batch.members.append((context, future))
        try:
            await batch._gathered()
        finally:
            del cls._open[key]
        await batch._ask(timeout)
        return future.result()

    async def _gathered(self) -> None:
        """Let the other calls of the message reach the filter: SK started them all at once, so
        they arrive within a turn of the loop; a call SK refused before the filter never does.
        """
        seen = 0
        while len(self.members) < self.expected and len(self.members) != seen:
            seen = len(self.members)
            await asyncio.sleep(0)

    async def _ask(self, timeout: float | None) -> None:
        futures = [future for _, future in self.members]
        try:
            askings = [_deciding(context, timeout) for context, _ in self.members]
            verdicts = await _asked(_seam.together(askings) if len(askings) > 1 else _one(askings[0]))
        except BaseException as error:
            for future in futures[1:]:
                if isinstance(error, Exception):
                    future.set_exception(error)
                else:
                    future.cancel()
            raise
        for future, verdict in zip(futures, verdicts, strict=True):
            future.set_result(verdict)


def _one(asking: _seam.Asking[T]) -> _seam.Asking[list[T]]:
    return [(yield from asking)]


async def _asked(asking: _seam.Asking[T]) -> T:
    """``drive(asking)``; a kernel interrupt raises ``Interrupted``, which SK ends the run with
    (a bare CancelledError in a task SK gathers would read as a cancellation of that task only).
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _seam.drive_or_raise(asking, lambda: Interrupted(INTERRUPTED))


# -- human_response_function of the orchestrations -------------------------------------------------


async def human_response_function(chat_history: ChatHistory | None = None) -> ChatMessageContent:
    """The ``human_response_function`` of SK's orchestrations: the agent's last message asked as
    a text form; the person's reply as a user message. See the module docstring.
    """
    __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
    return await _respond(chat_history, DEFAULT_TIMEOUT)


def human_response_function_with(
    *, timeout: float | None = DEFAULT_TIMEOUT, approvers: Sequence[str] | None = None
) -> HumanResponse:
    """A ``human_response_function`` that waits ``timeout`` seconds for each reply (None: no
    limit), which only ``approvers`` may give when named.
    """
    checked = checked_approvers(approvers)

    async def human_response_function(chat_history: ChatHistory | None = None) -> ChatMessageContent:
        __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
        with _seam.answerable_by(checked):
            return await _respond(chat_history, timeout)

    return human_response_function


async def _respond(chat_history: ChatHistory | None, timeout: float | None) -> ChatMessageContent:
    from semantic_kernel.contents import ChatMessageContent  # noqa: PLC0415 - SK only where it runs
    from semantic_kernel.contents.utils.author_role import AuthorRole  # noqa: PLC0415

    actor, said = _handoff_asking() if chat_history is None else (None, _last_said(chat_history.messages))
    try:
        answer = await _asked(_seam.replying(*(said or ("The agent asks for your reply.", None)), timeout=timeout))
    except BaseException as error:
        if actor is not None:  # SK's handoff actor does not report a failure here: the result would never come
            _compat.end_orchestration(actor, error)
        raise
    return ChatMessageContent(
        role=AuthorRole.USER, content=_reply_text(answer), metadata={"answered_by": answer.answered_by}
    )


def _handoff_asking() -> tuple[Any, tuple[str, str | None] | None]:
    """(the HandoffAgentActor calling, what its agent said last): SK calls a handoff's
    ``human_response_function`` with nothing, right after publishing the agent's response.
    """
    actor, response = _compat.handoff_asking()
    return actor, _last_said([response] if response is not None else []) if actor is not None else None


def _last_said(messages: Collection[Any]) -> tuple[str, str | None] | None:
    """(the last message with text, its author's name) of ``messages``; None without one."""
    for message in reversed(list(messages)):
        text = str(getattr(message, "content", "") or "").strip()
        if text:
            if len(text) > MAX_DETAILS_CHARS:  # the question is at the end of a long message: keep the end
                text = "…" + text[-(MAX_DETAILS_CHARS - 1) :]
            return text, getattr(message, "name", None) or None
    return None


def _reply_text(answer: FormAnswer) -> str:
    """The person's reply as typed; otherwise a reply saying they did not, and why."""
    if answer.status == "answered" and answer.answered_by != "policy":
        return str(answer.values.get(REPLY, ""))
    why = answer.note.strip() or f"the request ended ({answer.status})."
    return f"The person did not reply: {why}"
