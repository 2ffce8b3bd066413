"""``Vault``: the one object agents, the CLI and the MCP server talk to.

A thin facade: each method resolves its arguments, opens what it needs lazily and
calls one function of the layer below (indexer, search, check, …). Heavy modules
(numpy, hnswlib, the embedder) are imported only by the methods that need vectors, so
``vaultmem check`` or ``vaultmem get`` stay quick in a fresh process.

Thread use: SQLite connections and hnswlib readers are per thread; a ``Vault`` keeps
one of each per thread that uses it, so one ``Vault`` may be shared by a watcher
thread and request handlers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import STATE_DIR, VaultConfig, load_config
from .errors import AmbiguousNote, DerivedIndexError, GitError, NoteNotFound, VaultmemError, WriteConflict
from .lifecycle import is_expired_us, normalize_layer, resolve_now, to_epoch_us
from .paths import VaultPaths

if TYPE_CHECKING:
    from .check import CheckReport
    from .consolidate import ConsolidationPlan, ConsolidationReport
    from .embedders import Embedder
    from .indexer import Indexer, IndexReport
    from .search import Hits, Searcher
    from .storage import NoteRow, Store
    from .watcher import Change, Watcher


@dataclass(frozen=True)
class Stats:
    notes: int
    by_layer: dict[str, int]
    expired: int
    with_problems: int
    index_bytes: int
    embedder: str | None
    dimension: int | None
    vectors_in_snapshot: int
    vectors_in_delta: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Vault:
    """A Markdown vault and its derived index under ``<vault>/.vaultmem/``."""

    def __init__(self, path: str | os.PathLike[str], *, config: VaultConfig | None = None, embedder: Embedder | None = None) -> None:
        root = Path(path).expanduser()
        if not root.is_dir():
            raise VaultmemError(f"vault {str(root)!r} is not a folder; pass --vault PATH or set VAULTMEM_VAULT")
        self.root = root.absolute()
        self.config = config if config is not None else load_config(self.root)
        self.paths = VaultPaths(self.root, self.config.archive_dir)
        self.state_dir = self.root / STATE_DIR
        self._embedder = embedder
        self._embedder_lock = threading.Lock()
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every SQLite connection this Vault opened (from any thread)."""
        with self._stores_lock:
            for store in self._stores:
                store.close()
            self._stores.clear()
        self._local = threading.local()

    # ------------------------------------------------------------ plumbing

    @property
    def store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is not None and not store.is_current():
            # .vaultmem/ was deleted or rebuilt under us (by a person or another process):
            # this thread's connection still reads the unlinked file and would answer
            # from it forever. Start over on the file that is there now.
            self._release_thread_state()
            store = None
        if store is None:
            from .storage import Store

            store = Store(self.state_dir)
            self._local.store = store
            with self._stores_lock:
                self._stores.append(store)
        return store

    @property
    def embedder_identity(self) -> str:
        if self._embedder is not None:
            return self._embedder.identity
        from .embedders import identity_for_spec

        return identity_for_spec(self.config.embedder)

    def embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                from .embedders import make_embedder

                self._embedder = make_embedder(self.config.embedder)
            return self._embedder

    @property
    def indexer(self) -> Indexer:
        indexer = getattr(self._local, "indexer", None)
        if indexer is None:
            from .indexer import Indexer

            indexer = Indexer(self.paths, self.store, self.embedder, self.embedder_identity)
            self._local.indexer = indexer
        return indexer

    def _searcher(self) -> Searcher:
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            from .search import Searcher
            from .vectors import VectorIndex

            embedder = self.embedder()
            searcher = Searcher(self.paths, self.store, VectorIndex(self.store, embedder.dimension), embedder)
            self._local.searcher = searcher
        return searcher

    def _fold(self) -> None:
        """Merge the vector delta into the HNSW snapshot when it is due (cheap when not).

        The dimension comes from the stored vectors, so a no-change ``index`` never loads
        the embedder just to find out that nothing needs folding.
        """
        dimension = self.store.vectors.dimension()
        if dimension is None:
            return
        from .vectors import VectorIndex

        VectorIndex(self.store, dimension).fold()

    # ------------------------------------------------------------ index and search

    def index(self, rebuild: bool = False, progress: Callable[[int, int], Callable[[int], None]] | None = None) -> IndexReport:
        """Reconcile the derived index with the files (``rebuild``: drop it first)."""
        if rebuild:
            with self.store.meta.rebuilding():
                self._drop_derived()
                report = self.indexer.reconcile(progress, completes_rebuild=True)
            report.rebuilt = True
        else:
            from .storage import REBUILDING

            # Without flock a killed rebuild looks like a running one for ever: a plain
            # `index` someone runs by hand is then taken as its final pass.
            finishes = not self.store.meta.tells_dead_rebuilds and self.store.meta.get("indexed") == REBUILDING
            report = self.indexer.reconcile(progress, completes_rebuild=finishes)
        # Always: also heals a snapshot lost to a kill during the previous fold.
        self._fold()
        return report

    def _drop_derived(self) -> None:
        from .vectors import remove_files, snapshot_files

        # Only the files that exist before the drop: a snapshot another process publishes
        # right after it must not be deleted under the name SQLite now gives it.
        stale = snapshot_files(self.state_dir)
        self.store.drop_derived()
        remove_files(stale)
        self._local.searcher = None

    def is_indexed(self) -> bool:
        from .storage import DB_NAME

        if not (self.state_dir / DB_NAME).exists():
            return False  # do not create .vaultmem/ just to find out
        return self.store.meta.get("indexed") is not None

    def ensure_indexed(self) -> IndexReport | None:
        """Index a vault that has never been indexed; refuse vectors from another embedder."""
        if not self.is_indexed() or self.store.meta.rebuild_state() == "interrupted":
            # Never indexed, or an `index --rebuild` was killed half-way: without this its
            # partial index would answer every search as if it were complete. (The
            # reconcile takes the rebuild lock, so processes that see it at once queue.)
            return self.index()
        stored = self.store.meta.get("embedder")
        if stored is not None and stored != self.embedder_identity:
            raise DerivedIndexError(
                f"the index holds vectors from {stored}, but this vault now uses {self.embedder_identity}; "
                "run `vaultmem index` to re-embed (vectors are never mixed)"
            )
        return None

    def search(
        self,
        query: str,
        k: int = 10,
        layers: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        include_expired: bool = False,
        now: object = None,
    ) -> Hits:
        """Hybrid search; expired notes are hidden unless ``include_expired``.

        ``now`` evaluates expiry at another instant (preview what will still be recalled).
        """
        from .storage import Eligibility

        eligibility = Eligibility(
            now_us=to_epoch_us(resolve_now(now)),
            include_expired=include_expired,
            layers=tuple(sorted({normalize_layer(layer) for layer in layers or ()})),
            tags=tuple(tag.lstrip("#") for tag in tags or ()),
        )
        self.ensure_indexed()
        return self._searcher().search(query, k, eligibility)

    # ------------------------------------------------------------ notes

    def resolve(self, reference: str) -> NoteRow:
        """A NOTE argument → its index row.

        Accepts the id, the vault-relative path or the path without ``.md``; failing
        those, a bare file name that is unique in the vault (how [[wikilinks]] name notes).
        """
        reference = reference.strip()
        if not reference:
            raise NoteNotFound(reference)
        self.paths.resolve_inside(reference)  # '../x', '/etc/passwd', symlinks out: refused as given
        self.ensure_indexed()
        matches = self.store.notes.find(reference)
        if not matches:
            self._index_if_on_disk(reference)
            matches = self.store.notes.find(reference)
        if not matches and "/" not in reference:
            matches = self.store.notes.find_by_name(reference)  # a bare file name, as in [[name]]
        if not matches:
            raise NoteNotFound(reference, self.store.notes.similar_paths(reference.rsplit("/", 1)[-1].removesuffix(".md")))
        if len(matches) > 1:
            exact_path = [row for row in matches if row.path in (reference, reference + ".md")]
            if len(exact_path) == 1:
                return exact_path[0]
            raise AmbiguousNote(reference, [row.path for row in matches])
        return matches[0]

    def _index_if_on_disk(self, reference: str) -> None:
        relative = reference if reference.endswith(".md") else reference + ".md"
        if self.paths.is_note_path(relative) and self.paths.absolute(relative).is_file():
            self.indexer.sync_paths([relative])

    # ------------------------------------------------------------ check and stats

    def check(self, fix: bool = False, now: object = None) -> CheckReport:
        """Lint every note; ``fix`` applies only the safe, explicit fixes."""
        from .check import check_vault

        if fix:
            self._require_git_for_auto_commit()
        report = check_vault(self.paths, self.config.policy, fix=fix, now=now)
        fixed = sorted({applied.path for applied in report.fixed})
        if fixed and self.is_indexed():
            self.indexer.sync_paths(fixed)
        if fixed:
            lines = "\n".join(f"- {applied.path}: {applied.action}" for applied in report.fixed)
            report.commit = self._auto_commit(fixed, f"vaultmem check --fix: {len(report.fixed)} fix(es)\n\n{lines}")
        return report

    def stats(self, now: object = None) -> Stats:
        store = self.store
        now_us = to_epoch_us(resolve_now(now))
        snapshot = store.vectors.snapshot()
        return Stats(
            notes=store.notes.count(),
            by_layer=store.notes.layer_counts(),
            expired=store.notes.count_expired(now_us),
            with_problems=store.notes.count_with_problems(),
            index_bytes=sum(path.stat().st_size for path in self.state_dir.iterdir() if path.is_file()),
            embedder=store.meta.get("embedder"),
            dimension=store.vectors.dimension(),
            vectors_in_snapshot=store.vectors.count_up_to(snapshot.seq) if snapshot.file else 0,
            vectors_in_delta=store.vectors.count_after(snapshot.seq if snapshot.file else 0),
        )

    # ------------------------------------------------------------ live indexing (watch)
    # The watcher's logic is in watcher.py. These methods only hand it this Vault's
    # per-thread plumbing, so its worker thread opens (and closes) its own Store/Indexer.

    def watch(
        self,
        *,
        polling: bool = False,
        quiet: bool = False,
        on_change: Callable[[Change], None] | None = None,
        start: bool = True,
    ) -> Watcher:
        """Keep the index live while the vault is edited (background threads).

        ``with vault.watch() as watcher: ...`` or ``watcher = vault.watch(); ...;
        watcher.stop()``. With ``start`` (the default) the start-up reconcile is done
        when this returns. Each applied change goes to ``on_change`` (from the
        watcher's thread) and, unless ``quiet``, to the ``vaultmem.watcher`` log at INFO.
        ``polling`` uses watchdog's PollingObserver instead of inotify/FSEvents.
        """
        from .watcher import Watcher

        watcher = Watcher(
            self.paths,
            self.config.watch,
            indexer=lambda: self.indexer,
            fold=self._fold,
            release=self._release_thread_state,
            polling=polling,
            log_changes=not quiet,
            on_change=on_change,
        )
        return watcher.start() if start else watcher

    def _release_thread_state(self) -> None:
        """Close the calling thread's connection (a watcher's worker thread, as it ends)."""
        store = getattr(self._local, "store", None)
        if store is None:
            return
        with self._stores_lock:
            if store in self._stores:
                self._stores.remove(store)
        store.close()
        self._local.store = self._local.indexer = self._local.searcher = None

    # ------------------------------------------------------------ write path
    # Each method resolves its arguments, calls writer/usage/gitops, keeps the index in
    # step and, when the vault's config asks for it, commits exactly the files it touched.

    def remember(
        self,
        text: str,
        *,
        title: str | None = None,
        layer: str = "L2",
        tags: Iterable[str] = (),
        expires_at: object = None,
        ttl: str | None = None,
        permanent: bool = False,
        folder: str | None = None,
        now: object = None,
    ) -> Remembered:
        """Write a new note with the layer's policy applied; searchable when this returns."""
        from .lifecycle import format_timestamp
        from .writer import compose_note, target_folder, write_new_note

        self._require_git_for_auto_commit()
        self.ensure_indexed()  # before writing: an index that cannot take the note must fail first
        note = compose_note(text, title=title, layer=layer, tags=list(tags), expires_at=expires_at, ttl=ttl,
                            permanent=permanent, policy=self.config.policy, now=now)
        relative = write_new_note(self.paths, target_folder(self.paths, folder if folder is not None else self.config.remember_dir), note)
        self.indexer.sync_paths([relative])
        expires = note.meta.get("expires_at")
        commit = self._auto_commit([relative], f"vaultmem remember: {note.title}\n\nlayer {note.meta['layer']}, "
                                               f"expires {format_timestamp(expires) if expires else 'never'}")
        return Remembered(note.id, relative, note.title, note.meta["layer"],
                          format_timestamp(expires) if expires else None, list(note.meta["tags"]), commit,
                          self._similar_notes(relative, note.meta["layer"], now))

    def _similar_notes(self, relative: str, layer: str, now: object) -> list[dict[str, Any]]:
        """Live notes of the same layer that say nearly the same as the note just written
        (consolidate's threshold): the writer may have repeated a memory."""
        from .storage import Eligibility

        row = self.store.notes.by_path(relative)
        if row is None or row.label is None:
            return []  # another process removed or renamed it meanwhile: nothing to compare
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(now)), layers=(layer,))
        close = self._searcher().similar(row.label, self.config.consolidate.threshold, eligibility)
        return [{"id": other.id, "path": other.path, "title": other.title, "similarity": round(score, 3)} for other, score in close]

    def get(self, note: str, now: object = None) -> NoteView:
        """A note as it is on disk now, with whether (and when) it expired, and its usage."""
        from .lifecycle import is_absent
        from .notes import read_note

        row = self._resolve_on_disk(note)
        current = read_note(self.root, row.path)
        if current.content_hash != row.content_hash:
            self.indexer.sync_paths([row.path])
            row = self.resolve(row.path)
        usage = self.store.usage.for_ids([row.id]).get(row.id)
        expired = is_expired_us(row.expires_us, to_epoch_us(resolve_now(now)))
        return NoteView(
            id=row.id, path=row.path, title=row.title, layer=row.layer, tags=row.tags, created=row.created,
            expires_at=None if is_absent(current.expires_at) else row.expires_at, expired=expired,
            permanent=row.permanent, meta=_json_safe(current.meta), body=current.body, problems=row.problems,
            use_count=usage.use_count if usage else 0, last_used_at=usage.last_used_at if usage else None,
        )

    def _resolve_on_disk(self, note: str) -> NoteRow:
        """Resolve NOTE, making sure its file still exists (a stale index is caught up first)."""
        row = self.resolve(note)
        if not self.paths.absolute(row.path).is_file():
            self.indexer.sync_paths([row.path])  # the file moved or vanished since indexing
            row = self.resolve(note)
        return row

    def forget(self, note: str, hard: bool = False) -> Forgotten:
        """Archive a note (recoverable), or delete it with ``hard``; the index follows at once."""
        from .writer import archive_note, delete_note

        self._require_git_for_auto_commit()
        row = self._resolve_on_disk(note)
        if hard:
            try:
                delete_note(self.paths, row.path, row.content_hash)
            except WriteConflict:
                # The person's edit wins this time; the index now knows the file as it is,
                # so re-running the command acts on the current version, knowingly.
                self.indexer.sync_paths([row.path])
                raise
            archived = None
        else:
            archived = archive_note(self.paths, row.path)
        self.indexer.sync_paths([row.path])
        action = "deleted" if hard else f"archived to {archived}"
        commit = self._auto_commit([row.path] + ([archived] if archived else []), f"vaultmem forget: {row.title}\n\n{row.path} {action}")
        return Forgotten(row.id, row.path, archived, commit)

    def expire(self, apply: bool = False, hard: bool = False, now: object = None) -> ExpireReport:
        """List notes expired at ``now``; with ``apply`` archive them (``hard``: delete).

        Notes without ``expires_at``, permanent/L4 notes and unparseable expiries are never
        touched. Each file is re-read before it is moved: a note a person extended or edited
        since the index saw it is skipped, not archived.
        """
        from .lifecycle import is_expired
        from .notes import read_note

        self.index()
        moment = resolve_now(now)
        rows = self.store.notes.expired(to_epoch_us(moment))
        listed = [{"id": row.id, "path": row.path, "title": row.title, "layer": row.layer, "expires_at": row.expires_at} for row in rows]
        report = ExpireReport(listed, apply, hard, [])
        if not apply:
            return report
        self._require_git_for_auto_commit()
        touched: list[str] = []
        for row, entry in zip(rows, listed, strict=True):
            current = read_note(self.root, row.path)
            if current.content_hash != row.content_hash or current.permanent or not is_expired(current.expires_at, moment):
                report.skipped.append({"path": row.path, "reason": "changed on disk since it was indexed; run expire again"})
                continue
            entry["archived_to"] = self._remove_file(row, hard)
            touched += [row.path] + ([entry["archived_to"]] if entry["archived_to"] else [])
        self.indexer.sync_paths([row.path for row in rows])
        report.commit = self._auto_commit(touched, f"vaultmem expire: {len(rows) - len(report.skipped)} expired note(s) "
                                                   f"{'deleted' if hard else 'archived'}\n\nas of {moment.isoformat()}")
        return report

    def _remove_file(self, row: NoteRow, hard: bool) -> str | None:
        from .writer import archive_note, delete_note

        if hard:
            delete_note(self.paths, row.path, row.content_hash)
            return None
        return archive_note(self.paths, row.path)

    def mark_used(self, notes: Iterable[str], now: object = None) -> list[dict[str, Any]]:
        """Record that these notes were used (appeared in a result the agent acted on)."""
        from .lifecycle import format_timestamp

        resolved = [self.resolve(note) for note in notes]  # all resolved before anything is recorded
        rows = list({row.id: row for row in resolved}.values())  # 'Inbox' and 'Inbox.md' are one use
        moment = resolve_now(now)
        with self.store.transaction():
            self.store.usage.record([row.id for row in rows], format_timestamp(moment), to_epoch_us(moment))
        usage = self.store.usage.for_ids([row.id for row in rows])
        return [{"id": row.id, "path": row.path, "use_count": usage[row.id].use_count,
                 "last_used_at": usage[row.id].last_used_at} for row in rows]

    def stale(self, days: float = 42, layers: Iterable[str] | None = None, now: object = None,
              include_expired: bool = False) -> list[Any]:
        """Notes unused (or, never used, created) more than ``days`` ago; oldest first.

        Expired notes are left out unless ``include_expired``: they are hidden from every
        read path, and ``expire`` is the job that lists them.
        """
        from .storage import Eligibility
        from .usage import find_stale

        self.ensure_indexed()
        moment = resolve_now(now)
        wanted = tuple(sorted({normalize_layer(layer) for layer in layers or ()}))
        rows = self.store.notes.eligible(Eligibility(to_epoch_us(moment), include_expired, layers=wanted))
        usage = self.store.usage.for_ids([row.id for row in rows])
        return find_stale(rows, usage, days, moment)

    def usage_export(self) -> dict[str, Any]:
        from .usage import export_document

        return export_document(self.store.usage.all())

    def usage_import(self, document: Any) -> int:
        from .usage import parse_import

        rows = parse_import(document)
        with self.store.transaction():
            self.store.usage.replace(rows)
        return len(rows)

    def history(self, note: str) -> list[Any]:
        """Commits that touched the note, newest first, following renames."""
        from .gitops import history, require_repository

        require_repository(self.root)
        try:
            relative = self.resolve(note).path
        except NoteNotFound:
            # A note that is gone (deleted, archived) still has a history under its old path.
            relative = note if note.endswith(".md") else note + ".md"
        # Both branches: git must never be asked about a path outside the vault (in a vault
        # nested in a larger repository that would list the commits of the user's other files).
        self.paths.resolve_inside(relative)
        commits = history(self.root, relative)
        if not commits and not self.paths.absolute(relative).exists():
            raise NoteNotFound(note)
        return commits

    # ------------------------------------------------------------ consolidation

    def consolidate(
        self,
        threshold: float | None = None,
        window: int | None = None,
        all: bool = False,  # noqa: A002 - the contract's name for "the whole vault"
        apply: bool = False,
        include_expired: bool = False,
        now: object = None,
        plan: ConsolidationPlan | None = None,
    ) -> ConsolidationReport:
        """Cluster near-duplicate notes of one layer; ``apply`` merges each into its longest note.

        A dry run by default. ``plan`` applies the clusters of an earlier dry run
        (``report.plan``) instead of computing new ones; a cluster any of whose files
        changed since is skipped. See vaultmem/consolidate.py and adr/0010.
        """
        from .consolidate import apply_plan, make_scope, plan_consolidation

        scope = make_scope(self.config.consolidate, threshold, window, all, include_expired, resolve_now(now))
        if apply:
            self._require_git_for_auto_commit()
        self.index()
        plan = plan if plan is not None else plan_consolidation(self.store, self.paths, scope)
        if not apply:
            return plan.report()
        report = apply_plan(plan, self.paths)
        self.indexer.sync_paths(report.touched)
        report.commit = self._auto_commit(report.touched, report.commit_message())
        return report

    def _require_git_for_auto_commit(self) -> None:
        """Refuse a write up front when auto_commit cannot work, so nothing is half-done."""
        if self.config.auto_commit:
            from .gitops import is_repository

            if not is_repository(self.root):
                raise GitError(
                    "auto_commit is on in .vaultmem.toml but the vault is not a git repository; "
                    "run `git init` in the vault or set auto_commit = false (nothing was changed)"
                )

    def _auto_commit(self, relatives: list[str], message: str) -> str | None:
        """Commit exactly these paths when the vault's config turns auto_commit on."""
        if not self.config.auto_commit or not relatives:
            return None
        from .gitops import commit_paths

        try:
            return commit_paths(self.root, relatives, message)
        except GitError as error:
            raise GitError(f"the change was made ({', '.join(relatives)}) but not committed: {error}") from None


# ---------------------------------------------------------------- results of the write path


@dataclass(frozen=True)
class Remembered:
    id: str
    path: str
    title: str
    layer: str
    expires_at: str | None
    tags: list[str]
    commit: str | None = None
    similar: list[dict[str, Any]] = field(default_factory=list)  # notes that may say the same

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class NoteView:
    id: str
    path: str
    title: str
    layer: str | None
    tags: list[str]
    created: str | None
    expires_at: str | None
    expired: bool
    permanent: bool
    meta: dict[str, Any]
    body: str
    problems: list[dict[str, str]]
    use_count: int
    last_used_at: str | None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Forgotten:
    id: str
    path: str
    archived_to: str | None  # None when deleted with hard=True
    commit: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ExpireReport:
    expired: list[dict[str, Any]]
    applied: bool
    hard: bool
    skipped: list[dict[str, str]]
    commit: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _json_safe(value: Any) -> Any:
    from datetime import date, datetime

    if isinstance(value, dict):
        return {str(key): _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value
