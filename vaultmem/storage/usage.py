"""The ``usage`` table: when each note was last used — the one state not derived from
the vault, so ``index --rebuild`` keeps it (see adr/0007-usage-history.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .connection import Connection, chunks, placeholders

_UPSERT = "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) VALUES (?, ?, ?, ?) ON CONFLICT(note_id) DO UPDATE SET "


@dataclass(frozen=True)
class UsageRow:
    note_id: str
    use_count: int
    last_used_at: str
    last_used_us: int


class UsageStore:
    """Usage history, keyed by note id."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def record(self, note_ids: Sequence[str], at: str, at_us: int) -> None:
        """One more use of each note, at ``at``."""
        self.db.executemany(
            _UPSERT + "use_count = use_count + 1, last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(note_id, 1, at, int(at_us)) for note_id in note_ids],
        )

    def for_ids(self, note_ids: Sequence[str]) -> dict[str, UsageRow]:
        found: dict[str, UsageRow] = {}
        for chunk in chunks(note_ids):
            query = f"SELECT note_id, use_count, last_used_at, last_used_us FROM usage WHERE note_id IN ({placeholders(len(chunk))})"
            for row in self.db.execute(query, chunk):
                found[row[0]] = UsageRow(*row)
        return found

    def all(self) -> list[UsageRow]:
        rows = self.db.execute("SELECT note_id, use_count, last_used_at, last_used_us FROM usage ORDER BY note_id")
        return [UsageRow(*row) for row in rows]

    def replace(self, rows: Sequence[UsageRow]) -> None:
        """Set these notes' history to exactly these rows (an import)."""
        self.db.executemany(
            _UPSERT + "use_count = excluded.use_count, last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(row.note_id, int(row.use_count), row.last_used_at, int(row.last_used_us)) for row in rows],
        )

    def rename(self, old_id: str, new_id: str) -> None:
        """Carry a note's history to its new id (a moved note without a frontmatter id)."""
        if old_id == new_id:
            return
        self.db.execute(
            "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) "
            "SELECT ?, use_count, last_used_at, last_used_us FROM usage WHERE note_id = ? "
            "ON CONFLICT(note_id) DO UPDATE SET use_count = usage.use_count + excluded.use_count, "
            "last_used_at = max(usage.last_used_at, excluded.last_used_at), "
            "last_used_us = max(usage.last_used_us, excluded.last_used_us)",
            (new_id, old_id),
        )
        self.db.execute("DELETE FROM usage WHERE note_id = ?", (old_id,))
