"""nbask's Jupyter server extension, enabled on install.

``jupyter server extension list`` shows it; jupyter-config/jupyter_server_config.d/nbask.json
names this module. It does two things:

- ``records``: a notebook saved through the server keeps each ended request's record (the
  Markdown summary and the machine-readable record), not only a widget view that needs the
  live kernel;
- ``stamping``: every message a page sends its kernel carries the server's authenticated user,
  signed with the kernel's key, so the kernel knows who answered (``nbask.identity``).

The server loads nothing of nbask's kernel side from here.
"""

from __future__ import annotations

from typing import Any

from .records import WIDGET_VIEW, keep_records
from .stamping import install

__all__ = ["WIDGET_VIEW", "keep_records", "load_jupyter_server_extension"]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "nbask.server_extension"}]


def load_jupyter_server_extension(serverapp: Any) -> None:
    """Register ``keep_records`` with the contents manager, and stamp kernel messages."""
    serverapp.contents_manager.register_pre_save_hook(keep_records)
    serverapp.log.info("nbask: saved notebooks keep each ended request's record")
    used = install(serverapp.web_app.settings, serverapp.kernel_websocket_connection_class)
    serverapp.log.info("nbask: kernel messages carry the server's user (%s)", used.__name__)


_load_jupyter_server_extension = load_jupyter_server_extension
