"""A vault's derived index (``<vault>/.vaultmem/``) as the threads of one process use it.

SQLite connections and hnswlib readers belong to the thread that opened them, so each
thread gets its own ``Store``, ``Indexer`` and ``Searcher``, made on first use; the
embedder (a model in memory) is one for all. Here too is the index's lifecycle: the
first index, ``index [--rebuild]``, folding the vector delta into the snapshot, and
bringing the index in line with the files before a read answers (freshness.py).
Heavy modules (numpy, hnswlib, the embedder) are imported only when vectors are needed.
Faults (healing.py): a damaged index is set aside and rebuilt where it is opened or met;
one this process may not write is read through a private copy.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .durable import hand_over_tree
from .errors import RE_EMBED, DerivedIndexError, IndexBusy, IndexDamaged, IndexNotWritable, Spelled, VaultmemError
from .freshness import Freshness
from .paths import VaultPaths

if TYPE_CHECKING:
    from .config import WatchSettings
    from .embedders import Embedder
    from .healing import ReadOnlyCopy
    from .index_progress import IndexBuilding, IndexWait
    from .indexer import Indexer, IndexReport
    from .search import Searcher
    from .storage import Store
    from .watcher import Change, Watcher
    from .writing_now import IndexedElsewhere

Progress = Callable[[int, int], Callable[[int], None]]
# Told that a call must index before it answers (a first index, an upgrade); returns what to
# call as each chunk of notes is in (the CLI's progress bar), like a Progress.
IndexWaitShown = Callable[["IndexWait"], Callable[[int], None]]
log = logging.getLogger("vaultmem")


class DerivedIndex:
    """Per-thread handles on one vault's index, and the index's lifecycle."""

    def __init__(self, paths: VaultPaths, state_dir: Path, embedder_spec: str, watch: WatchSettings,
                 embedder: Embedder | None = None, on_index_wait: IndexWaitShown | None = None) -> None:
        self.paths = paths
        self._on_index_wait = on_index_wait
        self.state_dir = state_dir
        self._watch = watch
        self._embedder_spec = embedder_spec
        self._embedder = embedder
        self._embedder_given = embedder is not None  # the caller's choice, not the settings'
        self._embedder_lock = threading.Lock()
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()
        self.freshness = Freshness(paths, state_dir, watch)
        # A Vault dropped without close() must not leave its feed observing for ever.
        # (No join: the collector may run this on any thread, even the observer's own.)
        weakref.finalize(self, self.freshness.close, False)
        self._read_only: ReadOnlyCopy | None = None  # set once the index proves not writable here
        self._warnings: list[str] = []  # said once: an index that was healed
        self._faults_lock = threading.Lock()

    def close(self) -> None:
        """Close every SQLite connection opened here (from any thread) and stop the feed started here."""
        self.freshness.close()
        with self._stores_lock:
            for store in self._stores:
                store.close()
            self._stores.clear()
        self._local = threading.local()
        if self._read_only is not None:
            self._read_only.close()
            self._read_only = None
        try:
            if self.state_dir.is_dir():
                hand_over_tree(self.state_dir)  # what a root vaultmem made there: the person's (adr/0006)
        except OSError as error:
            # Said, not raised: the command's work is done, and a close must not fail it.
            log.warning("vaultmem: could not give %s to the vault's owner (%s); the person may need "
                        "`sudo chown -R` on it to re-index", self.state_dir, error)

    def release_thread(self) -> None:
        """Close the calling thread's connection (a watcher's worker thread, as it ends)."""
        store = getattr(self._local, "store", None)
        if store is None:
            return
        with self._stores_lock:
            if store in self._stores:
                self._stores.remove(store)
        store.close()
        self._local.store = self._local.indexer = self._local.searcher = None

    # -- this thread's handles

    @property
    def store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is not None and (not store.is_current() or (store.private_copy and not self._still_read_only())):
            # .vaultmem/ was deleted or rebuilt under us (by a person or another process):
            # this thread's connection still reads the unlinked file and would answer
            # from it forever. Start over on the file that is there now.
            self.release_thread()
            store = None
        if store is None:
            store = self._open_store()
            self._local.store = store
            with self._stores_lock:
                self._stores.append(store)
        if store.private_copy and not getattr(self._local, "writing", False):
            self._say_read_only()
        return store

    @property
    def embedder_identity(self) -> str:
        if self._embedder is not None:
            return self._embedder.identity
        from .embedders import identity_for_spec

        return identity_for_spec(self._embedder_spec, self.paths.root)

    def embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                from .embedders import make_embedder

                self._embedder = make_embedder(self._embedder_spec, self.paths.root)
            return self._embedder

    @property
    def indexer(self) -> Indexer:
        indexer = getattr(self._local, "indexer", None)
        if indexer is None:
            from .indexer import Indexer

            indexer = Indexer(self.paths, self.store, self.embedder, self.embedder_identity, self._require_still_configured)
            self._local.indexer = indexer
        return indexer

    def searcher(self) -> Searcher:
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            from .search import Searcher

            searcher = Searcher(self.paths, self.store, self.embedder(), self._resync)
            self._local.searcher = searcher
        return searcher

    def watcher(self, *, polling: bool, log_changes: bool, on_change: Callable[[Change], None] | None,
                on_changes: Callable[[list[Change]], None] | None = None) -> Watcher:
        """A watcher (not started) that keeps this index live: its worker thread opens, heals
        and closes its own handles here, and this process's reads settle it (freshness.py)."""
        from .watcher import Watcher

        watcher = Watcher(self.paths, self._watch, indexer=lambda: self.indexer, fold=self.fold,
                          release=self.release_thread, heal=self.heal_if_damaged, polling=polling,
                          log_changes=log_changes, on_change=on_change, on_changes=on_changes)
        self.freshness.attach(watcher)
        return watcher

    # -- the index's lifecycle

    def index(self, rebuild: bool = False, progress: Progress | None = None) -> IndexReport:
        """Reconcile the derived index with the files (``rebuild``: drop it first).

        Where the index cannot be written this reconciles the private copy read commands
        answer from (``Vault.index`` refuses instead: nothing would be saved).
        """
        if rebuild:
            with self.store.meta.rebuilding():
                self.drop()
                report = self.indexer.reconcile(progress, completes_rebuild=True)
            report.rebuilt = True
        else:
            from .storage import REBUILDING

            # Without flock a killed rebuild looks like a running one for ever: a plain
            # `index` someone runs by hand is then taken as its final pass.
            finishes = not self.store.meta.tells_dead_rebuilds and self.store.meta.get("indexed") == REBUILDING
            report = self.indexer.reconcile(progress, completes_rebuild=finishes)
        # Always: also heals a snapshot lost to a kill during the previous fold.
        self.fold()
        if self._read_only is None:
            self._reclaim_free_pages()
        return report

    def _reclaim_free_pages(self) -> None:
        """After a big delete the file shrinks (Store.reclaim_free_pages). The index is complete
        either way: a disk too full for the rewrite, or a writer elsewhere holding the lock, is
        said, not made the command's failure."""
        try:
            reclaimed = self.store.reclaim_free_pages()
        except (IndexNotWritable, IndexBusy) as refused:
            log.warning("the index is up to date, but its freed pages could not be given back to the disk: %s", refused)
            return
        if reclaimed is None:
            return
        if reclaimed.held_by_reader:
            # Said apart: the file has not shrunk yet, and a log that says it has would be untrue.
            log.info("freed %d bytes of index pages; %s shrinks once another process (a `watch`, an MCP server) has "
                     "finished the read it was in", reclaimed.bytes_before - reclaimed.bytes_after, self.store.path)
        else:
            log.info("gave %d bytes of freed index pages back to the disk", reclaimed.bytes_before - reclaimed.bytes_after)

    def drop(self) -> None:
        """Forget everything derived (the first half of a rebuild); usage history stays."""
        from .snapshots import remove_files, snapshot_files

        # Only the files that exist before the drop: a snapshot another process publishes
        # right after it must not be deleted under the name SQLite now gives it.
        stale = snapshot_files(self.state_dir)
        from .searchable import INDEX_RULES

        self.store.drop_derived(INDEX_RULES)
        remove_files(stale)
        self._local.searcher = None

    def fold(self) -> None:
        """Merge each vector delta (notes', passages') into its HNSW snapshot when it is due
        (cheap when not).

        The dimension comes from the stored vectors, so a no-change ``index`` never loads
        the embedder just to find out that nothing needs folding.
        """
        store = self.store
        if self._read_only is not None:
            return  # a private copy's delta is searched exactly; the snapshot's folder is read-only
        _fold(store)

    def _require_still_configured(self, stored: str) -> None:
        """Refuse to re-embed the vault under an embedder its settings no longer name. A
        long-lived process (``watch``, the MCP server, a Python program) read ``.vaultmem.toml``
        when it started: after the person named another embedder there and ran ``vaultmem
        index``, its next reconcile found the new vectors and re-embedded the whole vault back
        with the old one — and the next command refused the index, in turn (adr/0024)."""
        if self._embedder_given:
            return
        from .config import CONFIG_FILE, load_config

        named = load_config(self.paths.root).embedder
        if named != self._embedder_spec:
            raise DerivedIndexError(
                f"{CONFIG_FILE} now names the embedder {named!r}, and the index holds vectors from {stored}, but this "
                f"process started with {self._embedder_spec!r}: restart it (the `vaultmem watch`, the MCP server or the "
                "program) to use the new setting; nothing was re-embedded")

    def is_indexed(self) -> bool:
        from .storage import DB_NAME

        if not (self.state_dir / DB_NAME).exists():
            return False  # do not create .vaultmem/ just to find out
        return self.store.meta.get("indexed") is not None

    def ensure_indexed(self) -> IndexReport | None:
        """Index a vault that has never been indexed; refuse vectors from another embedder.

        An index made first is said before the wait: shown by ``on_index_wait`` (the CLI's
        stderr), else logged — on 3,000 notes a first read was 22 s of silence, taken for a hang."""
        why, stored = self._why_and_embedder()
        if why is not None:
            return self._index_saying(why)
        if stored is not None and stored != self.embedder_identity:
            self._require_still_configured(stored)  # a process started under another setting: restart it
            raise DerivedIndexError(Spelled(
                f"the index holds vectors from {stored}, but this vault now uses {self.embedder_identity}; ", RE_EMBED,
                " (vectors are never mixed)"))
        return None

    def _why_and_embedder(self) -> tuple[str | None, str | None]:
        """:meth:`why_index_first`, and the embedder the index's vectors are from: five look-ups of
        ``meta`` that every read makes, in one read transaction (one read lock of the database,
        not five) and so of one state of it."""
        from .index_progress import FIRST
        from .storage import DB_NAME

        if not (self.state_dir / DB_NAME).exists():
            return FIRST, None  # do not create .vaultmem/ just to find out
        with self.store.read_snapshot():
            return self.why_index_first(), self.store.meta.get("embedder")

    def why_index_first(self) -> str | None:
        """Why a read must index before it answers (index_progress.FIRST, INTERRUPTED, UPGRADED,
        SETTINGS), or None when it need not."""
        from .index_progress import FIRST, INTERRUPTED, SETTINGS, UPGRADED

        # Never indexed, or an `index --rebuild` was killed half-way: without this its
        # partial index would answer every search as if it were complete. (The
        # reconcile takes the rebuild lock, so processes that see it at once queue.)
        if not self.is_indexed():
            return FIRST
        if self.store.meta.rebuild_state() == "interrupted":
            return INTERRUPTED
        # A folder excluded (or no longer excluded) since the index was made, another
        # daily-note format or date properties, or rows made by an earlier reader (another title rule):
        # reconcile before anything is answered.
        other = self.other_rules()
        if other is None:
            return None
        return UPGRADED if other == "reader" else SETTINGS

    def _index_saying(self, why: str) -> IndexReport:
        from .index_progress import IndexWait

        def start(todo: int, total: int) -> Callable[[int], None]:
            wait = IndexWait(why, todo, total)
            if self._on_index_wait is not None:
                return self._on_index_wait(wait)  # said by the caller (the CLI: on stderr), not twice
            log.info("%s: %s", self.paths.root, wait)
            return _no_tick

        return self.index(progress=start)

    def made_under_other_rules(self) -> bool:
        """Was the index made under other exclusions, another daily-note format, other date
        properties or by another reader? (seven stats, four lookups)"""
        return self.other_rules() is not None

    def other_rules(self) -> str | None:
        """Which rules the index was made under differ from today's: ``reader`` (an earlier
        vaultmem's), ``settings`` (exclusions, daily-note format, date properties, inline
        queries), or None."""
        from .searchable import INDEX_RULES
        from .storage import (
            DAILY_FORMAT_KEY,
            DATE_PROPERTIES_KEY,
            EXCLUSIONS_KEY,
            INLINE_QUERIES_KEY,
            READER_KEY,
            REBUILDING,
        )

        self.paths.refresh()
        meta = self.store.meta.values(["indexed", READER_KEY, EXCLUSIONS_KEY, DAILY_FORMAT_KEY, DATE_PROPERTIES_KEY,
                                       INLINE_QUERIES_KEY])
        if meta.get("indexed") == REBUILDING:
            return None  # a rebuild is running: its own reconcile reads every file under today's rules
        if meta.get(READER_KEY) != INDEX_RULES:
            return "reader"
        # No format recorded: the index was made before formats were read, by none.
        settings = (meta.get(EXCLUSIONS_KEY) != self.paths.exclusions.fingerprint
                    or (meta.get(DAILY_FORMAT_KEY) or "") != self.paths.daily.fingerprint
                    or (meta.get(DATE_PROPERTIES_KEY) or "") != self.paths.dates.fingerprint
                    or (meta.get(INLINE_QUERIES_KEY) or "") != self.paths.inline_queries.fingerprint)
        return "settings" if settings else None

    def ensure_current(self, leave_to_writer: bool = False) -> IndexReport | None:
        """Before a read answers from the index: index it if it never was, else bring it in line
        with the files or prove it is (freshness.py; adr/0021). The changes applied, if any.

        Raises :class:`IndexBusy` when another process holds the write lock longer than this
        connection waits (``Store.waiting_at_most``): the changes found are left for the next read.
        ``leave_to_writer``: see Freshness.ensure_current (only a read that warns asks it).
        """
        with self._busy_is_reported():
            first = self.ensure_indexed()
            if first is not None:
                return first
            return self.freshness.ensure_current(self.indexer, self.fold, leave_to_writer)

    def bring_current(self, leave_to_writer: bool = True) -> IndexBusy | IndexBuilding | IndexedElsewhere | None:
        """:meth:`ensure_current` before a read answers — but when a writer elsewhere holds the
        lock, the error that says so, for a warning beside the answer given anyway (adr/0021).

        While a watcher of this process is still on its start-up reconcile, how far it is,
        and the index is left as it is: the read answers from the notes in so far and its
        warning says so. Bringing it in line here would read every note the watcher has not
        reached yet a second time, on this thread: a trial's first call on a 2,223-note vault
        waited 24–40 s, and a client that gave up and asked again waited as long anew.

        A note a vaultmem write elsewhere is still indexing (``leave_to_writer``, writing_now.py):
        waited for up to 2 s, then left out and named. ``explain`` does not leave it: a note
        left out would be "no note matches" there.
        """
        building = self.freshness.building()
        if building is not None:
            return building
        try:
            report = self.ensure_current(leave_to_writer)
        except IndexBusy as error:
            return error
        if report is not None and report.elsewhere:
            # A note another vaultmem write is indexing (a 5 MB remember: ~16 s): answered without it,
            # and said, rather than read and embedded a second time beside the writer (writing_now.py).
            from .writing_now import IndexedElsewhere

            return IndexedElsewhere(tuple(report.elsewhere), report.elsewhere_by)
        return None

    def walk(self) -> bool:
        """Bring the index in line with the files by a walk of the vault (a stat per file), whatever
        a watcher says: the proof a read or a write asks before telling an agent that a note was
        deleted (resolution.left_the_vault). A watcher's fence proves only what it has heard, and
        one that has heard half of a rename (the old name leave, not the new one come) holds no
        row for the note. Did any note change?"""
        with self._busy_is_reported():
            report = self.indexer.catch_up()
        if report.changed:
            self.fold()
        return report.changed

    def _resync(self, relatives: Sequence[str]) -> bool:
        """Hits whose file differs from their row: index those files now; did any note change?"""
        with self._busy_is_reported():
            return self.indexer.sync_paths(relatives).changed

    @contextmanager
    def _busy_is_reported(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as error:
            if error.sqlite_errorname not in ("SQLITE_BUSY", "SQLITE_LOCKED"):
                raise
            raise IndexBusy(
                f"{self.store.path} is locked by another writer (an `index`, a `watch`, a write command), so "
                "changes made to the files a moment ago could not be indexed before this answer; ask again shortly"
            ) from error

    def sync(self, relatives: Sequence[str]) -> None:
        """Bring these paths up to date in an index that exists (a write path's third step).

        A damaged index met here is healed — rebuilt from the vault, these paths included —
        rather than failing a write whose files are already on disk.
        """
        if not relatives:
            return
        try:
            if self.is_indexed():
                self.indexer.sync_paths(relatives)
        except (sqlite3.Error, IndexDamaged) as error:
            if not self.heal_if_damaged(error):
                raise self.as_error(error) from error

    # -- faults (healing.py, adr/0022)

    def _open_store(self) -> Store:
        """This thread's Store: the index itself, healed first if it is damaged, or — when
        this process cannot write it — the private copy read commands answer from."""
        from .storage import Store

        with self._faults_lock:
            if self._read_only is not None:
                if self._read_only.still_needed():
                    return self._read_only.open()
                self._read_only.close()  # the disk has room again: back to the index itself
                self._read_only = None
            try:
                missing = not self.database.exists()
                store = Store(self.state_dir)
                if missing:
                    self._restore_usage(store)
                return store
            except IndexDamaged as damage:
                self._heal_locked(damage)
                return Store(self.state_dir)
            except IndexNotWritable as refusal:
                from .healing import ReadOnlyCopy

                # Said by the first read that answers from it (store), not here: a write
                # command opens it only to be refused, and must say that alone.
                self._read_only = ReadOnlyCopy(self.state_dir, refusal)
                return self._read_only.open()

    def _say_read_only(self) -> None:
        """Warn, once per process, that reads answer from a private copy of the index."""
        with self._faults_lock:
            read_only = self._read_only
            if read_only is None or read_only.said:
                return
            read_only.said = True
        log.warning("%s", read_only.warning)

    def _restore_usage(self, store: Store) -> None:
        """A new index.db where the usage backup has history (the file was deleted, or a heal
        died half-way): the history comes back from the backup."""
        from .healing import restore_missing_usage

        message = restore_missing_usage(store)
        if message is not None:
            log.warning("%s", message)
            self._warnings.append(message)

    def _still_read_only(self) -> bool:
        read_only = self._read_only
        return read_only is not None and read_only.still_needed()

    def heal_if_damaged(self, error: BaseException | None) -> bool:
        """When ``error`` reports the index damaged: set it aside, start a new one with the
        usage history that could be recovered, and index the vault into it (see healing.py;
        warns once). Whether it was damage.

        The damage is read off the error before this thread's handles are let go: its file
        identity tells a damage another process healed meanwhile from one still there.
        """
        damage = self._as_damage(error)
        if damage is None:
            return False
        with self._faults_lock:
            self._heal_locked(damage)
        return True

    def _heal_locked(self, damage: IndexDamaged) -> None:
        from .healing import locked_heal
        from .storage import Store

        # This thread's handles read the damaged file: the next use opens the new one. Not
        # closed here — a frame further out in this call may still hold them (close() does).
        self._local.store = self._local.indexer = self._local.searcher = None
        if self._read_only is not None:
            raise DerivedIndexError(Spelled(*damage.parts, f"; this process cannot write there: {self._read_only.refusal.reason}"))

        def rebuild() -> None:
            store = Store(self.state_dir)
            try:
                from .indexer import Indexer

                Indexer(self.paths, store, self.embedder, self.embedder_identity).reconcile(completes_rebuild=True)
                _fold(store)
            finally:
                store.close()

        healed = locked_heal(self.state_dir, damage, rebuild)
        if healed is not None:
            message = healed.message(self.state_dir)
            log.warning("%s", message)
            self._warnings.append(message)

    def require_writable(self) -> None:
        """Refuse a write before it acts when the index cannot be written here — with that
        refusal alone, not also the read-only copy's warning (nothing is read from it)."""
        self._local.writing = True
        try:
            self.store  # noqa: B018 - opening it is what finds out
        finally:
            self._local.writing = False
        if self._read_only is not None:
            raise self._read_only.refusal

    def after_search(self) -> list[str]:
        """What a search's answer should say about the index — read-only here (always), healed
        (once) — and, when the search found the vector snapshot damaged and set it aside, a
        new snapshot folded now (the search itself answered exactly from SQLite)."""
        self.store  # noqa: B018 - opening it is what finds out
        warnings = [self._read_only.warning] if self._read_only is not None else []
        warnings += self._warnings
        self._warnings = []
        searcher = getattr(self._local, "searcher", None)
        indexes = searcher.vector_indexes if searcher is not None else []
        set_aside = [message for index in indexes for message in index.set_aside]
        if set_aside:
            warnings += set_aside
            for index in indexes:
                index.set_aside = []
            self.fold()  # the set-aside file counts as missing: this builds its replacement
        return warnings

    def _as_damage(self, error: BaseException | None) -> IndexDamaged | None:
        """The damage this error reports, if it is one (a SQLite error or ours)."""
        if isinstance(error, IndexDamaged):
            return error
        if isinstance(error, sqlite3.Error):
            from .storage import index_failure

            failure = index_failure(error, self.database, self._identity())
            return failure if isinstance(failure, IndexDamaged) else None
        return None

    def as_error(self, error: BaseException) -> VaultmemError:
        """A SQLite error as the vaultmem error that names the file and the fix."""
        if isinstance(error, VaultmemError):
            return error
        from .storage import index_failure

        if isinstance(error, sqlite3.Error):
            return index_failure(error, self.database, self._identity())
        return VaultmemError(str(error))

    @property
    def database(self) -> Path:
        from .storage import DB_NAME

        return self.state_dir / DB_NAME

    def _identity(self) -> tuple[int, int] | None:
        store = getattr(self._local, "store", None)
        return store.identity if store is not None else None


def _fold(store: Store) -> None:
    """Fold each vector space's delta (notes', passages') into its snapshot when it is due."""
    dimension = store.vectors.dimension()
    if dimension is None:
        return
    from .storage import SPACES
    from .vectors import VectorIndex

    for space in SPACES:
        VectorIndex(store, dimension, space).fold()


def _no_tick(done: int) -> None:
    """Progress nobody shows (the Python API: the wait is logged, not printed)."""
