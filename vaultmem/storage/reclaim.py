"""Giving the pages deletes freed in ``index.db`` back to the disk (``VACUUM``; adr/0013's addenda).

SQLite keeps freed pages in the file for later writes: a vault that lost half its notes kept
an index of the old size for ever. ``VACUUM`` rewrites the file without them. In WAL mode it
writes the new copy into the WAL, and a checkpoint moves it into ``index.db`` — so while it
runs the index needs room for a second copy, and what it leaves in the WAL is on the disk
until a checkpoint gives it back. Both ways that can go wrong while another process (a
``watch``, an MCP server) holds the index open are handled here:

- a VACUUM cut short (a full disk) leaves its partial copy in the WAL, which a process still
  holding the index open keeps: all the room the disk had, and the next write fails for want
  of it. The WAL is emptied at once (:func:`_give_back_wal`).
- a reader in the middle of a read keeps the copy in the WAL past the checkpoint; the file
  shrinks at a later checkpoint (``journal_size_limit``, connection.py, then cuts the WAL).

A busy lock or a full disk is not the ``index`` command's failure: the index is complete, and
the caller says why the pages stay.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass

from ..errors import IndexBusy, IndexNotWritable
from .connection import SQLITE_FULL, Connection, index_failure

# Free pages worth a VACUUM: at least this share of the file, and at least 4 MiB (a file with a
# few free pages keeps them: the next writes reuse them).
RECLAIM_FREE_SHARE = 0.10
RECLAIM_MIN_FREE_PAGES = 1024
# How long VACUUM waits for another writer (a `watch` applying a batch). Past it the pages are
# left for the next `index`: the index is complete, and waiting the usual 30 s to fail it then
# would make a housekeeping step the command's failure.
RECLAIM_LOCK_WAIT_SECONDS = 5.0
CHECKPOINT_WAIT_SECONDS = 1.0
# SQLite's temporary files (VACUUM's copy of a big index), as its unix VFS picks their folder.
_TEMP_FOLDERS = ("/var/tmp", "/usr/tmp", "/tmp")


@dataclass(frozen=True)
class Reclaimed:
    """What a VACUUM gave back: the database's size before and after, and whether a reader in
    another process kept the new copy in the WAL for now (the file shrinks at a later checkpoint)."""

    bytes_before: int
    bytes_after: int
    held_by_reader: bool = False


def reclaim_free_pages(db: Connection) -> Reclaimed | None:
    """VACUUM ``db`` when its free pages are many; None when they are too few to bother (or a
    transaction is open: VACUUM cannot run inside one). Raises :class:`IndexNotWritable` (no
    room for the copy, or none to write) or :class:`IndexBusy` (another writer held the lock)."""
    if db.in_transaction:
        return None
    try:
        page_size, pages, free = (int(db.execute(f"PRAGMA {name}").fetchone()[0])
                                  for name in ("page_size", "page_count", "freelist_count"))
        if free < RECLAIM_MIN_FREE_PAGES or free < pages * RECLAIM_FREE_SHARE:
            return None
        _vacuum(db, (pages - free) * page_size)
        held = _give_back_wal(db)
        after = int(db.execute("PRAGMA page_count").fetchone()[0])
    except sqlite3.Error as error:
        raise index_failure(error, db.path, db.identity) from None
    return Reclaimed(pages * page_size, after * page_size, held)


def _vacuum(db: Connection, copy_bytes: int) -> None:
    try:
        with db.waiting_at_most(RECLAIM_LOCK_WAIT_SECONDS):
            db.execute("VACUUM")
    except sqlite3.OperationalError as error:
        # Without this, a VACUUM that ran out of room left its partial copy in the WAL — kept on
        # the disk by any other process holding the index open — and the next `remember` found
        # the disk full that had room before the VACUUM.
        _give_back_wal(db)
        raise _refusal(error, db, copy_bytes) from None


def _give_back_wal(db: Connection) -> bool:
    """Move the WAL into ``index.db`` and cut the WAL to nothing; True when a reader in another
    process holds an older state, so the WAL stays until a later checkpoint."""
    with db.waiting_at_most(CHECKPOINT_WAIT_SECONDS):
        busy, _frames, _moved = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return bool(busy)


def _refusal(error: sqlite3.OperationalError, db: Connection, copy_bytes: int) -> Exception:
    name = getattr(error, "sqlite_errorname", "")
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return IndexBusy(
            f"{db.path} stayed locked by another writer (a `watch`, a write command) for {RECLAIM_LOCK_WAIT_SECONDS:g} s "
            f"({error}); run `vaultmem index` again later to give the freed pages back")
    if (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF == SQLITE_FULL:
        megabytes = max(1, round(copy_bytes / (1 << 20)))
        return IndexNotWritable(
            db.path, f"there was no room for the copy of it that VACUUM writes (about {megabytes} MiB, in the folder "
            f"{db.path.parent} and, for an index of more than 64 MiB, in SQLite's temporary folder {temp_folder()}) ({error})",
            f"The index is complete and answers as it is; to shrink it, free {megabytes} MiB there and run `vaultmem index` again")
    return index_failure(error, db.path, db.identity)


def temp_folder() -> str:
    """The folder SQLite writes its temporary files in (its unix VFS: ``SQLITE_TMPDIR``, ``TMPDIR``,
    then the first writable of /var/tmp, /usr/tmp, /tmp)."""
    named = [os.environ.get("SQLITE_TMPDIR"), os.environ.get("TMPDIR")]
    for folder in (*named, *_TEMP_FOLDERS):
        if folder and os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return "."
