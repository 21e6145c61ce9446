"""CrewAI's ``Task(human_input=True)`` review answered in the cell: the human input provider
CrewAI's agent executor calls once a task has its answer. See nbask.integrations.crewai.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.lifecycle import DEFAULT_TIMEOUT
from ...kinds.form.request import form_request
from ...models import FormAnswer
from .. import _bounded
from .._seam import Asking, answerable_by, drive, drive_sync
from ._flow import readable, shown, this_run

__all__ = ["REVIEW", "task_feedback_provider"]

#: The review form's one field.
REVIEW: Final = "feedback"


def _reviewing(output: Any, agent: str | None, *, timeout: float | None = DEFAULT_TIMEOUT) -> Asking[str]:
    """The Asking of one review of a task's ``output``: the feedback (``""`` accepts it)."""
    who = f"{agent}'s result" if agent else "the result"
    message = shown(f"Review {who}. Leave the feedback blank to accept it.", output)
    field = {"type": "string", "title": "Your feedback (leave blank to accept)"}
    request = form_request(message, {"type": "object", "properties": {REVIEW: field}}, timeout=timeout)
    # Another task's review (another output) in the same crew is not the same request; only the
    # same output reviewed again in one run (a flow going round a crew) is.
    answer = yield _bounded.same_as(request, this_run(message))
    assert isinstance(answer, FormAnswer)  # noqa: S101 - a form's outcome
    if answer.status != "answered" or answer.answered_by == "policy":
        return ""  # CrewAI's Enter: the output stands as it is
    return str(answer.values.get(REVIEW, "") or "")


def _output_text(answer: Any) -> str:
    return readable(answer.output)


def _role(context: Any) -> str | None:
    role = getattr(getattr(context, "agent", None), "role", None)
    return role if isinstance(role, str) and role.strip() else None


def _rework_asked(context: Any, feedback: str) -> bool:
    """Whether the agent reworks its answer with ``feedback`` (then added to its messages, as
    CrewAI's console provider does); blank feedback accepts the answer and ends the review.
    """
    if not context.ask_for_human_input:
        return False
    if not feedback.strip():
        context.ask_for_human_input = False
        return False
    context.messages.append(context._format_feedback_message(feedback))  # noqa: SLF001 - CrewAI's ExecutorContext
    return True


def task_feedback_provider(timeout: float | None, approvers: tuple[str, ...] | None = None) -> Any:
    """A CrewAI ``HumanInputProvider`` asking each review in the cell, answerable only by
    ``approvers`` when named (CrewAI is imported here).
    """
    from crewai.core.providers.human_input import SyncHumanInputProvider  # noqa: PLC0415 - imported when used

    class TaskFeedbackProvider(SyncHumanInputProvider):  # type: ignore[misc]
        """CrewAI's own provider, asking in the cell instead of on the console: the agent reworks
        its answer with each feedback, asked again, until the feedback is left blank.
        """

        def handle_feedback(self, formatted_answer: Any, context: Any) -> Any:
            __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
            with answerable_by(approvers):
                return self._reviewed(formatted_answer, context)

        def _reviewed(self, formatted_answer: Any, context: Any) -> Any:
            feedback = drive_sync(_reviewing(_output_text(formatted_answer), _role(context), timeout=timeout))
            if context._is_training_mode():  # noqa: SLF001 - CrewAI's ExecutorContext protocol
                return self._handle_training_feedback(formatted_answer, feedback, context)
            answer = formatted_answer
            while _rework_asked(context, feedback):
                answer = context._invoke_loop()  # noqa: SLF001
                feedback = drive_sync(_reviewing(_output_text(answer), _role(context), timeout=timeout))
            return answer

        async def handle_feedback_async(self, formatted_answer: Any, context: Any) -> Any:
            __tracebackhide__ = True  # IPython leaves this frame out of tracebacks
            with answerable_by(approvers):
                return await self._reviewed_async(formatted_answer, context)

        async def _reviewed_async(self, formatted_answer: Any, context: Any) -> Any:
            feedback = await drive(_reviewing(_output_text(formatted_answer), _role(context), timeout=timeout))
            if context._is_training_mode():  # noqa: SLF001 - CrewAI's ExecutorContext protocol
                return await self._handle_training_feedback_async(formatted_answer, feedback, context)
            answer = formatted_answer
            while _rework_asked(context, feedback):
                answer = await context._ainvoke_loop()  # noqa: SLF001
                feedback = await drive(_reviewing(_output_text(answer), _role(context), timeout=timeout))
            return answer

    return TaskFeedbackProvider()
