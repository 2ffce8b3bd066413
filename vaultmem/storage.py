"""The derived store under ``<vault>/.vaultmem/``: the one module that owns SQL.

Everything here can be rebuilt from the Markdown files, except the ``usage`` table
(when a note was last used cannot be derived from the vault; see adr/0007).

Connections are per thread (SQLite's rule); writes happen in ``BEGIN IMMEDIATE``
transactions so concurrent writers (``watch``, a ``remember`` from another process)
queue instead of failing half-way. WAL lets readers run beside a writer.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite_utils

try:
    import fcntl
except ImportError:  # Windows: no flock; a rebuild in progress cannot be told from a dead one
    fcntl = None  # type: ignore[assignment]

from .errors import DerivedIndexError
from .lifecycle import expiry_sql
from .notes import Problem

DB_NAME = "index.db"
REBUILD_LOCK = "rebuild.lock"  # held (flock) by the process running `index --rebuild`
REBUILDING = "rebuilding"  # meta "indexed" while (or if) a rebuild has not finished
BUSY_TIMEOUT_SECONDS = 30.0

# ------------------------------------------------------------------ migrations


def _m001_notes(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE notes (
            label INTEGER PRIMARY KEY AUTOINCREMENT,  -- also the hnswlib label and FTS rowid
            id TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            layer TEXT,                    -- L1..L4, NULL when absent or unknown
            tags TEXT NOT NULL,            -- JSON list
            created TEXT,
            created_us INTEGER,
            expires_at TEXT,               -- as written in the file
            expires_us INTEGER,            -- epoch microseconds UTC; NULL = never expires
            expiry_invalid INTEGER NOT NULL DEFAULT 0,
            permanent INTEGER NOT NULL DEFAULT 0,
            content_hash TEXT NOT NULL,
            embed_hash TEXT NOT NULL,
            mtime_ns INTEGER NOT NULL,
            size INTEGER NOT NULL,
            body_chars INTEGER NOT NULL,
            problems TEXT NOT NULL         -- JSON list of {path, field, message, fix}
        ) STRICT
        """
    )
    db.execute("CREATE INDEX notes_id ON notes(id)")
    db.execute("CREATE INDEX notes_expires ON notes(expires_us)")
    db.execute("CREATE INDEX notes_content_hash ON notes(content_hash)")


def _m002_fts(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE VIRTUAL TABLE notes_fts USING fts5("
        "title, body, tags, tokenize = 'porter unicode61 remove_diacritics 2')"
    )


def _m003_vectors(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE vectors (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- grows with every write: the delta cursor
            label INTEGER NOT NULL UNIQUE,
            vector BLOB NOT NULL                    -- float32, L2-normalized
        ) STRICT
        """
    )


def _m004_meta(db: sqlite_utils.Database) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")


def _m005_usage(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE usage (
            note_id TEXT PRIMARY KEY,
            use_count INTEGER NOT NULL,
            last_used_at TEXT NOT NULL,
            last_used_us INTEGER NOT NULL
        ) STRICT
        """
    )


def _m006_vector_tombstones(db: sqlite_utils.Database) -> None:
    # Labels deleted since the last fold: readers hide them in their snapshot copy by
    # reading this small table instead of every label in `vectors` (O(vault) per edit).
    db.execute(
        "CREATE TABLE vector_tombstones (seq INTEGER PRIMARY KEY AUTOINCREMENT, label INTEGER NOT NULL) STRICT"
    )


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("001_notes", _m001_notes),
    ("002_fts", _m002_fts),
    ("003_vectors", _m003_vectors),
    ("004_meta", _m004_meta),
    ("005_usage", _m005_usage),
    ("006_vector_tombstones", _m006_vector_tombstones),
]
# Table → the migration that creates it; `index --rebuild` drops and recreates these.
DERIVED_TABLES = {
    "notes": "001_notes",
    "notes_fts": "002_fts",
    "vectors": "003_vectors",
    "meta": "004_meta",
    "vector_tombstones": "006_vector_tombstones",
}


# ------------------------------------------------------------------ rows


@dataclass(frozen=True)
class NoteRow:
    """What the index knows about one note (all derived from its file)."""

    id: str
    path: str
    title: str
    layer: str | None
    tags: list[str]
    created: str | None
    created_us: int | None
    expires_at: str | None
    expires_us: int | None
    expiry_invalid: bool
    permanent: bool
    content_hash: str
    embed_hash: str
    mtime_ns: int
    size: int
    body_chars: int
    problems: list[dict[str, str]]
    label: int | None = None

    def params(self) -> tuple[Any, ...]:
        return (
            self.id, self.path, self.title, self.layer, json.dumps(self.tags, ensure_ascii=False),
            self.created, self.created_us, self.expires_at, self.expires_us, int(self.expiry_invalid),
            int(self.permanent), self.content_hash, self.embed_hash, int(self.mtime_ns), int(self.size),
            int(self.body_chars), json.dumps(self.problems, ensure_ascii=False),
        )


_NOTE_COLUMNS = (
    "id, path, title, layer, tags, created, created_us, expires_at, expires_us, expiry_invalid, "
    "permanent, content_hash, embed_hash, mtime_ns, size, body_chars, problems"
)
_SELECT_NOTE = f"SELECT label, {_NOTE_COLUMNS} FROM notes"


def _row_to_note(row: Sequence[Any]) -> NoteRow:
    return NoteRow(
        label=row[0], id=row[1], path=row[2], title=row[3], layer=row[4], tags=json.loads(row[5]),
        created=row[6], created_us=row[7], expires_at=row[8], expires_us=row[9],
        expiry_invalid=bool(row[10]), permanent=bool(row[11]), content_hash=row[12],
        embed_hash=row[13], mtime_ns=row[14], size=row[15], body_chars=row[16],
        problems=json.loads(row[17]),
    )


@dataclass(frozen=True)
class FileState:
    label: int
    path: str
    mtime_ns: int
    size: int
    content_hash: str
    embed_hash: str


@dataclass(frozen=True)
class Eligibility:
    """Read-time filters, applied in SQL: expiry (``lifecycle.expiry_sql``), layers, tags."""

    now_us: int  # the instant expiry is evaluated at (and hits are marked expired at)
    include_expired: bool = False
    layers: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @property
    def filters(self) -> bool:
        """Does any note fail these filters? (False: every indexed note is eligible.)"""
        return not self.include_expired or bool(self.layers) or bool(self.tags)

    def where(self, alias: str = "notes") -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if not self.include_expired:
            alive, alive_params = expiry_sql(f"{alias}.expires_us", self.now_us)
            clauses.append(alive)
            params.extend(alive_params)
        if self.layers:
            clauses.append(f"{alias}.layer IN ({', '.join('?' for _ in self.layers)})")
            params.extend(self.layers)
        for tag in self.tags:
            clauses.append(f"EXISTS (SELECT 1 FROM json_each({alias}.tags) WHERE lower(json_each.value) = lower(?))")
            params.append(tag)
        return (" AND ".join(clauses) or "1"), params


@dataclass(frozen=True)
class UsageRow:
    note_id: str
    use_count: int
    last_used_at: str
    last_used_us: int


# ------------------------------------------------------------------ the store


class Store:
    """One SQLite connection to ``.vaultmem/index.db`` (use one Store per thread)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.path = state_dir / DB_NAME
        ensure_state_dir(state_dir)
        # check_same_thread=False only so close() may run from any thread at shutdown;
        # each Store is still used by one thread at a time (Vault keeps one per thread).
        connection = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
        self.conn = connection
        self._in_transaction = False
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._migrate()
        self._identity = _file_identity(self.path)  # the file exists now (WAL pragma created it)

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils' view of the connection (imported lazily: ~0.1 s a fresh process saves)."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

    def close(self) -> None:
        self.conn.close()

    @property
    def in_transaction(self) -> bool:
        return self._in_transaction

    def is_current(self) -> bool:
        """Is ``index.db`` still the file this connection opened? (Not mid-transaction.)"""
        return self._in_transaction or _file_identity(self.path) == self._identity

    # -- transactions

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

    def _migrate(self) -> None:
        if self._up_to_date():
            return  # the common case: no write lock needed just to open the index
        with self.transaction():
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT"
            )
            applied = {row[0] for row in self.conn.execute("SELECT name FROM _migrations")}
            known = {name for name, _ in MIGRATIONS}
            if applied - known:
                raise DerivedIndexError(
                    f"{self.path} was written by a newer vaultmem (migrations {sorted(applied - known)}); "
                    "upgrade vaultmem or run `vaultmem index --rebuild`"
                )
            for name, step in MIGRATIONS:
                if name not in applied:
                    step(self.db)  # sqlite-utils is imported only here: opening an index stays light
                    self.conn.execute(
                        "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                        (name, datetime.now().astimezone().isoformat(timespec="seconds")),
                    )

    def _up_to_date(self) -> bool:
        exists = self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
        if not exists:
            return False
        applied = {row[0] for row in self.conn.execute("SELECT name FROM _migrations")}
        return applied == {name for name, _ in MIGRATIONS}

    def drop_derived(self) -> None:
        """Forget everything derived (``index --rebuild``); usage history stays.

        Dropping and recreating happen in one transaction, so a concurrent reader sees
        the old tables or the new (empty, then filling) ones — never none.
        """
        with self.transaction():
            for table, migration in DERIVED_TABLES.items():
                self.conn.execute(f"DROP TABLE IF EXISTS {table}")
                self.conn.execute("DELETE FROM _migrations WHERE name = ?", (migration,))
            self._migrate()
            # Still "indexed" (being rebuilt): a concurrent search answers from what is
            # rebuilt so far, with a warning, instead of starting a second full index of its
            # own. A rebuild that died leaves this mark behind: see `rebuild_interrupted`.
            self.set_meta("indexed", REBUILDING)

    @contextmanager
    def rebuilding(self) -> Iterator[None]:
        """Hold the rebuild lock while ``index --rebuild`` runs (a second rebuild waits).

        The lock is an OS file lock: it is released when the process dies, however it dies,
        which is how others tell a rebuild in progress from one that was killed.
        """
        descriptor = os.open(self.state_dir / REBUILD_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)  # closing releases the lock

    @property
    def tells_dead_rebuilds(self) -> bool:
        """Whether a killed rebuild can be told from a running one (needs flock: not on Windows)."""
        return fcntl is not None

    def rebuild_state(self) -> str | None:
        """``None`` (no rebuild), ``"running"`` (another process is rebuilding: answers may be
        partial) or ``"interrupted"`` (a rebuild died half-way: run a reconcile to finish it)."""
        if self.get_meta("indexed") != REBUILDING:
            return None
        if fcntl is None:
            return "running"  # no flock here: cannot tell, so keep warning
        try:
            descriptor = os.open(self.state_dir / REBUILD_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return "running"
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return "running"
        finally:
            os.close(descriptor)
        # Nobody holds the lock, but a rebuild may have finished between the two reads.
        return "interrupted" if self.get_meta("indexed") == REBUILDING else None

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

    # -- meta

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def mark_indexed(self, completes_rebuild: bool) -> None:
        """Record that the index holds every note. Only the reconcile that finishes a rebuild
        (holding its lock) clears the rebuilding mark: an ordinary reconcile running beside a
        rebuild may have listed the files before the rebuild emptied the tables."""
        if completes_rebuild:
            self.set_meta("indexed", "1")
            return
        with self.transaction():
            self.conn.execute("INSERT INTO meta (key, value) VALUES ('indexed', '1') ON CONFLICT(key) DO NOTHING")

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def delete_meta(self, key: str) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM meta WHERE key = ?", (key,))

    # -- notes

    def file_state(self, path: str) -> FileState | None:
        row = self.conn.execute(
            "SELECT label, path, mtime_ns, size, content_hash, embed_hash FROM notes WHERE path = ?", (path,)
        ).fetchone()
        return None if row is None else FileState(*row)

    def file_states(self) -> dict[str, FileState]:
        rows = self.conn.execute("SELECT label, path, mtime_ns, size, content_hash, embed_hash FROM notes")
        return {row[1]: FileState(*row) for row in rows}

    def insert_note(self, row: NoteRow, body: str) -> int:
        cursor = self.conn.execute(
            f"INSERT INTO notes ({_NOTE_COLUMNS}) VALUES ({', '.join('?' for _ in range(17))})", row.params()
        )
        label = int(cursor.lastrowid)
        self._write_fts(label, row, body)
        return label

    def update_note(self, label: int, row: NoteRow, body: str | None) -> None:
        """Replace a note's metadata; ``body`` given means its text changed (re-index FTS)."""
        assignments = ", ".join(f"{column} = ?" for column in _NOTE_COLUMNS.split(", "))
        self.conn.execute(f"UPDATE notes SET {assignments} WHERE label = ?", (*row.params(), int(label)))
        if body is not None:
            self.conn.execute("DELETE FROM notes_fts WHERE rowid = ?", (int(label),))
            self._write_fts(label, row, body)

    def touch_note(self, label: int, mtime_ns: int, size: int) -> None:
        self.conn.execute(
            "UPDATE notes SET mtime_ns = ?, size = ? WHERE label = ?", (int(mtime_ns), int(size), int(label))
        )

    def _write_fts(self, label: int, row: NoteRow, body: str) -> None:
        self.conn.execute(
            "INSERT INTO notes_fts (rowid, title, body, tags) VALUES (?, ?, ?, ?)",
            (int(label), row.title, body, " ".join(row.tags)),
        )

    def delete_notes(self, labels: Iterable[int]) -> None:
        params = [(int(label),) for label in labels]
        self.conn.executemany("DELETE FROM notes WHERE label = ?", params)
        self.conn.executemany("DELETE FROM notes_fts WHERE rowid = ?", params)
        self.conn.executemany("DELETE FROM vectors WHERE label = ?", params)
        self.conn.executemany("INSERT INTO vector_tombstones (label) VALUES (?)", params)

    def note_count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM notes").fetchone()[0])

    def notes_by_labels(self, labels: Sequence[int]) -> dict[int, NoteRow]:
        found: dict[int, NoteRow] = {}
        for chunk in _chunks([int(label) for label in labels], 500):
            query = f"{_SELECT_NOTE} WHERE label IN ({', '.join('?' for _ in chunk)})"
            for row in self.conn.execute(query, chunk):
                found[row[0]] = _row_to_note(row)
        return found

    def eligible_labels(self, labels: Sequence[int], eligibility: Eligibility) -> set[int]:
        """Which of ``labels`` exist and pass the read-time filters."""
        where, params = eligibility.where()
        found: set[int] = set()
        for chunk in _chunks([int(label) for label in labels], 500):
            query = f"SELECT label FROM notes WHERE label IN ({', '.join('?' for _ in chunk)}) AND {where}"
            found.update(row[0] for row in self.conn.execute(query, [*chunk, *params]))
        return found

    def all_eligible_labels(self, eligibility: Eligibility) -> list[int]:
        where, params = eligibility.where()
        return [row[0] for row in self.conn.execute(f"SELECT label FROM notes WHERE {where}", params)]

    def find_notes(self, reference: str) -> list[NoteRow]:
        """Notes whose id, path, or path without ``.md`` is ``reference``."""
        query = f"{_SELECT_NOTE} WHERE id = ? OR path = ? OR path = ? ORDER BY path"
        return [_row_to_note(row) for row in self.conn.execute(query, (reference, reference, reference + ".md"))]

    def find_notes_by_name(self, name: str) -> list[NoteRow]:
        """Notes whose file name (without .md) is ``name``, in any folder — Obsidian's [[name]]."""
        file_name = name if name.endswith(".md") else name + ".md"
        suffix = "/" + file_name
        # Exact, case-sensitive comparison of the path's tail: no LIKE wildcards or case folding.
        query = f"{_SELECT_NOTE} WHERE path = ? OR substr(path, -?) = ? ORDER BY path"
        return [_row_to_note(row) for row in self.conn.execute(query, (file_name, len(suffix), suffix))]

    def note_by_path(self, path: str) -> NoteRow | None:
        row = self.conn.execute(f"{_SELECT_NOTE} WHERE path = ?", (path,)).fetchone()
        return None if row is None else _row_to_note(row)

    def notes_with_content_hash(self, content_hash: str) -> list[NoteRow]:
        rows = self.conn.execute(f"{_SELECT_NOTE} WHERE content_hash = ?", (content_hash,))
        return [_row_to_note(row) for row in rows]

    def all_notes(self) -> Iterator[NoteRow]:
        for row in self.conn.execute(f"{_SELECT_NOTE} ORDER BY path"):
            yield _row_to_note(row)

    def expired_notes(self, now_us: int) -> list[NoteRow]:
        expired, params = expiry_sql("expires_us", now_us, expired=True)
        return [_row_to_note(row) for row in self.conn.execute(f"{_SELECT_NOTE} WHERE {expired} ORDER BY path", params)]

    def eligible_notes(self, eligibility: Eligibility) -> list[NoteRow]:
        """Every note that passes the read-time filters, by path."""
        where, params = eligibility.where()
        return [_row_to_note(row) for row in self.conn.execute(f"{_SELECT_NOTE} WHERE {where} ORDER BY path", params)]

    def all_problems(self) -> list[Problem]:
        rows = self.conn.execute("SELECT problems FROM notes WHERE problems != '[]' ORDER BY path")
        return [Problem(**problem) for row in rows for problem in json.loads(row[0])]

    def similar_paths(self, fragment: str, limit: int = 5) -> list[str]:
        pattern = f"%{fragment.replace('%', '').replace('_', '')}%"
        rows = self.conn.execute(
            "SELECT path FROM notes WHERE path LIKE ? OR title LIKE ? ORDER BY path LIMIT ?", (pattern, pattern, limit)
        )
        return [row[0] for row in rows]

    def duplicate_ids(self) -> dict[str, list[str]]:
        rows = self.conn.execute(
            "SELECT id, json_group_array(path) FROM notes GROUP BY id HAVING count(*) > 1 ORDER BY id"
        )
        return {row[0]: sorted(json.loads(row[1])) for row in rows}

    # -- full-text search

    def fts_labels(self, match: str, limit: int) -> list[int]:
        """Best ``limit`` FTS hits (labels), before any read-time filter."""
        query = "SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts, 5.0, 1.0, 2.0) LIMIT ?"
        return [row[0] for row in self.conn.execute(query, (match, int(limit)))]

    def paths_by_labels(self, labels: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        for chunk in _chunks([int(label) for label in labels], 500):
            query = f"SELECT label, path FROM notes WHERE label IN ({', '.join('?' for _ in chunk)})"
            found.update((row[0], row[1]) for row in self.conn.execute(query, chunk))
        return found

    def fts_search(self, match: str, eligibility: Eligibility, limit: int) -> list[tuple[int, float]]:
        """(label, bm25) best first; bm25 is negative in SQLite (smaller is better)."""
        where, params = eligibility.where()
        query = (
            "SELECT notes_fts.rowid, bm25(notes_fts, 5.0, 1.0, 2.0) AS score FROM notes_fts "
            "JOIN notes ON notes.label = notes_fts.rowid "
            f"WHERE notes_fts MATCH ? AND {where} ORDER BY score LIMIT ?"
        )
        return [(row[0], row[1]) for row in self.conn.execute(query, [match, *params, int(limit)])]

    # -- vectors

    def put_vectors(self, labels: Sequence[int], blobs: Sequence[bytes]) -> None:
        """Store (or replace) vectors; a replaced vector gets a new seq, so it is in the delta."""
        # OR REPLACE deletes the old row and inserts a new one, so the vector gets a new seq.
        self.conn.executemany(
            "INSERT OR REPLACE INTO vectors (label, vector) VALUES (?, ?)", [(int(label), blob) for label, blob in zip(labels, blobs, strict=True)]
        )

    def max_vector_seq(self) -> int:
        row = self.conn.execute("SELECT max(seq) FROM vectors").fetchone()
        return int(row[0] or 0)

    def vectors_after(self, seq: int) -> list[tuple[int, int, bytes]]:
        """(seq, label, blob) of every vector written after ``seq`` — the delta."""
        rows = self.conn.execute("SELECT seq, label, vector FROM vectors WHERE seq > ? ORDER BY seq", (int(seq),))
        return [(row[0], row[1], row[2]) for row in rows]

    def vectors_for(self, labels: Sequence[int]) -> list[tuple[int, bytes]]:
        found: list[tuple[int, bytes]] = []
        for chunk in _chunks([int(label) for label in labels], 500):
            query = f"SELECT label, vector FROM vectors WHERE label IN ({', '.join('?' for _ in chunk)})"
            found.extend((row[0], row[1]) for row in self.conn.execute(query, chunk))
        return found

    def iter_all_vectors(self, up_to_seq: int, batch: int = 10_000) -> Iterator[list[tuple[int, bytes]]]:
        last = -1
        while True:
            rows = self.conn.execute(
                "SELECT label, vector FROM vectors WHERE label > ? AND seq <= ? ORDER BY label LIMIT ?",
                (last, int(up_to_seq), batch),
            ).fetchall()
            if not rows:
                return
            yield [(row[0], row[1]) for row in rows]
            last = rows[-1][0]

    def tombstones(self) -> tuple[int, list[int]]:
        """(highest tombstone seq, labels deleted since the last fold)."""
        rows = self.conn.execute("SELECT seq, label FROM vector_tombstones ORDER BY seq").fetchall()
        return (rows[-1][0] if rows else 0), [row[1] for row in rows]

    def clear_tombstones(self, up_to_seq: int) -> None:
        """Forget deletions a published snapshot already marks (call inside its transaction)."""
        self.conn.execute("DELETE FROM vector_tombstones WHERE seq <= ?", (int(up_to_seq),))

    def count_vectors(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM vectors").fetchone()[0])

    def change_token(self) -> tuple[int, int]:
        """Changes whenever any connection commits (data_version) or this one writes."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0]), self.conn.total_changes

    def count_vectors_after(self, seq: int) -> int:
        return int(self.conn.execute("SELECT count(*) FROM vectors WHERE seq > ?", (int(seq),)).fetchone()[0])

    def swap_snapshot(self, expected: str | None, name: str | None, seq: int, deleted: int, tombstone_seq: int = 0) -> bool:
        """Publish a new snapshot file name iff the current one is still ``expected``.

        Tombstones up to ``tombstone_seq`` are dropped with it: the new file marks those
        labels deleted itself. Without a snapshot there is nothing to hide them from.
        """
        with self.transaction():
            if self.get_meta("snapshot_file") != expected:
                return False
            if name is None:
                self.conn.execute("DELETE FROM meta WHERE key IN ('snapshot_file', 'snapshot_seq', 'snapshot_deleted')")
                self.conn.execute("DELETE FROM vector_tombstones")
                return True
            self.clear_tombstones(tombstone_seq)
            for key, value in (("snapshot_file", name), ("snapshot_seq", str(int(seq))), ("snapshot_deleted", str(int(deleted)))):
                self.conn.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
        return True

    def vector_labels(self) -> set[int]:
        return {row[0] for row in self.conn.execute("SELECT label FROM vectors")}

    def labels_without_vectors(self) -> list[int]:
        rows = self.conn.execute("SELECT label FROM notes WHERE label NOT IN (SELECT label FROM vectors)")
        return [row[0] for row in rows]

    def clear_vectors(self) -> None:
        self.conn.execute("DELETE FROM vectors")

    # -- usage (not derived: survives rebuilds)

    def record_use(self, note_ids: Sequence[str], at: str, at_us: int) -> None:
        self.conn.executemany(
            "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) VALUES (?, 1, ?, ?) "
            "ON CONFLICT(note_id) DO UPDATE SET use_count = use_count + 1, "
            "last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(note_id, at, int(at_us)) for note_id in note_ids],
        )

    def usage_for(self, note_ids: Sequence[str]) -> dict[str, UsageRow]:
        found: dict[str, UsageRow] = {}
        for chunk in _chunks(list(note_ids), 500):
            query = f"SELECT note_id, use_count, last_used_at, last_used_us FROM usage WHERE note_id IN ({', '.join('?' for _ in chunk)})"
            for row in self.conn.execute(query, chunk):
                found[row[0]] = UsageRow(*row)
        return found

    def all_usage(self) -> list[UsageRow]:
        rows = self.conn.execute("SELECT note_id, use_count, last_used_at, last_used_us FROM usage ORDER BY note_id")
        return [UsageRow(*row) for row in rows]

    def replace_usage(self, rows: Sequence[UsageRow]) -> None:
        self.conn.executemany(
            "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(note_id) DO UPDATE SET use_count = excluded.use_count, "
            "last_used_at = excluded.last_used_at, last_used_us = excluded.last_used_us",
            [(row.note_id, int(row.use_count), row.last_used_at, int(row.last_used_us)) for row in rows],
        )

    def rename_usage(self, old_id: str, new_id: str) -> None:
        """Carry a note's history to its new id (a moved note without a frontmatter id)."""
        if old_id == new_id:
            return
        self.conn.execute(
            "INSERT INTO usage (note_id, use_count, last_used_at, last_used_us) "
            "SELECT ?, use_count, last_used_at, last_used_us FROM usage WHERE note_id = ? "
            "ON CONFLICT(note_id) DO UPDATE SET use_count = usage.use_count + excluded.use_count, "
            "last_used_at = max(usage.last_used_at, excluded.last_used_at), "
            "last_used_us = max(usage.last_used_us, excluded.last_used_us)",
            (new_id, old_id),
        )
        self.conn.execute("DELETE FROM usage WHERE note_id = ?", (old_id,))

    # -- statistics

    def layer_counts(self) -> dict[str, int]:
        rows = self.conn.execute("SELECT coalesce(layer, 'none'), count(*) FROM notes GROUP BY 1 ORDER BY 1")
        return {row[0]: int(row[1]) for row in rows}

    def count_expired(self, now_us: int) -> int:
        expired, params = expiry_sql("expires_us", now_us, expired=True)
        return int(self.conn.execute(f"SELECT count(*) FROM notes WHERE {expired}", params).fetchone()[0])

    def count_with_problems(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM notes WHERE problems != '[]'").fetchone()[0])

    def count_vectors_up_to(self, seq: int) -> int:
        return int(self.conn.execute("SELECT count(*) FROM vectors WHERE seq <= ?", (int(seq),)).fetchone()[0])

    def vector_dimension(self) -> int | None:
        row = self.conn.execute("SELECT length(vector) FROM vectors LIMIT 1").fetchone()
        return None if row is None else int(row[0]) // 4  # float32

    # -- consolidation

    def recent_notes(self, eligibility: Eligibility) -> list[PoolNote]:
        """Eligible notes, most recently created or modified first.

        Recency is the later of the frontmatter ``created`` and the file's mtime, so a
        note edited today counts as recent even if it was created long ago.
        """
        where, params = eligibility.where()
        query = (
            "SELECT label, path, layer, problems, expiry_invalid, expires_at IS NULL AND permanent = 0 FROM notes "
            f"WHERE {where} ORDER BY max(coalesce(created_us, 0), mtime_ns / 1000) DESC, path"
        )
        rows = self.conn.execute(query, params)
        return [PoolNote(row[0], row[1], row[2], json.loads(row[3]), bool(row[4]), bool(row[5])) for row in rows]


@dataclass(frozen=True)
class PoolNote:
    """What consolidation needs to know about a note before it reads any vector."""

    label: int
    path: str
    layer: str | None
    problems: list[dict[str, str]]
    expiry_invalid: bool
    no_deadline: bool = False  # neither expires_at nor permanent


def ensure_state_dir(state_dir: Path) -> None:
    """Create ``.vaultmem/`` with a ``.gitignore`` of ``*``: derived state is never committed."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# derived by vaultmem; rebuild with `vaultmem index --rebuild`\n*\n", encoding="utf-8")


def _file_identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
