"""An identity provider for a Jupyter server that knows two people apart by their tokens.

``NBASK_TEST_PEOPLE`` (JSON: token -> username) says who each token is, the tests' own REST
calls included (as ``harness``). The server's token stays empty: JupyterLab writes it into every
page it serves, and a page would then answer as whoever it names. A
browser that opens ``?token=<alice's>`` is alice from then on (the server's login cookie).
Loaded by the server process: ``--ServerApp.identity_provider_class=two_people.TwoPeople``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from jupyter_server.auth.identity import IdentityProvider, User


class TwoPeople(IdentityProvider):
    """Each token names one person; any other token names no one."""

    async def get_user_token(self, handler: Any) -> User | None:
        people: dict[str, str] = json.loads(os.environ.get("NBASK_TEST_PEOPLE", "{}"))
        token = self.get_token(handler)
        if not token:
            return None
        name = people.get(token)
        if name is None:
            return None
        return User(username=name, name=name.title(), display_name=f"{name.title()} (test)")
