"""The anywidget family: a shared base and one widget per kind of request."""

from ._base import LATE_ANSWER_NOTE, InteractionWidget
from .approval import ApprovalWidget
from .question import QuestionWidget

__all__ = ["LATE_ANSWER_NOTE", "ApprovalWidget", "InteractionWidget", "QuestionWidget"]
