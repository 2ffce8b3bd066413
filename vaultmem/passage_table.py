"""Which note each passage belongs to, and each note's expiry and path, held in memory for search.

The vector side of a search (search.Searcher._vector_side) turns the few hundred passages the
snapshot returns into their notes, keeps the notes that pass the read-time filters, counts
their passages and scores every passage of a few hundred notes exactly; the text side joins
its best 400 full-text rows to their passages and notes; the fused candidates (150–200 notes)
are ordered by their paths. Asked of SQLite (``IN`` lists of
hundreds of labels, joins to ``notes``) those look-ups cost ~2 ms of a search at 10,000
notes; here they are array look-ups (adr/0004, "Passages' notes in memory").

The table is read whole — one scan of ``passages`` and one of ``notes``' expiry and path, ~20 ms at
10,000 notes — once a state of the index has been looked up READ_AFTER_LOOKUPS times (SQLite
answers before: :class:`SqlOwners`), and kept while the store's change token (SQLite's ``data_version`` plus
this connection's own writes: any commit by anyone) stays the same, as the vector delta is
(vectors.py). Token and rows are read in one read transaction, the caller's when it has one,
so the table is always the state the rest of the query reads: an edit, a delete, a rebuild
or a sync of a hit's changed file is seen by the very next look-up.

Expiry is the one filter applied here (:func:`alive_mask`: ``lifecycle.expiry_sql``'s rule,
``expires_us`` NULL or later than now); a search asking for layers, tags or dates asks SQL
for those of the notes found (``NoteStore.eligible_labels``), where their rules live.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .storage import Eligibility, Store, TextMatch

_NO_EXPIRY = np.iinfo(np.int64).max  # stands for NULL in the expiry column (``never`` says which)


def alive_mask(expires_us: np.ndarray, never: np.ndarray, now_us: int) -> np.ndarray:
    """Which notes are alive at ``now_us``: no expiry, or one strictly later than now — the
    rule of ``lifecycle.expiry_sql`` and ``is_expired_us`` (the boundary instant is expired)."""
    alive: np.ndarray = never | (expires_us > now_us)
    return alive


@dataclass(frozen=True)
class PassageTable:
    """One state of the index's passages and notes, as arrays."""

    store: Store  # asked the filters other than expiry
    token: tuple[int, int]
    labels: np.ndarray  # every passage label, ascending
    owners: np.ndarray  # the note of each of ``labels``
    grouped: np.ndarray  # passage labels by (note, number): each note's passages together, in order
    group_notes: np.ndarray  # the notes that have passages, ascending
    group_starts: np.ndarray  # where each of ``group_notes`` starts in ``grouped`` (one more at the end)
    group_chance: np.ndarray  # how many of each of ``group_notes``' passages are not fact pieces (:meth:`chance_counts`)
    notes: np.ndarray  # every note label, ascending
    expires_us: np.ndarray  # each note's expiry (epoch µs; _NO_EXPIRY when it has none)
    never: np.ndarray  # whether each note never expires
    paths: dict[int, str]  # each note's path, by label

    @classmethod
    def read(cls, store: Store, token: tuple[int, int]) -> PassageTable:
        """The table of the store's current state (the caller holds a read transaction)."""
        passages = np.array(store.passages.owner_rows(), dtype=np.int64).reshape(-1, 4)
        labels, owners, numbers, pieces = passages[:, 0], passages[:, 1], passages[:, 2], passages[:, 3]
        order = np.lexsort((numbers, owners))  # by note, then number: as ``PassageStore.pairs_of`` reads them
        grouped_owners = owners[order]
        starts = np.flatnonzero(np.r_[True, grouped_owners[1:] != grouped_owners[:-1]]) if len(order) else np.zeros(0, np.int64)
        chance = np.add.reduceat(1 - pieces[order], starts) if len(order) else np.zeros(0, np.int64)
        expiry = store.notes.expiry_rows()
        never = np.fromiter((expires is None for _, expires, _ in expiry), dtype=bool, count=len(expiry))
        return cls(
            store=store, token=token, labels=np.ascontiguousarray(labels), owners=np.ascontiguousarray(owners),
            grouped=labels[order], group_notes=grouped_owners[starts], group_starts=np.r_[starts, len(order)].astype(np.int64),
            group_chance=np.asarray(chance, dtype=np.int64),
            notes=np.fromiter((label for label, _, _ in expiry), dtype=np.int64, count=len(expiry)),
            expires_us=np.fromiter((_NO_EXPIRY if expires is None else expires for _, expires, _ in expiry), dtype=np.int64,
                                   count=len(expiry)),
            never=never,
            paths={label: path for label, _, path in expiry},
        )

    def fewer_notes_than(self, count: int) -> bool:
        return len(self.notes) < count

    def owners_passing(self, passages: Sequence[int], eligibility: Eligibility) -> tuple[dict[int, int], set[int]]:
        """``PassageStore.owners_passing``'s answer: the note of each of ``passages`` that
        exists, and which of those notes exist and pass the read-time filters — expiry from
        the table, layers, tags and dates asked of SQL for the notes found (their rules live
        there)."""
        owners = self.owners_of(passages)
        alive = self.passing(list(dict.fromkeys(owners.values())), eligibility).tolist()
        if eligibility != eligibility.alive:
            return owners, self.store.notes.eligible_labels(alive, eligibility)
        return owners, set(alive)

    def owners_of(self, passages: Sequence[int]) -> dict[int, int]:
        """Passage label → note label, for those of ``passages`` that exist (``PassageStore.owners``)."""
        wanted = np.asarray(passages, dtype=np.int64)
        rows, present = _positions(self.labels, wanted)
        return dict(zip(wanted[present].tolist(), self.owners[rows[present]].tolist(), strict=True))

    def passing(self, notes: Sequence[int], eligibility: Eligibility) -> np.ndarray:
        """Those of ``notes`` that exist and are alive as ``eligibility`` asks (its expiry only:
        the caller asks SQL for its layers, tags and dates)."""
        wanted = np.asarray(notes, dtype=np.int64)
        rows, present = _positions(self.notes, wanted)
        if not eligibility.include_expired:
            present[present] = alive_mask(self.expires_us[rows[present]], self.never[rows[present]], eligibility.now_us)
        kept: np.ndarray = wanted[present]
        return kept

    def fts_passing(self, match: str, limit: int, eligibility: Eligibility) -> tuple[list[TextMatch], set[int]]:
        """``PassageStore.fts_passing``'s answer: the best ``limit`` full-text rows of passages
        that exist, with their notes, and which of those notes pass the filters (:meth:`owners_passing`)."""
        best = self.store.passages.fts_best(match, limit)
        owners, eligible = self.owners_passing([label for label, _ in best], eligibility)
        return [TextMatch(label, owners[label], score) for label, score in best if label in owners], eligible

    def paths_by_labels(self, notes: Sequence[int]) -> dict[int, str]:
        """The path of each of ``notes`` that exists (``NoteStore.paths_by_labels``)."""
        paths = self.paths
        return {note: path for note in notes if (path := paths.get(note)) is not None}

    def pairs_of(self, notes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(passage labels, their notes) of every passage of these notes, each note once, by
        note and then number (``PassageStore.pairs_of``'s order)."""
        groups, present = _positions(self.group_notes, np.unique(np.asarray(notes, dtype=np.int64)))
        groups = groups[present]
        starts, ends = self.group_starts[groups], self.group_starts[groups + 1]
        lengths = ends - starts
        if not lengths.sum():
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        # Each group's rows: its start, repeated over its length, plus 0, 1, 2 … within it.
        offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        return self.grouped[np.repeat(starts, lengths) + offsets], np.repeat(self.group_notes[groups], lengths)

    def counts(self, notes: Sequence[int]) -> dict[int, int]:
        """How many passages each of these notes has (a note without any is left out)."""
        wanted = np.unique(np.asarray(notes, dtype=np.int64))
        groups, present = _positions(self.group_notes, wanted)
        groups = groups[present]
        return dict(zip(wanted[present].tolist(), (self.group_starts[groups + 1] - self.group_starts[groups]).tolist(),
                        strict=True))

    def count_array(self, notes: np.ndarray) -> np.ndarray:
        """How many passages each of ``notes`` has, in their order (0 for a note without any)."""
        groups, present = _positions(self.group_notes, notes)
        counted: np.ndarray = np.where(present, self.group_starts[groups + 1] - self.group_starts[groups], 0)
        return counted

    def chance_counts(self, notes: Sequence[int]) -> dict[int, int]:
        """How many passages each of these notes has that are not fact pieces
        (``PassageStore.chance_counts``; a note without any is left out)."""
        wanted = np.unique(np.asarray(notes, dtype=np.int64))
        groups, present = _positions(self.group_notes, wanted)
        return dict(zip(wanted[present].tolist(), self.group_chance[groups[present]].tolist(), strict=True))

    def chance_count_array(self, notes: np.ndarray) -> np.ndarray:
        """:meth:`chance_counts` of ``notes``, in their order (0 for a note without any)."""
        groups, present = _positions(self.group_notes, notes)
        counted: np.ndarray = np.where(present, self.group_chance[groups], 0)
        return counted


def _positions(ascending: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``wanted`` is in the ascending array, and whether it is there at all."""
    if not len(ascending):
        return np.zeros(len(wanted), np.int64), np.zeros(len(wanted), dtype=bool)
    rows = np.searchsorted(ascending, wanted)
    clipped = np.minimum(rows, len(ascending) - 1)
    return clipped, (rows < len(ascending)) & (ascending[clipped] == wanted)


class SqlOwners:
    """The table's answers asked of SQLite, for a state of the index looked up only a few
    times (reading the table costs ~20 ms at 10,000 notes: more than ten searches save)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def fewer_notes_than(self, count: int) -> bool:
        return self.store.notes.count_at_most(count) < count

    def owners_passing(self, passages: Sequence[int], eligibility: Eligibility) -> tuple[dict[int, int], set[int]]:
        return self.store.passages.owners_passing(passages, eligibility)

    def fts_passing(self, match: str, limit: int, eligibility: Eligibility) -> tuple[list[TextMatch], set[int]]:
        return self.store.passages.fts_passing(match, limit, eligibility)

    def paths_by_labels(self, notes: Sequence[int]) -> dict[int, str]:
        return self.store.notes.paths_by_labels(notes)

    def pairs_of(self, notes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        pairs = self.store.passages.pairs_of(notes)
        found = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        return found[:, 0], found[:, 1]

    def counts(self, notes: Sequence[int]) -> dict[int, int]:
        return self.store.passages.counts(notes)

    def count_array(self, notes: np.ndarray) -> np.ndarray:
        counted = self.counts(notes.tolist())
        return np.fromiter((counted.get(note, 0) for note in notes.tolist()), dtype=np.int64, count=len(notes))

    def chance_counts(self, notes: Sequence[int]) -> dict[int, int]:
        return self.store.passages.chance_counts(notes)

    def chance_count_array(self, notes: np.ndarray) -> np.ndarray:
        counted = self.chance_counts(notes.tolist())
        return np.fromiter((counted.get(note, 0) for note in notes.tolist()), dtype=np.int64, count=len(notes))


PassageOwners = PassageTable | SqlOwners

READ_AFTER_LOOKUPS = 32  # look-ups of one state of the index (a search makes three or four) before the table is read
PROPERTIES_KEPT = 20_000  # notes' properties texts kept for one state of the index (then started afresh): a few MB at most


class PassageTables:
    """Where one store's passage owners are looked up: SQLite for a state of the index looked
    up fewer than READ_AFTER_LOOKUPS times, then its :class:`PassageTable`, read again after
    the store's change token moves. An agent that writes between its searches never pays
    for a table it would use once or twice; one that searches on pays it once (ski rental:
    at most about twice the cost of the better choice made in hindsight)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sql = SqlOwners(store)
        self._token: tuple[int, int] | None = None
        self._lookups = 0
        self._table: PassageTable | None = None
        self.reads = 0  # how many times a table was read (tests: a change is seen, no change costs nothing)
        # Each note's properties text ("" for none) as one state of the index holds it: a new dict
        # for each state, never written into once another state replaced it (threads share this).
        self._properties: tuple[tuple[int, int] | None, dict[int, str]] = (None, {})
        self.properties_asked = 0  # notes whose properties were asked of SQLite (tests: no change costs nothing)

    def current(self) -> PassageOwners:
        with self.store.read_snapshot():  # the caller's transaction when it has one: token and rows agree
            token = self.store.change_token()
            if token != self._token:
                self._token, self._lookups, self._table = token, 0, None
            self._lookups += 1
            if self._table is None and self._lookups > READ_AFTER_LOOKUPS:
                self._table = PassageTable.read(self.store, token)
                self.reads += 1
            return self._sql if self._table is None else self._table

    def properties_of(self, notes: Sequence[int]) -> dict[int, str]:
        """``PassageStore.properties_of``'s answer (each note's properties text; a note with none
        left out), kept for the store's current state: the property bonus asks it of every
        candidate of every search (150-200 notes, ~0.7 ms of a search at 10,000 notes, most of it
        FTS5 reading its rows), while successive searches propose many of the same notes. Kept as
        the table is, by the change token: any commit by anyone starts afresh, so an edited
        property is read by the very next search."""
        with self.store.read_snapshot():  # token and rows from one state
            token = self.store.change_token()
            kept_token, kept = self._properties
            if kept_token != token or len(kept) > PROPERTIES_KEPT:
                kept = {}
                self._properties = (token, kept)
            missing = [note for note in dict.fromkeys(notes) if note not in kept]
            if missing:
                found = self.store.passages.properties_of(missing)
                kept.update((note, found.get(note, "")) for note in missing)
                self.properties_asked += len(missing)
            return {note: text for note in notes if (text := kept[note])}
