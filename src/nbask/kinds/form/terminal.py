"""A form at a terminal: one prompt per field, each checked as the widget checks it.

A blank line keeps the default (or leaves an optional field empty); Ctrl-D declines. In URL
mode the page's address is printed whole and the person says whether they will open it.
"""

from __future__ import annotations

from ...forms import Form, FormField, check_values
from ...models import FieldValue
from ...terminal import Terminal, printable


def ask_form_at_terminal(term: Terminal, form: Form, tool_call_id: str | None) -> dict[str, FieldValue] | None:
    """The values typed (checked against the fields), or None when the person declines."""
    what = "to open a page" if form.url else "to fill in a form"
    term.say("")
    term.say(f"nbask: the agent asks you {what}{term.tool_call(tool_call_id)}:")
    for line in printable(form.message, keep_newlines=True).splitlines():
        term.say(f"    {line}")
    try:
        if form.url:
            term.say(f"  Page: {printable(form.url)}")
            answer = term.line("Will you open it yourself? [y/N]: ").strip().lower()
            return {} if answer in ("y", "yes") else None
        return {field.name: value for field in form.fields if (value := _ask_field(term, field)) is not None}
    except EOFError:
        return None


def _describe(field: FormField) -> str:
    rules = ["required" if field.required else "optional"]
    if field.format:
        rules.append(field.format)
    if field.minimum is not None or field.maximum is not None:
        low = "" if field.minimum is None else f"{field.minimum:g}"
        high = "" if field.maximum is None else f"{field.maximum:g}"
        rules.append(f"{field.type} {low}..{high}")
    elif field.type in ("number", "integer"):
        rules.append(field.type)
    return ", ".join(rules)


def _ask_field(term: Terminal, field: FormField) -> FieldValue | None:
    """Asks until the answer fits the field; None leaves it out."""
    term.say(f"  {printable(field.title)} ({_describe(field)})")
    if field.description:
        term.say(f"    {printable(field.description)}")
    for number, option in enumerate(field.options, start=1):
        term.say(f"    {number}. {printable(option.title)}")
    default = "" if field.default is None else f" [{printable(str(field.default))}]"
    hint = {"boolean": " y/n", "choice": " number", "multi_choice": " numbers, comma separated"}.get(field.type, "")
    while True:
        raw = term.line(f"  >{hint}{default}: ").strip()
        if not raw:
            if field.default is not None:
                return field.default
            if not field.required:
                return None
        try:
            value = _typed(field, raw)
            checked = check_values([field], {field.name: value})
        except ValueError as error:
            term.say(f"    {printable(str(error))}")
            continue
        return checked.get(field.name)


def _typed(field: FormField, raw: str) -> object:
    if field.type == "boolean":
        if raw.lower() in ("y", "yes", "true", "1"):
            return True
        if raw.lower() in ("n", "no", "false", "0"):
            return False
        msg = "type y or n"
        raise ValueError(msg)
    if field.type in ("number", "integer"):
        try:
            return float(raw) if field.type == "number" else int(raw)
        except ValueError:
            msg = f"type a {'whole ' if field.type == 'integer' else ''}number"
            raise ValueError(msg) from None
    if field.type in ("choice", "multi_choice"):
        picks = [part.strip() for part in raw.split(",") if part.strip()]
        if not all(pick.isdigit() and 1 <= int(pick) <= len(field.options) for pick in picks):
            msg = f"type numbers from 1 to {len(field.options)}"
            raise ValueError(msg)
        values = [field.options[int(pick) - 1].value for pick in picks]
        if field.type == "choice":
            if len(values) != 1:
                msg = "type one number"
                raise ValueError(msg)
            return values[0]
        return values
    return raw
