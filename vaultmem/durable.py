"""Durable file writes, written once: a temp file fully written and flushed to disk (fsync)
before a rename or link publishes it, and the folder flushed after that, so a crash leaves
the old file or the new one, never half of either.

Every write of a whole file goes through :func:`write_temp`: a new note
(``noteio.create_exclusive``), the temp file swapped in over a person's note
(``folders.PinnedFolder.write_temp``) and the usage backup's compaction
(:func:`replace_file`). This module imports nothing from vaultmem, so the note writers
and ``storage/`` above them can all use it (adr/0012's room map).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path

from .lock_files import NOFOLLOW

logger = logging.getLogger(__name__)

TEMP_ATTEMPTS = 100  # names tried before giving up; each has 32 random bits
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_BINARY", 0)


TEMP_NAME_CHARS = 80  # of the name a temp file is written for (a longer one is cut)
# And at most this many bytes of it, as the file system counts them (UTF-8 on Linux and macOS):
# with the dot, the hex and ".tmp" (14 bytes) a temp name stays within the 255 bytes a name may
# hold. Cut by characters alone, a note named with 62 emoji (251 bytes) got a temp name of 265,
# and every write over it failed "File name too long", naming the note that was there.
TEMP_NAME_BYTES = 200
MAX_NAME_BYTES = 255  # of one file or folder name, as Linux and macOS count it (UTF-8)
_TEMP_NAME = re.compile(r"\.(?P<like>.+)\.[0-9a-f]{8}\.tmp", re.DOTALL)


def temp_name(like: str) -> str:
    """``.like.<hex>.tmp``: hidden and ``*.tmp``, so the scan and the watcher never take it
    for a note, and a name no person or editor uses."""
    return f".{_cut_for_temp(like)}.{secrets.token_hex(4)}.tmp"


def _cut_for_temp(like: str) -> str:
    """``like``'s first :data:`TEMP_NAME_CHARS` characters, fewer when they take more than
    :data:`TEMP_NAME_BYTES` bytes (never half a character)."""
    cut = like[:TEMP_NAME_CHARS]
    while len(os.fsencode(cut)) > TEMP_NAME_BYTES:
        cut = cut[:-1]
    return cut


def fitting_name(stem: str, tail: str) -> str:
    """``stem + tail``, the stem cut (never half a character) so the name holds at most
    :data:`MAX_NAME_BYTES`: a suffix added to a long note's name (``-2``, a conflict copy's)
    made it "File name too long"."""
    room = MAX_NAME_BYTES - len(os.fsencode(tail))
    while stem and len(os.fsencode(stem)) > room:
        stem = stem[:-1]
    return stem + tail


def temp_name_holds_whole(like: str) -> bool:
    """Is ``like`` (read back by :func:`written_for`) the whole name its temp file was written
    for, not the start of a longer one (``check`` then names the note beside it)? A name that
    ends within one character (4 bytes) of a limit may have been cut: not said to be whole."""
    return len(like) < TEMP_NAME_CHARS and len(os.fsencode(like)) <= TEMP_NAME_BYTES - 4


def written_for(name: str) -> str | None:
    """The name a :func:`temp_name` was made for (cut to its first 80 characters), or None
    when ``name`` is not one of vaultmem's temp files (``check`` names those left behind)."""
    match = _TEMP_NAME.fullmatch(name)
    return match.group("like") if match else None


def write_temp(directory: str, like: str, data: bytes, mode: int, dir_fd: int | None = None) -> tuple[str, int]:
    """A new temp file beside ``like`` holding ``data``, on disk (fsync), with ``mode``:
    (its name, its inode). ``dir_fd`` (a pinned ``directory``): the name is opened
    relative to it, never through a symlink. When it fails nothing is left behind, and an
    error that names no file (a full disk) names ``like``."""
    for _attempt in range(TEMP_ATTEMPTS):
        name = temp_name(like)
        path = name if dir_fd is not None else os.path.join(directory, name)
        try:
            descriptor = os.open(path, _NEW_FILE, 0o600, dir_fd=dir_fd)
        except FileExistsError:
            continue  # another temp file holds this name: draw another
        except OSError as error:
            raise _naming(error, os.path.join(directory, like)) from None
        return name, _fill(descriptor, path, data, mode, dir_fd, os.path.join(directory, like))
    raise FileExistsError(errno.EEXIST, f"no free temp file name after {TEMP_ATTEMPTS} tries", os.path.join(directory, like))


def _fill(descriptor: int, path: str, data: bytes, mode: int, dir_fd: int | None, target: str) -> int:
    """Write, flush to disk and chmod the new file; its inode. On failure: no file left."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
        os.fsync(descriptor)
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, mode)
        else:  # Windows: no fchmod, and no dir_fd either, so ``path`` is whole
            os.chmod(path, mode)
        inode = os.fstat(descriptor).st_ino
    except BaseException as error:
        os.close(descriptor)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path, dir_fd=dir_fd)
        if isinstance(error, OSError):
            raise _naming(error, target) from None
        raise
    os.close(descriptor)
    return inode


def _naming(error: OSError, target: str) -> OSError:
    # A failed write names no file; "No space left on device" alone does not say which.
    return error if error.filename is not None else OSError(error.errno, error.strerror, target)


def replace_file(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` atomically, whatever it holds now (temp file, fsync,
    rename, fsync the folder). Only for files vaultmem alone writes: a person's note goes
    through noteio's guarded writes, which check what they replace."""
    name, _inode = write_temp(str(path.parent), path.name, data, mode)
    temp = path.parent / name
    try:
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)  # the rename did not happen: the old file stays
        raise
    fsync_folder(path.parent)


ON_WINDOWS = os.name == "nt"


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def owned_like_folder(name: str, folder: str, dir_fd: int | None = None) -> None:
    """As root, give ``name`` (a file or folder vaultmem just made in ``folder``) the owner and
    group of ``folder``. vaultmem run as root (a container with the vault mounted, ``sudo``)
    made notes, ``memories/`` and the archive's folders root's: the person could then not save
    a memory, nor add to or delete those folders (adr/0006). Not root: ours, as any program's."""
    if not running_as_root():
        return
    holder = os.stat(dir_fd) if dir_fd is not None else os.stat(folder)
    given_owner(name if dir_fd is not None else os.path.join(folder, name), holder.st_uid, holder.st_gid, dir_fd)


# What a file system says when it will not give a file another owner: root squashed on NFS
# (EPERM), an owner a user namespace does not map (EINVAL: rootless containers), a mount that
# has no owners (ENOSYS, EOPNOTSUPP: some FUSE and SMB mounts). The write stays done and the
# file root's, as before owners were kept; a warning says so.
OWNER_REFUSED = frozenset({errno.EPERM, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", errno.EOPNOTSUPP)})


def given_owner(path: str, uid: int, gid: int, dir_fd: int | None = None) -> bool:
    """``chown`` without following a link; ``False`` (and a warning naming the file) when the
    file system refuses owners (:data:`OWNER_REFUSED`): the file stays as it was made. A write
    must not fail for an owner vaultmem only keeps out of courtesy to the person."""
    try:
        os.chown(path, uid, gid, dir_fd=dir_fd, follow_symlinks=False)
    except OSError as error:
        if error.errno not in OWNER_REFUSED:
            raise
        logger.warning("could not give %s the owner %d:%d (%s): it stays the owner it was made with; "
                       "`chown` it by hand if the person cannot edit it", path, uid, gid, os.strerror(error.errno or 0))
        return False
    return True


def hand_over_tree(folder: Path) -> None:
    """As root, give what root made under ``folder`` (``.vaultmem/``: the index, its vectors,
    locks, a damaged index kept aside) the owner and group of ``folder``, which is the vault's
    (:func:`make_folders`). Left root's, the person could neither re-index (``index.db`` not
    writable) nor delete ``.vaultmem/`` to start again (its inner folders' entries are root's).
    What another user made there stays theirs."""
    if not running_as_root():
        return
    holder = os.stat(folder, follow_symlinks=False)
    if holder.st_uid == 0:
        return  # a vault of root's: nothing to hand over
    for directory, folders, files in os.walk(folder):
        for name in (*folders, *files):
            path = os.path.join(directory, name)
            with contextlib.suppress(FileNotFoundError):  # removed meanwhile (a WAL at its close)
                if os.lstat(path).st_uid == 0 and not given_owner(path, holder.st_uid, holder.st_gid):
                    return  # the file system keeps no owners: the rest would say so again


def make_folders(directory: Path) -> list[Path]:
    """``mkdir -p directory``; the folders made, outermost first (a write undone removes them
    again). As root each gets the owner and group of the folder it is made in, so all of them
    that of the closest folder that was there (:func:`owned_like_folder`). A file in the way:
    ``FileExistsError`` or ``NotADirectoryError``, as ``Path.mkdir`` raises them."""
    missing: list[Path] = []
    folder = directory
    while not os.path.lexists(folder) and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            try:
                folder.mkdir()
            except FileExistsError:
                if folder.is_dir():
                    continue  # made meanwhile by another process: not ours to own or remove
                raise
            made.append(folder)
            owned_like_folder(folder.name, str(folder.parent))
        if not directory.is_dir():
            raise FileExistsError(errno.EEXIST, "is a file, not a folder", str(directory))
    except OSError:
        # Failing part-way ("File name too long" past the deepest path the system holds), the
        # folders made so far stayed behind, empty, though the write was refused.
        remove_folders_of_a_refused_write(made)
        raise
    return made


def remove_folders_of_a_refused_write(made: Sequence[Path]) -> None:
    """:func:`remove_made_folders` while the write's own error is raised: an error removing them
    is logged, not raised over the one that says why nothing was written."""
    try:
        remove_made_folders(made)
    except OSError as cleanup:
        logger.warning("could not remove the empty folders made for a refused write (%s): %s",
                       cleanup, ", ".join(map(str, made)))


def remove_made_folders(made: Sequence[Path]) -> None:
    """Remove the folders a write made, innermost first, when the write is undone: a failed
    ``remember`` left an empty ``memories/`` it had made. A folder that is not empty any more
    (the person saved a file there meanwhile) is theirs now and stays, with what led to it."""
    for folder in reversed(made):
        try:
            folder.rmdir()
        except FileNotFoundError:
            continue  # removed already, by the person
        except OSError as error:
            if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
            return  # holds a file now: it and the folders around it stay


def fsync_file(path: Path) -> None:
    """Flush a file vaultmem just wrote (by a library's own writer) to disk."""
    # Windows flushes only through a handle opened for writing (FlushFileBuffers).
    _fsync(path, os.O_RDWR if ON_WINDOWS else os.O_RDONLY)


def fsync_folder(path: Path) -> None:
    """Flush a folder's entries to disk, so a rename or a new name in it survives a crash.

    Every folder fsync goes through here. Not on Windows: a folder cannot be opened there
    (``os.open`` fails with a permission error, which would fail a write that has already
    landed), and NTFS journals its own entries.
    """
    if not ON_WINDOWS:
        _fsync(path, os.O_RDONLY)


def _fsync(path: Path, flags: int) -> None:
    descriptor = os.open(path, flags)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
