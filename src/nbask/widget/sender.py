"""Who sent the comm message being handled, how that is known, and whether they may answer.

``InteractionWidget._handle_msg`` runs each message's handlers inside ``handling(msg)``; the
``_response`` observer (and a batch's Approve all) asks ``sender`` who sent it: the user nbask's
server extension stamped the message with, checked against this kernel's key ("verified"), else
the name the page gave in the header or the response ("reported"), else no one ("none").
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

import traitlets

from .. import host
from ..core.lifecycle import Resolution
from ..identity import refusal, verify
from ..models import Verification
from ..replies import sender as sender_of

log = logging.getLogger(__name__)

#: The comm message being handled on this thread: its header's username and the server's stamp.
_message = threading.local()


@contextlib.contextmanager
def handling(msg: dict[str, Any]) -> Iterator[None]:
    """While ``msg``'s handlers run on this thread, ``sender`` reads who sent it."""
    header = msg.get("header")
    _message.username = header.get("username") if isinstance(header, dict) else None
    _message.stamp = verify(msg, host.kernel_key())
    try:
        yield
    finally:
        _message.username = _message.stamp = None


def sender(raw: dict[str, Any]) -> tuple[str | None, Verification]:
    """Who sent ``raw`` (the message being handled, or none: a reply that came another way)."""
    return sender_of(getattr(_message, "username", None), getattr(_message, "stamp", None), raw)


class ChecksSender(traitlets.HasTraits):
    """The part of a widget that knows who may answer (``Request.approvers``) and refuses the rest."""

    # The only people whose verified answer resolves the request ([] = anyone): every other page
    # shows the card read-only, "Waiting for alice or bob" (js/shell/approvers.ts).
    _approvers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    # Whether the Jupyter server vouched for who sent the running cell (nbask's server extension
    # stamped its execute_request): where it did not, a request with approvers is not answerable.
    _verifies = traitlets.Bool(default_value=False).tag(sync=True)

    _resolution: Resolution[Any]  # the widget's own (``InteractionWidget``)
    #: Why the last answer was refused ("" = none was).
    _refusal = ""

    @staticmethod
    def _sender(raw: dict[str, Any]) -> tuple[str | None, Verification]:
        """Who sent ``raw`` (the comm message being handled), and how that is known."""
        return sender(raw)

    def _refused_sender(self, user: str | None, identity: Verification) -> bool:
        """Whether ``user`` may not answer: then the request keeps waiting, and its outcome, once
        it comes, records who tried and why it was refused.
        """
        why = refusal(self._resolution.request.approvers, user, identity)
        if why is None:
            return False
        log.warning("nbask request %s: an answer was refused: %s", self._resolution.request.request_id, why)
        self._resolution.note_refused(user, identity, why)
        self._refusal = why
        self.set_trait("_response", {})  # every view leaves "Sending…"
        return True
