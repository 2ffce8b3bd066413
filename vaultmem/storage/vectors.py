"""The vector tables, their tombstones, and the names of the published HNSW snapshots.

Two spaces of vectors, each with its own table, tombstones and snapshot: one vector per
note (``vectors``: consolidation and the similar-note check) and one per passage
(``passage_vectors``: search). Every vector lives here with a ``seq`` that grows with
every write: the vectors after the snapshot's seq are the delta (see
adr/0005-vector-snapshot-and-delta.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .connection import Connection, chunks, placeholders

FLOAT32_BYTES = 4  # a value of a vector stored before stop 39
FLOAT16_BYTES = 2  # since: the blob's kinds are in vector_blobs.py
ITER_BATCH = 10_000  # vectors per batch when a fold reads them all


def dimension_of(length: int) -> int:
    """The dimension of a vector whose blob is ``length`` bytes long: float16 values and a mark
    (an odd length) or, written before stop 39, float32 values (vector_blobs.py)."""
    return (length - 1) // FLOAT16_BYTES if length % 2 else length // FLOAT32_BYTES


@dataclass(frozen=True)
class VectorSpace:
    """Where one kind of vector lives (its table, tombstones, owners, meta keys and snapshot
    files) and how its snapshot is searched (vectors.py, adr/0005)."""

    table: str
    tombstones: str
    owners: str  # the table whose labels these vectors belong to
    meta_prefix: str  # of the snapshot's keys in `meta`
    file_prefix: str  # of the snapshot files in .vaultmem/
    exact_up_to: int = 0  # a snapshot of at most this many vectors is a plain matrix, searched exactly
    graph_m: int = 16  # hnswlib's M and ef_construction for a larger one
    graph_ef_construction: int = 100
    graph_ef_max: int = 1024  # query-time ef grows with the graph up to this

    @property
    def snapshot_keys(self) -> tuple[str, str, str]:
        return (f"{self.meta_prefix}snapshot_file", f"{self.meta_prefix}snapshot_seq", f"{self.meta_prefix}snapshot_deleted")


# Notes: consolidation asks for the neighbours of thousands of notes at once, which only a
# graph answers in time. Passages: search asks one query at a time; measured, an exact scan
# of 50,000 vectors takes 1.5 ms and never misses, where a graph of clustered vectors
# (conversation turns sharing a speaker) missed 8 % of the top 10 at 3,000. Past that, a
# graph built with ef_construction 200 and searched at ef up to 2048: at 216,000 passages
# (100k notes) the vector side's top 10 notes are 0.986 of the exact ones, where
# ef_construction 100 gave 0.968 and ef 1024 0.9535 (benchmarks/bench_ann.py, adr/0005).
NOTE_SPACE = VectorSpace("vectors", "vector_tombstones", "notes", "", "vectors-")
PASSAGE_SPACE = VectorSpace("passage_vectors", "passage_vector_tombstones", "passages", "passage_", "passages-",
                            exact_up_to=50_000, graph_ef_construction=200, graph_ef_max=2048)
SPACES = (NOTE_SPACE, PASSAGE_SPACE)


@dataclass(frozen=True)
class SnapshotMeta:
    """The published snapshot: its file name (``None``: none yet), the vector seq it holds
    and how many of its labels are marked deleted."""

    file: str | None
    seq: int
    deleted: int


class VectorStore:
    """Vectors of one space by label, the delta cursor, tombstones and the snapshot's name."""

    def __init__(self, db: Connection, space: VectorSpace = NOTE_SPACE) -> None:
        self.db = db
        self.space = space
        self._table = space.table
        self._tombstones = space.tombstones

    def put(self, labels: Sequence[int], blobs: Sequence[bytes]) -> None:
        """Store (or replace) vectors; a replaced vector gets a new seq, so it is in the delta."""
        # OR REPLACE deletes the old row and inserts a new one, so the vector gets a new seq.
        self.db.executemany(
            f"INSERT OR REPLACE INTO {self._table} (label, vector) VALUES (?, ?)",
            [(int(label), blob) for label, blob in zip(labels, blobs, strict=True)],
        )

    def delete(self, labels: Iterable[int]) -> None:
        """Drop these notes' vectors and record them as tombstones for readers' snapshots."""
        params = [(int(label),) for label in labels]
        self.db.executemany(f"DELETE FROM {self._table} WHERE label = ?", params)
        self.db.executemany(f"INSERT INTO {self._tombstones} (label) VALUES (?)", params)

    def clear(self) -> None:
        self.db.execute(f"DELETE FROM {self._table}")

    def max_seq(self) -> int:
        row = self.db.execute(f"SELECT max(seq) FROM {self._table}").fetchone()
        return int(row[0] or 0)

    def after(self, seq: int) -> list[tuple[int, int, bytes]]:
        """(seq, label, blob) of every vector written after ``seq`` — the delta."""
        rows = self.db.execute(f"SELECT seq, label, vector FROM {self._table} WHERE seq > ? ORDER BY seq", (int(seq),))
        return [(row[0], row[1], row[2]) for row in rows]

    def for_labels(self, labels: Sequence[int]) -> list[tuple[int, bytes]]:
        found: list[tuple[int, bytes]] = []
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, vector FROM {self._table} WHERE label IN ({placeholders(len(chunk))})"
            found.extend((row[0], row[1]) for row in self.db.execute(query, chunk))
        return found

    def iter_all(self, up_to_seq: int, batch: int = ITER_BATCH) -> Iterator[list[tuple[int, bytes]]]:
        last = -1
        while True:
            rows = self.db.execute(
                f"SELECT label, vector FROM {self._table} WHERE label > ? AND seq <= ? ORDER BY label LIMIT ?",
                (last, int(up_to_seq), batch),
            ).fetchall()
            if not rows:
                return
            yield [(row[0], row[1]) for row in rows]
            last = rows[-1][0]

    def labels(self) -> set[int]:
        return {row[0] for row in self.db.execute(f"SELECT label FROM {self._table}")}

    def missing_labels(self) -> list[int]:
        """Owners (notes, passages) without a vector (a crash between chunks of an embedder switch)."""
        rows = self.db.execute(f"SELECT label FROM {self.space.owners} WHERE label NOT IN (SELECT label FROM {self._table})")
        return [row[0] for row in rows]

    def count_after(self, seq: int) -> int:
        return int(self.db.execute(f"SELECT count(*) FROM {self._table} WHERE seq > ?", (int(seq),)).fetchone()[0])

    def count_up_to(self, seq: int) -> int:
        return int(self.db.execute(f"SELECT count(*) FROM {self._table} WHERE seq <= ?", (int(seq),)).fetchone()[0])

    def dimension(self) -> int | None:
        row = self.db.execute(f"SELECT length(vector) FROM {self._table} LIMIT 1").fetchone()
        return None if row is None else dimension_of(int(row[0]))

    # -- tombstones

    def tombstones(self) -> tuple[int, list[int]]:
        """(highest tombstone seq, labels deleted since the last fold)."""
        rows = self.db.execute(f"SELECT seq, label FROM {self._tombstones} ORDER BY seq").fetchall()
        return (rows[-1][0] if rows else 0), [row[1] for row in rows]

    def clear_tombstones(self, up_to_seq: int) -> None:
        """Forget deletions a published snapshot already marks (call inside its transaction)."""
        self.db.execute(f"DELETE FROM {self._tombstones} WHERE seq <= ?", (int(up_to_seq),))

    # -- the snapshot's name

    def snapshot(self) -> SnapshotMeta:
        keys = self.space.snapshot_keys
        rows = dict(self.db.execute(f"SELECT key, value FROM meta WHERE key IN ({placeholders(len(keys))})", keys).fetchall())
        return SnapshotMeta(rows.get(keys[0]), int(rows.get(keys[1]) or 0), int(rows.get(keys[2]) or 0))

    def swap_snapshot(self, expected: str | None, name: str | None, seq: int, deleted: int, tombstone_seq: int = 0) -> bool:
        """Publish a new snapshot file name iff the current one is still ``expected``.

        Tombstones up to ``tombstone_seq`` are dropped with it: the new file marks those
        labels deleted itself. Without a snapshot there is nothing to hide them from.
        """
        with self.db.transaction():
            if self.snapshot().file != expected:
                return False
            if name is None:
                keys = self.space.snapshot_keys
                self.db.execute(f"DELETE FROM meta WHERE key IN ({placeholders(len(keys))})", keys)
                self.db.execute(f"DELETE FROM {self._tombstones}")
                return True
            self.clear_tombstones(tombstone_seq)
            for key, value in zip(self.space.snapshot_keys, (name, str(int(seq)), str(int(deleted))), strict=True):
                self.db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
        return True
