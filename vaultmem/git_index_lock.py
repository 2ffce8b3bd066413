"""Git's own index file as vaultmem's commit touches it (adr/0017): its lock (``index.lock``)
held while HEAD moves, marked as vaultmem's and flocked so that one a killed vaultmem left is
known and removed, and released only while its name still holds vaultmem's own file; the
person's index set aside before it is replaced and put back, byte for byte, when the commit is
not made; and which version of the index file is there (:func:`stamp`).

What is put into the person's index, and what earlier commits set there to be checked
(index_checks.py), is decided by gitops' commit; this module only handles the files.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import shutil
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from .lock_files import NOFOLLOW, POLL_SECONDS, open_plain_file, process_running, try_lock

if sys.platform != "win32":
    import fcntl

log = logging.getLogger("vaultmem")

# Which machine made a file of vaultmem's beside git's index: its pid is known to be dead only on
# the machine it ran on (a git directory on a network share is seen by others, whose pids mean
# nothing here). Eight hex digits of the host name's digest: a name git and every file system take.
HOST_TAG = hashlib.sha256(socket.gethostname().encode(errors="replace")).hexdigest()[:8]
# How old a file an older vaultmem left (its name says no machine) must be before a dead pid on
# this machine is taken as its maker's: a commit holds one for seconds, never an hour.
UNTAGGED_LEFTOVER_SECONDS = 3600.0


def own_name(path: Path, kind: str) -> Path:
    """A name beside ``path`` for a file this process alone uses (``index.vaultmem-was-…``), saying
    which process on which machine made it: one a killed vaultmem leaves is known and removed by
    :func:`remove_left_by_dead_processes`."""
    return path.with_name(f"{path.name}.{kind}-{os.getpid()}-{HOST_TAG}-{secrets.token_hex(4)}")


# What own_name makes beside git's index (``index`` or the name GIT_INDEX_FILE gives it): the copy
# pointed at a commit (and the lock git writes it through), the index set aside, a lock taken aside.
_BESIDE_INDEX = r"\.(?:vaultmem|vaultmem-was)-{ids}(?:\.lock)?|\.lock\.vaultmem-left-{ids}"
# What a commit makes in ``.vaultmem/``: its private index (with git's lock of it and the three
# files of a merge: gitops) and the new checks file (index_checks.py, through state_json).
_IN_LOCK_DIR = r"-{ids}(?:\.lock|\.ours|\.base|\.theirs)?|-checks\.json\.{ids}"
# The new list of vaultmem's notes left out of a commit (own_uncommitted.py, through state_json):
# before stop 40 a commit killed while writing it left its temp file for good.
_OWN_UNCOMMITTED_NEW = r"\.{ids}"
# "PID-HOST-RANDOM" (since stop 38), or "PID-RANDOM" as an older vaultmem named them.
_IDS = r"(?P<pid>[0-9]+)-(?:(?P<host>[0-9a-f]{8})-)?[0-9a-f]{8}"


def remove_leftovers(index: Path, lock_dir: Path) -> None:
    """Remove what commits of vaultmem killed midway left beside git's ``index`` and in ``lock_dir``
    (``.vaultmem/``): each an index-sized file nothing names (:func:`remove_left_by_dead_processes`)."""
    remove_left_by_dead_processes(index.parent, leftover_pattern(index.name, _BESIDE_INDEX))
    remove_left_by_dead_processes(lock_dir, leftover_pattern("git-index", _IN_LOCK_DIR))
    remove_left_by_dead_processes(lock_dir, leftover_pattern("own-uncommitted.json", _OWN_UNCOMMITTED_NEW))


def leftover_pattern(base: str, suffixes: str) -> re.Pattern[str]:
    """The names vaultmem's own files beside ``base`` take (``suffixes``: a pattern holding
    ``{ids}`` where own_name puts the pid, machine and random part; groups ``pidN``/``hostN``)."""
    parts = suffixes.split("{ids}")
    numbered = [_IDS.replace("?P<pid>", f"?P<pid{n}>").replace("?P<host>", f"?P<host{n}>") for n in range(len(parts) - 1)]
    return re.compile(re.escape(base) + "(?:" + parts[0] + "".join(ids + part for ids, part in zip(numbered, parts[1:], strict=True)) + ")")


def remove_left_by_dead_processes(folder: Path, pattern: re.Pattern[str], now: float | None = None) -> list[str]:
    """Remove the files in ``folder`` whose whole name ``pattern`` matches (a vaultmem file such as
    :func:`own_name` makes) and whose maker is certainly dead: made on this machine (its tag) by a
    pid that no longer runs, or, named by an older vaultmem (no machine in the name), untouched for
    :data:`UNTAGGED_LEFTOVER_SECONDS` with its pid not running here. A live maker, another machine's,
    this process's own, and every other file are left. A killed commit left an index-sized copy in
    the git directory each time, named by nothing and never removed. Returns the names removed."""
    if sys.platform == "win32":
        return []  # no signal asks about a pid there without ending it (lock_files.process_running)
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:  # no such folder, or one this user cannot list: nothing known to be left
        return []
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found is None or not _made_by_a_dead_process(entry, _pid_of(found), _host_of(found), now):
            continue
        try:
            os.unlink(entry.path)
            removed.append(entry.name)
        except FileNotFoundError:
            continue  # another commit's sweep removed it first
        except OSError as error:  # housekeeping: the commit goes ahead, the file is named
            log.warning("vaultmem: could not remove %s, left by a vaultmem commit that was killed (%s); delete it "
                        "yourself", entry.path, error.strerror or error)
    if removed:
        log.warning("vaultmem: removed %s from %s, left by a vaultmem commit that was killed", ", ".join(sorted(removed)),
                    folder)
    return removed


def _pid_of(found: re.Match[str]) -> int:
    return int(next(value for name, value in found.groupdict().items() if name.startswith("pid") and value))


def _host_of(found: re.Match[str]) -> str | None:
    return next((value for name, value in found.groupdict().items() if name.startswith("host") and value), None)


def _made_by_a_dead_process(entry: os.DirEntry[str], pid: int, host: str | None, now: float) -> bool:
    if pid == os.getpid() or (host is not None and host != HOST_TAG) or not entry.is_file(follow_symlinks=False):
        return False
    if host is None:
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime < UNTAGGED_LEFTOVER_SECONDS:
                return False
        except FileNotFoundError:
            return False
    return not process_running(pid)


def set_aside(index: Path) -> Path | None:
    """A second name for the person's index file as it is (a hard link: nothing copied, nothing
    changed; a copy where links cannot be made), to put it back if the commit it is replaced for
    is not made; None when there is no index file yet."""
    aside = own_name(index, "vaultmem-was")
    try:
        os.link(index, aside)
    except FileNotFoundError:
        return None
    except OSError:  # a file system without hard links (FAT, some network shares): a copy
        try:
            shutil.copy2(index, aside)
        except FileNotFoundError:
            return None
    return aside


def put_back(index: Path, was: Path | None) -> None:
    """The person's index as it was before :func:`set_aside` (none, if there was none)."""
    if was is None:
        index.unlink(missing_ok=True)
    else:
        was.replace(index)


def stamp(index: Path) -> tuple[int, int, int] | None:
    """Which version of git's index file this is: git writes a new file and renames it over
    the old one, so a write changes the inode."""
    try:
        status = index.stat()
    except FileNotFoundError:
        return None
    return status.st_ino, status.st_mtime_ns, status.st_size


@contextmanager
def hold_lock(index: Path, seconds: float) -> Iterator[bool]:
    """Hold git's own lock on its ``index`` (``index.lock``, made with ``O_EXCL`` as git makes
    it) for the block, waiting up to ``seconds`` for a git command that holds it; yields
    whether the lock was had in time. vaultmem's own lock says so in its first line and is
    flocked while held, so one a killed vaultmem left behind is known and removed
    (:func:`remove_if_left_by_a_dead_vaultmem`, adr/0017)."""
    lock = lock_path(index)
    deadline = time.monotonic() + seconds
    while True:
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY | NOFOLLOW, 0o644)
            break
        except FileExistsError:
            if remove_if_left_by_a_dead_vaultmem(lock):
                continue
            if time.monotonic() >= deadline:
                yield False
                return
            time.sleep(POLL_SECONDS)
    try:
        _mark_as_ours(descriptor, lock)
        yield True
    finally:
        try:
            _release_index_lock(lock, descriptor)
        finally:
            os.close(descriptor)  # after the removal: until then a reader finds it flocked, so held


def _release_index_lock(lock: Path, descriptor: int) -> None:
    """Remove the ``index.lock`` vaultmem holds (``descriptor``), only if its name still holds it.
    Git's advice for a lock it finds is "remove the file manually": a person who did so while
    vaultmem held it, and whose git command then made its own, had that live lock unlinked by
    vaultmem's release — and a second git command could then write the index beside the first."""
    with suppress(FileNotFoundError):  # removed by the person, and no lock made since: nothing of ours is left
        _take_away_if_still(lock, os.fstat(descriptor))


# The first line of an index.lock vaultmem made: git's own holds an index ("DIRC…") or nothing yet.
INDEX_LOCK_MARK = b"vaultmem commit lock: "


def _mark_as_ours(descriptor: int, lock: Path) -> None:
    """Flock the new ``index.lock``, then say whose it is: flocked first, so a reader that finds
    the mark finds the lock held while this process lives (and free once it is killed)."""
    if sys.platform == "win32":
        return  # no flock: a lock left there is never taken for a dead vaultmem's
    fcntl.flock(descriptor, fcntl.LOCK_EX)  # new and unknown to anyone else: taken at once
    mark = INDEX_LOCK_MARK + f"pid {os.getpid()} on {socket.gethostname()}\n".encode(errors="replace")
    try:
        os.write(descriptor, mark)
    except OSError as error:  # a full disk: os.write's error names no file
        raise OSError(error.errno, error.strerror, str(lock)) from None


def remove_if_left_by_a_dead_vaultmem(lock: Path) -> bool:
    """Remove ``lock`` if, and only if, it is certain that a vaultmem commit made it and was
    killed: it begins with :data:`INDEX_LOCK_MARK` naming this machine, its flock is free (the
    kernel releases it with the process that held it; a live vaultmem still holds it), and the
    name is still that file. True when it is gone (removed, or gone meanwhile): take it again.
    A git command's lock, an older vaultmem's (empty) or one of another machine's is never
    removed: the wait ends with :data:`_INDEX_BUSY`, which says how to check and remove it."""
    if sys.platform == "win32":
        return False
    try:
        # Read and write: an exclusive lock that NFS emulates with fcntl needs a writable descriptor.
        descriptor = open_plain_file(lock, os.O_RDWR)
    except FileNotFoundError:
        return True
    except OSError:
        return False  # a symlink, no permission: not known to be ours, so left to the person (_INDEX_BUSY)
    if descriptor is None:
        return False  # a FIFO (its read waited for ever) or a device: no lock of vaultmem's
    try:
        first = os.read(descriptor, 200)
        mine = INDEX_LOCK_MARK + b"pid "
        if not first.startswith(mine) or not first.rstrip(b"\n").endswith(f" on {socket.gethostname()}".encode(errors="replace")):
            return False
        if not _flock_free(descriptor):
            return False  # the vaultmem that made it is alive and holds it, or no flock answers here
        found, opened = os.stat(lock, follow_symlinks=False), os.fstat(descriptor)
        if (found.st_dev, found.st_ino) != (opened.st_dev, opened.st_ino):
            return True  # replaced meanwhile: not this file; take the new one's turn
        if not _take_away_if_still(lock, opened):
            return True  # a git command's new lock took its name meanwhile: left to it, take its turn
        log.warning("vaultmem: removed %s, left by a vaultmem commit that was killed (%s)", lock,
                    first[len(INDEX_LOCK_MARK):].decode(errors="replace").strip())
        return True
    except FileNotFoundError:
        return True
    finally:
        os.close(descriptor)


def _take_away_if_still(lock: Path, opened: os.stat_result) -> bool:
    """Remove ``lock`` if its name still holds the file ``opened``; put back whatever else it held.

    No system call removes a name only if it still holds a given file, so between the check and
    the removal the person can `rm` the left lock and a git command make its own: an unlink there
    removed git's live lock, vaultmem made its own, and git's rename of `index.lock` over the index
    then moved vaultmem's lock file there — a garbage index, the person's staged changes gone. The
    name is moved aside (one atomic rename) and looked at there: git's lock goes back under its name
    (a link, which never replaces a file), and git finishes unharmed. Left: git renaming its lock in
    the microseconds it is aside fails cleanly ("unable to write new index file"), and the lock put
    back is then a dead one the person removes (adr/0017)."""
    aside = own_name(lock, "vaultmem-left")
    os.rename(lock, aside)
    moved = os.stat(aside, follow_symlinks=False)
    if (moved.st_dev, moved.st_ino) == (opened.st_dev, opened.st_ino):
        aside.unlink()
        return True
    try:
        os.link(aside, lock, follow_symlinks=False)
        aside.unlink()
        return False
    except FileExistsError:
        pass
    except OSError:  # no hard links here: renamed back, unless a lock took the name meanwhile
        if not os.path.lexists(lock):
            os.rename(aside, lock)
            return False
    aside.unlink()
    log.warning("vaultmem: took a git command's %s aside for a left one of vaultmem's, and another took the name "
                "meanwhile; that git command will fail (\"unable to write new index file\"): run it again", lock)
    return False


def _flock_free(descriptor: int) -> bool:
    """Did an exclusive flock on ``descriptor`` succeed at once (it is then held)? A file system
    that answers no flock at all (an error other than "held") cannot say the holder is dead."""
    try:
        return try_lock(descriptor)
    except OSError as error:
        log.debug("vaultmem: no flock on git's index.lock (%s); it is left to the person", error)
        return False


def lock_path(index: Path) -> Path:
    return index.with_name(index.name + ".lock")
