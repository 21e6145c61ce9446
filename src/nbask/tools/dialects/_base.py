"""``Dialect``: one "ask the user" tool as some agent knows it, tying the argument reading of
``_arguments`` to the reply writing of ``_replies``.

A dialect has a name, a description and an argument schema; it turns its arguments into what
nbask asks (``load`` -> ``parse`` -> ``Plan``) and an ``Answer`` back into its own reply format
(``answered`` / ``dismissed`` / ``timed_out``). It is also the typed signature and docstring of
the Python function ``nbask.tools.function`` builds.
"""

from __future__ import annotations

import inspect
import operator
from abc import ABC, abstractmethod
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, Field

from ...errors import ArgumentError
from ...models import Answer
from ..result import ResultStatus, ToolResult
from ._arguments import Plan, load_json_object
from ._replies import cancelled_result, error_result


class Dialect(ABC):
    """One "ask the user" tool: its name, description, schema, parsing and reply format."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: Where the dialect comes from, for the docs.
    origin: ClassVar[str]
    #: The argument schema the model is given (definitions) and the Python function takes.
    arguments: ClassVar[type[BaseModel]]
    description: ClassVar[str]
    #: The shape of the arguments as the dialect's description and schema tell the model to
    #: write them: every argument error shows it again, so the retry is in the same form.
    form: ClassVar[str]
    #: Whether the dialect's replies are JSON objects (late answers then go in as a key).
    replies_in_json: ClassVar[bool] = False

    # -- arguments ---------------------------------------------------------------------

    def read(self, arguments: object) -> Plan:
        """The plan of the raw arguments (``load`` then ``parse``); raises ArgumentError."""
        return self.parse(self.load(arguments))

    def load(self, arguments: object) -> dict[str, Any]:
        """The raw arguments as a dict (JSON text or a mapping)."""
        return load_json_object(arguments)

    @abstractmethod
    def parse(self, data: dict[str, Any]) -> Plan:
        """Validate the arguments and build what nbask asks; raises ArgumentError."""

    def invalid(self, error: ArgumentError) -> ToolResult:
        """The tool error for bad arguments: each problem, then the form to send, then what to do."""
        problems = "; ".join(error.problems)
        text = (
            f"Invalid arguments for {self.name}: {problems}. The arguments are {error.form or self.form}. "
            f"Fix the arguments and call {self.name} again."
        )
        return self.error("invalid", text)

    # -- replies -----------------------------------------------------------------------

    def reply(self, answer: Answer, plan: Plan) -> ToolResult:
        if answer.status == "answered":
            return self.answered(answer, plan)
        if answer.status == "dismissed":
            return self.dismissed(answer, plan)
        if answer.status == "timeout":
            return self.timed_out(answer, plan)
        return cancelled_result(answer)

    @abstractmethod
    def answered(self, answer: Answer, plan: Plan) -> ToolResult: ...

    @abstractmethod
    def dismissed(self, answer: Answer, plan: Plan) -> ToolResult: ...

    @abstractmethod
    def timed_out(self, answer: Answer, plan: Plan) -> ToolResult: ...

    def error(self, status: ResultStatus, text: str, outcome: Answer | None = None) -> ToolResult:
        """A tool error whose output is the text the model reads."""
        return error_result(status, text, outcome)

    # -- the Python function (nbask.tools.function) --------------------------------------

    def parameters(self) -> list[inspect.Parameter]:
        """The typed parameters of the function: the fields of ``arguments``, each annotated with
        its limits and description (``Annotated[list[Question], MinLen(1), ..., Field(...)]``), so
        a framework that builds a schema from the signature gets the same limits as the definition.
        """
        params = []
        for name, info in self.arguments.model_fields.items():
            default = inspect.Parameter.empty if info.is_required() else info.get_default(call_default_factory=True)
            extras = (*info.metadata, Field(description=info.description))
            annotation = operator.getitem(Annotated, (info.annotation, *extras))  # Annotated[T, *extras]
            params.append(
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
            )
        return params

    def function_doc(self) -> str:
        """The function's docstring: the description, then each argument (Google style)."""
        lines = [self.description.strip(), "", "Args:"]
        for name, info in self.arguments.model_fields.items():
            lines.append(f"    {name}: {info.description or name}")
        lines += ["", "Returns:", "    The person's answer, in this tool's reply format."]
        return "\n".join(lines)
