"""An authorizer for a Jupyter server that lets every authenticated person do everything but
carol, whom it lets do nothing: what the server's authorizer refuses, the inbox page refuses too.
Loaded by the server process: ``--ServerApp.authorizer_class=refuses_carol.RefusesCarol``.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.auth.authorizer import Authorizer


class RefusesCarol(Authorizer):
    def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
        del handler, action, resource
        return getattr(user, "username", None) != "carol"
