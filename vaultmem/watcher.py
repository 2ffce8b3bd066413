"""Live indexing: the derived index follows the vault while people edit it.

A watchdog observer (inotify on Linux; ``PollingObserver`` on request) turns file-system
events into :class:`Target` s — one note file, or everything under a folder — and a
per-path :class:`Debouncer` holds each one until it has been quiet for ``debounce_ms``.
One worker thread, the only writer of this watcher, then re-stats the quiet paths and
hands them to ``Indexer.sync_paths`` in one batch (so the old and the new path of a move
meet there and the note keeps its row, vector and usage history), and lets the vector
index fold its delta (a no-op until the delta is large).

Events can be lost — an inotify queue overflow, which watchdog only logs, so a logging
hook catches it — and so the worker also rescans the whole vault after an overflow, after
a failed batch and every ``rescan_seconds``. On start the observer is running *before* the
first reconcile, so nothing edited meanwhile slips between the two. A change to a file that
holds the vault's exclusions (``.vaultmem.toml``, Obsidian's settings) is a rescan too: the
notes of a folder the person just excluded leave the index.
See adr/0008-live-indexing.md.
"""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from watchdog.events import (
    EVENT_TYPE_ATTRIB,
    EVENT_TYPE_CLOSED,
    EVENT_TYPE_CREATED,
    EVENT_TYPE_DELETED,
    EVENT_TYPE_MODIFIED,
    EVENT_TYPE_MOVED,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from .config import CONFIG_FILE, STATE_DIR
from .errors import VaultmemError
from .exclusions import OBSIDIAN_SETTINGS
from .paths import VaultPaths

if TYPE_CHECKING:
    from .config import WatchSettings
    from .indexer import Indexer, IndexReport
    from .notes import Problem

log = logging.getLogger(__name__)

K = TypeVar("K")

# Only what can change a note. Leaving out "opened" and "closed_no_write" matters: the
# indexer's own reads would otherwise flood the inotify queue during a reconcile.
WATCHED_EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileAttribEvent,  # touch/chmod/utime: watchdog 7 reports them apart from "modified"
    FileClosedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]
_FILE_EVENTS = {EVENT_TYPE_CREATED, EVENT_TYPE_MODIFIED, EVENT_TYPE_ATTRIB, EVENT_TYPE_CLOSED, EVENT_TYPE_DELETED, EVENT_TYPE_MOVED}
_DIR_EVENTS = {EVENT_TYPE_CREATED, EVENT_TYPE_DELETED, EVENT_TYPE_MOVED}
BULK_PATHS = 512  # a batch this large (a branch switch, a copied folder) is cheaper as a chunked reconcile
POLL_INTERVAL_SECONDS = 1.0
RETRY_FIRST_SECONDS = 1.0
REOPEN_QUIET_SECONDS = 1.0  # at least; see Watcher.index_gone
STOP_POLL_SECONDS = 0.2


class WatchError(VaultmemError):
    """The watcher could not start or had to stop (the message says why and what to do)."""


# ------------------------------------------------------------------ what to re-sync


@dataclass(frozen=True, order=True)
class Target:
    """A vault-relative path to bring up to date: one note file, or a whole folder."""

    path: str
    is_dir: bool = False


def vault_relative(real_root: str, absolute: str) -> str | None:
    """``absolute`` as a vault-relative POSIX path; ``None`` for the root or outside it."""
    prefix = real_root.rstrip(os.sep) + os.sep
    if not absolute.startswith(prefix):
        return None  # the far side of a move out of the vault (polling observer), or the root itself
    return absolute[len(prefix):].replace(os.sep, "/")


def targets_for(event: FileSystemEvent, paths: VaultPaths) -> list[Target]:
    """The targets one watchdog event asks to re-sync (none for ignored or unrelated paths)."""
    kinds = _DIR_EVENTS if event.is_directory else _FILE_EVENTS
    if event.event_type not in kinds:
        return []  # a folder's "modified"/"attrib": its files report their own changes
    sides = [event.src_path, event.dest_path] if event.event_type == EVENT_TYPE_MOVED else [event.src_path]
    found: list[Target] = []
    for side in sides:
        relative = vault_relative(str(paths.real_root), os.fsdecode(side)) if side else None
        if relative is None:
            continue
        if event.is_directory and not paths.is_ignored_dir(relative):
            found.append(Target(relative, is_dir=True))
        elif not event.is_directory and paths.is_note_path(relative):
            found.append(Target(relative))
    return found


def notes_under(paths: VaultPaths, prefix: str) -> Iterator[str]:
    """Note files on disk below the folder ``prefix``, with the scan's ignore rules."""
    top = paths.absolute(prefix)
    for directory, subdirs, files in os.walk(top, onerror=_walk_error):
        relative_dir = vault_relative(str(paths.root), directory) or ""
        # Prune ignored folders before os.walk descends into them (.git can be huge).
        subdirs[:] = [name for name in subdirs if not paths.is_ignored_dir(f"{relative_dir}/{name}".lstrip("/"))]
        for name in files:
            relative = f"{relative_dir}/{name}".lstrip("/")
            if paths.is_note_path(relative):
                yield relative


def _walk_error(error: OSError) -> None:
    if isinstance(error, FileNotFoundError):
        return  # the folder moved on again before we looked: its own event covers it
    log.warning("cannot list %s (%s); notes in it are not indexed until it can be read", error.filename, error.strerror)


# ------------------------------------------------------------------ the debouncer


class Debouncer(Generic[K]):
    """Holds keys until each has been quiet for ``delay`` seconds (but never over ``max_wait``).

    Pure bookkeeping: the caller passes the clock, so it is tested without sleeping.
    When the first key falls due, keys due within ``coalesce`` seconds leave with it:
    the halves of a ``git checkout`` or of an editor's save (delete + create a few
    milliseconds apart) then land in one batch, where the indexer recognises a move.
    """

    def __init__(self, delay: float, max_wait: float | None = None, coalesce: float | None = None) -> None:
        self.delay = delay
        # A path written to without pause (a log appended every 100 ms) is still indexed.
        self.max_wait = max_wait if max_wait is not None else max(1.0, 10 * delay)
        self.coalesce = coalesce if coalesce is not None else delay / 2
        self._last: dict[K, float] = {}
        self._first: dict[K, float] = {}

    def __len__(self) -> int:
        return len(self._last)

    def add(self, key: K, now: float) -> None:
        self._last[key] = now
        self._first.setdefault(key, now)

    def deadline(self, key: K) -> float:
        return min(self._last[key] + self.delay, self._first[key] + self.max_wait)

    def next_deadline(self) -> float | None:
        return min((self.deadline(key) for key in self._last), default=None)

    def pop_due(self, now: float) -> list[K]:
        """The keys due at ``now`` (and those nearly due), removed; ``[]`` if none is due yet."""
        first = self.next_deadline()
        if first is None or first > now:
            return []
        due = [key for key in self._last if self.deadline(key) <= now + self.coalesce]
        for key in due:
            del self._last[key]
            del self._first[key]
        return due


# ------------------------------------------------------------------ what the watcher reports


@dataclass(frozen=True)
class Change:
    """One change applied to the index: ``added``, ``updated``, ``removed`` or ``moved``."""

    kind: str
    path: str
    old_path: str | None = None
    problems: tuple[Problem, ...] = ()

    def __str__(self) -> str:
        where = f"{self.old_path} -> {self.path}" if self.old_path else self.path
        issues = "; ".join(f"{problem.field}: {problem.message}" for problem in self.problems)
        return f"{self.kind} {where}" + (f"  ! {issues}" if issues else "")


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


# ------------------------------------------------------------------ watchdog plumbing


class _EventRouter(FileSystemEventHandler):
    """Runs in watchdog's dispatch thread: map the event to targets, queue them, return."""

    def __init__(self, paths: VaultPaths, watcher: Watcher) -> None:
        self.paths = paths
        self.watcher = watcher
        self.root = str(paths.real_root)
        self.state_dir = os.path.join(self.root, STATE_DIR)
        self.settings_files = {os.path.join(self.root, *name.split("/")) for name in (CONFIG_FILE, *OBSIDIAN_SETTINGS)}

    def on_any_event(self, event: FileSystemEvent) -> None:
        if not event.is_directory and self._touches_settings(event):
            # The vault's exclusions may have changed (exclusions.py): the rescan reads them
            # again, drops the notes now excluded and adds those no longer excluded.
            self.watcher.request_rescan()
        if event.event_type in (EVENT_TYPE_DELETED, EVENT_TYPE_MOVED):
            # inotify reports the vault root's own deletion without IN_ISDIR: a "file" event.
            if os.fsdecode(event.src_path) == self.root:
                self.watcher.root_gone()
                return
            if os.fsdecode(event.src_path) == self.state_dir and event.is_directory:
                self.watcher.index_gone()
                return
        targets = targets_for(event, self.paths)
        if targets:
            self.watcher.enqueue(targets)

    def _touches_settings(self, event: FileSystemEvent) -> bool:
        sides = [event.src_path, event.dest_path] if event.event_type == EVENT_TYPE_MOVED else [event.src_path]
        return any(os.fsdecode(side) in self.settings_files for side in sides if side)


class _OverflowHook(logging.Handler):
    """watchdog's only sign of an inotify queue overflow is a log warning: hear it.

    One handler for the process, shared by every running watcher; it sits on the
    ``watchdog.observers`` logger while at least one watcher listens.
    """

    LOGGER = "watchdog.observers"

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self._listeners: list[Callable[[], None]] = []
        self._listeners_lock = threading.Lock()
        self._previous_level: int | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" not in record.getMessage().lower():
            return
        with self._listeners_lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def subscribe(self, listener: Callable[[], None]) -> None:
        with self._listeners_lock:
            self._listeners.append(listener)
            if len(self._listeners) == 1:
                self._attach()

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        with self._listeners_lock:
            if listener in self._listeners:
                self._listeners.remove(listener)
                if not self._listeners:
                    self._detach()

    def _attach(self) -> None:
        logger = logging.getLogger(self.LOGGER)
        logger.addHandler(self)
        if not logger.isEnabledFor(logging.WARNING):
            # An application that silenced warnings would also silence the overflow,
            # and with it our only chance to rescan.
            self._previous_level = logger.level
            logger.setLevel(logging.WARNING)

    def _detach(self) -> None:
        logger = logging.getLogger(self.LOGGER)
        logger.removeHandler(self)
        if self._previous_level is not None:
            logger.setLevel(self._previous_level)
            self._previous_level = None


_overflow_hook = _OverflowHook()


class _StopRequested(Exception):
    """Raised between reconcile chunks when the watcher is stopping (each chunk is committed)."""


# ------------------------------------------------------------------ the watcher


class Watcher:
    """Keeps one vault's index live: an observer, a debouncer and one writer thread.

    ``indexer``, ``fold`` and ``release`` are called from the worker thread, so it
    opens (and at the end closes) its own SQLite connection — connections are per thread.
    Use it as a context manager or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        paths: VaultPaths,
        settings: WatchSettings,
        *,
        indexer: Callable[[], Indexer],
        fold: Callable[[], object],
        release: Callable[[], None] = lambda: None,
        polling: bool = False,
        log_changes: bool = False,
        on_change: Callable[[Change], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.paths = paths
        self.settings = settings
        self.polling = polling
        self._open_indexer = indexer
        self._fold = fold
        self._release = release
        self._log_changes = log_changes
        self._on_change = on_change
        self._clock = clock
        self._cond = threading.Condition()
        self._debouncer: Debouncer[Target] = Debouncer(settings.debounce_ms / 1000)
        self._rescan_at = float("inf")
        self._reopen_at = float("inf")
        self._retry_seconds = RETRY_FIRST_SECONDS
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self._done = threading.Event()
        self._observer: BaseObserver | None = None
        self._worker: threading.Thread | None = None
        self._indexer: Indexer | None = None
        self.initial_report: IndexReport | None = None
        self.error: BaseException | None = None

    # -- lifecycle

    def __enter__(self) -> Watcher:
        if self._worker is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def backend(self) -> str:
        """``inotify`` (or the platform's native API) or ``polling``."""
        # watchdog types Observer as a call protocol; it is the platform's observer class.
        return "polling" if self.polling else cast(type, Observer).__name__.removesuffix("Observer").lower()

    @property
    def running(self) -> bool:
        return self._worker is not None and not self._done.is_set()

    def start(self, wait: bool = True) -> Watcher:
        """Start observing, then reconcile; ``wait``: return once the reconcile is done."""
        if self._worker is not None:
            raise WatchError(f"this watcher of {self.paths.root} was already started; create a new one with Vault.watch()")
        self._observer = self._start_observer()  # before the reconcile: no edit slips between
        _overflow_hook.subscribe(self._events_lost)
        self._worker = threading.Thread(target=self._work, name="vaultmem-watch", daemon=True)
        self._worker.start()
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the start-up reconcile is done; if the watcher failed, stop it and raise."""
        ready = self._ready.wait(timeout)
        if self.error is not None:
            self.stop()  # the observer's threads must not outlive the error
            self.raise_if_failed()
        return ready

    def stop(self) -> None:
        """Stop observing and let the worker finish its batch; idempotent, joins every thread."""
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()
        _overflow_hook.unsubscribe(self._events_lost)
        if self._observer is not None:
            self._observer.stop()
            if self._observer.is_alive():
                self._observer.join()
        worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join()

    def raise_if_failed(self) -> None:
        if self.error is not None:
            raise WatchError(f"watching {self.paths.root} stopped: {self.error}") from self.error

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

    def _start_observer(self) -> BaseObserver:
        observer = PollingObserver(timeout=POLL_INTERVAL_SECONDS) if self.polling else Observer()
        router = _EventRouter(self.paths, self)
        # Watch the real folder: an inotify watch on a symlinked vault root would watch the link.
        observer.schedule(router, str(self.paths.real_root), recursive=True, event_filter=WATCHED_EVENTS)
        try:
            observer.start()
        except OSError as error:
            raise WatchError(
                f"cannot watch {self.paths.root}: {error.strerror or error}; raise the limit "
                "(sysctl fs.inotify.max_user_watches / max_user_instances) or use polling (`vaultmem watch --polling`)"
            ) from error
        return observer

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

    def request_rescan(self, delay: float | None = None) -> None:
        """Reconcile the whole vault soon (events were lost); the default waits one debounce."""
        with self._cond:
            wait = self._debouncer.delay if delay is None else delay
            self._rescan_at = min(self._rescan_at, self._clock() + wait)
            self._cond.notify_all()

    def _events_lost(self) -> None:
        log.warning("file events were lost (inotify queue overflow); rescanning %s", self.paths.root)
        self.request_rescan()

    def root_gone(self) -> None:
        """The vault folder itself is gone: nothing left to watch, so stop with an error."""
        self.error = WatchError(f"the vault folder {self.paths.root} was deleted or moved; start `vaultmem watch` again on its new path")
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()

    def index_gone(self) -> None:
        """``.vaultmem/`` was deleted: build a new index rather than feed the deleted file.

        Only once the vault has been quiet for a moment: when the whole vault is being
        deleted (``rm -rf``), recreating ``.vaultmem/`` inside it would make that fail;
        the root's own deletion then stops the watcher first.
        """
        log.warning("%s was deleted; building a new index once the vault is quiet", os.path.join(self.paths.root, STATE_DIR))
        with self._cond:
            self._reopen_at = self._clock() + self._reopen_quiet()
            self._cond.notify_all()

    def _reopen_quiet(self) -> float:
        return max(REOPEN_QUIET_SECONDS, 3 * self._debouncer.delay)

    # -- the worker thread: the only writer

    def _work(self) -> None:
        try:
            self.initial_report = self._reconcile()
            self._schedule_periodic_rescan()
            self._ready.set()
            while self._step():
                pass
        except _StopRequested:
            log.debug("stopped during a reconcile; every committed chunk stands, the next start finishes it")
        except Exception as error:  # the worker must not die unseen: record it for stop()/run_until_signalled()
            log.error("watching %s failed: %s", self.paths.root, error, exc_info=not isinstance(error, VaultmemError))
            self.error = error
        finally:
            self._ready.set()
            self._release()
            self._done.set()

    def _step(self) -> bool:
        work = self._next_work()
        if work is None:
            return False
        targets, rescan, reopen = work
        if reopen:
            self._guarded(self._reopen_index, "building a new index")
        elif rescan:
            self._guarded(self._rescan, "rescanning the vault")
        if targets:
            self._guarded(lambda: self._apply(targets), f"indexing {len(targets)} changed path(s)")
        return True

    def _next_work(self) -> tuple[list[Target], bool, bool] | None:
        """Wait until some paths are quiet, a rescan is due or the index must be reopened.

        Returns (targets, rescan, reopen), or ``None`` when stopping.
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
                        return [], False, True
                    self._cond.wait(self._reopen_at - now)
                    continue
                due = self._debouncer.pop_due(now)
                rescan = self._rescan_at <= now
                if due or rescan:
                    if rescan:
                        self._schedule_periodic_rescan(now)
                    return sorted(due), rescan, False
                self._cond.wait(self._seconds_to_next_work(now))
            return None

    def _seconds_to_next_work(self, now: float) -> float:
        deadline = min(self._debouncer.next_deadline() or float("inf"), self._rescan_at)
        return max(0.0, deadline - now)

    def _schedule_periodic_rescan(self, now: float | None = None) -> None:
        """The next periodic rescan; a rescan requested meanwhile (an overflow) stays earlier."""
        with self._cond:
            periodic = (self._clock() if now is None else now) + self.settings.rescan_seconds
            self._rescan_at = periodic if now is not None else min(self._rescan_at, periodic)

    def _guarded(self, action: Callable[[], None], what: str) -> None:
        """Run one unit of work; a failure that may pass is logged and healed by a later rescan."""
        try:
            action()
        except (VaultmemError, sqlite3.OperationalError, OSError) as error:
            delay = self._retry_seconds
            self._retry_seconds = min(2 * delay, self.settings.rescan_seconds)
            log.error("%s in %s failed: %s; rescanning in %.0f s", what, self.paths.root, error, delay)
            with self._cond:
                self._rescan_at = min(self._rescan_at, self._clock() + delay)
            return
        self._retry_seconds = RETRY_FIRST_SECONDS

    # -- applying changes

    def _apply(self, targets: Sequence[Target]) -> None:
        relatives = self._expand(targets)
        if len(relatives) > BULK_PATHS:
            report = self._reconcile()
        else:
            report = self._require_indexer().sync_paths(relatives)
            self._fold()
        self._publish(report)

    def _expand(self, targets: Sequence[Target]) -> list[str]:
        """File targets as they are; a folder becomes what the index and the disk hold under it.

        Both sides, because a folder that moved has its notes in the index under the old
        prefix and on disk under the new one; one batch lets the indexer pair them.
        """
        relatives = {target.path for target in targets if not target.is_dir}
        folders = [target.path for target in targets if target.is_dir]
        if folders:
            known = self._require_indexer().store.notes.file_states()
            for folder in folders:
                prefix = folder.rstrip("/") + "/"
                relatives.update(path for path in known if path.startswith(prefix))
                relatives.update(notes_under(self.paths, folder))
        return sorted(relatives)

    def _rescan(self) -> None:
        self._publish(self._reconcile())

    def _reopen_index(self) -> None:
        """Close the connection to the deleted database file and index into a new one."""
        self._indexer = None
        self._release()
        if not self.paths.root.is_dir():
            return  # the vault itself went: its deletion event stops the watcher
        self._rescan()

    def _reconcile(self) -> IndexReport:
        report = self._require_indexer().reconcile(progress=self._stop_between_chunks)
        self._fold()  # also publishes a snapshot a killed `index` never got to write
        return report

    def _stop_between_chunks(self, todo: int, total: int) -> Callable[[int], None]:
        def tick(done: int) -> None:
            if self._stopping.is_set():
                raise _StopRequested

        return tick

    def _publish(self, report: IndexReport) -> None:
        for change in changes_of(report):
            if self._log_changes:
                log.info("%s", change)
            if self._on_change is not None:
                self._on_change(change)

    def _require_indexer(self) -> Indexer:
        """This thread's indexer, opened on first use (and again after ``_reopen_index``)."""
        if self._indexer is None:
            self._indexer = self._open_indexer()
        return self._indexer


# ------------------------------------------------------------------ signals (foreground use)

_SignalHandler = Callable[[int, FrameType | None], object] | int | None


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
