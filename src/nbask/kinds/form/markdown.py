"""The form kind's Markdown summary: what was asked and decided, readable without the widget."""

from __future__ import annotations

from ...contract import STATUS_TEXT
from ...forms import Form, FormField
from ...markdown import by_whom, code_block, escape_markdown
from ...models import FieldValue, FormAnswer


def show_value(field: FormField, value: FieldValue | None) -> str:
    """A value as the person saw it: choices by their titles, booleans as Yes / No."""
    if value is None:
        return "—"
    titles = {option.value: option.title for option in field.options}
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return ", ".join(titles.get(item, item) for item in value) or "—"
    return titles.get(str(value), str(value))


def form_markdown(form: Form, answer: FormAnswer | None) -> str:
    """The message, then each field with its value (or the page's URL), and how it ended."""
    status = "pending" if answer is None else STATUS_TEXT[answer.status] + by_whom(answer)
    what = "page to open" if form.url else "form"
    lines = [f"**nbask {what}** — {escape_markdown(form.message)}: **{status}**"]
    if form.url:
        lines += ["", code_block(form.url)]
    if answer is not None and answer.status == "answered":
        lines.append("")
        for field_ in form.fields:
            shown = show_value(field_, answer.values.get(field_.name))
            lines.append(f"- {escape_markdown(field_.title)}: **{escape_markdown(shown)}**")
    if answer is not None and answer.note:
        lines += ["", escape_markdown(answer.note)]
    return "\n".join(lines)
