"""The history's records and their files: ``HistoryEntry`` (what was asked next to how it
ended), JSONL and saved notebooks as recordings, and ``Recording``, the store the ``replay``
policy takes recorded outcomes from.

A recording is a list of ``HistoryEntry``. ``write_jsonl`` writes one entry per line; a saved
``.ipynb`` holds one entry per resolved nbask output, in the output's metadata under
``"nbask"`` (the live widget and the headless policies both put it there), so a notebook a
person answered in JupyterLab replays headless. How a kind finds its answer in a recording is
the kind's own business (``nbask.kinds``), and so is a replay file in a format of its own (a
reader it registers by suffix); this module only hands out records in order.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Final, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, ValidationError, field_validator, model_validator
from pydantic_core import PydanticSerializationError

from ..errors import NoOneCanAnswer
from ..models import AnsweredBy, Outcome, Status
from .lifecycle import Request

#: The key of nbask's record in an output's metadata (``{"nbask": <HistoryEntry as JSON>}``).
RECORD_KEY: Final = "nbask"
#: The key of a late answer's record beside it (``{"nbask_late": <HistoryEntry as JSON>}``): kept
#: apart so that replay, which reads ``RECORD_KEY``, still finds what the call returned.
LATE_RECORD_KEY: Final = "nbask_late"

#: Each request kind's outcome model, by kind name; filled by ``nbask.kinds.register``.
OUTCOME_TYPES: dict[str, type[Outcome]] = {}
#: The kinds whose outcome model dumps every field (none left out with ``exclude``): the
#: manager keeps their outcomes as JSON text, read back unchanged.
_WHOLE_IN_JSON: dict[str, type[Outcome]] = {}
#: Each kind's reader of what a record keeps of an ask in the kind's own form (a tuple, see
#: ``Request.kept_asked``): it gives back ``asked()``. Filled by ``nbask.kinds.register``.
ASKED_READERS: dict[str, Callable[[tuple[Any, ...]], dict[str, Any]]] = {}


def register_asked_reader(kind: str, reader: Callable[[tuple[Any, ...]], dict[str, Any]]) -> None:
    """Let records of ``kind`` that keep what was asked in the kind's own form be read."""
    ASKED_READERS[kind] = reader


def register_outcome_type(kind: str, outcome_type: type[Outcome]) -> None:
    """Let history entries of ``kind`` be read back as ``outcome_type``."""
    OUTCOME_TYPES[kind] = outcome_type
    _WHOLE_IN_JSON.pop(kind, None)
    if not any(field.exclude for field in outcome_type.model_fields.values()):
        _WHOLE_IN_JSON[kind] = outcome_type


class HistoryEntry(BaseModel):
    """One ended interaction: what was asked next to how it ended."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="The request kind: 'question', 'approval', ...")
    asked: dict[str, Any] = Field(description="What was asked (a QuestionSet, an Approval, ...) as JSON-ready data.")
    outcome: SerializeAsAny[Outcome]
    status: Status
    request_id: str
    tool_call_id: str | None
    asked_at: float
    resolved_at: float
    seconds_waited: float
    answered_by: AnsweredBy
    workdir: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description=(
            "The working directory an approval was asked in (kinds whose replay reads paths keep it): "
            "replay elsewhere reads paths under it as under its own."
        ),
    )

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind not in OUTCOME_TYPES:
            msg = f"kind {kind!r} is not a request kind nbask knows (known: {', '.join(sorted(OUTCOME_TYPES))})"
            raise ValueError(msg)
        return kind

    @model_validator(mode="before")
    @classmethod
    def _outcome_of_its_kind(cls, data: Any) -> Any:
        # The outcome's model depends on the kind: read it as that model, not as the base.
        if isinstance(data, dict):
            outcome_type = OUTCOME_TYPES.get(str(data.get("kind")))
            outcome = data.get("outcome")
            if outcome_type is not None and isinstance(outcome, dict):
                return {**data, "outcome": outcome_type.model_validate(outcome)}
        return data

    @classmethod
    def of(cls, request: Request[Any], outcome: Outcome) -> HistoryEntry:
        """The entry for ``request`` ended with ``outcome`` (both made by nbask: not re-validated)."""
        return cls.ended(request.kind, request.asked(), outcome, workdir_of(request))

    @classmethod
    def ended(cls, kind: str, asked: dict[str, Any], outcome: Outcome, workdir: str | None = None) -> HistoryEntry:
        """The entry of a ``kind`` request that asked ``asked`` and ended with ``outcome``; the
        ids, times and who answered are the outcome's (made by nbask: not re-validated).
        """
        return cls.model_construct(
            kind=kind,
            asked=asked,
            outcome=outcome,
            status=outcome.status,
            request_id=outcome.request_id,
            tool_call_id=outcome.tool_call_id,
            asked_at=outcome.asked_at,
            resolved_at=outcome.resolved_at,
            seconds_waited=outcome.seconds_waited,
            answered_by=outcome.answered_by,
            workdir=workdir,  # None (not known) is left out of the dump
        )


#: What reads a replay file of a suffix that is a kind's own format, by suffix: ``reader(text,
#: path)`` returns its entries or raises ValueError naming the file. Filled by the kinds.
ReplayReader = Callable[[str, pathlib.Path], list[HistoryEntry]]
REPLAY_READERS: dict[str, ReplayReader] = {}


def register_replay_reader(suffix: str, reader: ReplayReader) -> None:
    """Let ``load`` read a replay file ending in ``suffix`` (".json") with ``reader``."""
    REPLAY_READERS[suffix] = reader


#: An ended interaction as the manager keeps it: (kind, what was asked as JSON text or in the
#: kind's own smaller form (``Request.kept_asked``), the outcome as JSON text (or live, if its
#: model leaves a field out of dumps), the working directory where the kind keeps it). As text
#: and tuples of text, a record holds no object the garbage collector walks: live models (every
#: question, option and answer) made each collection slower as the history grew.
CompactRecord = tuple[str, str | tuple[Any, ...], Outcome | str, str | None]


def current_workdir() -> str | None:
    """The process's working directory, None if it was removed under the process."""
    try:
        # Absolute and normalised already; Path.cwd() parses it into a Path, on every request.
        return os.getcwd()  # noqa: PTH109
    except OSError:
        return None


def workdir_of(request: Request[Any]) -> str | None:
    """The working directory kept beside ``request``'s record, if its kind keeps one."""
    return current_workdir() if request.keeps_workdir else None


def json_text(model: BaseModel) -> str:
    """``model.model_dump_json()`` straight from the model's serializer (the same defaults,
    without the keyword handling): the history dumps two models on every request.
    """
    return model.__pydantic_serializer__.to_json(model).decode()


def compact(request: Request[Any], outcome: Outcome) -> CompactRecord:
    """The compact record of ``request`` ended with ``outcome``."""
    kind = request.kind
    kept: Outcome | str = outcome
    if type(outcome) is _WHOLE_IN_JSON.get(kind):
        try:  # noqa: SIM105 - suppress() would make a context manager on every request
            kept = json_text(outcome)
        except PydanticSerializationError:
            pass  # text JSON cannot hold (a lone surrogate a front end sent): kept live
    return (kind, request.kept_asked(), kept, workdir_of(request))


def expand(record: CompactRecord) -> HistoryEntry:
    """The HistoryEntry of a compact record."""
    kind, kept_asked, kept, workdir = record
    outcome = _WHOLE_IN_JSON[kind].model_validate_json(kept) if isinstance(kept, str) else kept
    asked = json.loads(kept_asked) if isinstance(kept_asked, str) else ASKED_READERS[kind](kept_asked)
    return HistoryEntry.ended(kind, asked, outcome, workdir)


def record_of(request: Request[Any], outcome: Outcome) -> dict[str, Any]:
    """The machine-readable record of one ended interaction, as JSON-ready data."""
    return HistoryEntry.of(request, outcome).model_dump(mode="json")


def write_jsonl(entries: Iterable[HistoryEntry], path: str | os.PathLike[str]) -> pathlib.Path:
    """Write ``entries`` to ``path`` as JSONL, one per line; returns the path."""
    target = pathlib.Path(path).expanduser()
    with target.open("w", encoding="utf-8") as out:
        out.writelines(entry.model_dump_json() + "\n" for entry in entries)
    return target


def load(path: str | os.PathLike[str]) -> list[HistoryEntry]:
    """The entries recorded in ``path``: a JSONL history (``nbask.save_history``), a saved
    notebook (``.ipynb``), or a file of a suffix a kind reads (``register_replay_reader``: the
    question kind reads a hand-written ``.json`` object of question text -> answer).
    """
    source = pathlib.Path(path).expanduser()
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as error:
        msg = f"cannot read the replay file {source}: {error.strerror or error}"
        raise NoOneCanAnswer(msg) from None
    if source.suffix == ".ipynb":
        try:
            notebook = json.loads(text)
        except json.JSONDecodeError as error:
            msg = f"the replay file {source} is not a notebook (invalid JSON: {error})"
            raise ValueError(msg) from None
        return entries_in_notebook(notebook)
    reader = REPLAY_READERS.get(source.suffix)
    if reader is not None:
        return reader(text, source)
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                entries.append(HistoryEntry.model_validate_json(line))
            except ValidationError as error:
                msg = f"{source}, line {number}, is not an nbask history entry: {error.errors()[0]['msg']}"
                raise ValueError(msg) from None
    return entries


def entries_in_notebook(notebook: dict[str, Any]) -> list[HistoryEntry]:
    """The nbask records in a notebook's outputs, in the order they were asked."""
    found: dict[str, HistoryEntry] = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) if isinstance(cell, dict) else []:
            metadata = output.get("metadata") if isinstance(output, dict) else None
            record = metadata.get(RECORD_KEY) if isinstance(metadata, dict) else None
            if not isinstance(record, dict):
                continue
            try:
                entry = HistoryEntry.model_validate(record)
            except ValidationError:
                continue  # someone else's "nbask" metadata, or a damaged record: not an answer
            found[entry.request_id] = entry  # one record per request, even if shown twice
    return sorted(found.values(), key=lambda entry: entry.asked_at)


IndexT = TypeVar("IndexT")
RecordT = TypeVar("RecordT")


class Recording:
    """Recorded outcomes, each handed out once, in the order they were recorded.

    Each kind builds its own index of the entries once (``index``) and takes records from it
    with ``take``: asking the same thing again takes the next recorded outcome for it, and
    asking past the last one finds none (the kind raises ``ReplayMissing``), so a run that
    re-asks until it likes the answer cannot loop on one recorded answer forever.
    """

    def __init__(self, entries: list[HistoryEntry], source: str = "the recording") -> None:
        self.source = source
        self.size = len(entries)
        # An interrupt ended the cell: nothing to reproduce. A late answer came after the call had
        # returned "timeout": replaying it would give the call an answer it never had.
        self._entries = [entry for entry in entries if entry.status != "cancelled" and not entry.outcome.late]
        self._indexes: dict[str, Any] = {}
        # The records handed out, by identity: one record may sit in several of a kind's indexes.
        self._used: set[int] = set()
        self._cursors: dict[Hashable, int] = {}

    def entries(self, kind: str) -> list[HistoryEntry]:
        """The recorded entries of one kind, oldest first."""
        return [entry for entry in self._entries if entry.kind == kind]

    def index(self, kind: str, build: Callable[[list[HistoryEntry]], IndexT]) -> IndexT:
        """``build(entries of kind)``, made once per recording."""
        if kind not in self._indexes:
            self._indexes[kind] = build(self.entries(kind))
        index: IndexT = self._indexes[kind]
        return index

    def take(self, key: Hashable, records: list[RecordT]) -> RecordT | None:
        """The first of ``records`` not handed out before (now handed out), or None when every
        one has been. ``key`` names the list (the same key, the same records in the same order):
        the records before its cursor are all handed out, so a long recording is not scanned
        again on every ask.
        """
        position = self._cursors.get(key, 0)
        while position < len(records) and id(records[position]) in self._used:
            position += 1
        if position == len(records):
            self._cursors[key] = position
            return None
        self._used.add(id(records[position]))
        self._cursors[key] = position + 1
        return records[position]


def asked_again(what: str, recording: Recording, used: int) -> str:
    """The replay miss of something asked more often than the recording answered it."""
    times = "once" if used == 1 else f"{used} times"
    return (
        f"replay: {what} was asked again, but {recording.source} answered it only {times} and each "
        "recorded answer is used once; record a run that asks it as often (answer it again and save "
        "nbask.save_history(...) or the answered notebook)."
    )
