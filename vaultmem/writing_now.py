"""Which notes a vaultmem write is indexing right now, so a reader elsewhere does not index them too.

A write holds the vault's write lock (gitops.commit_lock) from before it reads a note until the
index holds its change (unit_of_work.py). Meanwhile its files are on disk and other readers see
them changed: a recall in another process (or on another thread) used to read and embed the same
file itself, beside the writer — a trial's 5 MB note made a recall over MCP wait 23.9 s, and the
writer's own call took twice as long. The write now lists the paths it has changed in
``.vaultmem/writing`` (one line for the writer, then one JSON string per path, appended as it
records each change; flocked by the writer while it writes, so a reader knows a writer killed
mid-write by its lock being gone, not by its pid, which the system gives to other processes;
removed before the lock is let go). A reader that finds one of those paths
changed, and big (:data:`LEAVE_BYTES`), waits a little for the writer (:data:`WAIT_SECONDS`):
often the writer has indexed it by then, and nothing is read twice. Otherwise the reader answers from the index as it is and says
which notes are missing and who is indexing them; they stay owed to the next read.
See adr/0021-answers-true-to-the-files.md (addendum, stop 39).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from .lock_files import NOFOLLOW, locked_by_another, open_plain_file, process_running, take_lock

ANNOUNCEMENT = "writing"
# Only a file this big is left to its writer: reading and embedding it again costs about a second
# (wordllama, 2 busy cores: a 5.5 MB note ~16 s). A smaller one — every usual memory — the reader
# indexes itself at once, as before: twice the work is milliseconds, and the answer is whole at
# once, where waiting for a writer that is still loading its model took up to 2 s and then left
# the note out (a fresh `remember` process beside a recall: 3 of 6 missed, median 1.0 s).
LEAVE_BYTES = 256 * 1024
WAIT_SECONDS = 2.0  # a reader waits this long for a writer to index what it wrote (as for SQLite's lock: adr/0021)
POLL_SECONDS = 0.05
FILE_MODE = 0o644


@dataclass(frozen=True)
class Writer:
    """A write in progress: its process, its thread and the vault paths it has changed so far."""

    pid: int
    thread: int
    paths: frozenset[str]

    @property
    def is_this_thread(self) -> bool:
        return self.pid == os.getpid() and self.thread == threading.get_ident()

    @property
    def who(self) -> str:
        if self.pid == os.getpid():
            return "another thread of this process"
        return f"another vaultmem process (pid {self.pid})"


class Announcer:
    """The writer's side: appends each changed path to ``.vaultmem/writing``; :meth:`withdraw` removes it.

    Best effort: a folder that cannot be written (read-only, full) costs readers only the old
    behaviour — they index the file themselves — so a failure here never fails the write."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / ANNOUNCEMENT
        self._said: set[str] = set()
        self._descriptor: int | None = None

    def announce(self, paths: Collection[str]) -> None:
        new = [path for path in paths if path not in self._said]
        if not new:
            return
        try:
            if self._descriptor is None:
                self._descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | NOFOLLOW, FILE_MODE)
                # Locked before the first line is written, and held until withdraw (or the end of
                # this process, however it ends): a reader that finds the line and no lock knows
                # the writer is gone, whatever runs under its pid now (writer_now).
                take_lock(self._descriptor)
                os.write(self._descriptor, f"{os.getpid()} {threading.get_ident()}\n".encode())
            # One write per call, each line whole: a reader ignores a last line without its newline.
            os.write(self._descriptor, "".join(json.dumps(path) + "\n" for path in new).encode())
        except OSError:
            return
        self._said.update(new)

    def withdraw(self) -> None:
        if self._descriptor is None:
            return
        with contextlib.suppress(OSError):
            os.close(self._descriptor)
        self._descriptor = None
        with contextlib.suppress(FileNotFoundError, OSError):
            os.unlink(self.path)


def writer_now(state_dir: Path) -> Writer | None:
    """The write in progress elsewhere (another process, or another thread of this one), or None:
    none announced, the announcing writer is gone (done, or killed mid-write: its lock on the file
    went with it), or it is this thread."""
    try:
        descriptor = open_plain_file(state_dir / ANNOUNCEMENT, os.O_RDONLY)
        if descriptor is None:
            return None
        with os.fdopen(descriptor, "rb") as file:
            text = file.read().decode(errors="replace")
            locked = locked_by_another(file.fileno())
    except OSError:
        # None announced (the usual case: ENOENT), or unreadable: the reader indexes what changed
        # itself, as before this file existed — slower when a writer is at it, never wrong.
        return None
    head, _, rest = text.partition("\n")
    try:
        pid_text, thread_text = head.split(" ")
        writer = Writer(int(pid_text), int(thread_text), frozenset(_paths(rest)))
    except ValueError:
        return None  # being written this instant, or not ours: the reader indexes as before
    if writer.is_this_thread:
        return None
    if locked is False:
        # Its writer locked it before writing the line read, and the lock is gone: the write is
        # over, or its process was killed mid-write. Asked by its pid, a killed writer whose pid
        # the system had given to another process since was taken for a live one: every read
        # of a big note it named waited 2 s and said the note was still being indexed.
        return None
    if locked is None and writer.pid != os.getpid():  # no lock to ask (Windows, a file system without flock)
        if sys.platform == "win32":
            return None  # no safe way to ask whether it still runs (os.kill ends it there): index it here, as before
        if not process_running(writer.pid):
            return None  # killed mid-write: its file is left behind, and nobody is indexing what it names
    return writer


def _paths(lines: str) -> list[str]:
    whole = lines[: lines.rfind("\n") + 1]
    paths = []
    for line in whole.splitlines():
        path = json.loads(line)
        if isinstance(path, str):
            paths.append(path)
    return paths


def left_to_writer(state_dir: Path, changed: Mapping[str, int], indexed: Callable[[str], bool],
                   wait_seconds: float) -> tuple[list[str], Writer | None]:
    """Of the ``changed`` paths (with their sizes), those of :data:`LEAVE_BYTES` or more that a
    write elsewhere is indexing and has not indexed yet after waiting up to ``wait_seconds`` for
    it (``indexed(path)``: the index holds the file as it is now), and that writer. ``None`` for
    the writer when no big file changed, or no write elsewhere announced one (one failed
    ``open``); the empty list when it indexed them, or is done, meanwhile."""
    big = {path for path, size in changed.items() if size >= LEAVE_BYTES}
    if not big:
        return [], None
    writer = writer_now(state_dir)
    if writer is None or not writer.paths & big:
        return [], None
    deadline = time.monotonic() + wait_seconds
    while True:
        waiting = [path for path in sorted(big) if path in writer.paths and not indexed(path)]
        if not waiting or time.monotonic() >= deadline:
            return waiting, writer
        time.sleep(POLL_SECONDS)
        still = writer_now(state_dir)
        if still is None or (still.pid, still.thread) != (writer.pid, writer.thread):
            return [], writer  # it is done (or died): what it did not index, the reader indexes
        writer = still


@dataclass(frozen=True)
class IndexedElsewhere:
    """A read answered without notes a vaultmem write elsewhere is still indexing (its warning)."""

    paths: tuple[str, ...]
    who: str

    def __str__(self) -> str:
        named = ", ".join(self.paths[:5]) + (f" and {len(self.paths) - 5} more" if len(self.paths) > 5 else "")
        return (f"{named} {'was' if len(self.paths) == 1 else 'were'} written a moment ago by {self.who}, which is "
                f"still indexing {'it' if len(self.paths) == 1 else 'them'}: this answer does not include "
                f"{'it' if len(self.paths) == 1 else 'them'} yet — ask again in a few seconds")
