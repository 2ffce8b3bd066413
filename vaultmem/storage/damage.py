"""A damaged index: set it aside for inspection and read what cannot be derived out of it.

Everything in ``index.db`` but usage history is rebuilt from the vault, so a damaged
index is never repaired in place: its files (the database and its WAL and shared-memory
files, which belong to it and would be replayed into a new database of the same name)
move to ``.vaultmem/damaged/<time>/``, a new database starts, and the usage history is
salvaged from the old file when SQLite can still read that table — else taken from the
usage backup (usage_backup.py). See adr/0022-damaged-and-read-only-index.md.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .connection import DB_NAME
from .usage import UsageRow

DAMAGED_DIR = "damaged"  # under .vaultmem/: what was set aside, one folder per event
DB_FILES = (f"{DB_NAME}-wal", f"{DB_NAME}-shm", DB_NAME)  # the WAL files first: never leave them to a new database
_USAGE_QUERY = "SELECT note_id, use_count, last_used_at, last_used_us FROM usage"


@dataclass
class Salvage:
    """Usage rows read out of a damaged database, and whether the read got them all."""

    rows: list[UsageRow] = field(default_factory=list)
    complete: bool = False
    skipped: int = 0  # rows read but not valid (a damaged page can hold anything)
    error: str | None = None  # why the read stopped, when it did


def set_aside(state_dir: Path, names: tuple[str, ...], now: datetime | None = None) -> Path:
    """Move these files of ``state_dir`` (those that exist) into a new folder under
    ``damaged/``; returns that folder. Nothing is deleted: the files stay for inspection."""
    folder = _new_folder(state_dir / DAMAGED_DIR, now or datetime.now(UTC))
    for name in names:
        try:
            os.replace(state_dir / name, folder / name)
        except FileNotFoundError:
            continue  # no WAL (a clean close removes it), or another process moved it first
    return folder


def _new_folder(parent: Path, now: datetime) -> Path:
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 100):
        folder = parent / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{parent} already holds 99 folders named {stamp}: remove old ones")


def salvage_usage(database: Path) -> Salvage:
    """The ``usage`` table of a damaged database, as far as SQLite can read it.

    First with its WAL (the newest uses may be there only), then the database file alone
    (a WAL that does not match its database is the damage itself, sometimes). The first
    complete read wins; otherwise the read that got most rows.
    """
    best = Salvage(error="the file could not be opened")
    if not database.exists():
        return best
    for options in ("mode=ro", "mode=ro&immutable=1"):
        attempt = _read_usage(f"{database.absolute().as_uri()}?{options}")
        if attempt.complete:
            return attempt
        if len(attempt.rows) > len(best.rows) or best.error == "the file could not be opened":
            best = attempt
    return best


def _read_usage(uri: str) -> Salvage:
    salvage = Salvage()
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as error:
        salvage.error = str(error)
        return salvage
    try:
        for row in conn.execute(_USAGE_QUERY):
            usage = _valid_row(row)
            if usage is None:
                salvage.skipped += 1
            else:
                salvage.rows.append(usage)
        salvage.complete = True
    except sqlite3.Error as error:  # a damaged page: keep what was read before it
        salvage.error = str(error)
    finally:
        conn.close()
    return salvage


def _valid_row(row: tuple[object, ...]) -> UsageRow | None:
    note_id, use_count, last_used_at, last_used_us = row
    if not isinstance(note_id, str) or not note_id or not isinstance(last_used_at, str):
        return None
    if isinstance(use_count, bool) or not isinstance(use_count, int) or use_count < 1:
        return None
    if isinstance(last_used_us, bool) or not isinstance(last_used_us, int):
        return None
    return UsageRow(note_id, use_count, last_used_at, last_used_us)
