"""One SQLite connection to ``.vaultmem/index.db`` and its transaction discipline.

Connections are per thread (SQLite's rule); writes happen in ``BEGIN IMMEDIATE``
transactions so concurrent writers (``watch``, a ``remember`` from another process)
queue instead of failing half-way. WAL lets readers run beside a writer.

Faults are named here, once: :func:`index_failure` turns a SQLite error into the
vaultmem error that says what happened to which file (damaged, not writable, disk
full); :func:`open_read_only` reads an index this process may not write (adr/0022).
"""

from __future__ import annotations

import errno
import importlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

from ..durable import make_folders
from ..errors import INDEX, REBUILD, DerivedIndexError, IndexDamaged, IndexNotWritable, IndexWriteFailed, Spelled
from ..fields import case_fold, name_form
from ..lock_files import open_lock_file

fcntl: ModuleType | None
try:
    fcntl = importlib.import_module("fcntl")
except ImportError:  # Windows: no flock
    fcntl = None

DB_NAME = "index.db"
CREATE_LOCK = "create.lock"  # see creating()
BUSY_TIMEOUT_SECONDS = 30.0
# Values per `IN (?, ?, …)` query: SQLite before 3.32 allows at most 999 variables.
SQL_VARIABLES_PER_QUERY = 500
# The page cache of a connection, at most (KiB). SQLite's default, 2 MiB, is less than what a
# search reads at 10,000 notes (the notes, the passages and the full text's pages for its
# words: ~9 MiB more), so each search read most pages again from the OS: ~0.7 ms of CPU a
# search. Only pages read are held: a search process at 10,000 notes grew by 7 MB.
PAGE_CACHE_KIB = 65536
# The WAL left on disk after a checkpoint, at most (SQLite cuts it to this when it starts the WAL
# over). Without a limit the WAL keeps the size of the biggest write since the last connection
# closed: after a VACUUM that met a reader in another process, as big as the whole index, kept
# for as long as a `watch` or an MCP server holds the index open (adr/0013, stop 37).
WAL_KEEP_BYTES = 4 << 20

# SQLite's primary result codes (the low byte of an extended code) that name a fault.
SQLITE_PERM, SQLITE_BUSY, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT = 3, 5, 8, 10, 11
SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 13, 14, 26
_DAMAGE_CODES = frozenset({SQLITE_CORRUPT, SQLITE_NOTADB})
_NOT_WRITABLE_CODES = frozenset({SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN})
_NOT_WRITABLE_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
NEARLY_FULL_BYTES = 1 << 20  # less free than this, and an I/O error opening the index is the full disk


class Connection:
    """One SQLite connection (use one per thread), shared by the stores that own its tables."""

    def __init__(self, path: Path, *, create_lock: bool = False) -> None:
        """``create_lock``: this is the index's own file, which a heal may be replacing (see
        :func:`creating`); a new database is then only ever created under that lock."""
        self.path = path
        self.closed = False
        self._in_transaction = False
        self._identity = file_identity(path)
        try:
            self.conn = self._open(create_lock)
        except sqlite3.Error as error:
            raise index_failure(error, path, self._identity) from None

    def _open(self, create_lock: bool) -> sqlite3.Connection:
        refusal = write_refusal(self.path)
        if refusal is not None:
            raise IndexNotWritable(self.path, refusal)
        conn = self._connect(create_lock)
        try:
            conn.execute("PRAGMA journal_mode = WAL")  # reads the header: a file that is no database fails here
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            conn.execute(f"PRAGMA journal_size_limit = {WAL_KEEP_BYTES}")
        except BaseException:
            conn.close()
            raise
        self._identity = file_identity(self.path)  # the file exists now (the WAL pragma created it)
        return conn

    def _connect(self, create_lock: bool) -> sqlite3.Connection:
        """The database file that is there — created only when there is none, and then under
        the create lock: a heal holds it while it swaps a damaged file for a new one, and a
        file created in between would meet the new one's WAL (or leave its own for it)."""
        uri = self.path.absolute().as_uri()
        if create_lock:
            try:
                return self._sqlite(f"{uri}?mode=rw")
            except sqlite3.OperationalError as error:
                if self.path.exists() or (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF != SQLITE_CANTOPEN:
                    raise
            with creating(self.path.parent, exclusive=False):
                return self._sqlite(f"{uri}?mode=rwc")
        return self._sqlite(f"{uri}?mode=rwc")

    @staticmethod
    def _sqlite(uri: str) -> sqlite3.Connection:
        # check_same_thread=False only so close() may run from any thread at shutdown;
        # each Connection is still used by one thread at a time (Vault keeps one per thread).
        return with_functions(sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS,
                                              check_same_thread=False))

    @property
    def identity(self) -> tuple[int, int] | None:
        """(st_dev, st_ino) of the file this connection opened."""
        return self._identity

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, params)

    def close(self) -> None:
        self.closed = True
        self.conn.close()

    @property
    def in_transaction(self) -> bool:
        return self._in_transaction

    def is_current(self) -> bool:
        """Is ``index.db`` still the file this connection opened? (Not mid-transaction.)"""
        return self._in_transaction or file_identity(self.path) == self._identity

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
            self.conn.execute("COMMIT")
        except BaseException:
            self._roll_back()
            raise
        finally:
            self._in_transaction = False

    def _roll_back(self) -> None:
        """Undo the open transaction after a failure (a failed COMMIT too: disk full).

        SQLite may have rolled back by itself already. If ROLLBACK fails as well, the
        original error is the one worth reporting (it propagates); this one says no more.
        """
        if self.conn.in_transaction:
            with suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """Inside this block, give up on another writer's lock after ``seconds`` (``database is
        locked``) instead of the usual 30 s: a read that would also write must not stall."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            if not self.closed:  # closed inside the block: the file was replaced (healed) meanwhile
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


def index_failure(error: sqlite3.Error, path: Path, identity: tuple[int, int] | None = None) -> DerivedIndexError:
    """The vaultmem error for a SQLite error on ``path``: damaged, not writable, disk full,
    an I/O error or locked — each message names the file and what to do."""
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if code in _DAMAGE_CODES:
        return IndexDamaged(path, str(error), identity)
    if code == SQLITE_FULL or (code in (SQLITE_IOERR, SQLITE_CANTOPEN) and disk_nearly_full(path.parent)):
        # SQLITE_FULL on a write; on opening, SQLite cannot make its shared-memory file.
        return IndexNotWritable(path, f"the disk holding it is full ({error})", IndexNotWritable.DISK_FULL)
    if code in _NOT_WRITABLE_CODES:
        return IndexNotWritable(path, str(error))
    if code == SQLITE_IOERR:
        return IndexWriteFailed(Spelled(
            f"an I/O error on {path} ({error}); the index is as it was before this write. Check the disk, then ",
            INDEX, " (vaultmem sets a damaged index aside and rebuilds it)"))
    if code == SQLITE_BUSY:
        return DerivedIndexError(
            f"{path} stayed locked by another process for {BUSY_TIMEOUT_SECONDS:g} s ({error}); "
            "run the command again once the other vaultmem command has finished"
        )
    return DerivedIndexError(Spelled(f"SQLite failed on {path}: {error}; if it persists, ", REBUILD))


def disk_nearly_full(folder: Path) -> bool:
    """Too little room left for SQLite's WAL and shared-memory files (or nothing to ask)."""
    try:
        usage = os.statvfs(folder) if hasattr(os, "statvfs") else None
    except OSError:
        return False  # the folder is gone or unreadable: not a full disk that we can tell
    return usage is not None and usage.f_bavail * usage.f_frsize < NEARLY_FULL_BYTES


def is_disk_full(error: OSError) -> bool:
    return error.errno in DISK_FULL_ERRNOS


def is_not_writable(error: OSError) -> bool:
    return error.errno in _NOT_WRITABLE_ERRNOS


def write_refusal(path: Path) -> str | None:
    """Why this process cannot write the database at ``path`` (and the WAL files beside
    it), or ``None`` when it can.

    ``os.access`` answers for the real user; root passes permission bits but not a
    read-only mount, hence the file system's flag first. A file that does not exist yet
    needs a writable folder.
    """
    folder = path.parent
    if hasattr(os, "statvfs") and os.statvfs(folder).f_flag & os.ST_RDONLY:
        return f"{folder} is on a read-only file system"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is read-only for this user"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is read-only for this user"
    return None


CASEFOLD = "vm_casefold"  # fields.case_fold in SQL: SQLite's lower() folds ASCII letters only
NFC = "vm_nfc"  # fields.name_form in SQL: a name in the Unicode form names are compared in


def with_functions(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with vaultmem's SQL functions registered (:data:`CASEFOLD`, :data:`NFC`)."""
    conn.create_function(CASEFOLD, 1, lambda value: case_fold(value) if isinstance(value, str) else value, deterministic=True)
    conn.create_function(NFC, 1, lambda value: name_form(value) if isinstance(value, str) else value, deterministic=True)
    return conn


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes: ``mode=ro``, or — when SQLite cannot even keep its
    WAL index beside the file (a read-only folder) — ``immutable=1``, which reads the
    database file alone (what the last checkpoint wrote: nothing writes it meanwhile)."""
    uri = path.absolute().as_uri()
    last: sqlite3.Error | None = None
    for options in ("mode=ro", "mode=ro&immutable=1"):
        conn = with_functions(sqlite3.connect(f"{uri}?{options}", uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS,
                                              check_same_thread=False))
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("PRAGMA query_only = 1")
            return conn
        except sqlite3.Error as error:
            conn.close()
            if (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF in _DAMAGE_CODES:
                raise
            last = error
    assert last is not None
    raise last


@contextmanager
def creating(state_dir: Path, exclusive: bool) -> Iterator[None]:
    """The create lock of ``state_dir`` (an OS file lock, released if the process dies):
    shared while a process creates ``index.db``, exclusive while a heal moves a damaged one
    away and puts a new one in its place. Without flock (Windows) it is no lock."""
    descriptor = open_lock_file(state_dir / CREATE_LOCK)
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def ensure_state_dir(state_dir: Path) -> None:
    """Create ``.vaultmem/`` with a ``.gitignore`` of ``*``: derived state is never committed."""
    make_folders(state_dir)  # as root: the vault's owner's, so the person can re-index or delete it
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


def file_identity(path: Path) -> tuple[int, int] | None:
    """(st_dev, st_ino) of the file at ``path`` now, ``None`` when there is none: which file a
    connection opened, and whether a damaged one is still the one in place."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino
