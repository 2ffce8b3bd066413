"""The ``vectors`` table, its tombstones, and the name of the published HNSW snapshot.

Every vector lives here, one row per note, with a ``seq`` that grows with every write:
the vectors after the snapshot's seq are the delta (see adr/0005-vector-snapshot-and-delta.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .connection import Connection, chunks, placeholders

FLOAT32_BYTES = 4
ITER_BATCH = 10_000  # vectors per batch when a fold reads them all
_SNAPSHOT_KEYS = ("snapshot_file", "snapshot_seq", "snapshot_deleted")


@dataclass(frozen=True)
class SnapshotMeta:
    """The published snapshot: its file name (``None``: none yet), the vector seq it holds
    and how many of its labels are marked deleted."""

    file: str | None
    seq: int
    deleted: int


class VectorStore:
    """Vectors by note label, the delta cursor, tombstones and the snapshot's name."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def put(self, labels: Sequence[int], blobs: Sequence[bytes]) -> None:
        """Store (or replace) vectors; a replaced vector gets a new seq, so it is in the delta."""
        # OR REPLACE deletes the old row and inserts a new one, so the vector gets a new seq.
        self.db.executemany(
            "INSERT OR REPLACE INTO vectors (label, vector) VALUES (?, ?)",
            [(int(label), blob) for label, blob in zip(labels, blobs, strict=True)],
        )

    def delete(self, labels: Iterable[int]) -> None:
        """Drop these notes' vectors and record them as tombstones for readers' snapshots."""
        params = [(int(label),) for label in labels]
        self.db.executemany("DELETE FROM vectors WHERE label = ?", params)
        self.db.executemany("INSERT INTO vector_tombstones (label) VALUES (?)", params)

    def clear(self) -> None:
        self.db.execute("DELETE FROM vectors")

    def max_seq(self) -> int:
        row = self.db.execute("SELECT max(seq) FROM vectors").fetchone()
        return int(row[0] or 0)

    def after(self, seq: int) -> list[tuple[int, int, bytes]]:
        """(seq, label, blob) of every vector written after ``seq`` — the delta."""
        rows = self.db.execute("SELECT seq, label, vector FROM vectors WHERE seq > ? ORDER BY seq", (int(seq),))
        return [(row[0], row[1], row[2]) for row in rows]

    def for_labels(self, labels: Sequence[int]) -> list[tuple[int, bytes]]:
        found: list[tuple[int, bytes]] = []
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, vector FROM vectors WHERE label IN ({placeholders(len(chunk))})"
            found.extend((row[0], row[1]) for row in self.db.execute(query, chunk))
        return found

    def iter_all(self, up_to_seq: int, batch: int = ITER_BATCH) -> Iterator[list[tuple[int, bytes]]]:
        last = -1
        while True:
            rows = self.db.execute(
                "SELECT label, vector FROM vectors WHERE label > ? AND seq <= ? ORDER BY label LIMIT ?",
                (last, int(up_to_seq), batch),
            ).fetchall()
            if not rows:
                return
            yield [(row[0], row[1]) for row in rows]
            last = rows[-1][0]

    def labels(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT label FROM vectors")}

    def missing_labels(self) -> list[int]:
        """Notes without a vector (a crash between chunks of an embedder switch)."""
        rows = self.db.execute("SELECT label FROM notes WHERE label NOT IN (SELECT label FROM vectors)")
        return [row[0] for row in rows]

    def count_after(self, seq: int) -> int:
        return int(self.db.execute("SELECT count(*) FROM vectors WHERE seq > ?", (int(seq),)).fetchone()[0])

    def count_up_to(self, seq: int) -> int:
        return int(self.db.execute("SELECT count(*) FROM vectors WHERE seq <= ?", (int(seq),)).fetchone()[0])

    def dimension(self) -> int | None:
        row = self.db.execute("SELECT length(vector) FROM vectors LIMIT 1").fetchone()
        return None if row is None else int(row[0]) // FLOAT32_BYTES

    # -- tombstones

    def tombstones(self) -> tuple[int, list[int]]:
        """(highest tombstone seq, labels deleted since the last fold)."""
        rows = self.db.execute("SELECT seq, label FROM vector_tombstones ORDER BY seq").fetchall()
        return (rows[-1][0] if rows else 0), [row[1] for row in rows]

    def clear_tombstones(self, up_to_seq: int) -> None:
        """Forget deletions a published snapshot already marks (call inside its transaction)."""
        self.db.execute("DELETE FROM vector_tombstones WHERE seq <= ?", (int(up_to_seq),))

    # -- the snapshot's name

    def snapshot(self) -> SnapshotMeta:
        rows = dict(self.db.execute(
            f"SELECT key, value FROM meta WHERE key IN ({placeholders(len(_SNAPSHOT_KEYS))})", _SNAPSHOT_KEYS
        ).fetchall())
        return SnapshotMeta(rows.get("snapshot_file"), int(rows.get("snapshot_seq") or 0), int(rows.get("snapshot_deleted") or 0))

    def swap_snapshot(self, expected: str | None, name: str | None, seq: int, deleted: int, tombstone_seq: int = 0) -> bool:
        """Publish a new snapshot file name iff the current one is still ``expected``.

        Tombstones up to ``tombstone_seq`` are dropped with it: the new file marks those
        labels deleted itself. Without a snapshot there is nothing to hide them from.
        """
        with self.db.transaction():
            if self.snapshot().file != expected:
                return False
            if name is None:
                self.db.execute(f"DELETE FROM meta WHERE key IN ({placeholders(len(_SNAPSHOT_KEYS))})", _SNAPSHOT_KEYS)
                self.db.execute("DELETE FROM vector_tombstones")
                return True
            self.clear_tombstones(tombstone_seq)
            for key, value in zip(_SNAPSHOT_KEYS, (name, str(int(seq)), str(int(deleted))), strict=True):
                self.db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
        return True
