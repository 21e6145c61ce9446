"""The inbox as a page of the Jupyter server: ``<base_url>/nbask/inbox`` lists the requests waiting
in the inbox that the logged-in person may answer, as the widget's cards, and takes their answers.

Who answers is the server's word: the identity provider's user of the request
(``current_user``), never a name the page sends, recorded as ``answered_by_user`` with identity
"verified". Every handler asks the server's authorizer first, as for the server's own kernels:
reading a kernel (``read`` on ``kernels``) to see the list, running code in one (``execute``) to
answer, since an answer decides what an agent's code does next. A request that names approvers
is listed to them only; one that names none to every person the authorizer lets in.

    GET  <base_url>/nbask/inbox                        the page
    GET  <base_url>/nbask/inbox/api/items              {"user", "store", "items": [card, ...]}
    POST <base_url>/nbask/inbox/api/items/<id>/answer  a card's response -> {"item": card}

An answer is taken once: a second one is refused (409) naming who answered first and when. A
response that does not fit its request is refused (400) saying which field breaks which rule.
The store is the one in force in the server's process (``NBASK_INBOX``, else the per-user file):
the kernels the server starts inherit its environment, so they keep their requests there too.
"""

from __future__ import annotations

import asyncio
import html
import json
import pathlib
import threading
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web

from .stamping import who_is

__all__ = ["AUTH_RESOURCE", "PAGE_PATH", "handlers"]

#: The authorizer's resource for the page, its API and its files.
AUTH_RESOURCE: Final = "kernels"
#: Where the page is, under the server's base URL.
PAGE_PATH: Final = "nbask/inbox"
#: The settings key of the store the handlers share (opened at the first request).
_STORE: Final = "nbask_inbox_store"
_STORE_LOCK = threading.Lock()
#: The page's own files and the widget's styles, built into the package (js/inbox/).
_FILES: Final = ("inbox.js", "inbox.css", "widget.css")
_STATIC: Final = pathlib.Path(__file__).resolve().parent.parent / "static"

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def _allowed(action: str) -> Callable[[F], F]:
    """jupyter_server's ``authorized`` for ``action`` on ``AUTH_RESOURCE``, typed."""
    return cast("Callable[[F], F]", authorized(action=action))


async def _off_loop(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on a worker thread: the store blocks (a file lock, a database)."""
    return await asyncio.get_running_loop().run_in_executor(None, call, *args)


def _store(settings: dict[str, Any]) -> Any:
    """The inbox in force in the server's process, opened once and shared by the handlers."""
    with _STORE_LOCK:
        store = settings.get(_STORE)
        if store is None:
            from ..inbox_store import open_inbox  # noqa: PLC0415 - the kernel side loads at the first request

            store = settings[_STORE] = open_inbox()
        return store


class _InboxHandler(APIHandler):
    auth_resource = AUTH_RESOURCE

    async def _reply(self, status: int, body: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        await self.finish(json.dumps(body, ensure_ascii=False))

    async def _store_or_reply(self) -> Any:
        from ..errors import InboxError  # noqa: PLC0415 - the kernel side loads at the first request

        try:
            return await _off_loop(_store, self.settings)
        except InboxError as error:
            await self._reply(503, {"message": f"The inbox cannot be opened: {error}"})
            return None


class ItemsHandler(_InboxHandler):
    """GET: the cards the logged-in person may answer."""

    @web.authenticated
    @_allowed("read")
    async def get(self) -> None:
        from .inbox_cards import listing  # noqa: PLC0415 - the kernel side loads at the first request

        store = await self._store_or_reply()
        if store is None:
            return
        who = who_is(self.current_user)
        items = await _off_loop(listing, store, who)
        user = {"username": who.username, "display_name": who.display_name}
        await self._reply(200, {"user": user, "store": store.name, "items": items})


class AnswerHandler(_InboxHandler):
    """POST: a card's response, as the logged-in person."""

    @web.authenticated
    @_allowed("execute")
    async def post(self, item_id: str) -> None:
        from .inbox_cards import answer  # noqa: PLC0415 - the kernel side loads at the first request

        try:
            raw = json.loads(self.request.body or b"null")
        except ValueError as error:
            await self._reply(400, {"message": f"The answer must be JSON: {error}"})
            return
        store = await self._store_or_reply()
        if store is None:
            return
        reply = await _off_loop(answer, store, item_id, raw, who_is(self.current_user))
        if reply.status == 200:  # noqa: PLR2004 - HTTP's OK
            self.log.info("nbask inbox page: %s answered %s", who_is(self.current_user).username, item_id[:8])
        await self._reply(reply.status, reply.body)


class PageHandler(JupyterHandler):
    """GET: the page itself; it draws the cards from ``inbox.js``."""

    auth_resource = AUTH_RESOURCE

    @web.authenticated
    @_allowed("read")
    def get(self) -> None:
        files = url_path_join(self.base_url, PAGE_PATH, "static")
        config = {
            "baseUrl": self.base_url,
            "token": "",  # the page's requests carry the login cookie, never a token in the page
            "nbaskInboxApi": url_path_join(self.base_url, PAGE_PATH, "api"),
            "xsrfToken": self.xsrf_token.decode("ascii"),
        }
        data = json.dumps(config).replace("<", "\\u003c")  # nothing in it can close the script element
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(_PAGE.format(files=html.escape(files, quote=True), config=data))


class FilesHandler(JupyterHandler, web.StaticFileHandler):
    """The page's script and styles, to logged-in people only."""

    auth_resource = AUTH_RESOURCE

    # tornado's ``authenticated`` types what it wraps loosely, hence the override's ignore.
    @web.authenticated
    @_allowed("read")
    async def get(self, path: str, include_body: bool = True) -> None:  # type: ignore[override]  # noqa: FBT001, FBT002
        if path not in _FILES:
            raise web.HTTPError(404)
        await web.StaticFileHandler.get(self, path, include_body)


_PAGE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nbask inbox</title>
<link rel="stylesheet" href="{files}/widget.css">
<link rel="stylesheet" href="{files}/inbox.css">
<script id="jupyter-config-data" type="application/json">{config}</script>
</head>
<body>
<main class="nbask-inbox" aria-labelledby="nbask-inbox-title">
<h1 id="nbask-inbox-title">Inbox</h1>
<p class="nbask-inbox-status" role="status" aria-live="polite">Loading the requests waiting for you…</p>
<noscript>This page needs JavaScript to show the requests waiting in the inbox.</noscript>
</main>
<script type="module" src="{files}/inbox.js"></script>
</body>
</html>
"""


def handlers(base_url: str) -> list[tuple[str, type[Any], dict[str, Any]]]:
    """The page's routes under ``base_url``, for ``web_app.add_handlers``."""
    page = url_path_join(base_url, PAGE_PATH)
    return [
        (page, PageHandler, {}),
        (url_path_join(page, "api", "items"), ItemsHandler, {}),
        (url_path_join(page, "api", "items", "([0-9a-f]{6,64})", "answer"), AnswerHandler, {}),
        (url_path_join(page, "static", "(.*)"), FilesHandler, {"path": str(_STATIC)}),
    ]
