"""Vector snapshot files: an hnswlib graph or an exact matrix, checked, shared, cleaned up.

What ``vectors.py``'s readers and folds keep on disk (adr/0005): an hnswlib graph
(``.hnsw``) or — for a space that allows it and holds few enough vectors — a plain matrix
(``.npz``) searched exactly. A published file is immutable, so it is loaded once per
process and shared read-only by every reader (:func:`shared_snapshot`). A file's name
carries the CRC-32 of its bytes, checked before it is read (:class:`DamagedSnapshot`);
hnswlib writes without checking for errors, so :func:`save_graph` verifies the size.
"""

from __future__ import annotations

import errno
import logging
import re
import threading
import time
import weakref
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import hnswlib
import numpy as np

from .durable import fsync_file
from .errors import REBUILD, DerivedIndexError, Spelled
from .storage import NOTE_SPACE, SPACES

GRAPH_SUFFIX = ".hnsw"
MATRIX_SUFFIX = ".npz"
log = logging.getLogger("vaultmem")
SNAPSHOT_SUFFIXES = (GRAPH_SUFFIX, MATRIX_SUFFIX)
# Query-time ef, measured on generated vaults (benchmarks/bench_index.py): the default
# of 10 gives ~0.56 recall@10; ef 400 gives 0.989 at 10k notes for +0.15 ms per query.
# Larger graphs need more, so ef grows with the index up to the space's ef_max
# (benchmarks/bench_ann.py: 216k passages need 2048 for 0.986).
HNSW_EF_MIN = 400
HNSW_ELEMENTS_PER_EF = 100  # between the bounds, ef is the graph's size / this
SNAPSHOT_GRACE_SECONDS = 3600  # a younger snapshot or temp file may be another writer's: left alone
CRC_CHUNK = 1 << 20
# <prefix><seq>-<id>-<crc32>.hnsw (or .npz); names written before checksums have no -<crc32>.
_CHECKSUM_NAME = re.compile(
    rf"^(?:{'|'.join(re.escape(space.file_prefix) for space in SPACES)})\d+-[0-9a-f]+-(?P<crc>[0-9a-f]{{8}})"
    rf"(?:{'|'.join(re.escape(suffix) for suffix in SNAPSHOT_SUFFIXES)})$"
)


class DamagedSnapshot(Exception):
    """A snapshot file that is not what was written (checksum, size or its reader's own check)."""


def ef_for(count: int, ef_max: int) -> int:
    return max(HNSW_EF_MIN, min(ef_max, count // HNSW_ELEMENTS_PER_EF))


class GraphSnapshot:
    """An hnswlib snapshot in memory, shared read-only by every reader of this process."""

    def __init__(self, index: hnswlib.Index, deleted: int) -> None:
        self.index = index
        self.labels = frozenset(index.get_ids_list())  # every label stored in the file
        self.live = index.get_current_count() - deleted  # labels the file does not mark deleted

    def top(self, query: np.ndarray, k: int, hidden: set[int]) -> list[tuple[int, float]]:
        """The best ``k`` labels that are not ``hidden``, best first."""
        return _graph_top(self.index, query, min(k, self.live), hidden, self.live)

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return _graph_neighbours(self.index, queries, min(k, self.live))


class MatrixSnapshot:
    """A snapshot searched exactly: labels in ascending order and their vectors."""

    def __init__(self, order: np.ndarray, matrix: np.ndarray) -> None:
        self.order = order
        self.matrix = matrix
        self.labels = frozenset(order.tolist())
        self.live = len(order)

    def top(self, query: np.ndarray, k: int, hidden: set[int]) -> list[tuple[int, float]]:
        return self.top_of(self.scan(query), k, hidden)

    def scan(self, query: np.ndarray) -> np.ndarray:
        """Every row's inner product with ``query``, in row order (what :meth:`top` ranks)."""
        return cosines(self.matrix, query)

    def top_of(self, scores: np.ndarray, k: int, hidden: set[int]) -> list[tuple[int, float]]:
        """The best ``k`` labels that are not ``hidden`` by a :meth:`scan` (left as it is)."""
        if hidden:
            scores = scores.copy()
            scores[self.rows_of(hidden)[1]] = -np.inf
        rows = best_rows(scores, k)
        rows = rows[np.isfinite(scores[rows])]
        # Converted as arrays: a Python loop over the 400 rows a search asks for took 0.3 ms of it.
        return list(zip(self.order[rows].tolist(), scores[rows].tolist(), strict=True))

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
        return wanted[present].tolist(), rows[present]

    def neighbours(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return exact_neighbours(self.order, self.matrix, queries, k)

    def save(self, path: Path) -> None:
        try:
            with open(path, "wb") as handle:
                np.savez(handle, labels=self.order, matrix=stored_matrix(self.matrix))
            fsync_file(path)
        except OSError as error:
            raise named_write_error(error, path) from error


def stored_matrix(matrix: np.ndarray) -> np.ndarray:
    """The matrix as its npz stores it: float16 when that holds every value exactly (vectors are
    rounded to float16 when stored: vectors.vector_to_blob), which halves the file; else float32 —
    an index whose vectors were stored before that rounding keeps its exact numbers until a
    re-index embeds them again, rather than answering from vectors its SQLite does not hold."""
    half = matrix.astype(np.float16)
    if np.array_equal(half.astype(np.float32), matrix):
        return half
    log.info("the vector snapshot is saved as float32: its %d vectors were stored before vectors were rounded "
             "to float16 (stop 38); the next `vaultmem index` embeds them again, rounded", len(matrix))
    return matrix


def named_write_error(error: OSError, path: Path) -> OSError:
    """``error`` naming ``path``: a full disk fails a buffered write in its flush or close,
    whose OSError carries no file name, and `index` then said only "cannot write: No space
    left on device" — not which file, nor that it was only the vector snapshot."""
    if error.filename is not None:
        return error
    return OSError(error.errno, f"{error.strerror or error} (writing the vector snapshot)", str(path))


LoadedSnapshot = GraphSnapshot | MatrixSnapshot


class _SharedSnapshots:
    """Snapshot files loaded in this process, by path: each file is loaded once while some
    reader holds it. Files are immutable once published, so sharing needs no more care than
    never writing into the loaded graph (hnswlib answers concurrent queries)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: weakref.WeakValueDictionary[str, LoadedSnapshot] = weakref.WeakValueDictionary()

    def get(self, path: Path, dimension: int, deleted: int, ef_max: int) -> LoadedSnapshot:
        key = str(path)
        with self._lock:
            loaded = self._loaded.get(key)
            if loaded is None:
                loaded = _load(path, dimension, deleted, ef_max)
                self._loaded[key] = loaded
            return loaded


def _load(path: Path, dimension: int, deleted: int, ef_max: int) -> LoadedSnapshot:
    if not path.exists():
        raise FileNotFoundError(path)
    verify_snapshot(path)
    if path.suffix == MATRIX_SUFFIX:
        return MatrixSnapshot(*_read_matrix(path, dimension))
    index = read_graph(path, dimension)
    index.set_ef(ef_for(index.get_current_count(), ef_max))
    return GraphSnapshot(index, deleted)


_SHARED = _SharedSnapshots()


def shared_snapshot(path: Path, dimension: int, deleted: int, ef_max: int) -> LoadedSnapshot:
    """The snapshot file at ``path`` as this process shares it (loaded on first use)."""
    return _SHARED.get(path, dimension, deleted, ef_max)


def save_graph(index: hnswlib.Index, path: Path) -> None:
    """``save_index``, checked: hnswlib writes through a C++ stream and ignores write errors,
    so a full disk would leave a short file that looks saved."""
    index.save_index(str(path))
    expected, written = index.index_file_size(), path.stat().st_size
    if written != expected:
        raise OSError(errno.ENOSPC, f"the vector snapshot was cut short ({written} of {expected} bytes written; "
                      "is the disk full?)", str(path))
    try:
        fsync_file(path)
    except OSError as error:
        raise named_write_error(error, path) from error


def verify_snapshot(path: Path) -> None:
    """Raise :class:`DamagedSnapshot` unless ``path`` has the bytes its name's checksum
    says (names from before checksums are left to their reader's own checks)."""
    match = _CHECKSUM_NAME.match(path.name)
    if match is None:
        return
    actual = crc32_of(path)
    if actual != int(match["crc"], 16):
        raise DamagedSnapshot(f"its checksum is {actual:08x}, not the {match['crc']} it was written with")


def crc32_of(path: Path) -> int:
    crc = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CRC_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return crc


def exact_neighbours(labels: np.ndarray, matrix: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top k of each query among the delta's vectors (those not in the snapshot yet)."""
    if not labels.size:
        return np.zeros((len(queries), 0), dtype=np.int64), np.zeros((len(queries), 0), dtype=np.float32)
    scores = queries @ matrix.T
    if scores.shape[1] > k:
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        return labels[top], np.take_along_axis(scores, top, axis=1)
    return np.broadcast_to(labels, scores.shape), scores


def _graph_neighbours(index: hnswlib.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    # Fewer than k per row is fine here: a duplicate is among the very nearest.
    found = _knn_query(index, queries, k)
    if found is None:
        raise DerivedIndexError(Spelled("the vector snapshot returns no neighbours at all; ", REBUILD))
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


def best_rows(scores: np.ndarray, k: int) -> np.ndarray:
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


def read_graph(path: Path, dimension: int) -> hnswlib.Index:
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


def remove_stale_snapshots(state_dir: Path, keep: str | None, prefix: str = NOTE_SPACE.file_prefix) -> None:
    """Delete snapshot files that are not the current one, and abandoned temp files.

    A reader that still has an old file open keeps reading it (POSIX unlink semantics);
    it loaded the whole index into memory anyway. Files younger than an hour that
    another writer may be using (see ``_leave_alone``) stay.
    """
    cutoff = time.time() - SNAPSHOT_GRACE_SECONDS
    keep_seq = _snapshot_seq(keep, prefix) if keep is not None else None
    for path in state_dir.glob(f"{prefix}*"):
        if path.name == keep or _leave_alone(path, keep_seq, cutoff, prefix):
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


def mark_deleted(index: hnswlib.Index, label: int) -> bool:
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
