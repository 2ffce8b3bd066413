"""Usage history: "a memory nobody uses is a candidate for forgetting".

When a note was last used cannot be derived from the vault, so it is the one piece of
state kept only in SQLite (``usage`` table, keyed by note id, never dropped by
``index --rebuild``). ``export``/``import`` move it as JSON. Nothing is archived or
deleted because of usage: ``stale`` only lists. See adr/0007-usage-history.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from .config import MAX_STALE_DAYS
from .errors import EXPIRE, Argument, InvalidTimestamp, Operation, Spelled, UsageError, short_repr
from .lifecycle import format_timestamp, from_epoch_us, is_expired_us, parse_timestamp, to_epoch_us
from .results import UsedNote
from .shown_titles import shown_title
from .storage import Eligibility, NoteRow, UsageRow

if TYPE_CHECKING:
    from .consolidate import ConsolidationReport
    from .resolution import Located
    from .storage import Store

EXPORT_VERSION = 1
MICROSECONDS_PER_DAY = 86_400_000_000


@dataclass(frozen=True)
class StaleNote:
    id: str
    path: str
    title: str
    layer: str | None
    last_used_at: str | None
    use_count: int
    since: str  # the instant the age is measured from
    basis: str  # "last use", "created" or "file modified"
    idle_days: float

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# Why a note is not in the list, by the basis its age was measured from (see last_activity).
RECENT_REASONS = {
    "last use": "used within the last {days} days",
    "created": "never used, created within the last {days} days",
    "file modified": "no usage and no `created`: their file was modified within the last {days} days "
                     "(a copy or a git checkout resets that; add `created` to judge them by it)",
}
# Stale is not an MCP tool: its words for MCP are never shown.
EXPIRED_REASON = Spelled("already expired: hidden on every read path; ", EXPIRE, " lists them (or ", Operation(
    "`vaultmem stale --include-expired`", "Vault.stale(include_expired=True)", "`vaultmem stale --include-expired`"), ")")


class StaleNotes(list[StaleNote]):
    """The stale notes, oldest first, and what was left out: ``{reason: count}``."""

    def __init__(self, notes: Iterable[StaleNote] = (), left_out: Mapping[str, int] | None = None) -> None:
        super().__init__(notes)
        self.left_out = dict(left_out or {})


def record_uses(store: Store, resolved: Sequence[Located], moment: datetime) -> list[UsedNote]:
    """One use at ``moment`` for each note (named twice — 'Inbox' and 'Inbox.md' — it is one
    use), in one transaction; each note's usage after it."""
    located: dict[str, Located] = {}
    for item in resolved:
        located.setdefault(item.row.id, item)
    ids = list(located)
    with store.transaction():
        store.usage.record(ids, format_timestamp(moment), to_epoch_us(moment))
    usage = store.usage.for_ids(ids)
    return [UsedNote(item.row.id, item.row.path, usage[item.row.id].use_count, usage[item.row.id].last_used_at,
                     item.resolved_from) for item in located.values()]


def carry_merged_uses(store: Store, report: ConsolidationReport) -> None:
    """Each merged note's uses become its canonical's (counts added, the later last use): the
    merged id resolves to the canonical (its ``merged_from``), and a memory the agent used
    before it was merged is the same memory after it. Left behind, ``stale`` called the
    canonical unused (s28-life trial)."""
    clusters = {cluster.canonical.path: cluster for cluster in report.clusters}
    finished = {cluster.canonical.path: cluster for cluster in report.plan.unfinished}
    with store.transaction():
        # Finished merges first, as apply ran them: a kept note of one may be merged into another
        # note by a new cluster, which then carries the uses it was given here (s35 review).
        for merged, cluster in [*((entry, finished[entry.canonical]) for entry in report.finished),
                                *((entry, clusters[entry.canonical]) for entry in report.merged)]:
            archived = {note.path for note in merged.merged}
            for member in cluster.merged:
                if member.path in archived:
                    store.usage.rename(member.id, cluster.canonical.id)


def stale_notes(store: Store, days: float, layers: Iterable[str] | None, moment: datetime,
                include_expired: bool = False) -> StaleNotes:
    """:func:`find_stale` over the indexed notes of ``layers`` (every layer: none given)."""
    # Expired notes are read too, only to be counted as left out (find_stale).
    rows = store.notes.eligible(Eligibility.asked(to_epoch_us(moment), layers=layers, include_expired=True))
    usage = store.usage.for_ids([row.id for row in rows])
    return find_stale(rows, usage, days, moment, include_expired)


def last_activity(row: NoteRow, usage: UsageRow | None) -> tuple[int, str]:
    """(epoch µs, basis): the last use, else ``created``, else the file's modification time."""
    if usage is not None:
        return usage.last_used_us, "last use"
    if row.created_us is not None:
        return row.created_us, "created"
    return row.mtime_ns // 1000, "file modified"


def find_stale(rows: Iterable[NoteRow], usage: Mapping[str, UsageRow], days: float, now: datetime,
               include_expired: bool = False) -> StaleNotes:
    """Notes idle for more than ``days``, oldest activity first (every layer counts); the
    others are counted by why they were left out."""
    # Written so that NaN fails too; an unbounded N overflows the date arithmetic below.
    if not 0 <= days <= MAX_STALE_DAYS:
        raise UsageError(Argument("days"), f" must be a number from 0 to {MAX_STALE_DAYS}, got {days}")
    cutoff = to_epoch_us(now - timedelta(days=days))
    now_us = to_epoch_us(now)
    stale: list[tuple[int, StaleNote]] = []
    left_out: dict[str, int] = {}
    for row in rows:
        if not include_expired and is_expired_us(row.expires_us, now_us):
            left_out[EXPIRED_REASON] = left_out.get(EXPIRED_REASON, 0) + 1
            continue
        used = usage.get(row.id)
        since_us, basis = last_activity(row, used)
        if since_us >= cutoff:
            reason = RECENT_REASONS[basis].format(days=f"{days:g}")
            left_out[reason] = left_out.get(reason, 0) + 1
            continue
        stale.append((since_us, StaleNote(
            id=row.id, path=row.path, title=shown_title(row.title, row.path), layer=row.layer,
            last_used_at=used.last_used_at if used else None, use_count=used.use_count if used else 0,
            since=format_timestamp(from_epoch_us(since_us)), basis=basis,
            idle_days=round((now_us - since_us) / MICROSECONDS_PER_DAY, 1),
        )))
    ordered = [note for _, note in sorted(stale, key=lambda item: (item[0], item[1].path))]
    return StaleNotes(ordered, dict(sorted(left_out.items(), key=lambda item: -item[1])))


def export_document(rows: Iterable[UsageRow]) -> dict[str, Any]:
    return {
        "version": EXPORT_VERSION,
        "usage": [
            {"note_id": row.note_id, "use_count": row.use_count, "last_used_at": row.last_used_at} for row in rows
        ],
    }


MAX_USE_COUNT = 2**53 - 1  # the largest integer every JSON reader keeps exact


def read_export(raw: bytes, source: str) -> Any:
    """The JSON document of a usage export file; :class:`UsageError` naming the file if
    it is not UTF-8 JSON (nothing is imported then)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(f"{source} is not UTF-8 text (bad byte at offset {error.start}); "
                         "give the JSON file `vaultmem usage export` wrote") from None
    try:
        return json.loads(text)
    except ValueError as error:  # JSONDecodeError, and integers too long to convert
        raise UsageError(f"{source} is not JSON ({str(error)[:200]}); give the file `vaultmem usage export` wrote") from None
    except RecursionError:  # an export is two levels deep; this one is deeper than json's recursion reads
        raise UsageError(f"{source} is nested too deeply to be a usage export; give the file `vaultmem usage export` wrote") from None


def parse_import(document: Any) -> list[UsageRow]:
    """Validate an exported usage document; every bad entry is named, nothing half-imported."""
    if not isinstance(document, dict) or document.get("version") != EXPORT_VERSION or not isinstance(document.get("usage"), list):
        raise UsageError(f"not a vaultmem usage export (expected {{\"version\": {EXPORT_VERSION}, \"usage\": [...]}})")
    rows = []
    for number, entry in enumerate(document["usage"]):
        rows.append(_import_row(number, entry))
    return rows


def _import_row(number: int, entry: Any) -> UsageRow:
    where = f"usage[{number}]"
    if not isinstance(entry, dict):
        raise UsageError(f"{where} is not an object")
    note_id, count, last = entry.get("note_id"), entry.get("use_count"), entry.get("last_used_at")
    if not isinstance(note_id, str) or not note_id:
        raise UsageError(f"{where}.note_id must be a non-empty string")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_USE_COUNT:
        raise UsageError(f"{where}.use_count must be a positive integer up to {MAX_USE_COUNT}, got {short_repr(count)}")
    try:
        moment = parse_timestamp(last)
    except InvalidTimestamp as error:
        raise UsageError(f"{where}.last_used_at: {error}") from None
    return UsageRow(note_id, count, format_timestamp(moment), to_epoch_us(moment))
