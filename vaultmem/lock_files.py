"""vaultmem's lock files in ``.vaultmem/`` (``git.lock``, ``watch.lock``, ``rebuild.lock``,
``create.lock``), opened to be flocked and made when missing — never through a symlink.

Opened plainly (``O_RDWR | O_CREAT``), a symlink planted at such a name made vaultmem create
the file it named, wherever it was, and ``git.lock`` (which holds its holder's pid line) was
truncated and written there. A lock's name that holds anything but a plain file is refused
with :class:`UnsafeLockFile`, naming it and how to remove it (adr/0017). ``NOFOLLOW`` and the
non-blocking lock (:func:`try_lock`) are defined here once, for every module that opens or locks
such a name (git_index_lock, gitops, folders, durable).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from pathlib import Path

from .errors import UnsafeLockFile

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

# Every open of a name vaultmem asks about or locks refuses to follow a symlink there (0 where
# the platform has no such flag: Windows, whose callers check the name first).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
POLL_SECONDS = 0.05  # how often a wait for a lock held by another looks again
TAKE_LOCK_SECONDS = 0.5  # take_lock's longest wait: a reader's shared lock lasts microseconds
TAKE_LOCK_POLL_SECONDS = 0.001


def open_lock_file(path: Path, mode: int = 0o644) -> int:
    """``path`` opened to read, write and lock, made (with ``mode``) when missing; a symlink
    or anything else that is no plain file there is :class:`UnsafeLockFile`."""
    if not NOFOLLOW and path.is_symlink():  # Windows: no O_NOFOLLOW, the name is checked first
        raise UnsafeLockFile(path, f"a symbolic link (to {os.readlink(path)})")
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW, mode)
    except OSError as error:
        # ELOOP (Linux, macOS) or EMLINK (FreeBSD) for a symlink under O_NOFOLLOW.
        if error.errno in (errno.ELOOP, errno.EMLINK) and path.is_symlink():
            raise UnsafeLockFile(path, f"a symbolic link (to {os.readlink(path)})") from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO or a device put there
        os.close(descriptor)
        raise UnsafeLockFile(path, "no plain file")
    return descriptor


def open_plain_file(path: Path, flags: int) -> int | None:
    """``path`` opened with ``flags`` to be asked about (its flock, its first line), never
    through a symlink (``OSError``); ``None`` when it holds no plain file. ``O_NONBLOCK``: a
    FIFO planted there hung the open (read-only, waiting for a writer) or the read that followed."""
    descriptor = os.open(path, flags | NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return None
    return descriptor


def read_lock_file(path: Path, limit: int) -> bytes:
    """The first ``limit`` bytes of the lock file at ``path``, never read through a symlink;
    ``OSError`` when it holds no plain file."""
    descriptor = open_plain_file(path, os.O_RDONLY)
    if descriptor is None:
        raise OSError(errno.EINVAL, "no plain file", str(path))
    with os.fdopen(descriptor, "rb") as file:
        return file.read(limit)


def try_lock(descriptor: int) -> bool:
    """Did an exclusive lock on ``descriptor`` succeed at once (it is then held)? False when
    another holds it; another failure of the lock call is raised."""
    if sys.platform == "win32":
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def take_lock(descriptor: int, wait_seconds: float = TAKE_LOCK_SECONDS) -> bool:
    """Hold an exclusive lock on ``descriptor`` (flock) until it is closed, when the system lets
    it go however its process ends (``kill -9`` too); False when none could be taken within
    ``wait_seconds`` (readers hold a shared one for an instant: :func:`locked_by_another`), on
    Windows (no flock) or on a file system that refuses it (``ENOLCK``). Never waits longer: a
    process forked from a killed holder may keep its lock alive, and a write must not hang on it."""
    if sys.platform == "win32":
        return False
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            if try_lock(descriptor):
                return True
        except OSError:
            return False
        if time.monotonic() >= deadline:
            return False
        time.sleep(TAKE_LOCK_POLL_SECONDS)


def locked_by_another(descriptor: int) -> bool | None:
    """Whether another open of this file holds a lock on it (:func:`take_lock`), asked with a
    shared lock taken and let go at once; None where that cannot be asked (Windows, a file
    system that refuses flock). Unlike a pid, a lock ends with its process: a pid the system
    has since given to another process still "runs"."""
    if sys.platform == "win32":
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return None
    fcntl.flock(descriptor, fcntl.LOCK_UN)
    return False


def process_running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine; one of another user's counts (it may be a
    vaultmem run by them), as does a platform where the signal cannot ask. Never on Windows,
    where ``os.kill(pid, 0)`` ends the process: callers there say "another process" instead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
