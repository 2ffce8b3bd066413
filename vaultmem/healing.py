"""Faults of the derived index: a damaged one heals itself, a read-only one is read as it is.

- **Damaged** (``index.db`` is not a database, truncated, has bad pages, or its WAL does
  not belong to it): the files are set aside under ``.vaultmem/damaged/<time>/`` — kept
  for inspection, never deleted — a new database starts with the usage history salvaged
  from the old one (or, when SQLite cannot read that table, from the usage backup), and
  the vault is indexed again. A warning says what happened and what, if anything, was
  lost. :func:`heals` does this for a Vault method that meets the damage part-way and runs
  it once more, unless it had already changed files (:class:`NoteWritten` says so).
- **Not writable** (a read-only mount, another user's vault): read commands answer from a
  private copy of the index (:class:`ReadOnlyCopy`; what they would refresh in it stays in
  the copy), write commands are refused before they act, naming the path.

See adr/0022-damaged-and-read-only-index.md.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from .errors import INDEX_AS_WRITER, IndexDamaged, IndexNotWritable, IndexUnavailable, NoteWritten, Spelled
from .storage import DB_NAME, REBUILDING, Store, UsageBackup, UsageRow, index_failure, open_read_only, rebuild_lock
from .storage.connection import creating, disk_nearly_full, file_identity
from .storage.damage import DB_FILES, Salvage, salvage_usage, set_aside

if TYPE_CHECKING:
    from .derived import DerivedIndex

log = logging.getLogger("vaultmem")

RECHECK_SECONDS = 1.0  # how often a process on a full disk looks whether there is room again
NEW_DB_NAME = f"{DB_NAME}.new"  # the replacement is made under this name, then renamed into place
P = ParamSpec("P")
R = TypeVar("R")


class HasDerivedIndex(Protocol):
    derived: DerivedIndex


V = TypeVar("V", bound=HasDerivedIndex)


def heals(method: Callable[Concatenate[V, P], R]) -> Callable[Concatenate[V, P], R]:
    """Decorate a Vault method: SQLite faults become vaultmem errors naming the file and the
    fix; a damaged index met part-way is set aside and rebuilt, and the method runs once
    more — unless it had changed the vault's files already (then :class:`NoteWritten`)."""

    @functools.wraps(method)
    def guarded(vault: V, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(vault, *args, **kwargs)
        except NoteWritten as written:
            vault.derived.heal_if_damaged(written.cause)  # the files are there: heal, but never write them twice
            if isinstance(written.cause, sqlite3.Error):
                raise NoteWritten(written.paths, written.operation, vault.derived.as_error(written.cause)) from written.cause
            raise
        except (sqlite3.Error, IndexDamaged) as error:
            if not vault.derived.heal_if_damaged(error):
                raise vault.derived.as_error(error) from error
        try:
            return method(vault, *args, **kwargs)
        except sqlite3.Error as error:  # damaged again right after a rebuild: say so, no loop
            raise vault.derived.as_error(error) from error

    return guarded


# ------------------------------------------------------------------ a damaged index


@dataclass
class Healed:
    """What healing a damaged index did: where the old files went, what usage came back."""

    folder: Path
    detail: str
    usage: str  # one sentence: recovered, restored from the backup, or lost

    def message(self, state_dir: Path) -> str:
        return (f"the index {state_dir / DB_NAME} was damaged ({self.detail}); it was set aside in {self.folder} "
                f"(kept for inspection; delete it when done) and rebuilt from the vault. {self.usage}")


def replace_damaged(state_dir: Path, damage: IndexDamaged, now: datetime | None = None) -> Healed | None:
    """Set the damaged database aside and put a new one with the recovered usage history in
    its place, marked as being rebuilt; ``None`` when another process already did.

    The caller holds the rebuild lock (``rebuild_lock``) and indexes the vault next.
    """
    database = state_dir / DB_NAME
    current = file_identity(database)
    if damage.identity is not None and current is not None and current != damage.identity:
        return None  # another process set it aside and made a new one while we waited for the lock
    _remove_leftovers(state_dir, NEW_DB_NAME)  # a heal killed half-way left its unfinished database
    # No process creates index.db while it is missing between these moves (creating()):
    # one that did would pair its file with the new one's WAL, or leave its WAL to it.
    with creating(state_dir, exclusive=True):
        try:
            folder = set_aside(state_dir, DB_FILES, now)
        except OSError as error:
            raise IndexUnavailable(Spelled(
                f"the index {database} is damaged ({damage.detail}) and cannot be set aside here: "
                f"{error.strerror or error}. ", INDEX_AS_WRITER, " as a user who can write the vault's .vaultmem/ folder"
            )) from None
        rows, usage = recover_usage(folder / DB_NAME, UsageBackup(state_dir))
        _make_replacement(state_dir, rows)
        # A process that had the damaged file open may have made a WAL for it by name since.
        for name in DB_FILES[:2]:
            (state_dir / name).unlink(missing_ok=True)
        os.replace(state_dir / NEW_DB_NAME, database)
    return Healed(folder, damage.detail, usage)


def recover_usage(damaged: Path, backup: UsageBackup) -> tuple[list[UsageRow], str]:
    """The usage history to carry into the new index, and a sentence saying where it came from."""
    salvage = salvage_usage(damaged)
    if salvage.complete and not salvage.skipped:
        return salvage.rows, f"Usage history of {len(salvage.rows)} note(s) was read back from the damaged file."
    restored = backup.restore()
    if not backup.exists():
        return salvage.rows, _lost_without_backup(salvage, damaged)
    merged = {row.note_id: row for row in restored.rows}
    merged.update((row.note_id, row) for row in salvage.rows)  # what the damaged file still holds is newer
    when = datetime.fromtimestamp(restored.modified or 0, UTC).isoformat(timespec="seconds")
    bad = f" ({restored.bad_lines} unreadable line(s) in it skipped)" if restored.bad_lines else ""
    kept = f"; {len(salvage.rows)} of them as the damaged file still had them" if salvage.rows else ""
    return sorted(merged.values(), key=lambda row: row.note_id), (
        f"Usage history could not all be read from the damaged file ({salvage.error or 'invalid rows'}): "
        f"{len(merged)} note(s) restored from {backup.path} (last written {when}){bad}{kept}."
    )


def restore_missing_usage(store: Store) -> str | None:
    """Usage history from the backup into a new, empty index; what to say about it (``None``:
    nothing to restore)."""
    backup = UsageBackup(store.state_dir)
    if not backup.exists() or store.usage.all():
        return None
    restored = backup.restore()
    if not restored.rows:
        return None
    with store.transaction():
        store.usage.replace(restored.rows)
        store.usage.rewrite_backup()
    return (f"{store.path} was missing and has been made anew: usage history of {len(restored.rows)} note(s) "
            f"was restored from {backup.path}")


def _lost_without_backup(salvage: Salvage, damaged: Path) -> str:
    read = f"{len(salvage.rows)} note(s) were read back before it stopped; " if salvage.rows else ""
    return (f"Usage history could not be read from the damaged file ({salvage.error or 'invalid rows'}) and there is "
            f"no usage backup: {read}the rest is lost (`used`/`stale` start over for those notes). "
            f"The damaged file stays at {damaged}.")


def _make_replacement(state_dir: Path, rows: list[UsageRow]) -> None:
    """The new database under :data:`NEW_DB_NAME`: schema, usage history, "being rebuilt"."""
    store = Store(state_dir, path=state_dir / NEW_DB_NAME)
    try:
        with store.transaction():
            store.usage.replace(rows)  # also rewrites the usage backup: it mirrors what survived
            # Being rebuilt: a concurrent search answers from what is indexed so far, with a
            # warning; a kill before the reconcile ends is finished by the next command.
            store.meta.set("indexed", REBUILDING)
            store.usage.rewrite_backup()  # the backup mirrors what survived, nothing older
    finally:
        store.close()  # the last connection: SQLite checkpoints and removes the new WAL


def _remove_leftovers(state_dir: Path, name: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        (state_dir / f"{name}{suffix}").unlink(missing_ok=True)


def locked_heal(state_dir: Path, damage: IndexDamaged, rebuild: Callable[[], None]) -> Healed | None:
    """Under the rebuild lock: replace the damaged database, then ``rebuild`` (index the vault)."""
    with rebuild_lock(state_dir):
        healed = replace_damaged(state_dir, damage)
        if healed is not None:
            rebuild()
    return healed


# ------------------------------------------------------------------ a read-only index


class ReadOnlyCopy:
    """A private, writable copy of an index this process may not write.

    Read commands answer from it exactly as from the index itself; what they would bring
    up to date (a note edited since) is brought up to date in the copy only, and the
    copy is removed when the Vault closes (or the process exits). New uses cannot be
    recorded in it: they would vanish with it.
    """

    def __init__(self, state_dir: Path, refusal: IndexNotWritable) -> None:
        database = state_dir / DB_NAME
        if not database.exists():
            raise IndexUnavailable(Spelled(
                f"the vault {state_dir.parent} has no index yet ({database} does not exist) and this process "
                f"cannot make one: {refusal.reason}. ", INDEX_AS_WRITER, " once as a user who can write the vault"
            ))
        self.state_dir = state_dir
        self.refusal = IndexNotWritable(database, refusal.reason, refusal.fix)
        # A full disk passes (a read-only mount or another user's vault does not): a long-lived
        # process (the MCP server) goes back to the index itself once there is room.
        self.transient = refusal.fix == IndexNotWritable.DISK_FULL
        self.said = False  # its warning was given (once per process: DerivedIndex)
        self._checked_at = time.monotonic()
        self.folder = Path(tempfile.mkdtemp(prefix="vaultmem-read-only-"))
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)
        try:
            _copy_database(database, self.folder / DB_NAME)
        except BaseException:
            self.close()
            raise

    @property
    def warning(self) -> str:
        return (f"the index {self.refusal.path} cannot be written here ({self.refusal.reason}): answering from a "
                "private copy of it, brought in line with the files by this process only (nothing is saved)")

    def still_needed(self) -> bool:
        """Whether the index is still not writable (asked of the disk at most once a second)."""
        if not self.transient or time.monotonic() - self._checked_at < RECHECK_SECONDS:
            return True
        self._checked_at = time.monotonic()
        return disk_nearly_full(self.state_dir)

    def open(self) -> Store:
        return Store(self.state_dir, path=self.folder / DB_NAME, usage_refusal=self.refusal)

    def close(self) -> None:
        self._cleanup()


def _copy_database(source_path: Path, target_path: Path) -> None:
    try:
        source = open_read_only(source_path)
    except sqlite3.Error as error:
        raise _unreadable(source_path, error) from None
    try:
        target = sqlite3.connect(target_path)
        try:
            source.backup(target)
        except sqlite3.Error as error:
            raise _unreadable(source_path, error) from None
        finally:
            target.close()
    finally:
        source.close()


def _unreadable(path: Path, error: sqlite3.Error) -> IndexUnavailable:
    failure = index_failure(error, path)
    why = f"it is damaged ({failure.detail})" if isinstance(failure, IndexDamaged) else f"SQLite cannot read it ({error})"
    return IndexUnavailable(Spelled(
        f"the index {path} cannot be written here and {why}, so there is nothing to answer from. ", INDEX_AS_WRITER,
        " as a user who can write the vault's .vaultmem/ folder: it sets a damaged index aside and rebuilds it"
    ))
