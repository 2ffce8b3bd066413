"""The write primitives under noteio's guarded writes: a folder of the vault pinned by a
descriptor, and the renames that move a person's version from a private name back.

:class:`PinnedFolder` opens a folder from the vault's root one name at a time without
following a symlink, so a folder swapped for a symlink out of the vault after the check
cannot redirect the writes made through it (without descriptor-relative calls — Windows —
the real path is checked at write time instead, not pinned). A file holding a person's
version is only ever moved from a name vaultmem alone uses (``.name.<hex>.tmp``, hidden:
the scan and the watcher never take it for a note) and never over another file: when the
note's name was taken meanwhile, the person's version is kept beside it as
``name.vaultmem-conflict-<UTC time>.md``. See adr/0014-racing-edits.md.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from pathlib import Path, PurePosixPath
from typing import Self

from . import durable, renames
from .errors import PathOutsideVault, WriteConflict
from .lock_files import NOFOLLOW
from .notes import content_hash

_DIR_FDS = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and os.unlink in os.supports_dir_fd
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class PinnedFolder:
    """A folder of the vault, opened from the vault's root one name at a time without
    following a symlink. Its descriptor pins it: a folder swapped for a symlink out of
    the vault after this check cannot redirect the writes made through it.

    Without descriptor-relative calls (Windows) the folder's real path is checked
    instead and names are full paths: the check is made at write time, but not pinned.
    """

    def __init__(self, path: str, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def open(cls, directory: Path, vault_root: Path, relative: str, create: bool = False) -> PinnedFolder:
        root = os.path.realpath(vault_root)
        if create and not _DIR_FDS:
            directory.mkdir(parents=True, exist_ok=True)
        real = os.path.realpath(directory)
        inside = os.path.relpath(real, root)
        if os.path.isabs(inside) or inside == os.pardir or inside.startswith(os.pardir + os.sep):
            raise PathOutsideVault(relative, vault_root)
        if not _DIR_FDS:
            return cls(real, None)
        return cls(real, walk_from_root(root, [] if inside == os.curdir else inside.split(os.sep), relative, vault_root, create))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def at(self, name: str) -> str:
        return name if self.fd is not None else os.path.join(self.path, name)

    def temp_name(self, like: str) -> str:
        return durable.temp_name(like)

    def regular_file_mode(self, name: str) -> int | None:
        try:
            info = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None

    def names_of(self, name: str) -> int:
        """How many names (hard links) the file at ``name`` has, unfollowed."""
        return os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False).st_nlink

    def owned_as(self, temp: str, name: str) -> None:
        """Give ``temp`` the owner and group of the note ``name`` it is to replace, as its
        mode is kept: a root vaultmem (in a container, under sudo) left the person a note of
        root's they could no longer save in place. Not root, only our own groups can be given
        and the owner is ours — as with any editor that saves by rename (adr/0006)."""
        if not hasattr(os, "chown") or not {os.chown, os.stat} <= os.supports_follow_symlinks:
            return  # Windows: a replaced file's owner is not the name's to keep
        theirs = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        ours = os.stat(self.at(temp), dir_fd=self.fd, follow_symlinks=False)
        if (theirs.st_uid, theirs.st_gid) == (ours.st_uid, ours.st_gid):
            return
        # Not root, the owner is refused (EPERM) and a group we are not in too: ours stays, as
        # before, as it does where the file system keeps no owners (durable.OWNER_REFUSED).
        for uid in (theirs.st_uid, -1):
            try:
                os.chown(self.at(temp), uid, theirs.st_gid, dir_fd=self.fd, follow_symlinks=False)
            except OSError as error:
                if error.errno not in durable.OWNER_REFUSED:
                    raise
            else:
                return

    def exists(self, name: str) -> bool:
        """Is there anything at ``name`` (a symlink counts, unfollowed)?"""
        try:
            os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        return True

    def write_temp(self, like: str, data: bytes, mode: int) -> tuple[str, int]:
        """A fully written, fsynced temp file beside ``like``: (its name, its inode)."""
        return durable.write_temp(self.path, like, data, mode, self.fd)

    def holding(self, name: str, expected_hash: str) -> bytes | None:
        """The bytes at ``name`` if they hash to ``expected_hash``, it is a plain file and
        no process holds it open for writing (a write could still land in it); else None."""
        raw = self._read_settled(name)
        return raw if raw is not None and content_hash(raw) == expected_hash else None

    def is_exactly(self, name: str, inode: int, data: bytes) -> bool:
        """Is ``name`` still vaultmem's own temp file, with nothing written into it?"""
        try:
            info = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        return info.st_ino == inode and self._read_settled(name) == data

    def same_file(self, name: str, other: PinnedFolder, other_name: str) -> bool:
        mine = os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        theirs = os.stat(other.at(other_name), dir_fd=other.fd, follow_symlinks=False)
        return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)

    def _read_settled(self, name: str) -> bytes | None:
        try:
            descriptor = os.open(self.at(name), os.O_RDONLY | NOFOLLOW, dir_fd=self.fd)
        except OSError:
            return None  # gone, or a symlink swapped in
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode) or renames.open_for_writing(descriptor):
                return None
            with os.fdopen(descriptor, "rb", closefd=False) as handle:
                return handle.read()
        finally:
            os.close(descriptor)

    def unlink(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.at(name), dir_fd=self.fd)

    def sync(self) -> None:
        if self.fd is not None:
            os.fsync(self.fd)
        else:
            durable.fsync_folder(Path(self.path))


def walk_from_root(root: str, parts: list[str], relative: str, vault_root: Path, create: bool) -> int:
    descriptor = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for number, part in enumerate(parts, 1):
            if create and _made(part, descriptor):
                durable.owned_like_folder(part, "", descriptor)  # an archive folder root made: the person's
            try:
                following = os.open(part, os.O_RDONLY | _DIRECTORY | NOFOLLOW, dir_fd=descriptor)
            except OSError as error:
                if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                _refuse_a_file_in_the_way(descriptor, parts[:number])
                # A symlink took the folder's place since its path was resolved.
                raise PathOutsideVault(relative, vault_root) from None
            os.close(descriptor)
            descriptor = following
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _made(part: str, descriptor: int) -> bool:
    try:
        os.mkdir(part, dir_fd=descriptor)
    except FileExistsError:
        return False
    return True


def _refuse_a_file_in_the_way(descriptor: int, parts: list[str]) -> None:
    """A plain file where a folder is needed (``_archive/notes`` the person made a note): said
    so, with its path and the fix — it was called a path outside the vault, to write without '..'."""
    info = os.stat(parts[-1], dir_fd=descriptor, follow_symlinks=False)
    if not stat.S_ISLNK(info.st_mode):
        where = "/".join(parts)
        raise NotADirectoryError(errno.ENOTDIR, f"{where} is a file where vaultmem needs a folder; nothing was "
                                                f"written: move or rename {where}, then run the command again", where)


def restore_private(folder: PinnedFolder, private: str, destination: PinnedFolder, name: str, relative: str) -> str | None:
    """Move a person's version from a private name back to ``name``; if a new file took
    that name meanwhile, keep it beside it. Returns the kept copy's name, if any."""
    try:
        rename_private(folder, private, destination, name)
    except FileExistsError:
        return keep_beside(folder, private, name, relative)
    destination.sync()
    return None


def keep_beside(folder: PinnedFolder, private: str, name: str, relative: str) -> str:
    """Give a private file that holds a person's version a visible name next to ``name``."""
    stem, dot, suffix = name.rpartition(".")
    stem, suffix = (stem, dot + suffix) if stem else (name, "")
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    for attempt in range(1, 1000):
        tail = f".vaultmem-conflict-{stamp}{'' if attempt == 1 else f'-{attempt}'}{suffix}"
        # Cut to fit: a long note's conflict copy was "File name too long", and the person's second
        # version stayed under vaultmem's hidden temp name, which `check` calls a leftover to delete.
        candidate = durable.fitting_name(stem, tail)
        try:
            rename_private(folder, private, folder, candidate)
        except FileExistsError:
            continue
        folder.sync()
        return str(PurePosixPath(relative).with_name(candidate))
    raise WriteConflict(relative, folder.at(private))


def rename_private(folder: PinnedFolder, private: str, destination: PinnedFolder, name: str) -> None:
    """Move a file from a name only vaultmem uses; ``FileExistsError`` if ``name`` is taken."""
    try:
        renames.rename_noreplace(folder.fd, folder.at(private), destination.fd, destination.at(name))
    except renames.Unsupported:
        # link + unlink is safe here: nobody else writes under the private name.
        os.link(folder.at(private), destination.at(name), src_dir_fd=folder.fd, dst_dir_fd=destination.fd,
                follow_symlinks=False)
        folder.unlink(private)
