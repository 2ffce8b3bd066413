"""``Store``: one connection to ``.vaultmem/index.db`` and the stores that own its tables."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from .connection import DB_NAME, Connection, ensure_state_dir
from .meta import REBUILDING, MetaStore
from .migrations import drop_derived, migrate
from .notes import NoteStore
from .usage import UsageStore
from .vectors import VectorStore


class Store:
    """The derived index of one vault, for one thread (SQLite's rule: use one Store per thread).

    Each table has one owner: ``notes`` (notes and their full text), ``vectors`` (vectors,
    tombstones, the snapshot's name), ``usage`` (usage history, not derived) and ``meta``
    (what the index is, the rebuild lock). They share this Store's connection, so one
    ``transaction()`` spans them all.
    """

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.path = state_dir / DB_NAME
        ensure_state_dir(state_dir)
        self.db = Connection(self.path)
        migrate(self.db)
        self.notes = NoteStore(self.db)
        self.vectors = VectorStore(self.db)
        self.usage = UsageStore(self.db)
        self.meta = MetaStore(self.db, state_dir)

    def close(self) -> None:
        self.db.close()

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

    def drop_derived(self) -> None:
        """Forget everything derived (``index --rebuild``); usage history stays.

        Dropping and recreating happen in one transaction, so a concurrent reader sees
        the old tables or the new (empty, then filling) ones — never none.
        """
        with self.db.transaction():
            drop_derived(self.db)
            # Still "indexed" (being rebuilt): a concurrent search answers from what is
            # rebuilt so far, with a warning, instead of starting a second full index of its
            # own. A rebuild that died leaves this mark behind: see `MetaStore.rebuild_state`.
            self.meta.set("indexed", REBUILDING)
