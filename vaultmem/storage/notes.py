"""The ``notes`` table: what the index knows about each note, all derived from its file,
and the read-time filters applied to them (the full text is the passages': passages.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ..dating import Bound, local_day_end, shown_date, shown_span, since_bound, until_bound, weekday_bound
from ..errors import REBUILD, Argument, DerivedIndexError, Spelled, UsageError
from ..fields import ANY_I, case_fold, name_form
from ..lifecycle import expiry_sql, from_epoch_us, normalize_layer, to_epoch_us
from ..note_numbers import begins_with_number
from ..notes import ALIASES, HEADING, Problem
from ..periods import MAX_SPAN_DAYS
from .connection import CASEFOLD, NFC, Connection, chunks, placeholders

SIMILAR_PATHS = 5  # suggestions in a "note not found" message
NAME_KEY = "name_key"  # the kind of a name key's row in note_names (fields.name_key)
TOPIC_KEY = "topic_key"  # the kind of a topic key's row (fields.name_topic): a name in a question's words
HEADING_KEY = "heading_key"  # the name key of the # heading a note opens with (fields.opening_heading_key) when none of its names' is


_SEPARATORS = re.compile(r"[\s_-]+")  # between words of a name: LIKE's '_' (any one character) stands for them

@dataclass(frozen=True)
class NoteRow:
    """What the index knows about one note (all derived from its file)."""

    id: str
    path: str
    title: str
    layer: str | None
    tags: list[str]
    created: str | None
    created_us: int | None
    expires_at: str | None
    expires_us: int | None
    expiry_invalid: bool
    permanent: bool
    content_hash: str
    embed_hash: str
    mtime_ns: int
    size: int
    body_chars: int
    problems: list[dict[str, str]]
    label: int | None = None
    dated_us: int | None = None  # the note's date (dating.py), for search by date
    dated_day: bool | None = None  # is that date a day's label (its midnight UTC) or an instant? None: no date
    dated_end_us: int | None = None  # a periodic note's last day's label (dated_us: its first's); None: one date
    dated_said: str | None = None  # the date's time as the note writes it, when shown so (dating.NoteDate.said)
    dated_from: str | None = None  # "git" when git's history gave the date ([dates] from_git, git_dates.py); None: the note
    turn_key: bytes | None = None  # a conversation turn's place in its folder (turns.order_key); None: no turn

    @property
    def date(self) -> str | None:
        """The note's date as a hit and ``get`` give it (dating.shown_date; a periodic note's
        period as ISO names it, ``2026-W09``); None: it has none."""
        if self.dated_us is None:
            return None
        if self.dated_end_us is not None:
            return shown_span(from_epoch_us(self.dated_us), from_epoch_us(self.dated_end_us))
        if self.dated_said is not None:
            return self.dated_said
        return shown_date(from_epoch_us(self.dated_us), is_day_date(self.dated_us, self.dated_day))

    def params(self) -> tuple[Any, ...]:
        return (
            self.id, self.path, self.title, self.layer, json.dumps(self.tags, ensure_ascii=False),
            self.created, self.created_us, self.expires_at, self.expires_us, int(self.expiry_invalid),
            int(self.permanent), self.content_hash, self.embed_hash, int(self.mtime_ns), int(self.size),
            int(self.body_chars), json.dumps(self.problems, ensure_ascii=False), self.dated_us,
            None if self.dated_day is None else int(self.dated_day), self.dated_end_us, self.dated_said, self.dated_from,
            self.turn_key,
        )


_NOTE_COLUMN_NAMES = (
    "id", "path", "title", "layer", "tags", "created", "created_us", "expires_at", "expires_us", "expiry_invalid",
    "permanent", "content_hash", "embed_hash", "mtime_ns", "size", "body_chars", "problems", "dated_us",
    "dated_day", "dated_end_us", "dated_said", "dated_from", "turn_key",
)
_NOTE_COLUMNS = ", ".join(_NOTE_COLUMN_NAMES)
_SELECT_NOTE = f"SELECT label, {_NOTE_COLUMNS} FROM notes"


def _spelled(column: str, normalized: bool) -> str:
    """``column`` as stored, or (``normalized``) in NFC. An ASCII value is its own NFC: only
    the others pay for the call into Python (a name lookup scans the notes then)."""
    if not normalized:
        return column
    return f"(CASE WHEN length({column}) = length(CAST({column} AS BLOB)) THEN {column} ELSE {NFC}({column}) END)"


def _folded(column: str, normalized: bool) -> str:
    """``column`` case folded (``str.casefold``), as stored or (``normalized``) in NFC. An ASCII
    value is folded by SQLite's ``lower()``, which folds ASCII alike: only the others pay for
    the call into Python."""
    ascii_only = f"length({column}) = length(CAST({column} AS BLOB))"
    return f"(CASE WHEN {ascii_only} THEN lower({column}) ELSE {CASEFOLD}({_spelled(column, normalized)}) END)"


def _row_to_note(row: Sequence[Any]) -> NoteRow:
    return NoteRow(
        label=row[0], id=row[1], path=row[2], title=row[3], layer=row[4], tags=json.loads(row[5]),
        created=row[6], created_us=row[7], expires_at=row[8], expires_us=row[9],
        expiry_invalid=bool(row[10]), permanent=bool(row[11]), content_hash=row[12],
        embed_hash=row[13], mtime_ns=row[14], size=row[15], body_chars=row[16],
        problems=json.loads(row[17]), dated_us=row[18], dated_day=None if row[19] is None else bool(row[19]),
        dated_end_us=row[20], dated_said=row[21], dated_from=row[22],
        turn_key=row[23],
    )


@dataclass(frozen=True)
class FileState:
    label: int
    path: str
    mtime_ns: int
    size: int
    content_hash: str
    embed_hash: str


class Absorbed(NamedTuple):
    """A note another note lists in ``merged_from`` (:meth:`NoteStore.absorbed_yet_here`)."""

    by: str  # the path of the note that lists it
    by_path: bool  # listed by its path, not an id of its own


@dataclass(frozen=True)
class PoolNote:
    """What consolidation needs to know about a note before it reads any vector."""

    label: int
    path: str
    layer: str | None
    problems: list[dict[str, str]]
    expiry_invalid: bool
    no_deadline: bool = False  # neither expires_at nor permanent


DAY_US = 86_400_000_000  # microseconds in a UTC day
# A periodic note's span is at most this long (periods.py), so a note whose span reaches a since
# bound starts at most this much before it: what lets the index on dated_us narrow an overlap test.
MAX_SPAN_US = MAX_SPAN_DAYS * DAY_US



class EpochBound(NamedTuple):
    """One end of a search by date in epoch microseconds (dating.Bound): the bound a note dated
    by a day's label is compared with, and the one a note dated by an instant is."""

    day_us: int
    instant_us: int

    @classmethod
    def of(cls, bound: Bound) -> EpochBound:
        return cls(to_epoch_us(bound.day), to_epoch_us(bound.instant))

    def applied(self, is_day: bool) -> int:
        """The bound a note's date is compared with, by its kind."""
        return self.day_us if is_day else self.instant_us


class AroundRange(NamedTuple):
    """How a search's dated notes lie against its date range (``NoteStore.around_range``):
    each nearest date is its epoch microseconds and whether it is a day's label."""

    inside: int
    outside: int
    before: tuple[int, bool, int | None] | None  # the latest date before the range (and a span's last day)
    after: tuple[int, bool, int | None] | None  # the earliest date after it


def is_day_date(dated_us: int, dated_day: bool | None) -> bool:
    """Is a note's stored date a day's label? Its kind, as the index keeps it; a row of an index
    made before kinds were kept (NULL, until the re-read its migration asks for fills it): a day
    if the date is a UTC midnight, as a day's label always is. Without that, a search answered
    from such an index while another process holds the write lock (a warning says it is behind)
    would compare every daily note with the instant bounds. ``_DAY_SQL`` is the same rule."""
    return dated_day if dated_day is not None else dated_us % DAY_US == 0


def _rough_key(row: NoteRow) -> int:
    """Where SQL orders a note in a listing: an instant as itself, a day's label as that day's
    last instant in UTC (a note without a date is never asked: those come after the dated)."""
    dated_us = row.dated_us or 0
    if not is_day_date(dated_us, row.dated_day):
        return dated_us
    return (dated_us if row.dated_end_us is None else row.dated_end_us) + DAY_US - 1  # a period: its last day


def _local_key(row: NoteRow, ends: dict[int, int]) -> int:
    """Where a dated note belongs in a listing: an instant as itself, a day's label as that
    local day's last instant (``ends``: those already worked out, by label). Kept within a day of
    the rough key, as a real offset is: a day the OS cannot place (year 1, 9999) falls back to it."""
    rough = _rough_key(row)
    if rough == (row.dated_us or 0):
        return rough
    label = rough - DAY_US + 1  # the label of the day it is listed by (a period's last)
    if label not in ends:
        end = to_epoch_us(local_day_end(from_epoch_us(label).date()))
        ends[label] = min(max(end, rough - DAY_US + 1), rough + DAY_US - 1)
    return ends[label]


# is_day_date in SQL (a NULL date gives NULL, and the bounds' comparisons fail it anyway).
# SQLite's % keeps the sign of the date and Python's that of DAY_US, but both are 0 exactly at a midnight.
_DAY_SQL = "coalesce({alias}.dated_day, {alias}.dated_us % " + str(DAY_US) + " = 0)"


@dataclass(frozen=True)
class Eligibility:
    """Read-time filters, applied in SQL: expiry (``lifecycle.expiry_sql``), layers, tags, and
    the note's date (``dating.py``)."""

    now_us: int  # the instant expiry is evaluated at (and hits are marked expired at)
    include_expired: bool = False
    layers: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    since_us: EpochBound | None = None  # only notes dated at or after this (a day's label, an instant)
    until_us: EpochBound | None = None  # only notes dated at or before this

    @classmethod
    def asked(cls, now_us: int, *, layers: Iterable[str] | None = None, tags: Iterable[str] | None = None,
              include_expired: bool = False, since: str | None = None, until: str | None = None,
              week_start: int = 0) -> Eligibility:
        """The filters as a caller names them: layers by code or alias, any case (each once,
        in order; an unknown one is :class:`UnknownLayer`), tags with or without ``#``, the
        date bounds as ``dating.since_bound`` / ``until_bound`` read them (``week_start``: the
        vault's first day of the week, for ``this week`` and ``last week``)."""
        asked = tuple(tag.strip().lstrip("#").rstrip("/") for tag in tags or ())
        if "" in asked:  # would pass only notes with an empty tag or one starting with "/": nothing asked for
            raise UsageError(Argument("tags", flag="--tag"), " holds a tag with no name; give a tag such as project or project/harbor")
        now = from_epoch_us(now_us)
        first = None if since is None else since_bound(since, now, week_start)
        after = first if since is not None and weekday_bound(since) else None  # --since monday --until wednesday: that span
        since_us = None if first is None else EpochBound.of(first)
        until_us = None if until is None else EpochBound.of(until_bound(until, now, week_start, since=after))
        # Refused when the instants are: they are the range as this machine's clock says it. A
        # bound with a time can leave the days' labels an empty range beside them (in Los Angeles,
        # since 20:00 on the 30th until the 30th: that label ends at its midnight UTC, 16:00 there),
        # and the range still holds that evening's memories.
        if since_us is not None and until_us is not None and since_us.instant_us > until_us.instant_us:
            raise UsageError(Argument("since", repr(since)), " is after ", Argument("until", repr(until)),
                             ": no note's date can be in that range; swap them")
        return cls(now_us=now_us, include_expired=include_expired,
                   layers=tuple(sorted({normalize_layer(layer) for layer in layers or ()})), tags=asked,
                   since_us=since_us, until_us=until_us)

    @property
    def dated(self) -> bool:
        """Is a date range asked for?"""
        return self.since_us is not None or self.until_us is not None

    def in_range(self, dated_us: int | None, dated_day: bool | None, dated_end_us: int | None = None) -> bool:
        """Does a note with this date (a day's label or an instant; a periodic note's span, its
        first and last days' labels) pass the date bounds? A span passes when it overlaps the
        range. (No date: only when none is asked.) The rule :meth:`where` writes in SQL."""
        if not self.dated:
            return True
        if dated_us is None:
            return False
        is_day = is_day_date(dated_us, dated_day)
        last = dated_us if dated_end_us is None else dated_end_us
        return ((self.since_us is None or last >= self.since_us.applied(is_day))
                and (self.until_us is None or dated_us <= self.until_us.applied(is_day)))

    @property
    def filters(self) -> bool:
        """Does any note fail these filters? (False: every indexed note is eligible.)"""
        return not self.include_expired or bool(self.layers) or bool(self.tags) or self.dated

    def where(self, alias: str = "notes") -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if not self.include_expired:
            alive, alive_params = expiry_sql(f"{alias}.expires_us", self.now_us)
            clauses.append(alive)
            params.extend(alive_params)
        if self.layers:
            clauses.append(f"{alias}.layer IN ({placeholders(len(self.layers))})")
            params.extend(self.layers)
        for tag in self.tags:
            carried, carried_params = carried_tag_sql(f"{alias}.tags", tag)
            clauses.append(carried)
            params.extend(carried_params)
        dated, dated_params = self.date_where(alias)
        if self.dated:
            clauses.append(dated)
            params.extend(dated_params)
        return (" AND ".join(clauses) or "1"), params

    def date_where(self, alias: str = "notes") -> tuple[str, list[Any]]:
        """The date bounds alone, in SQL (``1`` when none is asked): in_range's rule."""
        clauses: list[str] = []
        params: list[Any] = []
        is_day = _DAY_SQL.format(alias=alias)
        # A note without a date (NULL) fails every comparison. Each bound is said twice: first the
        # looser of its two (so the index on dated_us narrows the rows to read), then the one for
        # the note's kind — in_range's rule. A periodic note passes since by its span's last day:
        # its first (dated_us) is at most MAX_SPAN_US before that, so the index still narrows.
        last = f"coalesce({alias}.dated_end_us, {alias}.dated_us)"
        if self.since_us is not None:
            bound = self.since_us
            clauses.append(f"{alias}.dated_us >= ? AND {last} >= CASE WHEN {is_day} THEN ? ELSE ? END")
            params.extend([min(bound.day_us, bound.instant_us) - MAX_SPAN_US, bound.day_us, bound.instant_us])
        if self.until_us is not None:
            bound = self.until_us
            clauses.append(f"{alias}.dated_us <= ? AND {alias}.dated_us <= CASE WHEN {is_day} THEN ? ELSE ? END")
            params.extend([max(bound.day_us, bound.instant_us), bound.day_us, bound.instant_us])
        return (" AND ".join(clauses) or "1"), params

    @property
    def alive(self) -> Eligibility:
        """These filters' expiry alone: the notes that count at this instant, whatever layers,
        tags and dates are asked for."""
        return Eligibility(now_us=self.now_us, include_expired=self.include_expired)

    @property
    def undated(self) -> Eligibility:
        """These filters without the date bounds."""
        return replace(self, since_us=None, until_us=None)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _plain_tag(asked: str) -> bool:
    """Does the filter ``asked`` fold with ASCII letters alone (SQLite's fast ``lower``)?"""
    return asked.translate(ANY_I).isascii()


def fold_tag(value: str, asked: str) -> str:
    """``value`` case-folded for comparing with the filter ``asked``: Turkish ``İ`` and ``ı``
    are ``i`` first (``fields.ANY_I``: #İş is --tag iş, #ısparta --tag ISPARTA); then an ASCII
    filter folds ASCII letters only (SQLite's ``lower``, fast: ``Über`` is not ``uber``, and
    ``Straße`` is found by ``straße``, not ``strasse``), any other filter folds every letter
    (``fields.case_fold``, registered in SQLite as ``vm_casefold`` — a Python call per tag, paid
    only by such a filter). Python and SQL apply the same fold to the same filter."""
    return value.translate(ANY_I).translate(_ASCII_LOWER) if _plain_tag(asked) else case_fold(value)


def carried_tag_sql(column: str, tag: str) -> tuple[str, list[Any]]:
    """:func:`carries_tag` in SQL, on ``column`` (a JSON list of tags), and its parameters."""
    fold = "lower" if _plain_tag(tag) else CASEFOLD
    folded = fold_tag(tag, tag)
    carried = f"{fold}(replace(replace(json_each.value, 'İ', 'i'), 'ı', 'i'))"  # fold_tag's ANY_I
    return (f"EXISTS (SELECT 1 FROM json_each({column}) WHERE {carried} = ? OR substr({carried}, 1, ?) = ?)",
            [folded, len(folded) + 1, folded + "/"])


def carries_tag(tags: Iterable[str], tag: str) -> bool:
    """Does a note with ``tags`` pass the filter ``--tag tag``? It carries the tag or one nested
    under it (``project`` is passed by ``project/harbor``), case-insensitively — as Obsidian's
    tag search does. The one rule, also applied in SQL by :meth:`Eligibility.where`."""
    asked = fold_tag(tag, tag)
    folded = [fold_tag(carried, tag) for carried in tags]
    return any(carried == asked or carried.startswith(asked + "/") for carried in folded)


class NoteStore:
    """Notes by label (also their label in the note vector space)."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    # -- writing (the indexer, inside its transactions)

    def insert(self, row: NoteRow, names: Sequence[tuple[str, str]] = (), keys: Sequence[str] = (),
               topics: Sequence[str] = (), heading: str = "") -> int:
        """Add a note; ``names``: (kind, name) pairs it also answers to (``notes.lookup_names``);
        ``keys``: its name keys (``fields.name_key``: what an exact-name query is compared with);
        ``topics``: its topic keys (``fields.name_topic``: what a question naming it is compared with);
        ``heading``: the key of the heading it opens with (``fields.opening_heading_key``), which
        a "no note matches" error suggests a part of (:meth:`opening_with`) and which finds the
        notes answering by their heading besides another (:meth:`keyed_besides`); the heading
        itself, which names the note, is among ``names`` (notes.HEADING)."""
        cursor = self.db.execute(
            f"INSERT INTO notes ({_NOTE_COLUMNS}) VALUES ({placeholders(len(_NOTE_COLUMN_NAMES))})", row.params()
        )
        label = cursor.lastrowid
        if label is None:  # SQLite sets it on every INSERT into a rowid table
            raise DerivedIndexError(Spelled(f"{self.db.path}: inserting {row.path} returned no label; ", REBUILD))
        self._write_names(label, names, keys, topics, heading)
        return label

    def update(self, label: int, row: NoteRow, names: Sequence[tuple[str, str]] = (), keys: Sequence[str] = (),
               topics: Sequence[str] = (), heading: str = "") -> None:
        """Replace a note's metadata, names, name, topic and heading keys (its passages are the passage store's)."""
        assignments = ", ".join(f"{column} = ?" for column in _NOTE_COLUMN_NAMES)
        self.db.execute(f"UPDATE notes SET {assignments} WHERE label = ?", (*row.params(), int(label)))
        self.db.execute("DELETE FROM note_names WHERE label = ?", (int(label),))
        self._write_names(label, names, keys, topics, heading)

    def _write_names(self, label: int, names: Sequence[tuple[str, str]], keys: Sequence[str], topics: Sequence[str],
                     heading: str = "") -> None:
        # Name, topic and heading keys share the table under kinds of their own, which no frontmatter
        # field (the other kinds) can be: resolving a NOTE never sees them, a query never sees the rest.
        rows = [*names, *((NAME_KEY, key) for key in keys), *((TOPIC_KEY, topic) for topic in topics),
                *([(HEADING_KEY, heading)] if heading else [])]
        self.db.executemany("INSERT INTO note_names (label, kind, name) VALUES (?, ?, ?)",
                            [(int(label), kind, name) for kind, name in rows])

    def mark_all_changed(self) -> None:
        """Make every row look changed, so the next reconcile reads every file again (the
        rules that turn a file into a row or its vectors changed: see searchable.INDEX_RULES)."""
        self.db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1")

    def mark_changed_in(self, folders: Iterable[str]) -> None:
        """Make every row in these folders (``""``: the whole vault) look changed, so the next
        reconcile reads those files again (the daily-note format that dates them changed)."""
        for folder in sorted(set(folders)):
            if not folder:
                self.mark_all_changed()
                return
            prefix = folder + "/"
            self.db.execute("UPDATE notes SET content_hash = '', mtime_ns = -1 WHERE substr(path, 1, ?) = ?", (len(prefix), prefix))

    def mark_paths_changed(self, paths: Iterable[str]) -> None:
        """Make the rows of these paths look changed, so the next reconcile reads those files
        again (the dates git gives them changed: a commit added or moved them)."""
        self.db.executemany("UPDATE notes SET content_hash = '', mtime_ns = -1 WHERE path = ?", [(path,) for path in paths])

    def touch(self, label: int, mtime_ns: int, size: int) -> None:
        self.db.execute("UPDATE notes SET mtime_ns = ?, size = ? WHERE label = ?", (int(mtime_ns), int(size), int(label)))

    def delete(self, labels: Iterable[int]) -> None:
        params = [(int(label),) for label in labels]
        self.db.executemany("DELETE FROM notes WHERE label = ?", params)
        self.db.executemany("DELETE FROM note_names WHERE label = ?", params)

    # -- change detection

    def file_state(self, path: str) -> FileState | None:
        row = self.db.execute(
            "SELECT label, path, mtime_ns, size, content_hash, embed_hash FROM notes WHERE path = ?", (path,)
        ).fetchone()
        return None if row is None else FileState(*row)

    def file_stats(self) -> dict[str, tuple[int, int]]:
        """path → (mtime_ns, size) of every note: what a walk of the vault compares against."""
        return {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT path, mtime_ns, size FROM notes")}

    def paths_holding(self, content_hash: str) -> list[str]:
        """The paths of the notes whose file's bytes hash to ``content_hash`` (notes.content_hash)."""
        return [row[0] for row in self.db.execute("SELECT path FROM notes WHERE content_hash = ? ORDER BY path", (content_hash,))]

    def paths_by_id(self, ids: Iterable[str]) -> dict[str, list[str]]:
        """id → the paths of the notes that hold it, for each of ``ids`` some note holds."""
        found: dict[str, list[str]] = {}
        for chunk in chunks(ids):
            query = f"SELECT id, path FROM notes WHERE id IN ({placeholders(len(chunk))}) ORDER BY path"
            for ident, path in self.db.execute(query, chunk):
                found.setdefault(ident, []).append(path)
        return found

    def tag_names(self) -> list[str]:
        """Every tag any note carries (expired or not), as written, each spelling once."""
        rows = self.db.execute("SELECT DISTINCT json_each.value FROM notes, json_each(notes.tags) ORDER BY 1")
        return [str(row[0]) for row in rows]

    def file_states(self) -> dict[str, FileState]:
        rows = self.db.execute("SELECT label, path, mtime_ns, size, content_hash, embed_hash FROM notes")
        return {row[1]: FileState(*row) for row in rows}

    # -- reading notes

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM notes").fetchone()[0])

    def count_at_most(self, limit: int) -> int:
        """How many notes the index holds, counted up to ``limit`` (cheap at any size)."""
        return int(self.db.execute("SELECT count(*) FROM (SELECT 1 FROM notes LIMIT ?)", (int(limit),)).fetchone()[0])

    def by_labels(self, labels: Sequence[int]) -> dict[int, NoteRow]:
        found: dict[int, NoteRow] = {}
        for chunk in chunks(int(label) for label in labels):
            for row in self.db.execute(f"{_SELECT_NOTE} WHERE label IN ({placeholders(len(chunk))})", chunk):
                found[row[0]] = _row_to_note(row)
        return found

    def by_path(self, path: str) -> NoteRow | None:
        row = self.db.execute(f"{_SELECT_NOTE} WHERE path = ?", (path,)).fetchone()
        return None if row is None else _row_to_note(row)

    def paths_by_labels(self, labels: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, path FROM notes WHERE label IN ({placeholders(len(chunk))})"
            found.update(self.db.execute(query, chunk))  # (label, label) rows as they come
        return found

    def has_turns(self) -> bool:
        """Is any note a conversation turn (turns.py)? One look-up of the turns' index."""
        return self.db.execute("SELECT 1 FROM notes WHERE turn_key IS NOT NULL LIMIT 1").fetchone() is not None

    def turn_keys(self) -> list[bytes]:
        """The keys of every conversation turn (turns.order_key)."""
        return [bytes(key) for (key,) in self.db.execute("SELECT turn_key FROM notes WHERE turn_key IS NOT NULL")]

    def all_turns(self) -> list[tuple[int, bytes, str]]:
        """(label, key, title) of every conversation turn, in their order (ties: by label): turn_windows.chains."""
        query = "SELECT label, turn_key, title FROM notes WHERE turn_key IS NOT NULL ORDER BY turn_key, label"
        return [(int(label), bytes(key), str(title)) for label, key, title in self.db.execute(query)]

    def turns_in(self, keys: tuple[bytes, bytes]) -> list[tuple[int, bytes]]:
        """(label, key) of the turns whose keys are from ``keys[0]`` on and before ``keys[1]``
        (a chain's: turns.chain_keys), in their order (ties: by label)."""
        query = "SELECT label, turn_key FROM notes WHERE turn_key >= ? AND turn_key < ? ORDER BY turn_key, label"
        return [(int(label), bytes(key)) for label, key in self.db.execute(query, keys)]

    def turns_around(self, keys: tuple[bytes, bytes], key: bytes, before: int, after: int) -> list[tuple[int, bytes]]:
        """(label, key) of the ``before`` turns before ``key``, those at it (equal keys:
        turns.affected) and the ``after`` turns after it, among those whose keys are within
        ``keys`` (:meth:`turns_in`), in their order: three seeks in the turns' index, whatever the
        folder's size."""
        earlier = self.db.execute("SELECT label, turn_key FROM notes WHERE turn_key >= ? AND turn_key < ? "
                                  "ORDER BY turn_key DESC, label DESC LIMIT ?", (keys[0], key, int(before)))
        found = [(int(label), bytes(at)) for label, at in earlier][::-1]
        same = self.db.execute("SELECT label, turn_key FROM notes WHERE turn_key = ? ORDER BY label", (key,))
        later = self.db.execute("SELECT label, turn_key FROM notes WHERE turn_key > ? AND turn_key < ? "
                                "ORDER BY turn_key, label LIMIT ?", (key, keys[1], int(after)))
        found += [(int(label), bytes(at)) for label, at in (*same, *later)]
        return found

    def turn_keys_at(self, paths: Sequence[str]) -> list[bytes]:
        """The keys of the turns among the notes at ``paths`` (turns.order_key)."""
        found: list[bytes] = []
        for chunk in chunks(paths):
            query = f"SELECT turn_key FROM notes WHERE path IN ({placeholders(len(chunk))}) AND turn_key IS NOT NULL"
            found.extend(bytes(key) for (key,) in self.db.execute(query, chunk))
        return found

    def turns_of(self, labels: Sequence[int]) -> list[tuple[int, bytes, str]]:
        """(label, key, title) of the turns among the notes of ``labels`` (:meth:`all_turns`' rows)."""
        found: list[tuple[int, bytes, str]] = []
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, turn_key, title FROM notes WHERE label IN ({placeholders(len(chunk))}) AND turn_key IS NOT NULL"
            found.extend((int(label), bytes(key), str(title)) for label, key, title in self.db.execute(query, chunk))
        return found

    def turn_keys_of(self, labels: Sequence[int]) -> list[bytes]:
        """The keys of the turns among the notes of ``labels``."""
        found: list[bytes] = []
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT turn_key FROM notes WHERE label IN ({placeholders(len(chunk))}) AND turn_key IS NOT NULL"
            found.extend(bytes(key) for (key,) in self.db.execute(query, chunk))
        return found

    # -- resolving a NOTE argument (resolution.py). ``normalized``: compare the names in NFC
    # (fields.name_form), a scan; otherwise as stored, byte for byte (indexed where it can be).

    def find(self, reference: str, *, normalized: bool = False) -> list[NoteRow]:
        """Notes whose id, path, or path without ``.md`` is ``reference``."""
        reference = name_form(reference) if normalized else reference
        id_, path = _spelled("id", normalized), _spelled("path", normalized)
        query = f"{_SELECT_NOTE} WHERE {id_} = ? OR {path} = ? OR {path} = ? ORDER BY path"
        return [_row_to_note(row) for row in self.db.execute(query, (reference, reference, reference + ".md"))]

    def find_by_name(self, name: str, *, normalized: bool = False) -> list[NoteRow]:
        """Notes whose file name (without .md) is ``name`` in any case, in any folder — as
        Obsidian resolves [[name]]: ``Kyoto`` names ``References/Kyoto.md`` and ``memories/kyoto.md``."""
        name = case_fold(name_form(name) if normalized else name)
        file_name = name if name.endswith(".md") else name + ".md"
        suffix = "/" + file_name
        path = _folded("path", normalized)
        # The path's tail compared as a string (no LIKE wildcards): case folding works on each
        # character alone, so the folded path ends in the folded "/name.md" iff its file name is it.
        query = f"{_SELECT_NOTE} WHERE {path} = ? OR substr({path}, -?) = ? ORDER BY path"
        return [_row_to_note(row) for row in self.db.execute(query, (file_name, len(suffix), suffix))]

    def file_names_starting(self, number: str) -> list[NoteRow]:
        """Notes whose file name begins with ``number`` (digits and dots: no LIKE wildcard) and
        no further digit, nor a dot and a digit: ``202103131641 - The US South….md`` for
        ``202103131641``, ``11.01 Grant.md`` for ``11.01`` (never ``11.012 x.md`` nor
        ``11.01.2 x.md``); a scan of the paths."""
        query = f"{_SELECT_NOTE} WHERE path LIKE ? OR path LIKE ? ORDER BY path"
        rows = [_row_to_note(row) for row in self.db.execute(query, (f"{number}%", f"%/{number}%"))]
        return [row for row in rows if begins_with_number(row.path.rsplit("/", 1)[-1], number)]

    def by_name_entry(self, name: str, kinds: Sequence[str], *, normalized: bool = False,
                      any_case: bool = False) -> list[tuple[NoteRow, str]]:
        """Notes that list ``name`` in one of the frontmatter fields ``kinds`` (``aliases``,
        ``merged_from``, ``supersedes``), with the field that lists it; by path. ``any_case``
        (aliases, as Obsidian matches them): compared case folded, a scan of those fields' rows;
        otherwise byte for byte (ids: an opaque token), through the index on the name."""
        spelled = name_form(name) if normalized else name
        compared = (_folded if any_case else _spelled)("note_names.name", normalized)
        query = (f"SELECT DISTINCT {', '.join('notes.' + column for column in ('label', *_NOTE_COLUMN_NAMES))}, "
                 "note_names.kind FROM note_names JOIN notes ON notes.label = note_names.label "
                 f"WHERE note_names.kind IN ({placeholders(len(kinds))}) AND {compared} = ? "
                 "ORDER BY notes.path, note_names.kind")
        wanted = case_fold(spelled) if any_case else spelled
        return [(_row_to_note(row), row[-1]) for row in self.db.execute(query, (*kinds, wanted))]

    def replacing(self, labels: Sequence[int], kind: str) -> list[tuple[int, int]]:
        """(successor, replaced) pairs among ``labels``: a note that lists another's id in its
        frontmatter field ``kind`` (``supersedes``), neither being the other; in label order."""
        wanted = {int(label) for label in labels}
        found: list[tuple[int, int]] = []
        for chunk in chunks(sorted(wanted)):
            query = ("SELECT note_names.label, replaced.label FROM note_names JOIN notes AS replaced "
                     f"ON replaced.id = note_names.name WHERE note_names.kind = ? AND note_names.label IN ({placeholders(len(chunk))})")
            found.extend((int(successor), int(old)) for successor, old in self.db.execute(query, (kind, *chunk))
                         if old in wanted and old != successor)
        return sorted(set(found))

    def listed_by(self, labels: Sequence[int], kind: str) -> list[tuple[int, int]]:
        """(successor, replaced) pairs of the notes ``labels`` whose id another note lists in its
        frontmatter field ``kind`` (``supersedes``), that note anywhere in the index; in label
        order. Through the notes' key and the index on the name: as cheap for 10 labels of a
        10k-note vault as :meth:`replacing`, where that over a pool of 200 took a millisecond."""
        found: list[tuple[int, int]] = []
        for chunk in chunks(sorted({int(label) for label in labels})):
            query = ("SELECT note_names.label, listed.label FROM notes AS listed JOIN note_names ON note_names.name = listed.id "
                     f"WHERE note_names.kind = ? AND listed.label IN ({placeholders(len(chunk))})")
            found.extend((int(successor), int(old)) for successor, old in self.db.execute(query, (kind, *chunk)) if successor != old)
        return sorted(set(found))

    def absorbed_yet_here(self, kind: str) -> dict[int, Absorbed]:
        """Notes whose id another note lists in its field ``kind`` (``merged_from``), although
        they are still indexed: their label → the (first) note that lists them, and whether the
        id listed is the note's path (a note without an ``id``: a new note may take that name)."""
        rows = self.db.execute(
            "SELECT absorbed.label, absorber.path, absorbed.id, absorbed.path FROM note_names "
            "JOIN notes AS absorber ON absorber.label = note_names.label "
            "JOIN notes AS absorbed ON absorbed.id = note_names.name "
            "WHERE note_names.kind = ? AND absorbed.label != absorber.label ORDER BY absorber.path", (kind,))
        found: dict[int, Absorbed] = {}
        for label, absorber, listed, path in rows:
            found.setdefault(int(label), Absorbed(str(absorber), f"{listed}.md" == path))
        return found

    def lists_any(self, kinds: Sequence[str]) -> bool:
        """Does any note list a name in one of the frontmatter fields ``kinds``?"""
        query = f"SELECT 1 FROM note_names WHERE kind IN ({placeholders(len(kinds))}) LIMIT 1"
        return self.db.execute(query, tuple(kinds)).fetchone() is not None

    def labels_named(self, key: str, eligibility: Eligibility, kind: str = NAME_KEY) -> list[int]:
        """Eligible notes one of whose name keys (file name, title, alias) is ``key``, by label
        (``kind`` TOPIC_KEY: one of whose topic keys is)."""
        where, params = eligibility.where()
        query = ("SELECT DISTINCT notes.label FROM note_names JOIN notes ON notes.label = note_names.label "
                 f"WHERE note_names.kind = ? AND note_names.name = ? AND {where} ORDER BY notes.label")
        return [row[0] for row in self.db.execute(query, (kind, key, *params))]

    def labels_with_id(self, note_id: str, eligibility: Eligibility) -> list[int]:
        """Eligible notes whose id (frontmatter ``id``, else the path without ``.md``) is ``note_id``
        as written, by label: one indexed lookup."""
        where, params = eligibility.where()
        query = f"SELECT label FROM notes WHERE id = ? AND {where} ORDER BY label"
        return [row[0] for row in self.db.execute(query, (note_id, *params))]

    def labels_numbered(self, number: str, eligibility: Eligibility) -> list[int]:
        """Eligible notes whose file name begins with ``number`` (note_numbers.begins_with_number:
        ``202403141205 Idea.md``, ``11.01 Grant.md`` for ``11.01``), by label; a scan of the paths,
        as :meth:`file_names_starting`."""
        where, params = eligibility.where()
        query = f"SELECT label, path FROM notes WHERE (path LIKE ? OR path LIKE ?) AND {where} ORDER BY label"
        rows = self.db.execute(query, (f"{number}%", f"%/{number}%", *params))
        return [row[0] for row in rows if begins_with_number(row[1].rsplit("/", 1)[-1], number)]

    def topic_keys_of(self, labels: Sequence[int]) -> dict[int, list[str]]:
        """Each of these notes' topic keys (``fields.name_topic`` of its names), by label; a note
        with none is left out. For a question that names a note by some of its words
        (search.Searcher._named_by_words): one statement for the text side's first few notes."""
        wanted = sorted({int(label) for label in labels})
        found: dict[int, list[str]] = {}
        for chunk in chunks(wanted):
            query = (f"SELECT label, name FROM note_names WHERE kind = ? AND label IN ({placeholders(len(chunk))}) "
                     "ORDER BY label, rowid")
            for label, name in self.db.execute(query, (TOPIC_KEY, *chunk)):
                found.setdefault(label, []).append(name)
        return found

    def topics_starting(self, words: str, eligibility: Eligibility, *, limit: int) -> list[tuple[int, str]]:
        """(label, topic key) of eligible notes one of whose topic keys starts with the words
        ``words`` and goes on (``steph`` finds ``steph ango``, not ``stephen king`` nor ``steph``),
        at most ``limit`` rows."""
        where, params = eligibility.where()
        query = ("SELECT DISTINCT notes.label, note_names.name FROM note_names JOIN notes ON notes.label = note_names.label "
                 f"WHERE note_names.kind = ? AND note_names.name >= ? AND note_names.name < ? AND {where} "
                 "ORDER BY notes.label LIMIT ?")
        # Keys are compared as bytes: every key that starts with "steph " sorts in ["steph ", "steph!").
        return [(row[0], row[1]) for row in self.db.execute(query, (TOPIC_KEY, f"{words} ", f"{words}!", *params, limit))]

    def by_title(self, title: str, *, normalized: bool = False) -> list[NoteRow]:
        """Notes whose title is ``title`` in any case (as a file name is: :meth:`find_by_name`);
        a scan of the titles."""
        wanted = case_fold(name_form(title) if normalized else title)
        query = f"{_SELECT_NOTE} WHERE {_folded('title', normalized)} = ? ORDER BY path"
        return [_row_to_note(row) for row in self.db.execute(query, (wanted,))]

    def dated_on(self, label_us: int) -> list[NoteRow]:
        """Notes whose date is the day labelled ``label_us`` (its midnight UTC), not a period:
        one indexed lookup (the index on dated_us)."""
        query = f"{_SELECT_NOTE} WHERE dated_us = ? AND dated_end_us IS NULL ORDER BY path"
        return [_row_to_note(row) for row in self.db.execute(query, (label_us,))]

    def similar_paths(self, fragment: str, limit: int = SIMILAR_PATHS) -> list[str]:
        """Paths or titles holding ``fragment``, a space, ``-`` or ``_`` in it standing for any one
        of them: a person asks for ``Todd Hartley``, the file is ``todd-hartley.md`` (a trial's
        vault named every note so, and the error suggested nothing)."""
        pattern = f"%{_SEPARATORS.sub('_', fragment.replace('%', ''))}%"
        rows = self.db.execute(
            "SELECT path FROM notes WHERE path LIKE ? OR title LIKE ? ORDER BY path LIMIT ?", (pattern, pattern, limit)
        )
        return [row[0] for row in rows]

    def paths_and_titles(self) -> list[tuple[str, str]]:
        """Every note's path and title, by path: what a misspelt name is held against."""
        return [(str(row[0]), str(row[1])) for row in self.db.execute("SELECT path, title FROM notes ORDER BY path")]

    def opening_with(self, key: str, limit: int = SIMILAR_PATHS) -> list[str]:
        """Paths of the notes whose opening ``# heading`` (its name key, ``fields.opening_heading_key``)
        holds ``key``, a space or ``-`` in it standing for any one character; by path. For a "no
        note matches" error: a part of a heading names no note (the whole does: notes.HEADING)."""
        pattern = f"%{_SEPARATORS.sub('_', key.replace('%', ''))}%"
        rows = self.db.execute(
            "SELECT DISTINCT notes.path FROM note_names JOIN notes ON notes.label = note_names.label "
            "WHERE note_names.kind = ? AND note_names.name LIKE ? ORDER BY notes.path LIMIT ?", (HEADING_KEY, pattern, limit))
        return [row[0] for row in rows]

    def named_by_key(self, key: str, limit: int = SIMILAR_PATHS) -> list[tuple[str, str, list[str]]]:
        """(path, title, aliases) of the notes, expired or not, one of whose name keys (file name,
        title, alias: ``fields.name_key``) is ``key``; by path, at most ``limit``."""
        rows = self.db.execute(
            "SELECT DISTINCT notes.label, notes.path, notes.title FROM note_names JOIN notes ON notes.label = note_names.label "
            "WHERE note_names.kind = ? AND note_names.name = ? ORDER BY notes.path LIMIT ?", (NAME_KEY, key, limit))
        found = [(label, path, title) for label, path, title in rows]
        aliases: dict[int, list[str]] = {label: [] for label, _, _ in found}
        if found:
            query = (f"SELECT label, name FROM note_names WHERE kind = ? AND label IN ({placeholders(len(found))}) "
                     "ORDER BY label, rowid")
            for label, name in self.db.execute(query, (ALIASES, *aliases)):
                aliases[label].append(name)
        return [(path, title, aliases[label]) for label, path, title in found]

    def keyed_besides(self, key: str, label: int | None) -> list[tuple[NoteRow, list[str], str]]:
        """The notes other than ``label``, expired or not, one of whose name keys (file name,
        title, alias: ``fields.name_key``) or the key of whose opening heading is ``key``, each
        with its aliases and its opening heading (as stored: notes.HEADING; ``""``: none); by
        path. Through the index on the name: a NOTE's other answers are asked for on every
        resolution, and a name only its own note has costs this one lookup."""
        rows = self.db.execute(
            f"{_SELECT_NOTE} WHERE label IN (SELECT label FROM note_names WHERE kind IN (?, ?) AND name = ?) "
            "AND label IS NOT ? ORDER BY path", (NAME_KEY, HEADING_KEY, key, label))
        found = [_row_to_note(row) for row in rows]
        aliases: dict[int | None, list[str]] = {row.label: [] for row in found}
        headings: dict[int | None, str] = {}
        if found:
            query = (f"SELECT label, kind, name FROM note_names WHERE kind IN (?, ?) "
                     f"AND label IN ({placeholders(len(found))}) ORDER BY label, rowid")
            for owner, kind, name in self.db.execute(query, (ALIASES, HEADING, *aliases)):
                if kind == HEADING:
                    headings[owner] = name
                else:
                    aliases[owner].append(name)
        return [(row, aliases[row.label], headings.get(row.label, "")) for row in found]

    def all(self) -> Iterator[NoteRow]:
        for row in self.db.execute(f"{_SELECT_NOTE} ORDER BY path"):
            yield _row_to_note(row)

    def all_problems(self) -> list[Problem]:
        rows = self.db.execute("SELECT problems FROM notes WHERE problems != '[]' ORDER BY path")
        return [Problem.from_stored(problem) for row in rows for problem in json.loads(row[0])]

    # -- read-time filters (expiry, layers, tags)

    def eligible(self, eligibility: Eligibility) -> list[NoteRow]:
        """Every note that passes the read-time filters, by path."""
        where, params = eligibility.where()
        return [_row_to_note(row) for row in self.db.execute(f"{_SELECT_NOTE} WHERE {where} ORDER BY path", params)]

    def expiry_rows(self) -> list[tuple[int, int | None, str]]:
        """(label, expires_us, path) of every note, by label (None: never expires): the filter
        search applies in memory (passage_table.py; ``Eligibility.where``'s expiry rule), and
        the paths it orders its candidates by (:meth:`paths_by_labels`'s answer)."""
        return self.db.execute("SELECT label, expires_us, path FROM notes ORDER BY label").fetchall()

    def eligible_labels(self, labels: Sequence[int], eligibility: Eligibility) -> set[int]:
        """Which of ``labels`` exist and pass the read-time filters."""
        where, params = eligibility.where()
        found: set[int] = set()
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label FROM notes WHERE label IN ({placeholders(len(chunk))}) AND {where}"
            found.update(row[0] for row in self.db.execute(query, [*chunk, *params]))
        return found

    def all_eligible_labels(self, eligibility: Eligibility) -> list[int]:
        where, params = eligibility.where()
        return [row[0] for row in self.db.execute(f"SELECT label FROM notes WHERE {where}", params)]

    def expired(self, now_us: int) -> list[NoteRow]:
        expired, params = expiry_sql("expires_us", now_us, expired=True)
        return [_row_to_note(row) for row in self.db.execute(f"{_SELECT_NOTE} WHERE {expired} ORDER BY path", params)]

    def by_date(self, eligibility: Eligibility, limit: int) -> tuple[list[NoteRow], int]:
        """The first ``limit`` eligible notes by their date, newest first, then the notes with
        no date, most recently modified first; and how many notes are eligible in all.

        A day's label (its midnight UTC) stands for the whole local day, ordered as its last
        instant at that day's own offset (dating.local_day_end): west of UTC a memory made on the
        evening of the 30th (past midnight UTC) comes below the daily note of the 1st, not above
        it; and a winter day listed in summer keeps its winter hour. A periodic note is ordered by
        its span's last day, and above the notes of that day (the longer span first): November's
        note sits above 30 November's daily note (adr/0026). SQL does not know the zone: it
        orders by each day's last instant in UTC (:func:`_rough_key`), which is within a day of
        the local one (no offset reaches 24 hours); the notes it may have misplaced against the
        ``limit``-th are read again by the index on dated_us, and all are ordered in Python."""
        where, params = eligibility.where()
        rough = f"CASE WHEN {_DAY_SQL.format(alias='notes')} THEN coalesce(dated_end_us, dated_us) + {DAY_US - 1} ELSE dated_us END"
        rows = [_row_to_note(row) for row in self.db.execute(
            f"{_SELECT_NOTE} WHERE {where} ORDER BY dated_us IS NULL, {rough} DESC, dated_us, mtime_ns DESC, path LIMIT ?",
            [*params, limit])]
        total = int(self.db.execute(f"SELECT count(*) FROM notes WHERE {where}", params).fetchone()[0])
        dated = [row for row in rows if row.dated_us is not None]
        undated = rows[len(dated):]
        if len(dated) == limit > 0:
            # A note up to two days below the last one read may belong above it: a day's local
            # end is within a day of its rough key either way.
            last = _rough_key(dated[-1])
            read = {row.label for row in dated}
            window = self.db.execute(
                f"{_SELECT_NOTE} WHERE dated_us BETWEEN ? AND ? AND {rough} BETWEEN ? AND ? AND {where}",
                [last - 3 * DAY_US - MAX_SPAN_US, last, last - 2 * DAY_US, last, *params])  # a period starts earlier
            dated.extend(row for row in map(_row_to_note, window) if row.label not in read)
        ends: dict[int, int] = {}
        dated.sort(key=lambda row: (-_local_key(row, ends), row.dated_us or 0, -row.mtime_ns, row.path))
        return (dated + undated)[:limit], total

    def recent(self, eligibility: Eligibility) -> list[PoolNote]:
        """Eligible notes, most recently created or modified first (consolidation's pool).

        Recency is the later of the frontmatter ``created`` and the file's mtime, so a
        note edited today counts as recent even if it was created long ago.
        """
        where, params = eligibility.where()
        query = (
            "SELECT label, path, layer, problems, expiry_invalid, expires_at IS NULL AND permanent = 0 FROM notes "
            f"WHERE {where} ORDER BY max(coalesce(created_us, 0), mtime_ns / 1000) DESC, path"
        )
        rows = self.db.execute(query, params)
        return [PoolNote(row[0], row[1], row[2], json.loads(row[3]), bool(row[4]), bool(row[5])) for row in rows]

    # -- statistics

    def layer_counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT coalesce(layer, 'none'), count(*) FROM notes GROUP BY 1 ORDER BY 1")
        return {row[0]: int(row[1]) for row in rows}

    def count_expired(self, now_us: int) -> int:
        expired, params = expiry_sql("expires_us", now_us, expired=True)
        return int(self.db.execute(f"SELECT count(*) FROM notes WHERE {expired}", params).fetchone()[0])

    def count_undated(self, eligibility: Eligibility) -> int:
        """How many notes that pass ``eligibility`` have no date (dating.py)."""
        where, params = eligibility.where()
        return int(self.db.execute(f"SELECT count(*) FROM notes WHERE dated_us IS NULL AND {where}", params).fetchone()[0])

    def count_undated_among(self, eligibility: Eligibility, paths: Iterable[str]) -> int:
        """How many of the notes :meth:`count_undated` counts have one of ``paths``."""
        where, params = eligibility.where()
        among = set(paths)
        rows = self.db.execute(f"SELECT path FROM notes WHERE dated_us IS NULL AND {where}", params)
        return sum(1 for (path,) in rows if path in among)

    def around_range(self, eligibility: Eligibility) -> AroundRange:
        """How the dated notes that pass ``eligibility``'s other filters lie against its date
        range: how many are in it, how many outside, and the nearest date before and after it
        (the index on dated_us finds each: a few rows read, at any size)."""
        others, params = eligibility.undated.where()
        in_range, range_params = eligibility.date_where()
        dated, inside = self.db.execute(
            f"SELECT count(*), coalesce(sum({in_range}), 0) FROM notes WHERE dated_us IS NOT NULL AND {others}",
            [*range_params, *params]).fetchone()
        return AroundRange(int(inside), int(dated) - int(inside), self._nearest(eligibility.since_us, "<", others, params),
                           self._nearest(eligibility.until_us, ">", others, params))

    def _nearest(self, bound: EpochBound | None, side: str, others: str,
                 params: list[Any]) -> tuple[int, bool, int | None] | None:
        """The date (whether it is a day's label, and a span's last day) of the note nearest
        ``bound`` on ``side`` of it (``<``: before a since bound, by where its date ends; ``>``:
        after an until bound, by where it starts) that passes ``others``."""
        if bound is None:
            return None
        is_day = _DAY_SQL.format(alias="notes")
        columns = f"dated_us, {is_day}, dated_end_us"
        if side == ">":
            row = self.db.execute(
                f"SELECT {columns} FROM notes WHERE dated_us > ? AND dated_us > CASE WHEN {is_day} "
                f"THEN ? ELSE ? END AND {others} ORDER BY dated_us LIMIT 1",
                [min(bound.day_us, bound.instant_us), bound.day_us, bound.instant_us, *params]).fetchone()
            return None if row is None else (int(row[0]), bool(row[1]), row[2])
        # Before: the latest start among the notes that end before the bound, then any span that
        # starts up to MAX_SPAN_US before that start and ends later (both walk the index).
        last = "coalesce(dated_end_us, dated_us)"
        ends_before = f"dated_us < ? AND {last} < CASE WHEN {is_day} THEN ? ELSE ? END AND {others}"
        ends_params = [max(bound.day_us, bound.instant_us), bound.day_us, bound.instant_us, *params]
        latest = self.db.execute(f"SELECT {columns} FROM notes WHERE {ends_before} ORDER BY dated_us DESC LIMIT 1",
                                 ends_params).fetchone()
        if latest is None:
            return None
        spanning = self.db.execute(
            f"SELECT {columns} FROM notes WHERE dated_us >= ? AND dated_end_us > ? AND {ends_before} "
            "ORDER BY dated_end_us DESC LIMIT 1", [latest[0] - MAX_SPAN_US, latest[0], *ends_params]).fetchone()
        row = spanning if spanning is not None and spanning[2] > (latest[2] or latest[0]) else latest
        return int(row[0]), bool(row[1]), row[2]

    def count_with_problems(self) -> int:
        """Notes with a problem of their own, or whose id another note holds too (check's
        duplicate_id_problems): ``stats`` said "with problems: 0" while ``check`` listed a
        Dendron note and its copy, which kept the original's ``id`` (a trial)."""
        return int(self.db.execute(
            "SELECT count(*) FROM notes WHERE problems != '[]' "
            "OR id IN (SELECT id FROM notes GROUP BY id HAVING count(*) > 1)").fetchone()[0])
