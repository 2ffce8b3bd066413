"""What vaultmem's commits set in the person's git index, kept to be checked by the next commit
(adr/0017, addendum "A failed `git commit` writes back an older index").

A ``git commit`` reads git's index before it takes ``index.lock``, and writes what it read back
(refreshed) without looking whether the index changed meanwhile. When vaultmem commits between
the two, the person's commit fails ("cannot lock ref 'HEAD'": vaultmem moved HEAD) but its write
stays: the index holds vaultmem's paths as they were before vaultmem's commit, and the person's
next commit undoes that commit (a remembered note recorded deleted). The write comes after
vaultmem's commit is over, so only a later commit can see it: each commit records here, per
path, the entry it replaced in the person's index and the one it set, and when; the next commit
sets a path back where the index holds the replaced entry again, HEAD still the one committed,
and the index was written within :data:`STALE_INDEX_SECONDS` after (gitops).

The file (``.vaultmem/git-index-checks.json``) is derived state of the moment: losing it loses
only the checks of the commits it named, and one that cannot be read is said and started anew.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import state_json

FILE_NAME = "git-index-checks.json"
# How long after vaultmem's commit git's index may be written by a command that read it before:
# a `git commit` writes it right after it takes the lock, a moment after reading it (the time
# git takes to look at every file of the vault: milliseconds, a second on a huge one). A write
# later than this is the person's own (a `git rm --cached`), and is only said, never undone.
STALE_INDEX_SECONDS = 5.0
# How much earlier than the commit's own clock reading an index written after it may say it was
# written: file systems keep coarse times (FAT: 2 s; ext4 and tmpfs: the kernel's tick). Earlier
# than that, the clock was set back since (NTP, a resumed virtual machine), and the write is not
# known to be git's.
CLOCK_SLACK_SECONDS = 2.0
KEPT = 16  # commits whose checks are still open at once: a write comes within the seconds above

log = logging.getLogger("vaultmem")

Entry = str | None  # "MODE BLOB" of an index entry; None: no entry at that path


@dataclass(frozen=True)
class IndexSet:
    """One commit's change to the person's index: ``paths`` maps a path (from the repository's
    top) to (the entry it replaced, the entry it set); ``at_ns`` is when (``time.time_ns()``), and
    ``inode`` the index file it left."""

    commit: str
    at_ns: int
    inode: int
    paths: Mapping[str, tuple[Entry, Entry]]

    def as_json(self) -> dict[str, object]:
        return {"commit": self.commit, "at_ns": self.at_ns, "inode": self.inode,
                "paths": {path: list(pair) for path, pair in self.paths.items()}}

    def open_at(self, now_ns: int) -> bool:
        """Whether a stale write of the index may still come (its window is not over). A check
        made "later" than now is of a clock set back since: how long ago it was made is not
        known, so it is closed (its window would have stayed open for as long as the clock went back)."""
        return self._in_window(now_ns)

    def written_in_window(self, inode: int, mtime_ns: int) -> bool:
        """Whether the index file (``inode``, written at ``mtime_ns``) is another than the one this
        commit left, written within its window: a command that read the index before it. Both
        ends count: with no start, a clock set back an hour after the commit took every index
        written in that hour — a person's ``git rm --cached`` of the note — for git's stale write,
        and staged the note again."""
        return inode != self.inode and self._in_window(mtime_ns)

    def _in_window(self, instant_ns: int) -> bool:
        return (self.at_ns - int(CLOCK_SLACK_SECONDS * 1e9) <= instant_ns
                <= self.at_ns + int(STALE_INDEX_SECONDS * 1e9))


def load(lock_dir: Path) -> list[IndexSet]:
    """The checks still open; none when there is no file. A file that cannot be read, or holds
    anything but what :func:`save` writes (a hand edit, a torn disk), is said (the checks it held
    are lost, not the person's work) and taken as none: its paths and entries go to git and into
    the person's index, so nothing in it is used unless all of it is as vaultmem writes it."""
    path = lock_dir / FILE_NAME
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(records, list):
            raise ValueError(f"a {type(records).__name__}, not a list")
        return [_from_json(record) for record in records]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, RecursionError) as error:  # RecursionError: arrays nested thousands deep
        log.warning("vaultmem: could not read %s (%s); the check of git's index after vaultmem's earlier commits "
                    "starts anew: run `git status` to see that it holds no staged change you did not make", path, error)
        return []


_HEX = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")  # SHA-1 or SHA-256
_ENTRY = re.compile(r"[0-7]{6} [0-9a-f]{40}([0-9a-f]{24})?")  # "MODE BLOB", as ls-files --stage says it


def _from_json(record: object) -> IndexSet:
    """One record as :meth:`IndexSet.as_json` wrote it; ``ValueError`` naming what is not."""
    if not isinstance(record, dict) or set(record) != {"commit", "at_ns", "inode", "paths"}:
        raise ValueError(f"a record is not an object of commit, at_ns, inode and paths: {str(record)[:80]}")
    commit, at_ns, inode, paths = record["commit"], record["at_ns"], record["inode"], record["paths"]
    if not isinstance(commit, str) or not _HEX.fullmatch(commit):
        raise ValueError(f"commit {str(commit)[:80]!r} is not a commit id")
    if type(at_ns) is not int or type(inode) is not int:
        raise ValueError(f"at_ns {at_ns!r} or inode {inode!r} is not a whole number")
    if not isinstance(paths, dict):
        raise ValueError(f"paths is a {type(paths).__name__}, not an object")
    return IndexSet(commit, at_ns, inode, {_repository_path(path): _pair(pair) for path, pair in paths.items()})


def _repository_path(path: str) -> str:
    """A path from the repository's top, as git's index names one: git is asked about it, so one
    that leaves the repository (``../x``) or is absolute made the commit fail."""
    parts = path.split("/")
    if not path or path.startswith("/") or "\0" in path or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"path {path[:80]!r} is not a path within the repository")
    return path


def _pair(pair: object) -> tuple[Entry, Entry]:
    if not isinstance(pair, list) or len(pair) != 2:
        raise ValueError(f"{str(pair)[:80]} is not a pair of entries (the one replaced, the one set)")
    return _entry(pair[0]), _entry(pair[1])


def _entry(value: object) -> Entry:
    if value is None or (isinstance(value, str) and _ENTRY.fullmatch(value)):
        return value
    raise ValueError(f"entry {str(value)[:80]!r} is neither null nor \"MODE BLOB\"")


def save(lock_dir: Path, sets: Sequence[IndexSet]) -> None:
    """Write the checks still open (the newest :data:`KEPT`), atomically; no file when none."""
    state_json.save(lock_dir / FILE_NAME, [record.as_json() for record in sets[-KEPT:]])
