"""Freed index pages given back to the disk (storage/reclaim.py, adr/0013's addenda) while another
process holds the index open, as a running `watch` or MCP server does: real SQLite, real
processes, a real full disk (a small tmpfs, root only)."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import many_notes

from vaultmem import Vault
from vaultmem.derived import DerivedIndex
from vaultmem.embedders import HashingEmbedder
from vaultmem.storage import reclaim

FREED = "freed pages could not be given back"


def _vault(root: Path) -> Vault:
    return Vault(root, embedder=HashingEmbedder())


def _indexed_then_mostly_deleted(root: Path, count: int, deleted: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A vault indexed, then ``deleted`` of its notes deleted and indexed again without a VACUUM:
    its index.db holds many free pages. Returns index.db."""
    notes = many_notes(root, count)
    monkeypatch.setattr(reclaim, "RECLAIM_MIN_FREE_PAGES", 1 << 40)
    with _vault(root) as vault:
        vault.index()
        for path in notes[:deleted]:
            path.unlink()
        vault.index()
    monkeypatch.setattr(reclaim, "RECLAIM_MIN_FREE_PAGES", 16)
    return root / ".vaultmem" / "index.db"


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def _free_bytes(folder: Path) -> int:
    usage = os.statvfs(folder)
    return usage.f_bavail * usage.f_frsize


class Holder:
    """Another process with index.db open (a `watch`, an MCP server): told "read", it stays in a
    read transaction until told "done"; it keeps the connection open until it is stopped."""

    SCRIPT = ("import sqlite3, sys\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('SELECT 1 FROM notes').fetchone()\n"
              "print('open', flush=True)\n"
              "for line in sys.stdin:\n"
              "    if line.strip() == 'read':\n"
              "        c.execute('BEGIN'); c.execute('SELECT count(*) FROM notes').fetchone()\n"
              "    else:\n"
              "        c.execute('COMMIT')\n"
              "    print(line.strip(), flush=True)\n")

    def __init__(self, database: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", self.SCRIPT, str(database)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._answer() == "open"

    def tell(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
        self.process.stdin.flush()
        assert self._answer() == word

    def _answer(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture
def holder_of() -> Iterator[list[Holder]]:
    started: list[Holder] = []
    yield started
    for holder in started:
        holder.stop()


# -- another process reading while the VACUUM runs


def test_a_vacuum_that_met_a_reader_leaves_no_index_sized_wal_once_the_reader_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        holder_of: list[Holder]) -> None:
    # Was: the VACUUM's copy of the whole index stayed in index.db-wal (the reader kept the
    # checkpoint from emptying it), and SQLite never cut the WAL back while any process held the
    # index open: `.vaultmem/` grew by the index's size instead of shrinking, and the log said
    # the bytes had been given back.
    caplog.set_level(logging.INFO, logger="vaultmem")
    vault_dir = tmp_path / "vault"
    database = _indexed_then_mostly_deleted(vault_dir, 900, 300, monkeypatch)
    wal = database.with_name("index.db-wal")
    holder = Holder(database)
    holder_of.append(holder)
    holder.tell("read")
    with _vault(vault_dir) as vault:
        vault.index()
    copy = _size(wal)
    assert copy > 4 * 1024 * 1024, copy  # the new copy waits in the WAL: a real case of the bug
    assert any("shrinks once another process" in record.getMessage() for record in caplog.records)
    assert not any("gave" in record.getMessage() for record in caplog.records)

    holder.tell("done")  # the read ends; the process keeps the index open
    for text in ("The plumber comes on Tuesday at ten", "The dentist moved to Friday"):
        with _vault(vault_dir) as vault:
            vault.remember(text)
    assert _size(wal) <= 4 * 1024 * 1024, _size(wal)
    with sqlite3.connect(database) as check:
        pages, free = (check.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "freelist_count"))
    assert free < 16 and _size(database) <= pages * 4096  # the copy reached the file, which shrank


# -- another process writing while the VACUUM would run


def test_a_vacuum_kept_from_the_lock_by_another_writer_leaves_the_index_command_successful(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # Was: VACUUM waited the usual 30 s for the lock, then failed `vaultmem index` with "stayed
    # locked" — after the index had been brought up to date.
    vault_dir = tmp_path / "vault"
    database = _indexed_then_mostly_deleted(vault_dir, 120, 90, monkeypatch)
    monkeypatch.setattr(reclaim, "RECLAIM_LOCK_WAIT_SECONDS", 0.3)
    writer = sqlite3.connect(database, isolation_level=None, timeout=30)
    fold = DerivedIndex.fold

    def fold_then_another_writer_takes_the_lock(self: DerivedIndex) -> None:
        fold(self)
        writer.execute("BEGIN IMMEDIATE")

    monkeypatch.setattr(DerivedIndex, "fold", fold_then_another_writer_takes_the_lock)
    size = _size(database)
    try:
        with _vault(vault_dir) as vault:
            vault.index()
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    [warning] = [record.getMessage() for record in caplog.records if FREED in record.getMessage()]
    assert str(database) in warning and "stayed locked by another writer" in warning and "vaultmem index" in warning
    assert _size(database) == size

    monkeypatch.setattr(DerivedIndex, "fold", fold)
    with _vault(vault_dir) as vault:  # the next `index` gives them back
        vault.index()
    assert _size(database) < size * 0.6


# -- a disk too full for the VACUUM's copy




def _fill(disk: Path, leave_bytes: int) -> None:
    """Fill ``disk`` but ``leave_bytes``."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.ftruncate(descriptor, 0)
        os.posix_fallocate(descriptor, 0, max(4096, _free_bytes(disk) - leave_bytes))
    finally:
        os.close(descriptor)


def test_a_vacuum_with_no_room_gives_the_room_back_so_the_next_write_works_while_a_watch_holds_the_index(
        small_disk: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        holder_of: list[Holder]) -> None:
    # Was: the VACUUM's partial copy filled the WAL to the last page, and the process holding the
    # index open kept that WAL: the disk stayed full, and the next `remember` failed with "No space
    # left on device" on a disk that had room before the `index`.
    vault_dir = small_disk / "vault"
    database = _indexed_then_mostly_deleted(vault_dir, 200, 100, monkeypatch)
    holder_of.append(Holder(database))
    with sqlite3.connect(database) as check:
        kept = (check.execute("PRAGMA page_count").fetchone()[0] - check.execute("PRAGMA freelist_count").fetchone()[0]) * 4096
    _fill(small_disk, kept // 2)  # room for a note, not for a second copy of the index
    room = _free_bytes(small_disk)

    with _vault(vault_dir) as vault:
        vault.index()  # complete: the pages stay, and it says why
    [warning] = [record.getMessage() for record in caplog.records if FREED in record.getMessage()]
    assert str(database) in warning and "no room for the copy" in warning and "MiB" in warning
    assert "run `vaultmem index` again" in warning
    assert _free_bytes(small_disk) >= room - 64 * 1024, (room, _free_bytes(small_disk))

    with _vault(vault_dir) as vault:
        written = vault.remember("The plumber comes on Tuesday at ten")
        assert written.path in [hit.path for hit in vault.search("plumber Tuesday", k=3)]
