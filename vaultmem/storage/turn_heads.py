"""The ``turn_heads`` table: each conversation turn's head sum, and the feed of turns written.

A turn's windows (turn_windows.py) take its neighbours' heads off their rows; the head's token
sum is stored here by the indexer when it writes the turn (float32, as the embedder gives it),
so no search embeds it. Every write of a turn's rows puts its row again (a new ``seq``); a
note that stops being a turn gets a row with no vector: a searcher reads what was written
after its cursor and makes again only the windows around those turns. See migrations
``023_turn_heads`` and adr/0004, "A turn's windows".
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .connection import Connection, chunks, placeholders

if TYPE_CHECKING:  # numpy is loaded by a search or a write of turns, not by `check` (tests/test_cli.py)
    import numpy as np


# Rows of notes that are no turn (any more): those readers' feeds still announce, kept until
# :meth:`TurnHeadStore.prune_left`. A turn owed its head has a row with no vector too, and is a turn.
_LEFT = "vector IS NULL AND label NOT IN (SELECT label FROM notes WHERE turn_key IS NOT NULL)"
PRUNE_LEFT_AT = 256  # as turn_windows.WHOLE_WINDOWS_AT: a searcher this far behind makes every window anew
PRUNE_LEFT_SHARE = 8  # ... or an eighth of the rows


class TurnHeadStore:
    """Owns ``turn_heads`` and ``turn_head_epoch``."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def put(self, heads: Sequence[tuple[int, str, np.ndarray]]) -> None:
        """Store each (turn label, head hash, head sum) at a new seq (OR REPLACE: a new row)."""
        import numpy as np

        self.db.executemany("INSERT OR REPLACE INTO turn_heads (label, head_hash, vector) VALUES (?, ?, ?)",
                            [(int(label), digest, np.asarray(vector, dtype=np.float32).tobytes())
                             for label, digest, vector in heads])

    def leave(self, labels: Iterable[int]) -> None:
        """These notes are no turns (any more): a row with no vector at a new seq, for readers' feeds.
        Only for a label that has a row (a turn's, or one owed its head, which a searcher holds as
        a turn too): a note that never was a turn writes nothing. Then :meth:`prune_left`, when a
        row was written: an edit of a note that is no turn asks nothing more (its count scans the rows)."""
        wrote = False
        for chunk in chunks(int(label) for label in labels):
            held = [int(row[0]) for row in self.db.execute(
                f"SELECT label FROM turn_heads WHERE label IN ({placeholders(len(chunk))})", chunk)]
            self.db.executemany("INSERT OR REPLACE INTO turn_heads (label, head_hash, vector) VALUES (?, NULL, NULL)",
                                [(label,) for label in held])
            wrote = wrote or bool(held)
        if wrote:
            self.prune_left()

    def left_count(self) -> int:
        """How many rows are of notes that are no turn now (removed, or no longer naming a speaker)."""
        return int(self.db.execute(f"SELECT count(*) FROM turn_heads WHERE {_LEFT}").fetchone()[0])

    def prune_left(self, at_least: int = PRUNE_LEFT_AT) -> int:
        """Delete the rows of notes that are no turn now once there are more of them than
        ``at_least`` and an eighth of the rows, under a new epoch; how many were deleted.

        Note labels are never reused (AUTOINCREMENT), so each removed turn left a row for good: a
        vault whose agent writes and forgets turns for months grew a feed of dead rows that every
        reader's cursor walks past and ``count_after`` counts. A row can only go with a new epoch:
        a searcher whose cursor is before it would otherwise never learn the turn left, and keep
        its text in its neighbours' windows. A new epoch makes every searcher make its windows
        anew once (1.3 s at 30,000 turns), so this waits for as many dead rows as a searcher that
        far behind would make anew anyway (turn_windows.WHOLE_WINDOWS_AT, an eighth of the turns)."""
        left = self.left_count()
        if left <= at_least or left * PRUNE_LEFT_SHARE <= self.row_count():
            return 0
        self.db.execute(f"DELETE FROM turn_heads WHERE {_LEFT}")
        self.db.execute("UPDATE turn_head_epoch SET value = ?", (secrets.token_hex(8),))
        return left

    def row_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM turn_heads").fetchone()[0])

    def owe(self, labels: Iterable[int]) -> None:
        """These turns were written without a head sum: a row with none at a new seq (a searcher
        embeds their heads itself until the run stores them)."""
        self.db.executemany("INSERT OR REPLACE INTO turn_heads (label, head_hash, vector) VALUES (?, NULL, NULL)",
                            [(int(label),) for label in labels])

    def owed(self, labels: Sequence[int]) -> set[int]:
        """Those of these labels whose row holds no head sum."""
        found: set[int] = set()
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label FROM turn_heads WHERE vector IS NULL AND label IN ({placeholders(len(chunk))})"
            found.update(int(row[0]) for row in self.db.execute(query, chunk))
        return found

    def hashes(self, labels: Sequence[int]) -> dict[int, str]:
        """Each of these turns' stored head hash (a turn without a stored head is left out)."""
        found: dict[int, str] = {}
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, head_hash FROM turn_heads WHERE vector IS NOT NULL AND label IN ({placeholders(len(chunk))})"
            found.update((int(label), str(digest)) for label, digest in self.db.execute(query, chunk))
        return found

    def sums(self, labels: Sequence[int]) -> dict[int, np.ndarray]:
        """Each of these turns' stored head sum (float64), none for a turn without one."""
        held: list[int] = []
        blobs: list[bytes] = []
        for chunk in chunks(int(label) for label in labels):
            query = f"SELECT label, vector FROM turn_heads WHERE vector IS NOT NULL AND label IN ({placeholders(len(chunk))})"
            for label, blob in self.db.execute(query, chunk):
                held.append(int(label))
                blobs.append(blob)
        if not held:
            return {}
        import numpy as np

        # One conversion for them all (a row at a time was a third of a new process's windows).
        matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(held), -1).astype(np.float64)
        return dict(zip(held, matrix, strict=True))

    def clear(self) -> None:
        """Forget every head (an embedder switch: they are the old embedder's), under a new epoch."""
        self.db.execute("DELETE FROM turn_heads")
        self.db.execute("UPDATE turn_head_epoch SET value = ?", (secrets.token_hex(8),))

    def epoch(self) -> tuple[str, int]:
        """(the epoch, the highest seq): a searcher's cursor."""
        row = self.db.execute("SELECT value FROM turn_head_epoch").fetchone()
        top = self.db.execute("SELECT max(seq) FROM turn_heads").fetchone()
        return ("" if row is None else str(row[0])), int(top[0] or 0)

    def written_after(self, seq: int) -> dict[int, np.ndarray | None]:
        """Each turn (or note no longer one) written after ``seq`` → its head sum (None: none)."""
        rows = self.db.execute("SELECT label, vector FROM turn_heads WHERE seq > ? ORDER BY seq", (int(seq),))
        return {int(label): (None if blob is None else _vector(blob)) for label, blob in rows}

    def count_after(self, seq: int) -> int:
        return int(self.db.execute("SELECT count(*) FROM turn_heads WHERE seq > ?", (int(seq),)).fetchone()[0])


def _vector(blob: bytes) -> np.ndarray:
    import numpy as np

    return np.frombuffer(blob, dtype=np.float32).astype(np.float64)
