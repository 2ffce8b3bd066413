"""One SQLite connection to ``.vaultmem/index.db`` and its transaction discipline.

Connections are per thread (SQLite's rule); writes happen in ``BEGIN IMMEDIATE``
transactions so concurrent writers (``watch``, a ``remember`` from another process)
queue instead of failing half-way. WAL lets readers run beside a writer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DB_NAME = "index.db"
BUSY_TIMEOUT_SECONDS = 30.0
# Values per `IN (?, ?, …)` query: SQLite before 3.32 allows at most 999 variables.
SQL_VARIABLES_PER_QUERY = 500


class Connection:
    """One SQLite connection (use one per thread), shared by the stores that own its tables."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # check_same_thread=False only so close() may run from any thread at shutdown;
        # each Connection is still used by one thread at a time (Vault keeps one per thread).
        self.conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
        self._in_transaction = False
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._identity = _file_identity(path)  # the file exists now (the WAL pragma created it)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, params)

    def close(self) -> None:
        self.conn.close()

    @property
    def in_transaction(self) -> bool:
        return self._in_transaction

    def is_current(self) -> bool:
        """Is ``index.db`` still the file this connection opened? (Not mid-transaction.)"""
        return self._in_transaction or _file_identity(self.path) == self._identity

    def change_token(self) -> tuple[int, int]:
        """Changes whenever any connection commits (data_version) or this one writes."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0]), self.conn.total_changes

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; nested calls join the outer transaction."""
        if self._in_transaction:
            yield
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._in_transaction = False

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """Inside this block, give up on another writer's lock after ``seconds`` (``database is
        locked``) instead of the usual 30 s: a read that would also write must not stall."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Several reads that see one consistent state of the database."""
        if self._in_transaction:
            yield
            return
        self.conn.execute("BEGIN")
        self._in_transaction = True
        try:
            yield
        finally:
            self._in_transaction = False
            self.conn.execute("COMMIT")


def ensure_state_dir(state_dir: Path) -> None:
    """Create ``.vaultmem/`` with a ``.gitignore`` of ``*``: derived state is never committed."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# derived by vaultmem; rebuild with `vaultmem index --rebuild`\n*\n", encoding="utf-8")


def chunks(items: Iterable[Any], size: int = SQL_VARIABLES_PER_QUERY) -> Iterator[list[Any]]:
    """``items`` in lists of at most ``size``: one ``IN (…)`` query each."""
    listed = list(items)
    for start in range(0, len(listed), size):
        yield listed[start : start + size]


def placeholders(count: int) -> str:
    """``?, ?, ?`` for ``count`` values."""
    return ", ".join("?" for _ in range(count))


def _file_identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino
