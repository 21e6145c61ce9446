"""nbask's Jupyter server extension, enabled on install.

``jupyter server extension list`` shows it; jupyter-config/jupyter_server_config.d/nbask.json
names this module. It does three things:

- ``records``: a notebook saved through the server keeps each ended request's record (the
  Markdown summary and the machine-readable record), not only a widget view that needs the
  live kernel;
- ``stamping``: every message a page sends its kernel carries the server's authenticated user,
  signed with the kernel's key, so the kernel knows who answered (``nbask.identity``);
- ``inbox_page``: the inbox as a page of the server (``<base_url>/nbask/inbox``), where each
  logged-in person answers the waiting requests they may answer, as the server knows them; the
  kernels the server starts keep every request a person is asked there too
  (``NBASK_INBOX_MIRROR=1`` in the server's environment, which they inherit, unless already set).

The server loads nothing of nbask's kernel side from here.
"""

from __future__ import annotations

import os
from typing import Any

from .inbox_page import PAGE_PATH, handlers
from .records import WIDGET_VIEW, keep_records
from .stamping import install

__all__ = ["WIDGET_VIEW", "keep_records", "load_jupyter_server_extension"]

#: ``nbask.config``'s ``inbox_mirror`` variable, said here as text: the server loads nothing of
#: nbask's kernel side when it starts.
MIRROR_VARIABLE = "NBASK_INBOX_MIRROR"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "nbask.server_extension"}]


def load_jupyter_server_extension(serverapp: Any) -> None:
    """Register ``keep_records`` with the contents manager, stamp kernel messages, and serve the
    inbox page.
    """
    serverapp.contents_manager.register_pre_save_hook(keep_records)
    serverapp.log.info("nbask: saved notebooks keep each ended request's record")
    used = install(serverapp.web_app.settings, serverapp.kernel_websocket_connection_class)
    serverapp.log.info("nbask: kernel messages carry the server's user (%s)", used.__name__)
    serverapp.web_app.add_handlers(".*$", handlers(serverapp.web_app.settings["base_url"]))
    # Kernels inherit the server's environment: theirs mirror what they ask into the inbox the
    # page reads (the same NBASK_INBOX), unless whoever started the server said otherwise.
    os.environ.setdefault(MIRROR_VARIABLE, "1")
    serverapp.log.info("nbask: the inbox page is at %s%s", serverapp.web_app.settings["base_url"], PAGE_PATH)


_load_jupyter_server_extension = load_jupyter_server_extension
