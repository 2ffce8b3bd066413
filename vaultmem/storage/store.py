"""``Store``: one connection to ``.vaultmem/index.db`` and the stores that own its tables."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path

from ..errors import IndexNotWritable
from .connection import DB_NAME, Connection, ensure_state_dir, index_failure, is_disk_full, is_not_writable
from .meta import READER_KEY, REBUILDING, MetaStore
from .migrations import drop_derived, migrate
from .notes import NoteStore
from .passages import PassageStore
from .reclaim import Reclaimed
from .reclaim import reclaim_free_pages as _reclaim_free_pages
from .requests import RequestStore
from .tasks import TaskStore
from .turn_heads import TurnHeadStore
from .usage import UsageStore
from .usage_backup import UsageBackup
from .vectors import NOTE_SPACE, PASSAGE_SPACE, VectorSpace, VectorStore


class Store:
    """The derived index of one vault, for one thread (SQLite's rule: use one Store per thread).

    Each table has one owner: ``notes`` (notes), ``passages`` (their passages and full
    text), ``tasks`` (their task lines), ``vectors`` and ``passage_vectors`` (the vectors of notes and of passages, their
    tombstones and snapshots), ``turn_heads`` (conversation turns' head sums and the feed of turns written), ``usage`` (usage history, not derived), ``requests`` (the answers to
    retried writes, not derived) and ``meta`` (what
    the index is, the rebuild lock). They share this Store's connection, so one
    ``transaction()`` spans them all.
    """

    def __init__(self, state_dir: Path, *, path: Path | None = None, usage_refusal: IndexNotWritable | None = None) -> None:
        """The index in ``state_dir`` — or the database at ``path`` standing in for it: a
        private copy of a read-only index (``usage_refusal`` says why no use may be recorded
        in it), or a new database being made to replace a damaged one."""
        self.state_dir = state_dir
        self.path = path if path is not None else state_dir / DB_NAME
        if self.path.parent == state_dir:
            _make_state_dir(state_dir)
        self.db = Connection(self.path, create_lock=path is None)
        try:
            migrate(self.db)
        except sqlite3.Error as error:
            self.db.close()
            raise index_failure(error, self.path, self.db.identity) from None
        self.notes = NoteStore(self.db)
        self.passages = PassageStore(self.db)
        self.tasks = TaskStore(self.db)
        self.vectors = VectorStore(self.db, NOTE_SPACE)
        self.passage_vectors = VectorStore(self.db, PASSAGE_SPACE)
        backup = None if usage_refusal is not None else UsageBackup(state_dir)
        self.usage = UsageStore(self.db, backup, usage_refusal)
        self.meta = MetaStore(self.db, state_dir)
        self.requests = RequestStore(self.db)
        self.turn_heads = TurnHeadStore(self.db)

    @property
    def private_copy(self) -> bool:
        """A private copy of an index this process cannot write (it records no usage)."""
        return self.usage.refusal is not None

    @property
    def identity(self) -> tuple[int, int] | None:
        """(st_dev, st_ino) of the database file this Store opened."""
        return self.db.identity

    def vector_store(self, space: VectorSpace) -> VectorStore:
        """The store of the space's table (a space may differ in how it is searched only)."""
        return self.passage_vectors if space.table == PASSAGE_SPACE.table else self.vectors

    def close(self) -> None:
        self.db.close()

    def reclaim_free_pages(self) -> Reclaimed | None:
        """Give the pages deletes freed back to the disk, when they are many (``vaultmem index``
        after a big delete or change); None when there were too few to bother. See reclaim.py:
        :class:`IndexNotWritable` when there is no room for VACUUM's copy, :class:`IndexBusy`
        when another writer held the lock; the index is complete either way."""
        return _reclaim_free_pages(self.db)

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def is_current(self) -> bool:
        """Is ``index.db`` still the file this connection opened? (Not mid-transaction.)"""
        return self.db.is_current()

    def transaction(self) -> AbstractContextManager[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; nested calls join the outer transaction."""
        return self.db.transaction()

    def waiting_at_most(self, seconds: float) -> AbstractContextManager[None]:
        """Give up on another writer's lock after ``seconds`` inside this block."""
        return self.db.waiting_at_most(seconds)

    def read_snapshot(self) -> AbstractContextManager[None]:
        """Several reads that see one consistent state of the database."""
        return self.db.read_snapshot()

    def change_token(self) -> tuple[int, int]:
        """Changes whenever any connection commits (data_version) or this one writes."""
        return self.db.change_token()

    def drop_derived(self, rules: str) -> None:
        """Forget everything derived (``index --rebuild``); usage history stays.

        Dropping and recreating happen in one transaction, so a concurrent reader sees
        the old tables or the new (empty, then filling) ones — never none. ``rules`` are
        those the rebuild makes its rows under (searchable.INDEX_RULES), kept in the same
        transaction: another process reconciling beside the rebuild sees its rows as made
        under today's rules, and one by another version sees they are not.
        """
        with self.db.transaction():
            drop_derived(self.db)
            self.meta.set(READER_KEY, rules)
            # Still "indexed" (being rebuilt): a concurrent search answers from what is
            # rebuilt so far, with a warning, instead of starting a second full index of its
            # own. A rebuild that died leaves this mark behind: see `MetaStore.rebuild_state`.
            self.meta.set("indexed", REBUILDING)


def _make_state_dir(state_dir: Path) -> None:
    try:
        ensure_state_dir(state_dir)
    except OSError as error:
        if is_not_writable(error):
            raise IndexNotWritable(state_dir, f"cannot create {error.filename or state_dir}: {error.strerror}") from None
        if is_disk_full(error):
            raise IndexNotWritable(state_dir, f"cannot create {error.filename or state_dir}: {error.strerror}",
                                   IndexNotWritable.DISK_FULL) from None
        raise
