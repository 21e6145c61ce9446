"""The form kind's widget: the card in the notebook that shows the request and takes the person's reply."""

from __future__ import annotations

from typing import Any

import traitlets

from ...core.lifecycle import Resolution
from ...models import FormAnswer
from ...widget import ShowsRefusals
from ...widget.bundle import esm_of
from .request import FormRequest


class FormWidget(ShowsRefusals[FormAnswer]):
    """Shows a form (or a page to open) and resolves with the person's values.

    Made by ``nbask.ask_form``; its traits are mirrored by FormModel in js/contract/contract.ts.
    """

    # This kind's own front end (js/kinds/form/widget.ts), not the other kinds'.
    _esm = esm_of("form")

    _message = traitlets.Unicode("").tag(sync=True)
    _fields = traitlets.List(traitlets.Dict()).tag(sync=True)
    _url = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *, resolution: Resolution[FormAnswer], **traits: Any) -> None:
        if not isinstance(resolution.request, FormRequest):
            msg = "FormWidget shows form requests only"
            raise TypeError(msg)
        self.form = resolution.request.form
        fields = [field.model_dump() for field in self.form.fields]
        super().__init__(resolution, _message=self.form.message, _fields=fields, _url=self.form.url, **traits)

    def _result_for(self, outcome: FormAnswer) -> dict[str, Any]:
        return {"values": outcome.values, "note": outcome.note}
