"""Fences and the watch lock: how a reader learns that every change so far has reached the index.

A **fence** is an empty file ``.vaultmem/fence-<pid>-<random>`` that a reader creates and
waits on. The observer of a watcher sees its creation *after* every file-system event
that happened before it: one inotify instance queues events in the order they occur
(FSEvents and ReadDirectoryChangesW deliver a stream in order too). So once a watcher
has seen the fence, it knows of every edit made before the reader asked; it applies
what it still holds and then acknowledges — in its own process by an in-memory event,
across processes by deleting the fence file.

The **watch lock** (``.vaultmem/watch.lock``) says that a watcher able to answer fences
is alive: it holds a shared ``flock`` on the file for as long as it runs, and the kernel
releases it however the process ends. A reader that finds the lock held may fence
instead of walking the vault. Only watchers whose events can be trusted take it: not a
polling watcher (it sees changes a poll later, in no guaranteed order) and not one on a
file system whose other clients change files without telling our kernel (NFS, SMB, 9p,
FUSE, a VM's shared folder). Without ``flock`` (Windows) no lock is taken and readers
always walk. See adr/0021-answers-true-to-the-files.md.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import logging
import os
import secrets
import sys
import time
from pathlib import Path
from types import ModuleType

from .lock_files import open_lock_file, open_plain_file

fcntl: ModuleType | None
try:
    fcntl = importlib.import_module("fcntl")
except ImportError:  # Windows: no flock, so no watcher can vouch for the index across processes
    fcntl = None

logger = logging.getLogger(__name__)

FENCE_PREFIX = "fence-"
WATCH_LOCK = "watch.lock"
LOCK_FILE_MODE = 0o644
FENCE_FILE_MODE = 0o600
ACK_POLL_FIRST_SECONDS = 0.0002
ACK_POLL_MAX_SECONDS = 0.005
STALE_FENCE_SECONDS = 60.0  # a fence older than this was left by a reader that died waiting

# File systems whose files other machines (or the host of a VM) change without our kernel
# hearing of it: inotify then reports only this machine's own edits. "fuse.*" covers sshfs,
# rclone, s3fs, gcsfuse, …: a FUSE file system may be backed by anything.
REMOTE_FILE_SYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "9p", "v9fs", "afs", "ceph", "glusterfs", "lustre",
    "gpfs", "beegfs", "davfs", "fuse", "fuseblk", "drvfs", "virtiofs", "vboxsf", "vmhgfs", "prl_fs", "coda",
})


def fence_name() -> str:
    return f"{FENCE_PREFIX}{os.getpid()}-{secrets.token_hex(8)}"


def is_fence(state_dir: str, absolute: str) -> str | None:
    """The fence's name if ``absolute`` is a fence file in ``state_dir``, else ``None``."""
    folder, _, name = absolute.rpartition(os.sep)
    return name if folder == state_dir and name.startswith(FENCE_PREFIX) else None


def write_fence(state_dir: Path, name: str) -> bool:
    """Create the fence file; ``False`` when it cannot be (no ``.vaultmem/``, read-only)."""
    try:
        descriptor = os.open(state_dir / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FENCE_FILE_MODE)
    except OSError:
        return False  # the caller walks the vault instead: slower, never wrong
    os.close(descriptor)
    return True


def remove_fence(state_dir: Path, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):  # acknowledged (deleted) by a watcher meanwhile
        os.unlink(state_dir / name)


def await_ack(state_dir: Path, name: str, timeout: float) -> bool:
    """Wait until a watcher in another process deletes the fence; ``False`` after ``timeout``."""
    path = os.path.join(state_dir, name)
    deadline = time.monotonic() + timeout
    pause = ACK_POLL_FIRST_SECONDS
    while os.path.lexists(path):
        if time.monotonic() >= deadline:
            remove_fence(state_dir, name)
            return False
        time.sleep(pause)
        pause = min(2 * pause, ACK_POLL_MAX_SECONDS)
    return True


def remove_stale_fences(state_dir: Path, now: float | None = None) -> None:
    """Fences left behind by readers that died waiting (a watcher cleans them at start)."""
    moment = time.time() if now is None else now
    try:
        entries = list(os.scandir(state_dir))
    except OSError:
        return  # no index folder yet: nothing left behind
    for entry in entries:
        if entry.name.startswith(FENCE_PREFIX) and _age(entry, moment) > STALE_FENCE_SECONDS:
            try:
                remove_fence(state_dir, entry.name)
            except OSError as error:
                if error.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                    raise
                # A .vaultmem/ this process may not write (a disk remounted read-only): the fence
                # stays, harmless — no reader can make one there, each walks the vault instead.
                # Raised, it stopped the watcher: `watch` exited, a server's every recall failed.
                logger.warning("a stale fence stays in %s, which cannot be written here: %s", state_dir, error)


def _age(entry: os.DirEntry[str], now: float) -> float:
    try:
        return now - entry.stat(follow_symlinks=False).st_mtime
    except FileNotFoundError:
        return 0.0


# ------------------------------------------------------------------ the watch lock


class WatchLock:
    """A live watcher's claim that it answers fences (a shared flock, released on exit or death)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self._descriptor: int | None = None

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def acquire(self) -> bool:
        """Take the lock (shared: several watchers may hold it); ``False`` where there is no flock."""
        if fcntl is None or self._descriptor is not None:
            return self._descriptor is not None
        try:
            descriptor = open_lock_file(self.state_dir / WATCH_LOCK, LOCK_FILE_MODE)
        except OSError:
            return False  # a read-only index folder: readers walk the vault instead
        fcntl.flock(descriptor, fcntl.LOCK_SH)  # waits only while a reader tests the lock (microseconds)
        self._descriptor = descriptor
        return True

    def release(self) -> None:
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            os.close(descriptor)  # closing releases the lock


def watcher_alive(state_dir: Path) -> bool:
    """Does a watcher that answers fences hold ``.vaultmem/watch.lock``?"""
    if fcntl is None:
        return False
    try:
        descriptor = open_plain_file(state_dir / WATCH_LOCK, os.O_RDONLY)
    except OSError:
        return False  # never created: no watcher ever ran here
    if descriptor is None:
        return False  # a FIFO or a device planted there: no watcher's lock (WatchLock refuses it)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        return error.errno in (errno.EWOULDBLOCK, errno.EAGAIN)
    finally:
        os.close(descriptor)  # also releases our own lock when we got it
    return False


# ------------------------------------------------------------------ can events be trusted here?


def untrusted_file_system(path: Path, mountinfo: str | None = None) -> str | None:
    """The type of the file system holding ``path`` if others may change it unheard, else ``None``.

    Linux only (``/proc/self/mountinfo``, or the text given as ``mountinfo``); elsewhere
    ``None`` — macOS and Windows report changes on their own volumes, and their network
    shares are not detected here.
    """
    if mountinfo is None:
        if not sys.platform.startswith("linux"):
            return None
        try:
            with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
                mountinfo = handle.read()
        except OSError:
            return None
    mounts = [parsed for line in mountinfo.splitlines() if (parsed := _mount_point_and_type(line)) is not None]
    real = os.path.realpath(path)
    best = max((mount for mount in mounts if _contains(mount[0], real)), key=lambda mount: len(mount[0]), default=None)
    if best is None:
        return None
    kind = best[1]
    return kind if kind in REMOTE_FILE_SYSTEMS or kind.startswith("fuse.") else None


def _mount_point_and_type(line: str) -> tuple[str, str] | None:
    """``36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw`` → ("/mnt2", "ext3")."""
    fields, _, rest = line.partition(" - ")
    parts = fields.split()
    kinds = rest.split()
    if len(parts) < 5 or not kinds:
        return None
    return _unescape(parts[4]), kinds[0]


def _unescape(text: str) -> str:
    """mountinfo writes space, tab, newline and backslash in mount points as octal escapes."""
    for escaped, plain in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        text = text.replace(escaped, plain)
    return text


def _contains(mount_point: str, path: str) -> bool:
    return path == mount_point or path.startswith(mount_point.rstrip("/") + "/")
