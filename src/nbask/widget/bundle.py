"""Where each kind's front end is: ``npm run build`` makes one ES module per kind in
``nbask/static`` (the shell with that kind's view alone, from js/kinds/<kind>/widget.ts) and one
stylesheet for all, so a request carries its own kind's code and not the others'.
"""

from __future__ import annotations

import pathlib
from typing import Final

STATIC: Final = pathlib.Path(__file__).parent.parent / "static"
#: The stylesheet every kind's widget loads.
CSS: Final = STATIC / "widget.css"


def module(kind: str) -> pathlib.Path:
    """The ES module of ``kind``'s widget."""
    return STATIC / f"widget-{kind}.js"


def esm_of(kind: str) -> pathlib.Path | str:
    """A kind widget's ``_esm``: its module, or an empty one in a checkout whose front end was
    never built (a widget made there stops at ``require`` and says what to do).
    """
    path = module(kind)
    return path if path.is_file() else "export default {};"


def require(kind: str) -> None:
    """Fail with what to do when ``kind``'s module or the stylesheet is missing. Checked when a
    widget is made, not at import, so the schema and the headless paths keep working in a
    checkout whose front end was never built.
    """
    for path in (module(kind), CSS):
        if not path.is_file():
            msg = (
                f"nbask's front-end bundle {path} is missing. Build it from the repository root "
                "with `npm ci && npm run build`, then reinstall with `pip install -e .`."
            )
            raise FileNotFoundError(msg)
