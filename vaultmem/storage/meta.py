"""The ``meta`` table (what the index is: complete, which embedder) and the rebuild lock.

``index --rebuild`` holds an OS file lock for as long as it runs and marks the index
"rebuilding" meanwhile; the lock is released when the process dies however it dies,
which is how other processes tell a rebuild in progress from one that was killed.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from ..lock_files import open_lock_file
from .connection import Connection, placeholders

fcntl: ModuleType | None
try:
    fcntl = importlib.import_module("fcntl")
except ImportError:  # Windows: no flock; a rebuild in progress cannot be told from a dead one
    fcntl = None

REBUILD_LOCK = "rebuild.lock"  # held (flock) by the process running `index --rebuild`
REBUILDING = "rebuilding"  # meta "indexed" while (or if) a rebuild has not finished
EXCLUSIONS_KEY = "exclusions"  # the fingerprint of the exclusions the index was made under (exclusions.py)
DAILY_FORMAT_KEY = "daily_format"  # the daily-note format the notes' dates were read under (daily_format.py fingerprint)
DATE_PROPERTIES_KEY = "date_properties"  # the properties the notes' dates were read from (dating.DateProperties fingerprint)
INLINE_QUERIES_KEY = "inline_queries"  # the Dataview inline-query prefixes its passages were read under (inline_queries.py fingerprint)
GIT_DATES_KEY = "git_dates"  # the HEAD the dates git gave were read under (git_dates.GitDates fingerprint; "": none)
LINKED_NOTES_KEY = "linked_notes"  # JSON [[link, note], ...]: the symlinked note files the last walk met (paths.Scan)
LINKS_OUT_KEY = "links_out"  # JSON [link, ...]: the note files the last walk met that are symlinks out of the vault
READER_KEY = "reader"  # the rules its rows were made under: searchable.INDEX_RULES (reader and embed recipe)
# Set (to the run's own mark) in each transaction that writes or drops notes while the index holds
# conversation turns, cleared with the turns-before those changes call for (indexer._hold_turns_before):
# found set by another run, that run was killed between the two, and every turn's is written again.
TURNS_OWED_KEY = "turns_owed"
LOCK_FILE_MODE = 0o644


class MetaStore:
    """Key/value facts about the index, and the rebuild lock beside it."""

    def __init__(self, db: Connection, state_dir: Path) -> None:
        self.db = db
        self.state_dir = state_dir

    def get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def values(self, keys: Sequence[str]) -> dict[str, str]:
        """The values of those of ``keys`` that are set, in one statement (a read asks six before it answers)."""
        query = f"SELECT key, value FROM meta WHERE key IN ({placeholders(len(keys))})"
        return dict(self.db.execute(query, list(keys)))

    def set(self, key: str, value: str) -> None:
        with self.db.transaction():
            self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def linked_notes(self) -> list[tuple[str, str]]:
        """(link, note) of the symlinked note files the last reconcile's walk met (none before one)."""
        stored = self.get(LINKED_NOTES_KEY)
        return [] if stored is None else [(str(link), str(note)) for link, note in json.loads(stored)]

    def set_linked_notes(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Keep the walk's links (written only when they changed: most reconciles meet the same)."""
        stored = json.dumps([list(pair) for pair in pairs], ensure_ascii=False)
        if self.get(LINKED_NOTES_KEY) != stored:
            self.set(LINKED_NOTES_KEY, stored)

    def links_out(self) -> list[str]:
        """The note files that are symlinks out of the vault, as the last reconcile's walk met them (none before one)."""
        stored = self.get(LINKS_OUT_KEY)
        return [] if stored is None else [str(link) for link in json.loads(stored)]

    def set_links_out(self, links: Sequence[str]) -> None:
        """Keep the walk's links out (written only when they changed)."""
        stored = json.dumps(list(links), ensure_ascii=False)
        if self.get(LINKS_OUT_KEY) != stored:
            self.set(LINKS_OUT_KEY, stored)

    def owe_turns(self, run: str) -> None:
        """Say (inside the transaction that writes notes) that run ``run`` owes turns their
        turns-before, unless a run has said so already and not paid: its mark is kept, so the
        next payment knows another run's debt is in it (one that was killed owes every turn)."""
        with self.db.transaction():
            self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (TURNS_OWED_KEY, run))

    def turns_owed_by(self) -> str | None:
        """The run that last said it owes turns their turns-before, or None: none owed."""
        return self.get(TURNS_OWED_KEY)

    def clear_turns_owed(self) -> None:
        with self.db.transaction():
            self.db.execute("DELETE FROM meta WHERE key = ?", (TURNS_OWED_KEY,))

    def mark_indexed(self, completes_rebuild: bool) -> None:
        """Record that the index holds every note. Only the reconcile that finishes a rebuild
        (holding its lock) clears the rebuilding mark: an ordinary reconcile running beside a
        rebuild may have listed the files before the rebuild emptied the tables."""
        if completes_rebuild:
            self.set("indexed", "1")
            return
        with self.db.transaction():
            self.db.execute("INSERT INTO meta (key, value) VALUES ('indexed', '1') ON CONFLICT(key) DO NOTHING")

    # -- the rebuild lock

    @contextmanager
    def rebuilding(self) -> Iterator[None]:
        """Hold the rebuild lock while ``index --rebuild`` runs (a second rebuild waits).

        The lock is an OS file lock: it is released when the process dies, however it dies,
        which is how others tell a rebuild in progress from one that was killed.
        """
        with rebuild_lock(self.state_dir):
            yield

    @property
    def tells_dead_rebuilds(self) -> bool:
        """Whether a killed rebuild can be told from a running one (needs flock: not on Windows)."""
        return fcntl is not None

    def rebuild_state(self) -> str | None:
        """``None`` (no rebuild), ``"running"`` (another process is rebuilding: answers may be
        partial) or ``"interrupted"`` (a rebuild died half-way: run a reconcile to finish it)."""
        if self.get("indexed") != REBUILDING:
            return None
        if fcntl is None:
            return "running"  # no flock here: cannot tell, so keep warning
        try:
            descriptor = open_lock_file(self.state_dir / REBUILD_LOCK, LOCK_FILE_MODE)
        except OSError:
            return "running"
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return "running"
        finally:
            os.close(descriptor)
        # Nobody holds the lock, but a rebuild may have finished between the two reads.
        return "interrupted" if self.get("indexed") == REBUILDING else None


@contextmanager
def rebuild_lock(state_dir: Path) -> Iterator[None]:
    """The rebuild lock of ``state_dir``, held until the block ends (or the process dies).

    Also taken while a damaged index is set aside and rebuilt (derived.py), which needs
    it before there is a database to hold a :class:`MetaStore` of.
    """
    descriptor = open_lock_file(state_dir / REBUILD_LOCK, LOCK_FILE_MODE)
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock
