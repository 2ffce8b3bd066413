"""Live indexing: the derived index follows the vault while people edit it.

A :class:`Watcher` is a :class:`~vaultmem.feed.ChangeFeed` (an observer turning events
into targets held per path by a debouncer) with one worker thread, the only writer of
this watcher: it re-stats the quiet paths and hands them to ``Indexer.sync_paths`` in one
batch (so the old and the new path of a move meet there and the note keeps its row,
vector and usage history), and lets the vector index fold its delta (a no-op until the
delta is large).

Events can be lost — an inotify queue overflow, which watchdog only logs, so a logging
hook catches it — and so the worker also rescans the whole vault after an overflow, after
a failed batch and every ``rescan_seconds``. A damaged index the worker meets part-way is
healed as every read heals it (``heal``: set aside, rebuilt from the vault, which takes in
the changes held; adr/0022), and the worker goes on watching with the new one. On start the observer is running *before* the
first reconcile, so nothing edited meanwhile slips between the two. A change to a file that
holds the vault's exclusions (``.vaultmem.toml``, Obsidian's settings) is a rescan too: the
notes of a folder the person just excluded leave the index.

Readers need not wait for the debounce: a reader in this process settles the feed (a
fence, then what the watcher holds, applied on the reader's thread); a reader in another
process writes a fence file, which the worker answers by applying everything it holds and
deleting the file. A watcher whose events can be trusted says so by holding
``.vaultmem/watch.lock`` (fences.py). See adr/0008-live-indexing.md and
adr/0021-answers-true-to-the-files.md.
"""

from __future__ import annotations

import functools
import logging
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import FrameType
from typing import TYPE_CHECKING

from .errors import IndexDamaged, Spelled, VaultmemError
from .feed import BULK_PATHS, ChangeFeed, Settled, Target, WatchError, expand_targets
from .fences import WatchLock, remove_fence, remove_stale_fences, untrusted_file_system
from .index_progress import IndexBuilding
from .paths import VaultPaths

if TYPE_CHECKING:
    from .config import WatchSettings
    from .indexer import Indexer, IndexReport
    from .notes import Problem
    from .storage import FileState

__all__ = ["Change", "FolderMove", "WatchError", "Watcher", "changes_of", "folder_moves"]

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 1.0
REOPEN_QUIET_SECONDS = 1.0  # at least; see Watcher.index_gone
STOP_POLL_SECONDS = 0.2
# A reconcile with this many notes to read says how far it is, at start and then every
# LOG_PROGRESS_SECONDS: a first index of a vault of 2,000 notes ran 23–40 s, and the log of
# `watch` and of the MCP server (whose first call waits for it) said nothing until the end.
LOG_PROGRESS_MIN_NOTES = 500
LOG_PROGRESS_SECONDS = 10.0


# ------------------------------------------------------------------ what the watcher reports


@dataclass(frozen=True)
class Change:
    """One change applied to the index: ``added``, ``updated``, ``removed`` or ``moved``."""

    kind: str
    path: str
    old_path: str | None = None
    problems: tuple[Problem, ...] = ()
    # A ``removed`` note whose file is still there, and why it left the index: "removed
    # Clippings/x.md" after a person added Clippings/ to Obsidian's Excluded files read as if
    # vaultmem had deleted their file (a person's trial, s34).
    kept_file: str | None = None
    # Indexed by another process (a `vaultmem remember`, a second watcher) before this watcher
    # looked: its event was a change, and without this it was never said (_Seen).
    by_another: bool = False

    @property
    def issues(self) -> str:
        """Its problems as its line says them ("field: message; …"), empty without any."""
        return "; ".join(f"{problem.field}: {problem.message}" for problem in self.problems)

    def __str__(self) -> str:
        where = f"{self.old_path} -> {self.path}" if self.old_path else self.path
        issues = self.issues
        kept = f" from the index (the file is still there: {self.kept_file})" if self.kept_file else ""
        other = " (by another vaultmem process, which indexed it first)" if self.by_another else ""
        return f"{self.kind} {where}{kept}{other}" + (f"  ! {issues}" if issues else "")


def why_left_out(paths: VaultPaths, change: Change) -> Change:
    """``change``, saying why a removed note's file, still in the vault, is no longer a note."""
    if change.kind != "removed" or not paths.absolute(change.path).is_file():
        return change
    rule = paths.exclusion_rule(change.path)
    return replace(change, kept_file=f"excluded by {rule}" if rule is not None else "it is no longer read as a note")


def changes_of(report: IndexReport) -> list[Change]:
    """One :class:`Change` per note the report touched, with that note's problems."""
    problems: dict[str, list[Problem]] = {}
    for problem in report.problems:
        problems.setdefault(problem.path, []).append(problem)

    def change(kind: str, path: str, old_path: str | None = None) -> Change:
        return Change(kind, path, old_path, tuple(problems.get(path, ())))

    return [
        *(change("added", path) for path in report.added),
        *(change("updated", path) for path in report.updated),
        *(change("moved", new, old) for old, new in report.moved),
        *(change("removed", path) for path in report.removed),
    ]


# A note this process has just reported changed: its content hash is what the index holds the
# next time the watcher looks at it (a reader's publish cannot ask the worker's connection).
_REPORTED = ""


class _Seen:
    """What each note's content was (its hash in the index) when this watcher last told of it.

    A change another process indexed first — a ``vaultmem remember`` writes its note and indexes
    it in one go, then the watcher's event finds the index current — leaves no trace in this
    watcher's report: ``watch`` logged such writes only when it won the race (a trial, s37). The
    watcher compares the index with what it last saw for the paths it applies (and for every
    note at a whole rescan), and says the difference once. Thread-safe: a reader that settles
    publishes from its own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hashes: dict[str, str] = {}

    def reset(self, states: Mapping[str, FileState]) -> None:
        with self._lock:
            self._hashes = {path: state.content_hash for path, state in states.items()}

    def reported(self, changes: Iterable[Change]) -> None:
        """Changes this process told of: their new content is known, a removed note gone."""
        with self._lock:
            for change in changes:
                if change.old_path is not None:
                    self._hashes.pop(change.old_path, None)
                if change.kind == "removed":
                    self._hashes.pop(change.path, None)
                else:
                    self._hashes[change.path] = _REPORTED

    def unseen(self, states: Mapping[str, FileState | None], told: set[str]) -> list[Change]:
        """The changes in ``states`` (path → the index's state now, None: not in it) that this
        watcher has not told of, other than ``told``'s; each is then seen."""
        found: list[Change] = []
        with self._lock:
            for path, state in sorted(states.items()):
                now = None if state is None else state.content_hash
                before = self._hashes.pop(path, None)
                if now is not None:
                    self._hashes[path] = now
                if path not in told and before not in (_REPORTED, now):
                    kind = "added" if before is None else "removed" if now is None else "updated"
                    found.append(Change(kind, path, by_another=True))
        return found

    def paths(self) -> set[str]:
        with self._lock:
            return set(self._hashes)


@dataclass(frozen=True)
class FolderMove:
    """The notes of one folder moved together (``old`` and ``new`` end in ``/``): what a person
    who moved the folder did, told in one line instead of one per note; ``problems``: how many
    of them have problems, ``first_problem`` the first of those, said as its own line said it."""

    old: str
    new: str
    notes: int
    problems: int = 0
    first_problem: str = ""

    def __str__(self) -> str:
        told = f"moved folder {self.old} -> {self.new} ({self.notes} notes)"
        if self.problems:
            told += f"  ! {self.problems} of them with problems, the first: {self.first_problem}; `vaultmem check` lists them all"
        return told


def folder_moves(changes: Sequence[Change], folder_exists: Callable[[str], bool]) -> list[Change | FolderMove]:
    """``changes`` as a person would tell them: the moves of one batch that carry two or more
    notes out of one folder that is gone now (``folder_exists`` of its vault-relative path is
    false) into another, under the same names below it, as one :class:`FolderMove` where the
    first of them was (their problems counted in it, the first one said); every other change as
    it is. Without it, ``vaultmem watch`` printed 312 lines for one folder dragged in Obsidian —
    and a line per note again when the notes had a problem (a folder of L3 notes without
    ``expires_at``). Two notes dragged one by one out of a folder that stays are two moves, not a
    folder's."""
    exists = functools.cache(folder_exists)
    moved = {index: folders for index, change in enumerate(changes) if (folders := _moved_folder(change, exists)) is not None}
    members: dict[tuple[str, str], list[Change]] = {}
    for index, folders in moved.items():
        members.setdefault(folders, []).append(changes[index])
    told: list[Change | FolderMove] = []
    done: set[tuple[str, str]] = set()
    for index, change in enumerate(changes):
        folders = moved.get(index)
        if folders is None or len(members[folders]) < 2:
            told.append(change)
        elif folders not in done:
            done.add(folders)
            told.append(_folder_move(folders, members[folders]))
    return told


def _folder_move(folders: tuple[str, str], moves: Sequence[Change]) -> FolderMove:
    troubled = [move for move in moves if move.problems]
    first = troubled[0] if troubled else None
    first_problem = "" if first is None else f"{first.path} {first.issues}"
    return FolderMove(*folders, len(moves), len(troubled), first_problem)


def _moved_folder(change: Change, folder_exists: Callable[[str], bool]) -> tuple[str, str] | None:
    """(old folder, new folder) of a move that kept the note's name and the folders under the
    moved one: the highest old folder on the way that is gone (``a/old/sub/n.md ->
    a/new/sub/n.md``, ``a/old`` gone: ``a/old/``, ``a/new/``; only ``a/old/sub`` moved, to
    ``a/new/sub``: ``a/old/sub/``, ``a/new/sub/``). None for another change, a renamed note, a
    move to or from the vault's top, or a move out of a folder that is still there."""
    if change.kind != "moved" or change.old_path is None:
        return None
    old, new = change.old_path.split("/"), change.path.split("/")
    found = None
    kept = 1
    while kept < min(len(old), len(new)) and old[-kept] == new[-kept] and not folder_exists("/".join(old[:-kept])):
        found = "/".join(old[:-kept]) + "/", "/".join(new[:-kept]) + "/"
        kept += 1
    return found


def _why_reconciled(indexer: Indexer) -> str:
    """Why a long reconcile reads what it reads, asked as it starts: a first index (no row yet),
    an index another version made (its rules not recorded yet), or nothing to say (a branch
    switch, a copied folder). Was: "a first index" whenever every note was to be read — a
    watch started after an upgrade said so of a re-read."""
    from .searchable import INDEX_RULES
    from .storage import READER_KEY

    if indexer.store.notes.count() == 0:
        return "a first index of a large vault takes a while"
    if indexer.store.meta.get(READER_KEY) != INDEX_RULES:
        return "every note read again: the index was made by another version of vaultmem"
    return ""


class _ReconcileTold:
    """The log lines of a long reconcile: its size at once, then how far it is now and then."""

    def __init__(self, todo: int, total: int, why: str = "") -> None:
        self.todo = todo
        self.done = 0
        self.told_at = time.monotonic()
        log.info("indexing %s of %s notes%s", f"{todo:,}", f"{total:,}", f" ({why})" if why else "")

    def advance(self, done: int) -> None:
        self.done += done
        if self.done < self.todo and time.monotonic() - self.told_at >= LOG_PROGRESS_SECONDS:
            self.told_at = time.monotonic()
            log.info("indexed %s of %s notes", f"{self.done:,}", f"{self.todo:,}")


class _StopRequested(Exception):
    """Raised between reconcile chunks when the watcher is stopping (each chunk is committed)."""



@dataclass
class _Work:
    """One turn of the worker: targets that fell due, and what else is owed."""

    targets: list[Target] = field(default_factory=list)
    rescan: bool = False
    reopen: bool = False
    fences: list[str] = field(default_factory=list)  # other processes' fences, answered after this turn
    settled: Settled | None = None  # the targets booked as in flight


# ------------------------------------------------------------------ the watcher


class Watcher(ChangeFeed):
    """Keeps one vault's index live: an observer, a debouncer and one writer thread.

    ``indexer``, ``fold``, ``release`` and ``heal`` are called from the worker thread, so it
    opens (and at the end closes) its own SQLite connection — connections are per thread.
    ``heal(error)`` heals the index when ``error`` reports it damaged and says whether it did
    (``DerivedIndex.heal_if_damaged``). Use it as a context manager or call :meth:`start`
    and :meth:`stop`.
    """

    def __init__(
        self,
        paths: VaultPaths,
        settings: WatchSettings,
        *,
        indexer: Callable[[], Indexer],
        fold: Callable[[], object],
        release: Callable[[], None] = lambda: None,
        heal: Callable[[BaseException], bool] = lambda error: False,
        polling: bool = False,
        log_changes: bool = False,
        on_change: Callable[[Change], None] | None = None,
        on_changes: Callable[[list[Change]], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(paths, settings, polling=polling, clock=clock)
        self._open_indexer = indexer
        self._fold = fold
        self._release = release
        self._heal = heal
        self._log_changes = log_changes
        self._on_change = on_change
        self._on_changes = on_changes
        self._walk_every = float("inf")  # the worker rescans on its own schedule; readers need not
        self._rescan_at = float("inf")
        self._reopen_at = float("inf")
        self._moved_to: str | None = None  # where .vaultmem/ went, when it was moved inside the vault
        self._retry_seconds = RETRY_FIRST_SECONDS
        self._ready = threading.Event()
        self._done = threading.Event()
        self._worker: threading.Thread | None = None
        self._indexer: Indexer | None = None
        self._fences: list[str] = []
        self._watch_lock = WatchLock(self.state_dir)
        self.initial_report: IndexReport | None = None
        self._seen = _Seen()
        # How far the start-up reconcile is (replaced whole, never changed in place: read by
        # other threads): reads in this process answer meanwhile and say it (building()).
        self._startup = IndexBuilding(str(paths.root), None, 0, None, 0.0)
        self._startup_began = clock()

    # -- lifecycle

    def __enter__(self) -> Watcher:
        if self._worker is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._worker is not None and not self._done.is_set()

    @property
    def live(self) -> bool:
        """Done with its start-up reconcile and still watching: readers may settle it."""
        return super().live and self._ready.is_set() and self.running

    def start(self, wait: bool = True) -> Watcher:
        """Start observing, then reconcile; ``wait``: return once the reconcile is done."""
        if self._worker is not None:
            raise WatchError(f"this watcher of {self.paths.root} was already started; create a new one with Vault.watch()")
        super().start()  # before the reconcile: no edit slips between
        self._startup_began = self._clock()
        self._worker = threading.Thread(target=self._work, name="vaultmem-watch", daemon=True)
        self._worker.start()
        if wait:
            self.wait_ready()
        return self

    @property
    def ready(self) -> threading.Event:
        """Set once the start-up reconcile is done, or failed (:attr:`error`)."""
        return self._ready

    def building(self) -> IndexBuilding | None:
        """How far the start-up reconcile is while it runs; None before the start and once it
        is done or failed (a failure is :meth:`raise_if_failed`'s to say)."""
        if self._worker is None or self._ready.is_set():
            return None
        return replace(self._startup, seconds=self._clock() - self._startup_began)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the start-up reconcile is done; if the watcher failed, stop it and raise."""
        ready = self._ready.wait(timeout)
        if self.error is not None:
            self.stop()  # the observer's threads must not outlive the error
            self.raise_if_failed()
        return ready

    def stop(self, join: bool = True) -> None:
        """Stop observing and let the worker finish its batch; idempotent; ``join``: wait for every thread."""
        super().stop(join)
        worker = self._worker
        if join and worker is not None and worker is not threading.current_thread():
            worker.join()

    def raise_if_failed(self) -> None:
        if self.error is not None:
            # The cause in its parts: over MCP its advice names what the agent can do.
            cause = self.error.parts if isinstance(self.error, VaultmemError) and self.error.parts else (str(self.error),)
            raise WatchError(Spelled(f"watching {self.paths.root} stopped: ", *cause)) from self.error

    def run_until_signalled(self, on_ready: Callable[[Watcher], None] | None = None) -> None:
        """Run in the foreground until SIGINT or SIGTERM, then stop cleanly (call from the main thread).

        Raises :class:`WatchError` if the watcher failed instead of being stopped.
        """
        signalled = threading.Event()
        previous = _stop_on_signals(signalled)
        try:
            if self._worker is None:
                self.start(wait=False)
            if self._wait_for(self._ready, signalled) and self.error is None and on_ready is not None:
                on_ready(self)
            self._wait_for(self._done, signalled)
        finally:
            self.stop()
            _restore_signals(previous)
        self.raise_if_failed()

    def _wait_for(self, event: threading.Event, signalled: threading.Event) -> bool:
        """Wait for ``event`` unless a signal comes first (short waits keep signals prompt)."""
        while not signalled.is_set():
            if event.wait(STOP_POLL_SECONDS):
                return True
        return False

    # -- called from watchdog's thread (and by anyone who knows events were lost)

    def enqueue(self, targets: Sequence[Target]) -> None:
        """Hold these targets until they are quiet (called from watchdog's thread)."""
        with self._cond:
            was_idle = not self._debouncer
            now = self._clock()
            for target in targets:
                self._debouncer.add(target, now)
            if self._reopen_at != float("inf"):
                self._reopen_at = max(self._reopen_at, now + self._reopen_quiet())
            # A new key is never due before the keys already held: only an idle worker needs waking.
            if was_idle:
                self._cond.notify_all()

    def fence_seen(self, name: str) -> None:
        """A fence: this process's reader is told directly; another process's is the worker's to answer."""
        with self._cond:
            waiter = self._waiters.get(name)
            if waiter is None and self._watch_lock.held:
                self._fences.append(name)
                self._cond.notify_all()
        if waiter is not None:
            waiter.set()

    def request_rescan(self, delay: float | None = None) -> None:
        """Reconcile the whole vault soon (events were lost); the default waits one debounce."""
        with self._cond:
            wait = self._debouncer.delay if delay is None else delay
            self._rescan_at = min(self._rescan_at, self._clock() + wait)
            self._cond.notify_all()

    def settings_changed(self) -> None:
        """The vault's exclusions or daily-note format may have changed (exclusions.py,
        daily_format.py): the rescan reads them again, drops the notes now excluded, adds those
        no longer excluded and dates again the notes another format dates otherwise."""
        self.request_rescan()

    def _events_lost(self) -> None:
        log.warning("file events were lost (inotify queue overflow); rescanning %s", self.paths.root)
        self.lose()
        self.request_rescan()

    def index_gone(self, moved_to: str | None = None) -> None:
        """``.vaultmem/`` was deleted (or moved: to ``moved_to`` inside the vault; a move out of
        it reads as a deletion): build a new index rather than feed the deleted file.

        Only once the vault has been quiet for a moment: when the whole vault is being
        deleted (``rm -rf``), recreating ``.vaultmem/`` inside it would make that fail;
        the root's own deletion then stops the watcher first.
        """
        gone = f"was moved to {moved_to}" if moved_to else "was deleted (or moved out of the vault)"
        log.warning("%s %s; building a new index once the vault is quiet", self.state_dir, gone)
        self.lose()
        with self._cond:
            self._moved_to = moved_to
            self._reopen_at = self._clock() + self._reopen_quiet()
            self._cond.notify_all()

    def _warn_of_usage_left_behind(self) -> None:
        """Say what the new index will not have: the usage history (``used``, ``stale``), the one
        state not derived from the files, whose backup (usage-backup.jsonl) was in the same folder.
        Was: the warning said only that a new index would be built, and ``stale`` answered from an
        empty history as if nothing had ever been used."""
        with self._cond:
            moved_to = self._moved_to
        if self._indexer is None:
            return  # never opened: no history read, none to tell of (the reconcile opens the new one)
        try:  # the deleted file stays readable through this connection until it is closed
            count: int | str = len(self._indexer.store.usage.all())
        except sqlite3.Error as error:
            count = f"an unknown number of notes (it could not be read: {error})"
        if count == 0:
            return  # nothing was ever marked used: nothing is lost
        notes = f"{count} note(s)" if isinstance(count, int) else count
        if moved_to:
            fix = (f"it is in {moved_to} (index.db and usage-backup.jsonl): to have it back, stop vaultmem, delete the "
                   f"new {self.state_dir} and move {moved_to} back in its place")
        else:
            fix = ("its backup, usage-backup.jsonl, was in the same folder; if the folder was moved, stop vaultmem, "
                   f"delete the new {self.state_dir} and move it back; if deleted, `vaultmem usage import FILE` "
                   "brings back an export you made with `vaultmem usage export`")
        log.warning("the new index starts without the usage history (used, stale) of %s: %s", notes, fix)

    def _reopen_quiet(self) -> float:
        return max(REOPEN_QUIET_SECONDS, 3 * self._debouncer.delay)

    def publish(self, report: IndexReport, others: Sequence[Change] = ()) -> None:
        """Changes applied to the index (by the worker, or by a reader that settled), and
        ``others``, those another process applied first (:class:`_Seen`): log and tell."""
        changes = [why_left_out(self.paths, change) for change in changes_of(report)]
        self._seen.reported(changes)
        changes.extend(why_left_out(self.paths, change) for change in others)
        for change in changes:
            if self._log_changes:
                log.info("%s", change)
            if self._on_change is not None:
                self._on_change(change)
        if self._on_changes is not None and changes:
            self._on_changes(changes)

    # -- the worker thread: the only writer

    def _work(self) -> None:
        try:
            generation = self._lost
            self.initial_report = self._first_reconcile()
            self._seen.reset(self._require_indexer().store.notes.file_states())
            self._walked(generation)
            self._schedule_periodic_rescan()
            self._advertise()
            self._ready.set()
            while self._step():
                pass
        except _StopRequested:
            log.debug("stopped during a reconcile; every committed chunk stands, the next start finishes it")
        except Exception as error:  # the worker must not die unseen: record it for stop()/run_until_signalled()
            log.error("watching %s failed: %s", self.paths.root, error, exc_info=not isinstance(error, VaultmemError))
            self.error = error
        finally:
            self._watch_lock.release()
            self._ready.set()
            self._release()
            self._done.set()

    def _advertise(self) -> None:
        """Hold the watch lock, so other processes fence instead of walking — if our events can be trusted."""
        if self.polling:
            return  # a poll sees changes late and in no guaranteed order: a fence proves nothing
        remote = untrusted_file_system(self.paths.root)
        if remote is not None:
            log.warning("%s is on %s: edits made by other machines are not reported to this one, so readers "
                        "keep walking the vault; `vaultmem watch --polling` sees them", self.paths.root, remote)
            return
        remove_stale_fences(self.state_dir)
        self._watch_lock.acquire()

    def _step(self) -> bool:
        work = self._next_work()
        if work is None:
            return False
        applied = True
        if work.reopen:
            applied = self._guarded(self._reopen_index, "building a new index")
        elif work.rescan:
            applied = self._guarded(self._rescan, "rescanning the vault")
        if work.targets:
            # Answering a reader's fence, nothing is left to a writer: the reader would answer without it, unwarned.
            applied = self._guarded(lambda: self._apply(work.targets, leave_to_writer=not work.fences),
                                    f"indexing {len(work.targets)} changed path(s)") and applied
        if work.settled is not None:
            self.finish(work.settled, applied)
        if applied:
            for name in work.fences:
                remove_fence(self.state_dir, name)  # the answer: everything before it is in the index
        return True

    def _next_work(self) -> _Work | None:
        """Wait until some paths are quiet, a fence came, a rescan is due or the index must be reopened.

        Returns ``None`` when stopping.
        """
        with self._cond:
            while not self._stopping.is_set():
                now = self._clock()
                if self._reopen_at != float("inf"):
                    # The index folder is gone: nothing is written until the new one is
                    # built, which reconciles everything held meanwhile anyway.
                    if self._reopen_at <= now:
                        self._reopen_at = float("inf")
                        self._schedule_periodic_rescan(now)
                        return self._booked(_Work(reopen=True))
                    self._cond.wait(self._reopen_at - now)
                    continue
                if self._fences:
                    # Another process waits: everything held goes now, quiet or not, and a
                    # loss of events is healed first (a fence must not be answered from a partial view).
                    fences, self._fences = self._fences, []
                    return self._booked(_Work(sorted(self._debouncer.pop_all()), rescan=self._lost > self._healed, fences=fences))
                due = self._debouncer.pop_due(now)
                rescan = self._rescan_at <= now
                if due or rescan:
                    if rescan:
                        self._schedule_periodic_rescan(now)
                    return self._booked(_Work(sorted(due), rescan=rescan))
                self._cond.wait(self._seconds_to_next_work(now))
            return None

    def _booked(self, work: _Work) -> _Work:
        """Book the work's targets as in flight while the lock is still held: a reader that
        settles before they are committed must apply them too, not find them gone."""
        work.settled = self._take(lambda: work.targets)
        return work

    def _seconds_to_next_work(self, now: float) -> float:
        deadline = min(self._debouncer.next_deadline() or float("inf"), self._rescan_at)
        return max(0.0, deadline - now)

    def _schedule_periodic_rescan(self, now: float | None = None) -> None:
        """The next periodic rescan; a rescan requested meanwhile (an overflow) stays earlier."""
        with self._cond:
            periodic = (self._clock() if now is None else now) + self.settings.rescan_seconds
            self._rescan_at = periodic if now is not None else min(self._rescan_at, periodic)

    def _guarded(self, action: Callable[[], None], what: str) -> bool:
        """Run one unit of work. A damaged index is healed, and the work with it; a failure
        that may pass (the heal's too) is logged and made good by a later rescan."""
        try:
            try:
                action()
            except (sqlite3.DatabaseError, IndexDamaged) as error:
                if not self._heal_damage(error):
                    raise  # an OperationalError passes below; any other is a bug and stops the worker
        except (VaultmemError, sqlite3.OperationalError, OSError) as error:
            delay = self._retry_seconds
            self._retry_seconds = min(2 * delay, self.settings.rescan_seconds)
            log.error("%s in %s failed: %s; rescanning in %.0f s", what, self.paths.root, error, delay)
            with self._cond:
                self._rescan_at = min(self._rescan_at, self._clock() + delay)
            return False
        self._retry_seconds = RETRY_FIRST_SECONDS
        return True

    def _heal_damage(self, error: BaseException) -> bool:
        """A damaged index met part-way: set aside and rebuilt from the vault — every change
        this watcher holds or was applying included — then watched on (adr/0022). Whether
        ``error`` was such damage."""
        generation = self._lost
        if not self._heal(error):
            return False
        self._indexer = None  # it wrote to the damaged file: the next use opens the new one
        self._walked(generation)  # the rebuild reconciled the whole vault
        return True

    # -- applying changes

    def _apply(self, targets: Sequence[Target], leave_to_writer: bool = False) -> None:
        relatives = expand_targets(self.paths, targets, lambda: self._require_indexer().store.notes.file_states())
        if len(relatives) > BULK_PATHS:
            report = self._reconcile()
            self.publish(report, self._others(report))
            return
        # A file a vaultmem write (another process, or this one's) is indexing is left to it and
        # looked at again after the debounce: read and embedded here too, a 5 MB note cost both
        # processes' recalls and the write itself the embedding twice over (writing_now.py).
        report = self._require_indexer().sync_paths(relatives, 0.0 if leave_to_writer else None)
        if report.elsewhere:
            self.enqueue([Target(path) for path in report.elsewhere])
        self._fold()
        notes = self._require_indexer().store.notes
        self.publish(report, self._seen.unseen({path: notes.file_state(path) for path in relatives}, _told(report)))

    def _rescan(self) -> None:
        generation = self._lost
        report = self._reconcile()
        self._walked(generation)
        self.publish(report, self._others(report))

    def _others(self, report: IndexReport) -> list[Change]:
        """After a whole reconcile: every note another process changed since this watcher last looked."""
        states: dict[str, FileState | None] = dict(self._require_indexer().store.notes.file_states())
        for path in self._seen.paths() - set(states):
            states[path] = None
        return self._seen.unseen(states, _told(report))

    def _walked(self, generation: int) -> None:
        """A whole reconcile that began at loss ``generation`` is committed: it covers those losses."""
        with self._cond:
            self._healed = max(self._healed, generation)
            self._walked_at = self._clock()

    def _reopen_index(self) -> None:
        """Close the connection to the deleted database file and index into a new one."""
        self._warn_of_usage_left_behind()
        self._indexer = None
        self._watch_lock.release()  # its file went with the folder
        self._release()
        if not self.paths.root.is_dir():
            return  # the vault itself went: its deletion event stops the watcher
        self._rescan()
        self._advertise()

    def _first_reconcile(self) -> IndexReport:
        """The start-up reconcile; damage met part-way is healed and the reconcile run on the
        new index (it finds it in line: the heal indexed the vault)."""
        try:
            return self._reconcile()
        except (sqlite3.DatabaseError, IndexDamaged) as error:
            if not self._heal_damage(error):
                raise
        return self._reconcile()

    def _reconcile(self) -> IndexReport:
        report = self._require_indexer().reconcile(progress=self._between_chunks)
        self._fold()  # also publishes a snapshot a killed `index` never got to write
        return report

    def _between_chunks(self, todo: int, total: int) -> Callable[[int], None]:
        """Between two chunks of a reconcile: stop if asked to; on a long one, log how far it is."""
        told = _ReconcileTold(todo, total, _why_reconciled(self._require_indexer())) if todo >= LOG_PROGRESS_MIN_NOTES else None
        starting = not self._ready.is_set()
        if starting:
            self._startup = replace(self._startup, todo=todo, done=0, total=total)

        def tick(done: int) -> None:
            if self._stopping.is_set():
                raise _StopRequested
            if told is not None:
                told.advance(done)
            if starting:
                self._startup = replace(self._startup, done=self._startup.done + done)

        return tick

    def _require_indexer(self) -> Indexer:
        """This thread's indexer, opened on first use (and again after ``_reopen_index``)."""
        if self._indexer is None:
            self._indexer = self._open_indexer()
        return self._indexer


# ------------------------------------------------------------------ signals (foreground use)

_SignalHandler = Callable[[int, FrameType | None], object] | int | None


def _told(report: IndexReport) -> set[str]:
    """The paths ``report`` tells of itself."""
    return {*report.added, *report.updated, *report.removed, *(path for pair in report.moved for path in pair)}


def _stop_on_signals(signalled: threading.Event) -> dict[int, _SignalHandler]:
    """SIGINT and SIGTERM set ``signalled`` instead of raising in whatever code runs."""

    def handler(signum: int, frame: FrameType | None) -> None:
        signalled.set()

    previous: dict[int, _SignalHandler] = {}
    for signum in _stop_signals():
        previous[signum] = signal.signal(signum, handler)
    return previous


def _restore_signals(previous: dict[int, _SignalHandler]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def _stop_signals() -> Iterable[int]:
    return (signal.SIGINT, signal.SIGTERM)

