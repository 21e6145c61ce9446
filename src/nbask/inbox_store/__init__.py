"""The inbox: requests that outlive the run that asked them, kept pending in a store until
someone answers them, once.

``open_inbox()`` opens the store in force (``nbask.configure(inbox=...)`` or ``NBASK_INBOX``: a
SQLite file or a ``postgresql://`` URL; by default the per-user file ``default_path()``), an
``InboxStore`` whichever backend it is: ``add`` a request, list the ``pending`` ones, ``answer``
one exactly once, ``cancel``, ``expire`` the old ones, ``find_answered`` the answer to a request
asked again, and ``wait_answered`` for an answer given elsewhere.

    store = open_inbox()
    item = store.add(request, notebook="analysis.ipynb", run_id=run)
    ...                                   # later, anywhere that reaches the store
    store.answer(item.id, outcome, by="ana")
"""

from __future__ import annotations

from .location import default_path, location_in_force, open_inbox
from .postgres import PostgresInbox
from .schema import supported as schema_version
from .sqlite import SqliteInbox
from .store import DEFAULT_EXPIRES, STATUSES, InboxItem, InboxStatus, InboxStore, identity

__all__ = [
    "DEFAULT_EXPIRES",
    "STATUSES",
    "InboxItem",
    "InboxStatus",
    "InboxStore",
    "PostgresInbox",
    "SqliteInbox",
    "default_path",
    "identity",
    "location_in_force",
    "open_inbox",
    "schema_version",
]
