"""Vector search: an hnswlib snapshot on disk plus a small exact delta from SQLite.

Two spaces of vectors use this machinery side by side: passages (what search ranks) and
whole notes (consolidation, the similar-note check); see storage/vectors.py. Every
vector lives in SQLite (one row per label, with a growing ``seq``). The hnswlib file
is a *snapshot* of the vectors up to ``snapshot_seq``;
vectors written later — the delta — are searched exactly with numpy. So one edit costs
one SQLite row, whatever the size of the vault, and a reader never sees a
half-applied change: the snapshot file is immutable once published and the delta is
read inside one SQLite snapshot. ``fold()`` merges the delta into a new snapshot file
(temp + rename, then a compare-and-swap of its name in SQLite) now and then.

A snapshot is an hnswlib graph or, for few enough vectors, an exact matrix
(snapshots.py), loaded once per process and shared, read-only, by every reader (the MCP
server's threads): a reader hides the labels the delta replaced or deleted by leaving
them out of its answers, not by marking them in the shared graph. A damaged snapshot
(its name's CRC-32, or its reader's own checks) is set aside under ``.vaultmem/damaged/``
and its vectors are searched exactly from SQLite until a fold builds a new one (the
search that found it asks for that fold: adr/0022). See adr/0005-vector-snapshot-and-delta.md.
"""

from __future__ import annotations

import functools
import logging
import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import hnswlib
import numpy as np

from .errors import INDEX, REBUILD, DerivedIndexError, Spelled
from .snapshots import (
    GRAPH_SUFFIX,
    MATRIX_SUFFIX,
    DamagedSnapshot,
    LoadedSnapshot,
    MatrixSnapshot,
    best_rows,
    cosines,
    crc32_of,
    exact_neighbours,
    mark_deleted,
    read_graph,
    remove_stale_snapshots,
    save_graph,
    shared_snapshot,
)
from .storage import NOTE_SPACE, Store, VectorSpace
from .storage.vector_blobs import decode, decode_rows, encode

FOLD_THRESHOLD = 2000  # delta rows before a fold: exact search over this many is ~0.1 ms
HNSW_SEED = 100  # hnswlib's default, made explicit: a single-threaded build is the same graph every run
HNSW_MIN_ELEMENTS = 16  # room reserved in a new graph however few vectors it starts with
REBUILD_GARBAGE_RATIO = 0.25  # rebuild from scratch once this share of the graph is dead
HNSW_GROWTH = 1.5  # a full graph grows by half, so adding a delta rarely resizes it
SNAPSHOT_READ_ATTEMPTS = 5  # a reader re-reads this often while writers keep replacing the snapshot
log = logging.getLogger("vaultmem")


@dataclass
class _Snapshot:
    name: str
    loaded: LoadedSnapshot
    superseded: set[int] = field(default_factory=set)  # labels the delta replaced or deleted since: never answered

    @property
    def live(self) -> int:
        return self.loaded.live


@dataclass
class _Delta:
    max_seq: int
    tombstone_seq: int  # with max_seq, changes on every write *and* every delete
    base_seq: int  # vectors after this seq are in the delta (the snapshot's seq, or 0)
    labels: np.ndarray
    matrix: np.ndarray

    @functools.cached_property
    def rows(self) -> dict[int, int]:
        """Label → row of the matrix."""
        return {int(label): row for row, label in enumerate(self.labels.tolist())}


@dataclass(frozen=True)
class _Scan:
    """The last full scan of a matrix snapshot: every row's score for one query."""

    query: np.ndarray
    snapshot: MatrixSnapshot
    scores: np.ndarray

    def of(self, query: np.ndarray, snapshot: MatrixSnapshot) -> np.ndarray | None:
        """The scan's scores if it was of this query and snapshot, else None."""
        if snapshot is not self.snapshot or not (query is self.query or np.array_equal(query, self.query)):
            return None
        return self.scores


class SnapshotMoved(Exception):
    """The snapshot file named in the current read transaction was replaced; read again."""


class _ReadAgain(Exception):
    """Internal: the snapshot moved between two reads of our own; start a new transaction."""


class _FoldedElsewhere(Exception):
    """Internal: another writer published a snapshot (and removed the one this fold meant to
    extend) since this fold read its name; that writer's snapshot stands."""


class VectorIndex:
    """Reads and (in one writer at a time) folds the vectors of one space of one vault."""

    def __init__(self, store: Store, dimension: int, space: VectorSpace = NOTE_SPACE) -> None:
        self.store = store
        self.table = store.vector_store(space)
        self.space = space
        self.dimension = dimension
        self._snapshot: _Snapshot | None = None
        self._delta: _Delta | None = None
        self._seen_token: tuple[int, int] | None = None
        self._missing: str | None = None  # a snapshot file found missing on the last attempt
        self._damaged: str | None = None  # a snapshot found damaged: searched exactly until a fold replaces it
        self.set_aside: list[str] = []  # what a reader found damaged and moved away (for its caller to say)
        self._scan: _Scan | None = None  # the last search's scores of a matrix snapshot (scores_of reuses them)

    # -- reading

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Top ``k`` (label, inner product) over snapshot ∪ delta, best first: the cosine for unit
        rows (note vectors), the cosine scaled by the length prior for passage rows (adr/0004).

        Labels may include notes deleted since the snapshot: callers join with the
        notes table (they must, to apply read-time filters anyway).
        """
        snapshot, delta = self._current()
        if not delta.labels.size and snapshot is not None and snapshot.live and isinstance(snapshot.loaded, MatrixSnapshot):
            # Already in this order: best first, ties by the lower row, whose labels ascend
            # (MatrixSnapshot.top_of). Sorting its 400 pairs again cost 0.15 ms a search.
            return self._top(snapshot, query, k)
        results: dict[int, float] = {}
        if delta.labels.size:
            scores = cosines(delta.matrix, query)
            results.update((int(delta.labels[i]), float(scores[i])) for i in best_rows(scores, k))
        if snapshot is not None and snapshot.live:
            # Labels the delta replaced or deleted are left out (the shared snapshot is never written).
            for label, similarity in self._top(snapshot, query, k):
                results.setdefault(label, similarity)
        return sorted(results.items(), key=lambda item: (-item[1], item[0]))[:k]

    def _top(self, snapshot: _Snapshot, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The snapshot's best ``k`` (not superseded); a matrix's scan is kept for :meth:`scores_of`."""
        loaded = snapshot.loaded
        if not isinstance(loaded, MatrixSnapshot):
            return loaded.top(query, k, snapshot.superseded)
        self._scan = _Scan(query, loaded, loaded.scan(query))
        return loaded.top_of(self._scan.scores, k, snapshot.superseded)

    def scores_of(self, query: np.ndarray, labels: Sequence[int]) -> tuple[list[int], np.ndarray]:
        """:meth:`matrix_of` these labels, scored by ``query`` (the inner product of each row):
        the labels found and their scores. A matrix snapshot's rows are not scored again when
        :meth:`search` just scanned it for this query — a search's exact scores then cost a look-up
        instead of gathering ~1,000 rows and scoring them a second time (0.5 ms at 10,000 notes).
        The same numbers: a row's product does not depend on the rows beside it (einsum,
        snapshots.cosines; tests/test_vectors.py checks it)."""
        snapshot, delta = self._current()
        loaded = snapshot.loaded if snapshot is not None else None
        scanned = self._scan.of(query, loaded) if isinstance(loaded, MatrixSnapshot) and self._scan is not None else None
        if scanned is None or not isinstance(loaded, MatrixSnapshot) or snapshot is None:
            gathered, matrix = self.matrix_of(labels)
            return gathered, cosines(matrix, query)
        found: list[int] = []
        parts: list[np.ndarray] = []
        rest = list(labels)
        if delta.labels.size:
            in_delta = [label for label in rest if label in delta.rows]
            if in_delta:
                found.extend(in_delta)
                parts.append(cosines(delta.matrix[[delta.rows[label] for label in in_delta]], query))
                rest = [label for label in rest if label not in delta.rows]
        if rest:
            hidden = snapshot.superseded
            stored, rows = loaded.rows_of([label for label in rest if label not in hidden] if hidden else rest)
            if stored:
                found.extend(stored)
                parts.append(scanned[rows])
                taken = set(stored)
                rest = [label for label in rest if label not in taken]
        if rest:
            read, matrix = unpack(self.table.for_labels(rest))
            if len(read):
                found.extend(int(label) for label in read)
                parts.append(cosines(matrix, query))
        if not parts:
            return [], np.zeros(0, dtype=np.float32)
        return found, parts[0] if len(parts) == 1 else np.concatenate(parts)

    def matrix_of(self, labels: Sequence[int]) -> tuple[list[int], np.ndarray]:
        """The current vectors of these labels (from the delta, else the snapshot, else SQLite)
        as one matrix, and the label of each of its rows: for scoring a few candidates exactly.
        Labels without a vector are left out; rows come grouped by where they were found."""
        snapshot, delta = self._current()
        found: list[int] = []
        parts: list[np.ndarray] = []
        rest = list(labels)
        if delta.labels.size:
            in_delta = [label for label in rest if label in delta.rows]
            if in_delta:
                found.extend(in_delta)
                parts.append(delta.matrix[[delta.rows[label] for label in in_delta]])
                rest = [label for label in rest if label not in delta.rows]
        loaded = snapshot.loaded if snapshot is not None else None
        if isinstance(loaded, MatrixSnapshot) and rest:
            hidden = snapshot.superseded if snapshot is not None else set()
            stored, matrix = loaded.items([label for label in rest if label not in hidden])
            if stored:
                found.extend(stored)
                parts.append(matrix)
                taken = set(stored)
                rest = [label for label in rest if label not in taken]
        # A graph's vectors are read from SQLite: hnswlib's get_items costs ~7 µs a vector, SQLite ~1 µs.
        if rest:
            read, matrix = unpack(self.table.for_labels(rest))
            if len(read):
                found.extend(int(label) for label in read)
                parts.append(matrix)
        if not parts:
            return [], np.zeros((0, self.dimension), dtype=np.float32)
        return found, parts[0] if len(parts) == 1 else np.vstack(parts)

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The nearest notes of many queries at once: (labels, cosines), one row per query, up to
        k from the delta and k from the snapshot (consolidation asks this for every note).

        One multi-threaded ``knn_query`` and one matrix product over the delta; ``search``
        per query would cost a SQLite round trip and a merge each (~40 s for 100,000 notes).

        Rows may hold labels deleted since the snapshot; callers keep only labels they know.
        """
        snapshot, delta = self._current()
        labels, similarities = exact_neighbours(delta.labels, delta.matrix, queries, k)
        # Replaced or deleted snapshot labels may take places among the nearest; callers
        # read the current vectors of what they keep (consolidation recomputes every cosine).
        if snapshot is not None and snapshot.live:
            found, scores = snapshot.loaded.neighbours(queries, k)
            labels, similarities = np.hstack([labels, found]), np.hstack([similarities, scores])
        return labels, similarities


    def _current(self) -> tuple[_Snapshot | None, _Delta]:
        """Refresh the cached snapshot and delta from SQLite (one read transaction).

        Nothing is read when no connection has committed since the last look (SQLite's
        data_version plus this connection's own change count): the common query path.
        """
        token = self.store.change_token()
        if self._delta is not None and token == self._seen_token:
            return self._snapshot, self._delta
        nested = self.store.in_transaction
        for _attempt in range(SNAPSHOT_READ_ATTEMPTS):
            with self.store.read_snapshot():
                published = self.table.snapshot()
                name, snapshot_seq, deleted = published.file, published.seq, published.deleted
                max_seq = self.table.max_seq()
                tombstone_seq, deleted_labels = self.table.tombstones()
                try:
                    base_seq = self._use_snapshot(name, deleted, snapshot_seq, nested)
                except _ReadAgain:
                    continue
                wanted = (max_seq, tombstone_seq, base_seq)
                if self._delta is None or (self._delta.max_seq, self._delta.tombstone_seq, self._delta.base_seq) != wanted:
                    self._delta = self._load_delta(base_seq, max_seq, tombstone_seq)
                    self._hide_superseded(deleted_labels, snapshot_seq)
            self._seen_token = token
            return self._snapshot, self._delta
        raise DerivedIndexError(Spelled(
            f"the vector snapshot in {self.store.state_dir} keeps changing or is missing; ", INDEX,
            "; if that does not help, ", REBUILD))

    def _use_snapshot(self, name: str | None, deleted: int, snapshot_seq: int, nested: bool) -> int:
        """Load the snapshot SQLite names (if not loaded yet); returns the delta's base seq."""
        if name is None or name == self._missing or name == self._damaged:
            # No snapshot — or one named twice in a row although its file is gone (lost in a
            # crash or a race), or damaged: search every vector exactly until a fold replaces it.
            if self._snapshot is not None:
                self._snapshot, self._delta = None, None
            return 0
        if self._snapshot is not None and self._snapshot.name == name:
            return snapshot_seq
        try:
            self._snapshot, self._delta = self._load_snapshot(name, deleted), None
        except DamagedSnapshot as damage:
            self._damaged = name
            self._set_aside(name, str(damage))
            if self._snapshot is not None:
                self._snapshot, self._delta = None, None
            return 0
        except FileNotFoundError:
            self._missing = name
            if nested:
                # The caller's read transaction still names the removed file; only a new
                # transaction can see what replaced it, so the caller starts again.
                raise SnapshotMoved(name) from None
            raise _ReadAgain from None  # a writer published a newer snapshot: read again
        self._missing = None
        return snapshot_seq

    def _hide_superseded(self, deleted_labels: list[int], snapshot_seq: int) -> None:
        """Note the snapshot labels a search must not return (this reader's own set).

        Those the delta replaces, and those deleted since the snapshot: left in, a deleted
        note takes a place in the top k that a rebuilt index gives to a live one, so results
        would differ from a rebuild until the next fold.
        """
        snapshot, delta = self._snapshot, self._delta
        if snapshot is None or delta is None:
            return
        replaced = set(delta.labels.tolist()) & snapshot.loaded.labels
        snapshot.superseded = replaced | (set(deleted_labels) & snapshot.loaded.labels)

    def _set_aside(self, name: str, detail: str) -> None:
        from .storage.damage import set_aside

        try:
            folder = set_aside(self.store.state_dir, (name,))
        except OSError as error:  # a read-only folder: it stays, and is skipped by this reader
            message = f"the vector snapshot {name} is damaged ({detail}) and could not be set aside ({error.strerror})"
        else:
            message = (f"the vector snapshot {name} was damaged ({detail}); it was set aside in {folder} and its "
                       "vectors are searched exactly from index.db until a new snapshot is built from them")
        log.warning("%s", message)
        self.set_aside.append(message)

    def _load_snapshot(self, name: str, deleted: int = 0) -> _Snapshot:
        """The named snapshot as this process shares it (loaded on first use)."""
        return _Snapshot(name, shared_snapshot(self.store.state_dir / name, self.dimension, deleted, self.space.graph_ef_max))

    def _load_delta(self, base_seq: int, max_seq: int, tombstone_seq: int) -> _Delta:
        rows = self.table.after(base_seq)
        if not rows:
            return _Delta(max_seq, tombstone_seq, base_seq, np.zeros(0, dtype=np.int64), np.zeros((0, self.dimension), dtype=np.float32))
        labels, matrix = unpack([(label, blob) for _, label, blob in rows])
        return _Delta(max_seq, tombstone_seq, base_seq, labels, matrix)

    # -- writing (one writer at a time; the CAS in publish() guards against two)

    def delta_size(self) -> int:
        return self.table.count_after(self.table.snapshot().seq)

    def fold(self, force: bool = False, num_threads: int = -1, rebuild: bool = False) -> bool:
        """Merge the delta into a new snapshot file when it is large enough (or forced).

        ``rebuild`` builds the graph anew from every vector instead of adding the delta to
        the old one; with ``num_threads=1`` that graph is the same on every run (seeded).
        Returns True when a new snapshot was published. Safe beside readers; two
        writers folding at once cannot both publish (compare-and-swap in SQLite).
        """
        old_name = self.table.snapshot().file
        # A snapshot named in SQLite but gone from disk makes every reader fail until a
        # fold replaces it, so its absence counts as a reason to fold.
        missing = old_name is not None and not (self.store.state_dir / old_name).exists()
        if old_name is not None and not force and not missing and self.delta_size() < FOLD_THRESHOLD:
            return False
        if old_name is None and self.table.max_seq() == 0:
            return False
        try:
            index, new_seq, deleted, tombstone_seq = self._folded_index(None if rebuild else old_name, num_threads)
        except _FoldedElsewhere:
            return False
        return self._publish(index, old_name, new_seq, deleted, tombstone_seq)

    def _folded_index(self, old_name: str | None, num_threads: int) -> tuple[hnswlib.Index | MatrixSnapshot, int, int, int]:
        """(graph or matrix, the seq it includes, how many labels in it are deleted, the tombstones it covers)."""
        # Only an old graph takes the delta: a first fold (a cold index: the delta is every
        # vector, 1 KiB each, held beside the graph being built) and a matrix never read it.
        extends = old_name is not None and old_name.endswith(GRAPH_SUFFIX) and (self.store.state_dir / old_name).exists()
        with self.store.read_snapshot():
            snapshot_seq = self.table.snapshot().seq
            new_seq = self.table.max_seq()
            live = self.table.labels()
            delta = self.table.after(snapshot_seq) if extends and len(live) > self.space.exact_up_to else []
            tombstone_seq, _ = self.table.tombstones()
        if len(live) <= self.space.exact_up_to:
            return self._matrix_from_scratch(new_seq), new_seq, 0, tombstone_seq
        if old_name is not None and extends:
            try:
                index = read_graph(self.store.state_dir / old_name, self.dimension)  # a private copy: the fold writes into it
            except DamagedSnapshot as damage:
                self._set_aside(old_name, str(damage))
                return self._build_from_scratch(len(live), new_seq, num_threads), new_seq, 0, tombstone_seq
            except FileNotFoundError:
                # Removed since the check above: a writer in another process (a `watch` beside an
                # `index`) published its fold and removed this one. Without this the fold — and
                # the command — failed on the missing file instead of yielding to that writer.
                if self.table.snapshot().file != old_name:
                    raise _FoldedElsewhere from None
                return self._build_from_scratch(len(live), new_seq, num_threads), new_seq, 0, tombstone_seq
            stored = set(index.get_ids_list())
            dead = stored - live
            if len(dead) <= REBUILD_GARBAGE_RATIO * max(1, len(stored)):
                self._apply_delta(index, delta, dead, num_threads)
                return index, new_seq, len(dead), tombstone_seq
        index = self._build_from_scratch(len(live), new_seq, num_threads)
        return index, new_seq, 0, tombstone_seq

    def _apply_delta(self, index: hnswlib.Index, rows: list[tuple[int, int, bytes]], dead: set[int], num_threads: int) -> None:
        for label in dead:
            mark_deleted(index, label)
        if not rows:
            return
        needed = index.get_current_count() + len(rows)
        if needed > index.get_max_elements():
            index.resize_index(max(needed, int(index.get_max_elements() * HNSW_GROWTH)))
        labels, matrix = unpack([(label, blob) for _, label, blob in rows])
        index.add_items(matrix, labels, num_threads=num_threads)

    def _matrix_from_scratch(self, up_to_seq: int) -> MatrixSnapshot:
        # Batch by batch: the rows' blobs of one batch at a time beside the matrix, not all of them twice.
        batches = [unpack(batch) for batch in self.table.iter_all(up_to_seq)]  # by label, ascending
        labels = np.concatenate([labels for labels, _ in batches]) if batches else np.zeros(0, dtype=np.int64)
        matrix = np.concatenate([matrix for _, matrix in batches]) if batches else np.zeros((0, self.dimension), dtype=np.float32)
        return MatrixSnapshot(labels, matrix.reshape(len(labels), self.dimension))

    def _build_from_scratch(self, count: int, up_to_seq: int, num_threads: int) -> hnswlib.Index:
        index = hnswlib.Index(space="ip", dim=self.dimension)
        index.init_index(max_elements=max(count, HNSW_MIN_ELEMENTS), M=self.space.graph_m,
                         ef_construction=self.space.graph_ef_construction, random_seed=HNSW_SEED)
        for batch in self.table.iter_all(up_to_seq):
            labels, matrix = unpack(batch)
            if len(labels) > index.get_max_elements() - index.get_current_count():
                index.resize_index(index.get_current_count() + len(labels))
            index.add_items(matrix, labels, num_threads=num_threads)
        return index

    def _publish(self, index: hnswlib.Index | MatrixSnapshot, old_name: str | None, new_seq: int, deleted: int, tombstone_seq: int) -> bool:
        suffix = MATRIX_SUFFIX if isinstance(index, MatrixSnapshot) else GRAPH_SUFFIX
        temp = self.store.state_dir / f"{self.space.file_prefix}{new_seq:012d}-{uuid.uuid4().hex[:8]}.tmp"
        try:
            if isinstance(index, MatrixSnapshot):
                index.save(temp)
            else:
                save_graph(index, temp)
            name = f"{temp.stem}-{crc32_of(temp):08x}{suffix}"
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        final = self.store.state_dir / name
        os.replace(temp, final)
        if not self.table.swap_snapshot(old_name, name, new_seq, deleted, tombstone_seq):
            final.unlink(missing_ok=True)  # another writer folded first; its snapshot stands
            return False
        # The replaced snapshot goes at once (adr/0005, stop 37: kept until the next publish, it
        # was a fifth of .vaultmem/). A reader whose read transaction began before the swap finds
        # its file gone and reads again in a new transaction (_ReadAgain, SnapshotMoved); one
        # that loaded it keeps its copy; a writer extending it yields (_FoldedElsewhere).
        if old_name is not None:
            # Named: a fold that added nothing has the seq of the file it replaced, and the sweep
            # below leaves a young file of our seq alone (another writer's, as far as it can tell).
            (self.store.state_dir / old_name).unlink(missing_ok=True)
        remove_stale_snapshots(self.store.state_dir, keep=name, prefix=self.space.file_prefix)
        return True


def unpack(rows: Sequence[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    """Stored (label, blob) rows → (labels, matrix with one float32 row per label)."""
    labels = np.asarray([label for label, _ in rows], dtype=np.int64)
    return labels, decode_rows([blob for _, blob in rows])


def blob_to_vector(blob: bytes) -> np.ndarray:
    """A stored vector as float32 values (storage/vector_blobs.py: float16 since stop 39, float32 before)."""
    return decode(blob)


def vector_to_blob(row: np.ndarray) -> bytes:
    """A vector as stored: rounded to float16 once, here (adr/0005, stops 38 and 39). So a matrix
    snapshot and an hnswlib graph hold the very numbers SQLite does, and a vector scores alike from
    SQLite, the delta, a graph or the matrix, before and after a re-index; SQLite keeps 2 bytes a
    value (storage/vector_blobs.py)."""
    return encode(row)
