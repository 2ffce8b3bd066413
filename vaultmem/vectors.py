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

A snapshot is an hnswlib graph (``.hnsw``) or — for a space that allows it and holds few
enough vectors — a plain matrix (``.npz``) searched exactly. It is loaded once per
process and shared, read-only, by every reader (the MCP server's threads): a reader
hides the labels the delta replaced or deleted by leaving them out of its answers, not
by marking them in the shared graph. See adr/0005-vector-snapshot-and-delta.md.

A snapshot's name carries the CRC-32 of its bytes, checked before it is read: a file that
is garbage, truncated or changed is set aside under ``.vaultmem/damaged/``, and its
vectors are searched exactly from SQLite until a fold builds a new one (the search that
found it asks for that fold: adr/0022). hnswlib writes without checking for errors, so a
fold verifies the size it wrote.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import threading
import time
import uuid
import weakref
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import hnswlib
import numpy as np

from .errors import DerivedIndexError
from .noteio import fsync_path
from .storage import NOTE_SPACE, SPACES, Store, VectorSpace

GRAPH_SUFFIX = ".hnsw"
MATRIX_SUFFIX = ".npz"
SNAPSHOT_SUFFIXES = (GRAPH_SUFFIX, MATRIX_SUFFIX)
FOLD_THRESHOLD = 2000  # delta rows before a fold: exact search over this many is ~0.1 ms
HNSW_SEED = 100  # hnswlib's default, made explicit: a single-threaded build is the same graph every run
HNSW_MIN_ELEMENTS = 16  # room reserved in a new graph however few vectors it starts with
# Query-time ef, measured on generated vaults (benchmarks/bench_index.py): the default
# of 10 gives ~0.56 recall@10; ef 400 gives 0.989 at 10k notes for +0.15 ms per query.
# Larger graphs need more, so ef grows with the index up to the space's ef_max
# (benchmarks/bench_ann.py: 216k passages need 2048 for 0.986).
HNSW_EF_MIN = 400
HNSW_ELEMENTS_PER_EF = 100  # between the bounds, ef is the graph's size / this
REBUILD_GARBAGE_RATIO = 0.25  # rebuild from scratch once this share of the graph is dead
HNSW_GROWTH = 1.5  # a full graph grows by half, so adding a delta rarely resizes it
SNAPSHOT_GRACE_SECONDS = 3600  # a younger snapshot or temp file may be another writer's: left alone
SNAPSHOT_READ_ATTEMPTS = 5  # a reader re-reads this often while writers keep replacing the snapshot
CRC_CHUNK = 1 << 20
# <prefix><seq>-<id>-<crc32>.hnsw (or .npz); names written before checksums have no -<crc32>.
_CHECKSUM_NAME = re.compile(
    rf"^(?:{'|'.join(re.escape(space.file_prefix) for space in SPACES)})\d+-[0-9a-f]+-(?P<crc>[0-9a-f]{{8}})"
    rf"(?:{'|'.join(re.escape(suffix) for suffix in SNAPSHOT_SUFFIXES)})$"
)
log = logging.getLogger("vaultmem")


def ef_for(count: int, ef_max: int) -> int:
    return max(HNSW_EF_MIN, min(ef_max, count // HNSW_ELEMENTS_PER_EF))


class _Graph:
    """An hnswlib snapshot in memory, shared read-only by every reader of this process."""

    def __init__(self, index: hnswlib.Index, deleted: int) -> None:
        self.index = index
        self.labels = frozenset(index.get_ids_list())  # every label stored in the file
        self.live = index.get_current_count() - deleted  # labels the file does not mark deleted

    def top(self, query: np.ndarray, k: int, hidden: set[int]) -> list[tuple[int, float]]:
        """The best ``k`` labels that are not ``hidden``, best first."""
        return _graph_top(self.index, query, min(k, self.live), hidden, self.live)

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return _snapshot_neighbours(self.index, queries, min(k, self.live))


class _Matrix:
    """A snapshot searched exactly: labels in ascending order and their vectors."""

    def __init__(self, order: np.ndarray, matrix: np.ndarray) -> None:
        self.order = order
        self.matrix = matrix
        self.labels = frozenset(order.tolist())
        self.live = len(order)

    def top(self, query: np.ndarray, k: int, hidden: set[int]) -> list[tuple[int, float]]:
        scores = cosines(self.matrix, query)
        if hidden:
            scores[self.rows_of(hidden)[1]] = -np.inf
        return [(int(self.order[row]), float(scores[row])) for row in _best(scores, k) if np.isfinite(scores[row])]

    def items(self, labels: Sequence[int]) -> tuple[list[int], np.ndarray]:
        found, rows = self.rows_of(labels)
        return found, self.matrix[rows]

    def rows_of(self, labels: Iterable[int]) -> tuple[list[int], np.ndarray]:
        """(the labels this matrix holds, their rows)."""
        wanted = np.fromiter(labels, dtype=np.int64)
        if not len(self.order):
            return [], np.zeros(0, dtype=np.int64)
        rows = np.searchsorted(self.order, wanted)
        present = (rows < len(self.order)) & (self.order[np.minimum(rows, len(self.order) - 1)] == wanted)
        return [int(label) for label in wanted[present]], rows[present]

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return _delta_neighbours(self.order, self.matrix, queries, k)

    def save(self, path: Path) -> None:
        with open(path, "wb") as handle:
            np.savez(handle, labels=self.order, matrix=self.matrix)
        fsync_path(path)


_Loaded = _Graph | _Matrix


class _SharedSnapshots:
    """Snapshot files loaded in this process, by path: each file is loaded once while some
    reader holds it. Files are immutable once published, so sharing needs no more care than
    never writing into the loaded graph (hnswlib answers concurrent queries)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: weakref.WeakValueDictionary[str, _Loaded] = weakref.WeakValueDictionary()

    def get(self, path: Path, dimension: int, deleted: int, ef_max: int) -> _Loaded:
        key = str(path)
        with self._lock:
            loaded = self._loaded.get(key)
            if loaded is None:
                loaded = _load(path, dimension, deleted, ef_max)
                self._loaded[key] = loaded
            return loaded


def _load(path: Path, dimension: int, deleted: int, ef_max: int) -> _Loaded:
    if not path.exists():
        raise FileNotFoundError(path)
    verify_snapshot(path)
    if path.suffix == MATRIX_SUFFIX:
        return _Matrix(*_read_matrix(path, dimension))
    index = _read_graph(path, dimension)
    index.set_ef(ef_for(index.get_current_count(), ef_max))
    return _Graph(index, deleted)


_SHARED = _SharedSnapshots()


@dataclass
class _Snapshot:
    name: str
    loaded: _Loaded
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


class DamagedSnapshot(Exception):
    """A snapshot file that is not what was written (checksum, size or its reader's own check)."""


class SnapshotMoved(Exception):
    """The snapshot file named in the current read transaction was replaced; read again."""


class _ReadAgain(Exception):
    """Internal: the snapshot moved between two reads of our own; start a new transaction."""


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

    # -- reading

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Top ``k`` (label, cosine similarity) over snapshot ∪ delta, best first.

        Labels may include notes deleted since the snapshot: callers join with the
        notes table (they must, to apply read-time filters anyway).
        """
        snapshot, delta = self._current()
        results: dict[int, float] = {}
        if delta.labels.size:
            scores = cosines(delta.matrix, query)
            results.update((int(delta.labels[i]), float(scores[i])) for i in _best(scores, k))
        if snapshot is not None and snapshot.live:
            # Labels the delta replaced or deleted are left out (the shared snapshot is never written).
            for label, similarity in snapshot.loaded.top(query, k, snapshot.superseded):
                results.setdefault(label, similarity)
        return sorted(results.items(), key=lambda item: (-item[1], item[0]))[:k]

    def vectors_of(self, labels: Sequence[int]) -> dict[int, np.ndarray]:
        """The current vector of each label (from the delta, else the snapshot, else SQLite):
        for scoring a few candidates exactly. Labels without a vector are left out."""
        snapshot, delta = self._current()
        found: dict[int, np.ndarray] = {}
        if delta.labels.size:
            found.update((label, delta.matrix[delta.rows[label]]) for label in labels if label in delta.rows)
        rest = [label for label in labels if label not in found]
        loaded = snapshot.loaded if snapshot is not None else None
        if isinstance(loaded, _Matrix) and rest:
            hidden = snapshot.superseded if snapshot is not None else set()
            stored, matrix = loaded.items([label for label in rest if label not in hidden])
            found.update(zip(stored, matrix, strict=True))
            rest = [label for label in rest if label not in found]
        # A graph's vectors are read from SQLite: hnswlib's get_items costs ~7 µs a vector, SQLite ~1 µs.
        if rest:
            read, matrix = unpack(self.table.for_labels(rest))
            found.update((int(label), row) for label, row in zip(read, matrix, strict=True))
        return found

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The nearest notes of many queries at once: (labels, cosines), one row per query, up to
        k from the delta and k from the snapshot (consolidation asks this for every note).

        One multi-threaded ``knn_query`` and one matrix product over the delta; ``search``
        per query would cost a SQLite round trip and a merge each (~40 s for 100,000 notes).

        Rows may hold labels deleted since the snapshot; callers keep only labels they know.
        """
        snapshot, delta = self._current()
        labels, similarities = _delta_neighbours(delta.labels, delta.matrix, queries, k)
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
        raise DerivedIndexError(
            f"the vector snapshot in {self.store.state_dir} keeps changing or is missing; "
            "run `vaultmem index` (or `--rebuild`)"
        )

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
        return _Snapshot(name, _SHARED.get(self.store.state_dir / name, self.dimension, deleted, self.space.graph_ef_max))

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
        index, new_seq, deleted, tombstone_seq = self._folded_index(None if rebuild else old_name, num_threads)
        return self._publish(index, old_name, new_seq, deleted, tombstone_seq)

    def _folded_index(self, old_name: str | None, num_threads: int) -> tuple[hnswlib.Index | _Matrix, int, int, int]:
        """(graph or matrix, the seq it includes, how many labels in it are deleted, the tombstones it covers)."""
        with self.store.read_snapshot():
            snapshot_seq = self.table.snapshot().seq
            new_seq = self.table.max_seq()
            live = self.table.labels()
            delta = self.table.after(snapshot_seq)
            tombstone_seq, _ = self.table.tombstones()
        if len(live) <= self.space.exact_up_to:
            return self._matrix_from_scratch(new_seq), new_seq, 0, tombstone_seq
        if old_name is not None and old_name.endswith(GRAPH_SUFFIX) and (self.store.state_dir / old_name).exists():
            try:
                index = _read_graph(self.store.state_dir / old_name, self.dimension)  # a private copy: the fold writes into it
            except DamagedSnapshot as damage:
                self._set_aside(old_name, str(damage))
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
            _mark_deleted(index, label)
        if not rows:
            return
        needed = index.get_current_count() + len(rows)
        if needed > index.get_max_elements():
            index.resize_index(max(needed, int(index.get_max_elements() * HNSW_GROWTH)))
        labels, matrix = unpack([(label, blob) for _, label, blob in rows])
        index.add_items(matrix, labels, num_threads=num_threads)

    def _matrix_from_scratch(self, up_to_seq: int) -> _Matrix:
        rows = [row for batch in self.table.iter_all(up_to_seq) for row in batch]  # by label, ascending
        labels, matrix = unpack(rows)
        return _Matrix(labels, matrix.reshape(len(labels), self.dimension))

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

    def _publish(self, index: hnswlib.Index | _Matrix, old_name: str | None, new_seq: int, deleted: int, tombstone_seq: int) -> bool:
        suffix = MATRIX_SUFFIX if isinstance(index, _Matrix) else GRAPH_SUFFIX
        temp = self.store.state_dir / f"{self.space.file_prefix}{new_seq:012d}-{uuid.uuid4().hex[:8]}.tmp"
        try:
            if isinstance(index, _Matrix):
                index.save(temp)
            else:
                _save(index, temp)
            name = f"{temp.stem}-{_crc32(temp):08x}{suffix}"
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        final = self.store.state_dir / name
        os.replace(temp, final)
        if not self.table.swap_snapshot(old_name, name, new_seq, deleted, tombstone_seq):
            final.unlink(missing_ok=True)  # another writer folded first; its snapshot stands
            return False
        # The replaced snapshot stays until the next publish: a reader whose read
        # transaction began before the swap still finds the file SQLite named to it.
        remove_stale_snapshots(self.store.state_dir, keep=name, previous=old_name, prefix=self.space.file_prefix)
        return True


def _save(index: hnswlib.Index, path: Path) -> None:
    """``save_index``, checked: hnswlib writes through a C++ stream and ignores write errors,
    so a full disk would leave a short file that looks saved."""
    index.save_index(str(path))
    expected, written = index.index_file_size(), path.stat().st_size
    if written != expected:
        raise OSError(errno.ENOSPC, f"the vector snapshot was cut short ({written} of {expected} bytes written; "
                      "is the disk full?)", str(path))
    fsync_path(path)


def verify_snapshot(path: Path) -> None:
    """Raise :class:`DamagedSnapshot` unless ``path`` has the bytes its name's checksum
    says (names from before checksums are left to their reader's own checks)."""
    match = _CHECKSUM_NAME.match(path.name)
    if match is None:
        return
    actual = _crc32(path)
    if actual != int(match["crc"], 16):
        raise DamagedSnapshot(f"its checksum is {actual:08x}, not the {match['crc']} it was written with")


def _crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CRC_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return crc


def _delta_neighbours(labels: np.ndarray, matrix: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top k of each query among the delta's vectors (those not in the snapshot yet)."""
    if not labels.size:
        return np.zeros((len(queries), 0), dtype=np.int64), np.zeros((len(queries), 0), dtype=np.float32)
    scores = queries @ matrix.T
    if scores.shape[1] > k:
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        return labels[top], np.take_along_axis(scores, top, axis=1)
    return np.broadcast_to(labels, scores.shape), scores


def _snapshot_neighbours(index: hnswlib.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    # Fewer than k per row is fine here: a duplicate is among the very nearest.
    found = _knn_query(index, queries, k)
    if found is None:
        raise DerivedIndexError("the vector snapshot returns no neighbours at all; run `vaultmem index --rebuild`")
    return found


def _graph_top(index: hnswlib.Index, query: np.ndarray, k: int, hidden: set[int], live: int) -> list[tuple[int, float]]:
    """The graph's best ``k`` labels that are not ``hidden``: ask for a few more than k, and
    only when hidden labels crowd the top for k + all of them. Fewer than k is correct here
    because callers widen or go exact."""
    kept: list[tuple[int, float]] = []
    for asked in dict.fromkeys((k + min(len(hidden), k), k + len(hidden))):
        found = _knn_query(index, query, max(1, min(asked, live)))
        pairs = [] if found is None else list(zip(found[0][0].tolist(), found[1][0].tolist(), strict=True))
        kept = [(int(label), float(cosine)) for label, cosine in pairs if label not in hidden]
        if len(kept) >= k or len(pairs) < asked:
            break
    return kept[:k]


def cosines(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``matrix @ query`` on one thread (einsum, not BLAS): a multi-threaded BLAS product of a
    few thousand rows took 15–40 ms on a busy 2-core machine instead of 0.2–1.5 ms."""
    scores: np.ndarray = np.einsum("ij,j->i", matrix, query)
    return scores


def _best(scores: np.ndarray, k: int) -> np.ndarray:
    """Row numbers of the ``k`` highest scores, best first (ties: the lower row)."""
    if k <= 0 or not len(scores):
        return np.zeros(0, dtype=np.int64)
    if k < len(scores):
        chosen = np.argpartition(-scores, k - 1)[:k]
        return chosen[np.lexsort((chosen, -scores[chosen]))]
    return np.lexsort((np.arange(len(scores)), -scores))


def _read_matrix(path: Path, dimension: int) -> tuple[np.ndarray, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as stored:
            labels, matrix = stored["labels"].astype(np.int64), np.ascontiguousarray(stored["matrix"], dtype=np.float32)
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        if not path.exists():
            raise FileNotFoundError(path) from None
        raise DamagedSnapshot(f"numpy cannot read it: {error}") from None
    if matrix.shape != (len(labels), dimension):
        raise DamagedSnapshot(f"it holds vectors of another shape, {matrix.shape}")
    return labels, matrix



def _knn_query(index: hnswlib.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(labels, cosines) of the ``k`` nearest, one row per query — or as many as hnswlib can
    return: it raises when deleted elements crowd the graph, so ask for half as many until
    it answers. ``None`` when it answers none at all."""
    while k >= 1:
        try:
            labels, distances = index.knn_query(queries, k=k, num_threads=-1)
        except RuntimeError:
            k //= 2
            continue
        return labels.astype(np.int64), (1.0 - distances).astype(np.float32)
    return None


def _read_graph(path: Path, dimension: int) -> hnswlib.Index:
    if not path.exists():
        raise FileNotFoundError(path)
    index = hnswlib.Index(space="ip", dim=dimension)
    try:
        index.load_index(str(path))
    except RuntimeError as error:
        if not path.exists():
            raise FileNotFoundError(path) from None  # removed between the check and the load
        raise DamagedSnapshot(f"hnswlib cannot load it: {error}") from None
    if index.get_current_count() > index.get_max_elements():
        raise DamagedSnapshot("it claims more vectors than it has room for")
    return index


def snapshot_files(state_dir: Path) -> list[Path]:
    """The snapshot files of every space there are now (to remove exactly these after dropping them)."""
    return [path for space in SPACES for suffix in SNAPSHOT_SUFFIXES for path in state_dir.glob(f"{space.file_prefix}*{suffix}")]


def remove_files(paths: list[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


def remove_stale_snapshots(state_dir: Path, keep: str | None, previous: str | None = None,
                           prefix: str = NOTE_SPACE.file_prefix) -> None:
    """Delete snapshot files that are not the current one, and abandoned temp files.

    A reader that still has an old file open keeps reading it (POSIX unlink semantics);
    it loaded the whole index into memory anyway. Files younger than an hour that
    another writer may be using (see ``_leave_alone``) stay.
    """
    cutoff = time.time() - SNAPSHOT_GRACE_SECONDS
    keep_seq = _snapshot_seq(keep, prefix) if keep is not None else None
    for path in state_dir.glob(f"{prefix}*"):
        if path.name in (keep, previous) or _leave_alone(path, keep_seq, cutoff, prefix):
            continue
        path.unlink(missing_ok=True)


def _leave_alone(path: Path, keep_seq: int | None, cutoff: float, prefix: str) -> bool:
    """A young temp file (another writer's fold in progress), or a young snapshot not
    older than ours: another writer may have published it right after our
    compare-and-swap, and deleting it would leave SQLite naming a missing file."""
    try:
        if path.stat().st_mtime <= cutoff:
            return False
    except FileNotFoundError:
        return True  # already removed by another writer: nothing left to delete
    if path.name.endswith(".tmp"):
        return True
    seq = _snapshot_seq(path.name, prefix)
    return keep_seq is not None and seq is not None and seq >= keep_seq


def _mark_deleted(index: hnswlib.Index, label: int) -> bool:
    """Mark ``label`` deleted; False when an earlier fold had deleted it already."""
    try:
        index.mark_deleted(label)
    except RuntimeError as error:
        # hnswlib raises on a second delete; any other failure is real.
        if "already deleted" not in str(error):
            raise
        return False
    return True


def _snapshot_seq(name: str, prefix: str) -> int | None:
    """The vector seq a snapshot file name records (``<prefix><seq>-<id>.hnsw`` or ``.npz``)."""
    digits = name.removeprefix(prefix).split("-", 1)[0]
    return int(digits) if digits.isdigit() else None


def unpack(rows: Sequence[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    """Stored (label, blob) rows → (labels, matrix with one float32 row per label)."""
    labels = np.asarray([label for label, _ in rows], dtype=np.int64)
    if not rows:
        return labels, np.zeros((0, 0), dtype=np.float32)
    return labels, np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32).reshape(len(rows), -1)


def blob_to_vector(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


def vector_to_blob(row: np.ndarray) -> bytes:
    return np.ascontiguousarray(row, dtype=np.float32).tobytes()
