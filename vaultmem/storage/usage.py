"""The ``usage`` table: when each note was last used — the one state not derived from
the vault, so ``index --rebuild`` keeps it (see adr/0007-usage-history.md).

Every change is also appended to the usage backup beside the index (usage_backup.py),
in the same write transaction, so a damaged ``index.db`` does not take the history with
it (adr/0022). A private copy of a read-only index takes no usage writes at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import IndexNotWritable
from .connection import Connection, chunks, placeholders

if TYPE_CHECKING:
    from .usage_backup import UsageBackup

_UPSERT = "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) VALUES (?, ?, ?, ?) ON CONFLICT(note_id) DO UPDATE SET "


@dataclass(frozen=True)
class UsageRow:
    note_id: str
    use_count: int
    last_used_at: str
    last_used_us: int


class UsageStore:
    """Usage history, keyed by note id (and its backup, when this index is the real one)."""

    def __init__(self, db: Connection, backup: UsageBackup | None = None, refusal: IndexNotWritable | None = None) -> None:
        self.db = db
        self.backup = backup
        # Why new uses cannot be recorded here: this is a private copy of an index this
        # process may not write, and a use recorded in it would vanish with it.
        self.refusal = refusal

    def record(self, note_ids: Sequence[str], at: str, at_us: int) -> None:
        """One more use of each note, at ``at``."""
        self._writable()
        self.db.executemany(
            _UPSERT + "use_count = use_count + 1, last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(note_id, 1, at, int(at_us)) for note_id in note_ids],
        )
        self._back_up(list(self.for_ids(note_ids).values()))

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
        self._writable()
        self.db.executemany(
            _UPSERT + "use_count = excluded.use_count, last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(row.note_id, int(row.use_count), row.last_used_at, int(row.last_used_us)) for row in rows],
        )
        self._back_up(list(rows))

    def merge(self, rows: Sequence[UsageRow]) -> None:
        """Take in an export (``usage import``): each note keeps the larger of its count and
        the imported one, and the later of the two last uses. Replacing them set a note used
        here since the export back to the export's count (a two-machine trial); and an
        import repeated changes nothing."""
        self._writable()
        self.db.executemany(
            _UPSERT + "use_count = max(usage.use_count, excluded.use_count), "
            "last_used_at = CASE WHEN excluded.last_used_us > usage.last_used_us THEN excluded.last_used_at "
            "ELSE usage.last_used_at END, last_used_us = max(usage.last_used_us, excluded.last_used_us)",
            [(row.note_id, int(row.use_count), row.last_used_at, int(row.last_used_us)) for row in rows],
        )
        self._back_up(list(self.for_ids([row.note_id for row in rows]).values()))

    def rename(self, old_id: str, new_id: str) -> None:
        """Carry a note's history to its new id (a moved note without a frontmatter id)."""
        if old_id == new_id or not self.for_ids([old_id]):
            return  # nothing to carry (most moved notes were never used)
        self.db.execute(
            "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) "
            "SELECT ?, use_count, last_used_at, last_used_us FROM usage WHERE note_id = ? "
            "ON CONFLICT(note_id) DO UPDATE SET use_count = usage.use_count + excluded.use_count, "
            "last_used_at = max(usage.last_used_at, excluded.last_used_at), "
            "last_used_us = max(usage.last_used_us, excluded.last_used_us)",
            (new_id, old_id),
        )
        self.db.execute("DELETE FROM usage WHERE note_id = ?", (old_id,))
        self._back_up(list(self.for_ids([new_id]).values()), removed=[old_id])

    # -- the backup (called inside the change's write transaction: lines in commit order)

    def _writable(self) -> None:
        if self.refusal is not None:
            raise self.refusal

    def rewrite_backup(self) -> None:
        """Make the backup hold exactly the table (after usage came back from a damaged index)."""
        if self.backup is not None:
            self.backup.compact(self.all())

    def _back_up(self, rows: Sequence[UsageRow], removed: Sequence[str] = ()) -> None:
        if self.backup is None or not (rows or removed):
            return
        if not self.backup.append(rows, removed):
            self.backup.compact(self.all())  # missing or grown too long: the whole table, as of now
