"""Answers true to the files: a read brings the index in line with the files, or proves it is.

Every read that answers from the index (search, get, mark_used, stale, stats, MCP
recall, the similar notes of remember) first calls :meth:`Freshness.ensure_current`,
which takes the cheapest proof there is:

1. **A change feed in this process** — a watcher started by ``Vault.watch()`` (the MCP
   server's), or the feed this module starts by itself: *settle* it (a fence through
   the observer, then apply on this thread what it holds). About a third of a
   millisecond when nothing changed, whatever the vault's size.
2. **A watcher in another process** that holds ``.vaultmem/watch.lock`` (``vaultmem
   watch``, an MCP server): write a fence file and wait until the watcher has applied
   what it holds and deleted the file. A few milliseconds.
3. **Otherwise walk the vault**: one stat per file against one query, applying what
   changed (``Indexer.catch_up``; ≈ 0.1 s at 10k notes). The second time one Vault has
   to walk, it starts a feed of its own — observer first, then the walk, so nothing slips
   between — and later reads take the first way. A one-shot CLI call never gets there;
   a long-lived agent gets there on its second read.

A feed is never trusted where events do not tell the whole story: on a file system other
machines write to (NFS, SMB, FUSE, a VM's shared folder) no feed is started and every
read walks. A fence that does not come back in time (events stuck behind a move out of
the vault, a watcher busy with a long batch) also falls back to the walk.
See adr/0021-answers-true-to-the-files.md.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .fences import await_ack, fence_name, untrusted_file_system, watcher_alive, write_fence
from .writing_now import WAIT_SECONDS

if TYPE_CHECKING:
    from .config import WatchSettings
    from .feed import ChangeFeed, Settled
    from .index_progress import IndexBuilding
    from .indexer import Indexer, IndexReport
    from .paths import VaultPaths

log = logging.getLogger(__name__)

FENCE_TIMEOUT_SECONDS = 1.0  # then walk: a fence normally comes back in well under a millisecond
WALKS_BEFORE_FEED = 2  # a Vault that had to walk twice is long-lived: give it a feed


class Freshness:
    """One Vault's way of proving its index current (shared by the Vault's threads)."""

    def __init__(self, paths: VaultPaths, state_dir: Path, settings: WatchSettings) -> None:
        self.paths = paths
        self.state_dir = state_dir
        self.settings = settings
        self._lock = threading.Lock()
        self._attached: list[ChangeFeed] = []  # watchers started through Vault.watch()
        self._own: ChangeFeed | None = None
        self._walks = 0
        self._no_feed: str | None = None  # why this Vault starts no feed of its own
        self._distrusted: weakref.WeakSet[ChangeFeed] = weakref.WeakSet()  # a fence never came back: not asked again

    def attach(self, feed: ChangeFeed) -> None:
        """A watcher of this vault started in this process: reads settle it once it is live."""
        with self._lock:
            self._attached.append(feed)

    def close(self, join: bool = True) -> None:
        """Stop the feed this object started (not the watchers attached to it)."""
        with self._lock:
            own, self._own = self._own, None
            self._attached.clear()
        if own is not None:
            own.stop(join=join)

    def building(self) -> IndexBuilding | None:
        """How far an attached watcher's start-up reconcile is, while it runs."""
        with self._lock:
            feeds = list(self._attached)
        return next((building for feed in feeds if (building := feed.building()) is not None), None)

    @property
    def has_feed(self) -> bool:
        return self._live_feed() is not None

    # -- the proof

    def ensure_current(self, indexer: Indexer, fold: Callable[[], None], leave_to_writer: bool = False) -> IndexReport | None:
        """Bring the index in line with the files, or prove it is; the changes applied (if any).

        ``leave_to_writer`` (a read that warns of what it could not include): a changed file a
        vaultmem write elsewhere is indexing is waited for a little, then left to it and named in
        the report's ``elsewhere`` (writing_now.py) instead of being read and embedded again here."""
        wait = WAIT_SECONDS if leave_to_writer else None
        feed = self._live_feed()
        if feed is not None:
            timeouts = feed.fence_timeouts
            settled = feed.settle(FENCE_TIMEOUT_SECONDS)
            if settled is not None:
                return self._apply(feed, settled, indexer, fold, wait)
            if feed.fence_timeouts > timeouts:
                self._distrust(feed)
        elif watcher_alive(self.state_dir) and self._remote_fence():
            return None  # another process's watcher applied everything up to our fence
        return self._walk(indexer, fold, wait)

    def _live_feed(self) -> ChangeFeed | None:
        with self._lock:
            self._attached = [feed for feed in self._attached if not feed.ended]
            candidates = [*self._attached, *([self._own] if self._own is not None else [])]
        return next((feed for feed in candidates if feed.live and feed not in self._distrusted), None)

    def _distrust(self, feed: ChangeFeed) -> None:
        """A fence did not come back in time: this feed's events do not reach it (a symlinked
        ``.vaultmem/``, a stuck observer). Waiting on it again would cost every read a second."""
        log.warning("file events of %s did not arrive within %.0f s; reads walk the vault instead",
                    self.paths.root, FENCE_TIMEOUT_SECONDS)
        with self._lock:
            self._distrusted.add(feed)
            own = feed is self._own
            if own:
                self._own = None
                self._no_feed = "its file events did not arrive in time"
        if own:
            feed.stop(join=False)

    def _remote_fence(self) -> bool:
        name = fence_name()
        return write_fence(self.state_dir, name) and await_ack(self.state_dir, name, FENCE_TIMEOUT_SECONDS)

    def _apply(self, feed: ChangeFeed, settled: Settled, indexer: Indexer, fold: Callable[[], None],
               wait: float | None) -> IndexReport:
        from .feed import BULK_PATHS, expand_targets

        applied = False
        try:
            if settled.full:
                report = indexer.catch_up(wait)  # events were lost (or it is time to look anyway)
            else:
                relatives = expand_targets(self.paths, settled.targets, lambda: indexer.store.notes.file_stats())
                report = indexer.reconcile() if len(relatives) > BULK_PATHS else indexer.sync_paths(relatives, wait)
            applied = True
        finally:
            feed.finish(settled, applied, walked=settled.full)
        _still_owed(feed, report)
        if report.changed:
            fold()
            feed.publish(report)
        return report

    def _walk(self, indexer: Indexer, fold: Callable[[], None], wait: float | None) -> IndexReport:
        started = self._start_own_feed_if_due()
        try:
            report = indexer.catch_up(wait)
        except BaseException:
            if started is not None:
                started.lose()  # it began to listen before a walk that did not finish
            raise
        feed = self._live_feed()
        if feed is not None:
            _still_owed(feed, report)
        if report.changed:
            fold()
        return report

    def _start_own_feed_if_due(self) -> ChangeFeed | None:
        """On the Vault's second walk, start observing (before that walk, so nothing slips between)."""
        with self._lock:
            self._walks += 1
            if self._own is not None and self._own.ended:
                self._own = None  # its vault folder went away; a new one may observe the new folder
            if self._own is not None or self._attached or self._walks < WALKS_BEFORE_FEED or self._no_feed is not None:
                return None  # one feed is enough (an attached watcher whose fence was late is still one)
            from .feed import ChangeFeed, WatchError  # watchdog: only for a process that reads again

            remote = untrusted_file_system(self.paths.root)
            if remote is not None:
                self._no_feed = f"{self.paths.root} is on {remote}, whose other clients change files unannounced"
                log.info("%s: every read walks the vault", self._no_feed)
                return None
            try:
                self._own = ChangeFeed(self.paths, self.settings).start()
            except WatchError as error:
                self._no_feed = str(error)
                log.warning("%s; every read walks the vault instead", error)
                return None
            return self._own


def _still_owed(feed: ChangeFeed, report: IndexReport) -> None:
    """Files left to a writer elsewhere (writing_now.py) go back into the feed: the next read
    checks them again — indexed by then, or indexed by that read — rather than never."""
    if report.elsewhere:
        from .feed import Target

        feed.enqueue([Target(path) for path in report.elsewhere])
