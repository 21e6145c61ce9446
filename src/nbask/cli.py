"""The ``nbask`` command (also ``python -m nbask``): the inbox at a terminal.

    nbask inbox                  what waits for an answer (``--json`` for scripts)
    nbask inbox answer ID        ask it here, with its kind's own prompt, and keep the answer
    nbask inbox answer --all     every waiting request, oldest first
    nbask inbox cancel ID        end it unanswered (the run that asked goes on without it)

``--inbox PATH_OR_URL`` picks another store than the one in force (``NBASK_INBOX``, else the
per-user file). The answer is recorded as the login that typed it. Ctrl-D at a prompt leaves
that request waiting and goes on to the next.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .core.lifecycle import Resolution
from .errors import InboxError, InboxRequestClosed
from .identity import refusal
from .inbox_store import InboxItem, InboxStore, open_inbox
from .inbox_store.store import when
from .replies import account_name
from .resolvers.console import ConsoleResolver
from .resolvers.later import headline
from .terminal import printable, terminal_streams


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns its exit status (0 done, 1 refused or failed, 2 bad usage)."""
    args = _parser().parse_args(argv)
    try:
        store = open_inbox(args.inbox)
        if args.command == "answer":
            return _answer(store, args.id, every=args.all)
        if args.command == "cancel":
            item = store.cancel(args.id, by=account_name())
            _out(f"{item.short_id} cancelled: the run that asked goes on without an answer.")
            return 0
        return _list(store, as_json=args.json)
    except InboxError as error:
        _err(f"nbask: {error}")
        return 1


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbask", description="nbask at a terminal.")
    commands = parser.add_subparsers(dest="area", required=True)
    inbox = commands.add_parser("inbox", help="requests that wait for an answer later (policy 'later')")
    inbox.add_argument(
        "--inbox", metavar="PATH_OR_URL", help="the store (default: NBASK_INBOX, else the per-user file)"
    )
    inbox.add_argument("--json", action="store_true", help="list as JSON, for scripts")
    inbox.set_defaults(command="list")
    actions = inbox.add_subparsers(dest="command")
    answer = actions.add_parser("answer", help="answer a waiting request here")
    answer.add_argument("id", nargs="?", help="its id, or the first 6 characters or more of it")
    answer.add_argument("--all", action="store_true", help="every waiting request, oldest first")
    cancel = actions.add_parser("cancel", help="end a waiting request unanswered")
    cancel.add_argument("id", help="its id, or the first 6 characters or more of it")
    for sub in (answer, cancel):
        sub.add_argument("--inbox", metavar="PATH_OR_URL", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _list(store: InboxStore, *, as_json: bool) -> int:
    items = store.pending()
    if as_json:
        _out(json.dumps([_as_json(item) for item in items], ensure_ascii=False, indent=2))
        return 0
    if not items:
        _out(f"Nothing waits for an answer in {store.name}.")
        return 0
    _out(f"{len(items)} waiting in {store.name}:")
    for item in items:
        where = f"  ({item.notebook})" if item.notebook else ""
        _out(f"  {item.short_id}  {item.kind:<8}  {printable(headline(item))}{where}")
    _out("Answer one with `nbask inbox answer ID`, or all with `nbask inbox answer --all`.")
    return 0


def _as_json(item: InboxItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind,
        "headline": headline(item),
        "asked": item.asked,
        "asked_at": when(item.asked_at),
        "expires_at": when(item.expires_at) if item.expires_at is not None else None,
        "notebook": item.notebook,
        "batch_id": item.batch_id,
    }


def _answer(store: InboxStore, id_: str | None, *, every: bool) -> int:
    if (id_ is None) == (not every):
        _err("nbask: name one request (nbask inbox answer ID) or use --all")
        return 2
    items = store.pending() if every else [store.get(id_ or "")]
    if not items:
        _out(f"Nothing waits for an answer in {store.name}.")
        return 0
    streams = terminal_streams()
    if streams is None:
        _err("nbask: answering needs a terminal (stdin is not a TTY)")
        return 1
    failed = 0
    for item in items:
        failed += not _answer_one(store, item, *streams)
    return 1 if failed else 0


def _answer_one(store: InboxStore, item: InboxItem, stdin: TextIO, stdout: TextIO) -> bool:
    """Ask ``item`` at the terminal and keep the answer; False when it could not be answered."""
    if not item.pending:
        _err(f"nbask: {item.short_id} is {item.status}, not waiting for an answer")
        return False
    request = item.asked_again()  # no time limit: the person answers when at the terminal
    if request is None:
        _err(f"nbask: {item.short_id} is a {item.kind}, which this version of nbask cannot ask")
        return False
    # At a terminal, who answers is the account this command runs as: the system vouches for it.
    user = account_name()
    why = refusal(item.approvers, user, "verified" if user is not None else "none")
    if why is not None:
        _err(f"nbask: {item.short_id} cannot be answered here: {why}")
        return False
    stdout.write(f"\n[{item.short_id}]{f' from {item.notebook}' if item.notebook else ''}, asked {when(item.asked_at)}")
    outcome = ConsoleResolver(stdin, stdout).resolve_sync(Resolution(request))
    if outcome.status == "dismissed":
        stdout.write(f"{item.short_id} left waiting." + "\n")
        return True
    outcome = outcome.model_copy(update={"answered_by_user": user, "identity": "verified" if user else "none"})
    try:
        store.answer(item.id, outcome, by=user)
    except InboxRequestClosed as error:
        _err(f"nbask: {error}")
        return False
    stdout.write(f"{item.short_id} answered: the run that asked goes on with it when run again." + "\n")
    return True
