"""What changed in a vault: file-system events → targets, held until someone applies them.

A watchdog observer (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on
Windows; ``PollingObserver`` on request) turns events into :class:`Target` s — one note
file, or everything under a folder — held per path by a :class:`Debouncer`.
:class:`ChangeFeed` is that and nothing more: no thread of its own writes the index. A
reader that wants to answer from the index *settles* it: it writes a fence file
(fences.py), waits until the observer has routed the fence — and with it every event
from before — and takes what the feed holds, to apply on its own thread. The
:class:`~vaultmem.watcher.Watcher` is a feed with a writer thread that applies what it
holds once it is quiet.

Events can be lost (an inotify queue overflow, which watchdog only logs; a batch that
failed): the feed then asks its next reader to walk the whole vault, and so does a feed
whose last whole look is older than ``rescan_seconds`` (a watch that could not be added,
a bug). See adr/0008-live-indexing.md and adr/0021-answers-true-to-the-files.md.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
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

from .config import CONFIG_FILE, STATE_DIR, WatchSettings
from .errors import VaultmemError
from .fences import fence_name, is_fence, remove_fence, write_fence
from .paths import SETTINGS_FILES, VaultPaths

if TYPE_CHECKING:
    from .index_progress import IndexBuilding
    from .indexer import IndexReport

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
BULK_PATHS = 512  # more changed paths than this (a branch switch, a copied folder): a chunked reconcile is cheaper
POLL_INTERVAL_SECONDS = 1.0


class WatchError(VaultmemError):
    """The watcher could not start or had to stop (the message says why and what to do)."""


# ------------------------------------------------------------------ what to re-sync (events → targets)


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


def expand_targets(paths: VaultPaths, targets: Iterable[Target], indexed: Callable[[], Iterable[str]]) -> list[str]:
    """File targets as they are; a folder becomes what the index and the disk hold under it.

    Both sides, because a folder that moved has its notes in the index under the old
    prefix and on disk under the new one; one batch lets the indexer pair them.
    ``indexed`` lists the index's paths (asked only when there is a folder).
    """
    targets = list(targets)
    relatives = {target.path for target in targets if not target.is_dir}
    folders = [target.path for target in targets if target.is_dir]
    if folders:
        known = list(indexed())
        for folder in folders:
            prefix = folder.rstrip("/") + "/"
            relatives.update(path for path in known if path.startswith(prefix))
            relatives.update(notes_under(paths, folder))
    return sorted(relatives)


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

    def pop_all(self) -> list[K]:
        """Every key held, quiet or not, removed (a reader wants the index current now)."""
        keys = list(self._last)
        self._last.clear()
        self._first.clear()
        return keys


# ------------------------------------------------------------------ watchdog plumbing


class _EventRouter(FileSystemEventHandler):
    """Runs in watchdog's dispatch thread: map the event to targets, queue them, return."""

    def __init__(self, paths: VaultPaths, feed: ChangeFeed) -> None:
        self.paths = paths
        self.feed = feed
        self.root = str(paths.real_root)
        self.state_dir = os.path.join(self.root, STATE_DIR)
        self.settings_files = {os.path.join(self.root, *name.split("/")) for name in (CONFIG_FILE, *SETTINGS_FILES)}

    def on_any_event(self, event: FileSystemEvent) -> None:
        if not event.is_directory and self._touches_settings(event):
            self.feed.settings_changed()
        if event.event_type in (EVENT_TYPE_DELETED, EVENT_TYPE_MOVED):
            # inotify reports the vault root's own deletion without IN_ISDIR: a "file" event.
            if os.fsdecode(event.src_path) == self.root:
                self.feed.root_gone()
                return
            if os.fsdecode(event.src_path) == self.state_dir and event.is_directory:
                moved = event.event_type == EVENT_TYPE_MOVED and bool(event.dest_path)
                self.feed.index_gone(os.fsdecode(event.dest_path) if moved else None)
                return
        elif event.event_type == EVENT_TYPE_CREATED and not event.is_directory:
            fence = is_fence(self.state_dir, os.fsdecode(event.src_path))
            if fence is not None:
                # Every event before it has been routed already (one ordered stream).
                self.feed.fence_seen(fence)
                return
        targets = targets_for(event, self.paths)
        if targets:
            self.feed.enqueue(targets)

    def _touches_settings(self, event: FileSystemEvent) -> bool:
        sides = [event.src_path, event.dest_path] if event.event_type == EVENT_TYPE_MOVED else [event.src_path]
        return any(os.fsdecode(side) in self.settings_files for side in sides if side)


class _OverflowHook(logging.Handler):
    """watchdog's only sign of an inotify queue overflow is a log warning: hear it.

    One handler for the process, shared by every running feed and watcher; it sits on the
    ``watchdog.observers`` logger while at least one watcher listens.
    """

    LOGGER = "watchdog.observers"

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self._listeners: list[Callable[[], None]] = []
        # Reentrant: a finalizer that stops a forgotten feed may run (garbage collection)
        # in a thread that is inside subscribe() already.
        self._listeners_lock = threading.RLock()
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


class _StoppedEmitterNoise(logging.Filter):
    """Drop watchdog's ERROR "InotifyEmitter.queue_events() called when the thread is inactive".

    watchdog (7.x) logs it when an emitter's read returns after the observer that owns it
    was told to stop: its inotify handle is gone, the event is dropped, nothing is wrong. A
    script that used the API and closed its ``Vault`` printed an ERROR line as it ended (a
    session on a real vault). Only this message of this logger is dropped."""

    MESSAGE = "called when the thread is inactive"

    def filter(self, record: logging.LogRecord) -> bool:
        return self.MESSAGE not in record.getMessage()


logging.getLogger("watchdog.observers.inotify").addFilter(_StoppedEmitterNoise())


# ------------------------------------------------------------------ the feed


@dataclass(frozen=True)
class Settled:
    """What a feed held when a reader's fence came through: apply it, then :meth:`ChangeFeed.finish`."""

    targets: list[Target]
    full: bool  # events were lost, or the last whole look is too old: walk the whole vault instead
    generation: int  # the losses a whole walk started now covers
    ticket: int


class ChangeFeed:
    """Observes one vault and holds what changed until a reader settles it.

    Thread-safe: the observer's thread routes events in; any reader thread may
    :meth:`settle`. Targets handed to a reader stay "in flight" until it calls
    :meth:`finish`, and every other settle meanwhile gets them too — so a reader never
    answers before a change another reader took is in the index.
    """

    def __init__(self, paths: VaultPaths, settings: WatchSettings, *, polling: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.paths = paths
        self.settings = settings
        self.polling = polling
        self.state_dir = paths.root / STATE_DIR
        self.error: BaseException | None = None
        self._clock = clock
        self._cond = threading.Condition()
        self._debouncer: Debouncer[Target] = Debouncer(settings.debounce_ms / 1000)
        self._in_flight: dict[int, list[Target]] = {}
        self._tickets = itertools.count(1)
        self._lost = 0  # generations of lost events (overflow, a failed batch, the index folder gone)
        self._healed = 0  # the last generation a whole walk covered
        self._walked_at = clock()  # the caller walks the vault right after starting a feed
        self._walk_every = settings.rescan_seconds
        self._waiters: dict[str, threading.Event] = {}
        self._stopping = threading.Event()
        self._observer: BaseObserver | None = None
        self._pid = os.getpid()
        self.fence_timeouts = 0  # fences written but never routed back (the reader walked instead)

    # -- lifecycle

    @property
    def backend(self) -> str:
        """``inotify`` (or the platform's native API) or ``polling``."""
        # watchdog types Observer as a call protocol; it is the platform's observer class.
        return "polling" if self.polling else cast(type, Observer).__name__.removesuffix("Observer").lower()

    @property
    def live(self) -> bool:
        """Observing, not failed, and in the process that started it (threads do not survive a fork)."""
        return (self._observer is not None and not self._stopping.is_set() and self.error is None
                and os.getpid() == self._pid)

    @property
    def ended(self) -> bool:
        """Stopped or failed: it will never be live again."""
        return self._stopping.is_set() or self.error is not None

    def building(self) -> IndexBuilding | None:
        """How far a start-up reconcile is while it runs: a bare feed runs none (the Watcher does)."""
        return None

    def start(self) -> ChangeFeed:
        self._observer = self._start_observer()
        _overflow_hook.subscribe(self._events_lost)
        return self

    def stop(self, join: bool = True) -> None:
        """Stop observing; ``join``: wait for the observer's threads (idempotent)."""
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()
        _overflow_hook.unsubscribe(self._events_lost)
        observer = self._observer
        if observer is not None and os.getpid() == self._pid:
            observer.stop()
            if join and observer.is_alive() and observer is not threading.current_thread():
                observer.join()

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

    # -- called from watchdog's thread

    def enqueue(self, targets: Sequence[Target]) -> None:
        with self._cond:
            now = self._clock()
            for target in targets:
                self._debouncer.add(target, now)

    def fence_seen(self, name: str) -> None:
        with self._cond:
            waiter = self._waiters.get(name)
        if waiter is not None:
            waiter.set()

    def root_gone(self) -> None:
        """The vault folder itself is gone: nothing left to observe."""
        self.error = WatchError(f"the vault folder {self.paths.root} was deleted or moved; start `vaultmem watch` again on its new path")
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()

    def index_gone(self, moved_to: str | None = None) -> None:
        """``.vaultmem/`` was deleted (or moved, to ``moved_to`` when inside the vault): the next
        reader indexes the whole vault into a new one."""
        self.lose()

    def settings_changed(self) -> None:
        """A file that holds the vault's exclusions changed. Nothing to do here: every read
        compares the index's rules with today's before it answers (``made_under_other_rules``)."""

    def _events_lost(self) -> None:
        log.warning("file events were lost (inotify queue overflow); the next read walks %s", self.paths.root)
        self.lose()

    def lose(self) -> None:
        """Events were lost: whoever settles next walks the whole vault."""
        with self._cond:
            self._lost += 1
            self._cond.notify_all()

    # -- readers

    def settle(self, timeout: float) -> Settled | None:
        """Fence, then take what the feed holds; ``None`` if it cannot vouch (walk the vault instead).

        When this returns, every change made before the call is among the targets (or
        already in the index, or ``full`` says to walk everything).
        """
        if not self.live:
            return None
        name = fence_name()
        seen = threading.Event()
        with self._cond:
            self._waiters[name] = seen
        written = False
        try:
            written = write_fence(self.state_dir, name)
            if not written:
                return None  # no index folder to fence in (deleted, read-only): the caller walks
            if not seen.wait(timeout):
                self.fence_timeouts += 1
                return None  # events are stuck or never arrive here: the caller walks
        finally:
            with self._cond:
                self._waiters.pop(name, None)
            if written:
                # Only a fence that was made: unlinking one that never was fails with EROFS on a
                # read-only .vaultmem/, which failed every read of a running server (MCP recall:
                # "file system error … Read-only file system: …/fence-…") instead of walking.
                remove_fence(self.state_dir, name)
        return self._take(self._debouncer.pop_all)

    def _take(self, pop: Callable[[], list[Target]]) -> Settled:
        """Targets ``pop`` gives, plus every target in flight, booked under a new ticket."""
        with self._cond:
            taken = pop()
            in_flight = [target for flight in self._in_flight.values() for target in flight]
            ticket = next(self._tickets)
            self._in_flight[ticket] = taken
            full = self._lost > self._healed or self._clock() - self._walked_at >= self._walk_every
            return Settled(sorted({*taken, *in_flight}), full, self._lost, ticket)

    def finish(self, settled: Settled, applied: bool, walked: bool = False) -> None:
        """The reader is done with ``settled``: ``applied`` (or failed: the next one walks);
        ``walked`` — it walked the whole vault, which covers the losses up to its generation."""
        with self._cond:
            self._in_flight.pop(settled.ticket, None)
            if not applied:
                self._lost += 1
            elif walked:
                self._healed = max(self._healed, settled.generation)
                self._walked_at = self._clock()

    def publish(self, report: IndexReport) -> None:
        """Changes a reader applied (a watcher logs them; a bare feed has no one to tell)."""
