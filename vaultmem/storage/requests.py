"""The ``requests`` table: the first answer to each write an agent sent with a request id,
so that a retry is answered again instead of written twice (adr/0031-retried-writes.md).

Not derived from the vault — a rebuild keeps it, as it keeps usage history — but not backed
up either: a key only has to outlive the retries of one call (minutes), and a lost key costs
at most one duplicate note, which the retried answer's ``similar`` names.
"""

from __future__ import annotations

from dataclasses import dataclass

from .connection import Connection


@dataclass(frozen=True)
class RequestRow:
    """One request id as first seen: its call's fingerprint and, once done, its answer."""

    key: str
    fingerprint: str
    started_us: int
    answer: str | None  # JSON; None while the first call is still being made (or never ended)
    finished_us: int | None


class RequestStore:
    """Request ids and their answers (the caller holds the write transaction around a claim)."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def get(self, key: str) -> RequestRow | None:
        found = self.db.execute(
            "SELECT key, fingerprint, started_us, answer, finished_us FROM requests WHERE key = ?", (key,)).fetchone()
        return None if found is None else RequestRow(*found)

    def claim(self, key: str, fingerprint: str, now_us: int) -> RequestRow | None:
        """Record ``key`` as being answered now; or, when it is already known, its row (unchanged)."""
        found = self.get(key)
        if found is None:
            self.db.execute("INSERT INTO requests (key, fingerprint, started_us) VALUES (?, ?, ?)", (key, fingerprint, now_us))
        return found

    def put(self, row: RequestRow) -> None:
        """Keep ``row`` as the answer to its key, replacing any earlier one."""
        self.db.execute("INSERT OR REPLACE INTO requests (key, fingerprint, started_us, answer, finished_us) "
                        "VALUES (?, ?, ?, ?, ?)", (row.key, row.fingerprint, row.started_us, row.answer, row.finished_us))

    def finish(self, key: str, answer: str, now_us: int) -> None:
        self.db.execute("UPDATE requests SET answer = ?, finished_us = ? WHERE key = ?", (answer, now_us, key))

    def release(self, key: str) -> None:
        """Forget ``key``: its call failed and wrote nothing, so a retry may make it again."""
        self.db.execute("DELETE FROM requests WHERE key = ?", (key,))

    def forget_older_than(self, before_us: int) -> None:
        self.db.execute("DELETE FROM requests WHERE started_us < ?", (before_us,))
