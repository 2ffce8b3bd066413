"""``Vault``: the one object agents, the CLI and the MCP server talk to.

A thin facade: each method resolves its arguments, opens what it needs lazily and
calls one function of the layer below (indexer, search, check, …). Heavy modules
(numpy, hnswlib, the embedder) are imported only by the methods that need vectors, so
``vaultmem check`` or ``vaultmem get`` stay quick in a fresh process.

Thread use: SQLite connections and hnswlib readers are per thread (derived.py); one
``Vault`` may be shared by a watcher thread and request handlers. Every read that answers
from the index first brings it in line with the files, or proves it is
(``DerivedIndex.ensure_current``, freshness.py); every write to the vault's files goes
through one unit of work (unit_of_work.py): git check, act, index, commit. Every public
method is ``@heals``: a damaged index met part-way is rebuilt and the call runs again,
unless it had changed files (healing.py, adr/0022). Results are the dataclasses of results.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import DEFAULT_STALE_DAYS, STATE_DIR, VaultConfig, load_config
from .derived import DerivedIndex, Progress
from .errors import (
    ExcludedNote,
    IndexBusy,
    NoteNotFound,
    NoteReadError,
    NoteWritten,
    PathOutsideVault,
    UsageError,
    VaultmemError,
    WriteConflict,
)
from .healing import heals
from .lifecycle import normalize_layer, resolve_now, to_epoch_us
from .paths import VaultPaths
from .results import (
    ExpiredNote,
    ExpireReport,
    Forgotten,
    History,
    NoteRef,
    NoteView,
    Remembered,
    Revised,
    Skipped,
    Stats,
    UsedNote,
)
from .unit_of_work import VaultWrite, WritePath

if TYPE_CHECKING:
    from .check import CheckReport
    from .consolidate import ConsolidationPlan, ConsolidationReport
    from .embedders import Embedder
    from .explain import Explanation
    from .indexer import Indexer, IndexReport
    from .resolution import Located
    from .search import Hits
    from .storage import Eligibility, NoteRow, Store
    from .usage import StaleNotes
    from .watcher import Change, Watcher

__all__ = ["ExpireReport", "Forgotten", "NoteView", "Remembered", "Stats", "UsedNote", "Vault"]

# A search that finds files changed waits this long for another writer's lock to index them,
# then answers from the index as it is, with a warning (adr/0021); other commands wait 30 s.
SEARCH_LOCK_WAIT_SECONDS = 2.0


class Vault:
    """A Markdown vault and its derived index under ``<vault>/.vaultmem/``."""

    def __init__(self, path: str | os.PathLike[str], *, config: VaultConfig | None = None, embedder: Embedder | None = None) -> None:
        root = Path(path).expanduser()
        if not root.is_dir():
            raise VaultmemError(f"vault {str(root)!r} is not a folder; pass --vault PATH or set VAULTMEM_VAULT")
        self.root = root.absolute()
        self.config = config if config is not None else load_config(self.root)
        self.paths = VaultPaths(self.root, self.config.archive_dir, self.config.exclude)
        self.state_dir = self.root / STATE_DIR
        self.derived = DerivedIndex(self.paths, self.state_dir, self.config.embedder, self.config.watch, embedder)
        self._writes = WritePath(self.root, self.config.auto_commit, self.derived.sync, self.state_dir)

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every SQLite connection this Vault opened (from any thread)."""
        self.derived.close()

    # ------------------------------------------------------------ the derived index (derived.py)

    @property
    def store(self) -> Store:
        """This thread's connection to the index."""
        return self.derived.store

    @property
    def indexer(self) -> Indexer:
        return self.derived.indexer

    @property
    def embedder_identity(self) -> str:
        return self.derived.embedder_identity

    def embedder(self) -> Embedder:
        return self.derived.embedder()

    @heals
    def index(self, rebuild: bool = False, progress: Progress | None = None) -> IndexReport:
        """Reconcile the derived index with the files (``rebuild``: drop it first).

        Refused (``IndexNotWritable``) where the index cannot be written; the read commands
        that reconcile first (``expire``, ``consolidate`` dry runs) reconcile a private copy.
        """
        self.derived.require_writable()
        return self.derived.index(rebuild, progress)

    @heals
    def is_indexed(self) -> bool:
        return self.derived.is_indexed()

    @heals
    def ensure_indexed(self) -> IndexReport | None:
        """Index a vault that has never been indexed; refuse vectors from another embedder."""
        return self.derived.ensure_indexed()

    @heals
    def ensure_current(self) -> IndexReport | None:
        """Bring the index in line with the files (hand edits, new, deleted, renamed notes) or
        prove it is: what every read does before it answers (adr/0021). The changes applied."""
        return self.derived.ensure_current()

    # ------------------------------------------------------------ search

    @heals
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

        Answers from an index in line with the files at the time of the call, and each hit
        says what its file says (adr/0021). ``now`` evaluates expiry at another instant
        (preview what will still be recalled).
        """
        eligibility = _eligibility(layers, tags, include_expired, now)
        with self.store.waiting_at_most(SEARCH_LOCK_WAIT_SECONDS):
            busy = self._bring_current()
            hits = self.derived.searcher().search(query, k, eligibility)
        if busy is not None:
            hits.warn(str(busy))
        hits.warnings.extend(self.derived.after_search())  # read-only here, just healed, a snapshot rebuilt
        return hits

    def _bring_current(self) -> IndexBusy | None:
        """Bring the index in line with the files before a read answers (adr/0021); when a writer
        elsewhere holds the lock, the error to say so beside an answer given anyway."""
        try:
            self.ensure_current()
        except IndexBusy as error:
            return error
        return None

    @heals
    def explain(self, note: str, query: str, k: int = 10, layers: Iterable[str] | None = None,
                tags: Iterable[str] | None = None, include_expired: bool = False, now: object = None) -> Explanation:
        """Why ``note`` is or is not among the hits of ``search(query, k, …)`` with the same
        options: its rank and score on each side, its best passage, and every reason (explain.py)."""
        from .explain import explain_file, explain_row, indexed_row
        from .notes import read_note

        if not query.strip():
            raise UsageError("explain needs a QUERY with at least one word: the one search would answer")
        eligibility = _eligibility(layers, tags, include_expired, now)
        reference = note.strip()
        if not reference:
            raise NoteNotFound(reference)
        with self.store.waiting_at_most(SEARCH_LOCK_WAIT_SECONDS):
            busy = self._bring_current()  # as search does before it answers
            searcher = self.derived.searcher()
            row = indexed_row(searcher, reference, eligibility.now_us)
            if row is None:
                self.paths.resolve_inside(reference)  # a path that leaves the vault is refused, not looked at
                rebuilding = self.store.meta.rebuild_state() == "running"
                explanation = explain_file(self.paths, reference, query, k, rebuilding)
            else:
                try:
                    meta = read_note(self.root, row.path).meta
                except NoteReadError:
                    meta = {}  # gone since it was indexed: the ranking is the index's, which is what search answers from
                explanation = explain_row(searcher, row, meta, query, k, eligibility)
        if busy is not None:
            explanation.reasons.append(f"the index may not hold the latest edits yet: {busy}")
        return explanation

    # ------------------------------------------------------------ notes

    @heals
    def resolve(self, reference: str, *, refresh: bool = True) -> NoteRow:
        """A NOTE argument → its index row (see :meth:`locate`)."""
        return self.locate(reference, refresh=refresh).row

    @heals
    def locate(self, reference: str, now: object = None, *, refresh: bool = True) -> Located:
        """A NOTE argument → its index row, and how it was found when not by its own name.

        Tried in order (resolution.py, adr/0019): the id, the vault-relative path or the
        path without ``.md``; a bare file name unique in the vault (as in [[wikilinks]]);
        an id in a note's ``merged_from`` or ``supersedes``; a unique ``aliases`` entry; a
        unique exact title. An id is an opaque token matched exactly, before anything is
        read as a path: a note whose ``id`` is ``../x`` or ``/etc/passwd`` is reachable by
        it, and such a reference that names no note is refused as a path that leaves the vault.
        ``refresh`` (reads): first bring the index in line with the files (adr/0021); without
        it (writes that compare against what the index last saw) the index is taken as it is.
        """
        from .resolution import Located, locate_by_names, pick_direct

        reference = reference.strip()
        if not reference:
            raise NoteNotFound(reference)
        indexed = self.is_indexed()
        if indexed:
            if refresh:
                self.ensure_current()  # before the id match too: the row must be the file's as it is now
            else:
                self.ensure_indexed()
            by_id = [row for row in self.store.notes.find(reference) if row.id == reference]
            if len(by_id) == 1:
                return Located(by_id[0])
        moment_us = to_epoch_us(resolve_now(now))
        try:
            self.paths.resolve_inside(reference)  # '../x', '/etc/passwd', symlinks out: refused as given
        except PathOutsideVault:
            # Not a path in the vault; it may still be a merged id, an alias or a title. Only
            # the index is asked: nothing is read at the path it spells.
            located = locate_by_names(self.store.notes, reference, moment_us) if indexed else None
            if located is None:
                raise
            return located
        if not indexed:
            self.ensure_indexed()  # a first index: in line with the files as it is made
        notes = self.store.notes
        matches = notes.find(reference)
        if not matches:
            self._index_if_on_disk(reference)
            matches = notes.find(reference)
        if not matches and "/" not in reference:
            matches = notes.find_by_name(reference)  # a bare file name, as in [[name]]
        if matches:
            return Located(pick_direct(reference, matches))
        located = locate_by_names(notes, reference, moment_us)
        if located is None:
            self._refuse_if_excluded(reference)
            raise NoteNotFound(reference, notes.similar_paths(reference.rsplit("/", 1)[-1].removesuffix(".md")))
        return located

    def _refuse_if_excluded(self, reference: str) -> None:
        """An excluded file named by its path gets an error that says so (not "no such note")."""
        relative = reference if reference.endswith(".md") else reference + ".md"
        rule = self.paths.exclusion_rule(relative)
        if rule is not None and self.paths.absolute(relative).is_file():
            raise ExcludedNote(reference, relative, rule)

    def _index_if_on_disk(self, reference: str) -> None:
        relative = reference if reference.endswith(".md") else reference + ".md"
        if self.paths.is_note_path(relative) and self.paths.absolute(relative).is_file():
            self.indexer.sync_paths([relative])

    def _locate_on_disk(self, note: str, refresh: bool = True) -> Located:
        """Locate NOTE, making sure its file still exists. ``refresh=False`` (writes): locate in
        the index as it last saw the files, so a file changed since is refused (WriteConflict)."""
        located = self.locate(note, refresh=refresh)
        if not self.paths.absolute(located.row.path).is_file():
            self.indexer.sync_paths([located.row.path])  # the file moved or vanished a moment ago
            located = self.locate(note, refresh=False)
        return located

    @heals
    def get(self, note: str, now: object = None) -> NoteView:
        """A note as it is on disk now, with whether (and when) it expired, what superseded
        it, its ``version`` and its usage."""
        from .notes import read_note, text_values

        located = self._locate_on_disk(note)
        row = located.row
        current = read_note(self.root, row.path)
        if current.content_hash != row.content_hash:
            self.indexer.sync_paths([row.path])  # written a moment ago
            row = self.resolve(row.path, refresh=False)
        successor = text_values(current.meta, "superseded_by")
        return NoteView.of(row, current, self.store.usage.for_ids([row.id]).get(row.id), to_epoch_us(resolve_now(now)),
                           superseded_by=self._note_ref(successor[0]) if successor else None,
                           resolved_from=located.resolved_from)

    def _note_ref(self, ident: str) -> NoteRef:
        """An id and, while that note is in the vault, its path."""
        rows = self.store.notes.find(ident)
        return NoteRef(ident, rows[0].path if len(rows) == 1 else None)

    @heals
    def history(self, note: str) -> History:
        """Commits that touched the note, newest first, following renames."""
        from .gitops import history, require_repository

        require_repository(self.root)
        resolved_from = None
        try:
            located = self.locate(note)
            relative, resolved_from = located.row.path, located.resolved_from
        except NoteNotFound:
            # A note that is gone (deleted, archived) still has a history under its old path.
            relative = note if note.endswith(".md") else note + ".md"
        # Both branches: git must never be asked about a path outside the vault (in a vault
        # nested in a larger repository that would list the commits of the user's other files).
        self.paths.resolve_inside(relative)
        commits = history(self.root, relative)
        if not commits and not self.paths.absolute(relative).exists():
            raise NoteNotFound(note)
        return History(commits, relative, resolved_from)

    # ------------------------------------------------------------ check and stats

    @heals
    def check(self, fix: bool = False, now: object = None) -> CheckReport:
        """Lint every note; ``fix`` applies only the safe, explicit fixes."""
        from .check import check_vault

        if not fix:
            return check_vault(self.paths, self.config.policy, fix=False, now=now)
        with self._writing("check --fix") as write:
            report = check_vault(self.paths, self.config.policy, fix=True, now=now)
            write.record(*report.changes)
            lines = "\n".join(f"- {applied.path}: {applied.action}" for applied in report.fixed)
            write.message = f"vaultmem check --fix: {len(report.fixed)} fix(es)\n\n{lines}"
        report.commit, report.not_committed = write.commit, write.not_committed
        return report

    @heals
    def stats(self, now: object = None) -> Stats:
        """Notes by layer, expired at ``now``, problems, index size, embedder (of an index in line with the files)."""
        self.ensure_current()
        return Stats.of(self.store, to_epoch_us(resolve_now(now)))

    # ------------------------------------------------------------ live indexing (watch)

    @heals
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
        watcher's thread, or from a reader's that applied it first) and, unless ``quiet``,
        to the ``vaultmem.watcher`` log at INFO. ``polling`` uses watchdog's
        PollingObserver instead of inotify/FSEvents. The watcher's worker thread opens (and
        closes) its own Store/Indexer. While it runs, this Vault's reads settle it instead
        of walking the vault, and reads in other processes fence it (adr/0021).
        """
        from .watcher import Watcher

        watcher = Watcher(
            self.paths,
            self.config.watch,
            indexer=lambda: self.indexer,
            fold=self.derived.fold,
            release=self.derived.release_thread,
            heal=self.derived.heal_if_damaged,
            polling=polling,
            log_changes=not quiet,
            on_change=on_change,
        )
        self.derived.freshness.attach(watcher)
        return watcher.start() if start else watcher

    # ------------------------------------------------------------ writes to the vault's files

    def _writing(self, operation: str) -> AbstractContextManager[VaultWrite]:
        """The unit of work every write takes: git check → act → index → commit."""
        self.derived.require_writable()  # an index that cannot be written refuses before anything is
        return self._writes.begin(operation)

    @heals
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
        supersedes: Iterable[str] = (),
        now: object = None,
    ) -> Remembered:
        """Write a new note with the layer's policy applied; searchable when this returns.

        ``supersedes``: notes this one replaces; each is retired at once (``superseded_by``
        and ``expires_at`` = now) and hidden from recall (supersede.py).
        """
        from .lifecycle import format_timestamp
        from .noteio import FileChange
        from .notes import content_hash, parse_note, version_of
        from .storage import Eligibility
        from .supersede import lineage, plan_retirement, retire
        from .writer import compose_note, delete_note, target_folder, write_new_note

        with self._writing("remember") as write:
            self.ensure_indexed()  # before writing: an index that cannot take the note must fail first
            olds = list({row.path: row for row in (self._locate_on_disk(old, refresh=False).row for old in supersedes)}.values())
            raws = {row.path: self.paths.resolve_inside(row.path).read_bytes() for row in olds}
            note = compose_note(text, title=title, layer=layer, tags=list(tags), expires_at=expires_at, ttl=ttl,
                                permanent=permanent, policy=self.config.policy, now=now,
                                supersedes=lineage([parse_note(path, raw) for path, raw in raws.items()]))
            retirements = [plan_retirement(path, raw, note.id, note.meta["created"]) for path, raw in raws.items()]
            folder = target_folder(self.paths, folder if folder is not None else self.config.remember_dir)
            relative = write_new_note(self.paths, folder, note)
            write.record(FileChange(relative, None, note.render()))
            write.reindex(*raws)  # also when a retirement fails: the index follows the files
            write.record(*retire(self.paths, retirements, lambda: delete_note(self.paths, relative, content_hash(note.render()))))
            expires = note.meta.get("expires_at")
            retired = "".join(f"\nsupersedes {path}" for path in raws)
            write.message = (f"vaultmem remember: {note.title}\n\nlayer {note.meta['layer']}, "
                             f"expires {format_timestamp(expires) if expires else 'never'}{retired}")
        # Live notes of the same layer that say nearly the same (consolidate's threshold):
        # the writer may have repeated a memory. Named from an index in line with the files.
        self.ensure_current()
        alive_in_layer = Eligibility(now_us=to_epoch_us(resolve_now(now)), layers=(note.meta["layer"],))
        try:
            similar = self.derived.searcher().similar_notes(relative, self.config.consolidate.threshold, alive_in_layer)
        except Exception as error:  # the note is written: a retry must not write it again
            raise NoteWritten([relative], "remember", error) from error
        return Remembered(id=note.id, path=relative, title=note.title, layer=note.meta["layer"],
                          expires_at=format_timestamp(expires) if expires else None, tags=list(note.meta["tags"]),
                          version=version_of(content_hash(note.render())), commit=write.commit, similar=similar,
                          not_committed=write.not_committed,
                          supersedes=[NoteRef(item.note.id, item.path) for item in retirements])

    @heals
    def revise(
        self,
        note: str,
        text: str | None = None,
        append: str | None = None,
        title: str | None = None,
        layer: str | None = None,
        ttl: str | None = None,
        expires_at: object = None,
        permanent: bool | None = None,
        add_tags: Iterable[str] = (),
        remove_tags: Iterable[str] = (),
        if_version: str | None = None,
        now: object = None,
    ) -> Revised:
        """Change a note in place, keeping its id, path, usage and other keys (revision.py).

        ``text`` replaces the body, ``append`` adds a paragraph at its end; a layer change
        without ``ttl``/``expires_at`` re-applies the new layer's policy from ``now``.
        ``if_version``: refuse with :class:`WriteConflict` unless the file is still at that
        version (a person edited it since the caller read it). Contradictions and an empty
        revision are :class:`UsageError` and change nothing.
        """
        from .revision import Revision, write_revision

        revision = Revision.of(text=text, append=append, title=title, layer=layer, ttl=ttl, expires_at=expires_at,
                               permanent=permanent, add_tags=add_tags, remove_tags=remove_tags, if_version=if_version,
                               now=now)
        with self._writing("revise") as write:
            located = self._locate_on_disk(note, refresh=False)
            write.reindex(located.row.path)  # also when refused: the index learns the file as it is now
            revised = write_revision(self.paths, located.row.path, revision, self.config.policy)
            if revised.change is not None:
                write.record(revised.change)
                write.message = f"vaultmem revise: {revised.title_before}\n\n{revised.path}: {', '.join(revised.changed)}"
        return Revised.of(revised.after, revised.changed, write.commit, write.not_committed, located.resolved_from)

    @heals
    def forget(self, note: str, hard: bool = False) -> Forgotten:
        """Archive a note (recoverable), or delete it with ``hard``; the index follows at once."""
        with self._writing("forget") as write:
            located = self._locate_on_disk(note, refresh=False)
            row = located.row
            # Indexed again even when the delete is refused (WriteConflict): the person's edit
            # wins this time, and re-running the command acts on the current version, knowingly.
            write.reindex(row.path)
            archived = self._remove_file(row, hard, write)
            write.message = f"vaultmem forget: {row.title}\n\n{row.path} {'deleted' if hard else f'archived to {archived}'}"
        return Forgotten(row.id, row.path, archived, write.commit, write.not_committed, located.resolved_from)

    def _remove_file(self, row: NoteRow, hard: bool, write: VaultWrite) -> str | None:
        """Archive the note's file (its new path) or, with ``hard``, delete it (``None``) —
        only if it is still the version indexed (else ``WriteConflict``, the file as it is)."""
        from .writer import archive_note, delete_note

        if hard:
            write.record(delete_note(self.paths, row.path, row.content_hash))
            return None
        archived, changes = archive_note(self.paths, row.path, row.content_hash)
        write.record(*changes)
        return archived

    @heals
    def expire(self, apply: bool = False, hard: bool = False, now: object = None) -> ExpireReport:
        """List notes expired at ``now``; with ``apply`` archive them (``hard``: delete).

        Notes without ``expires_at``, permanent/L4 notes and unparseable expiries are never
        touched. Each file is re-read before it is moved: a note a person extended or edited
        since the index saw it is skipped, not archived.
        """
        self.derived.index()
        moment = resolve_now(now)
        rows = self.store.notes.expired(to_epoch_us(moment))
        report = ExpireReport([ExpiredNote(row.id, row.path, row.title, row.layer, row.expires_at) for row in rows], apply, hard)
        if not apply:
            return report
        with self._writing("expire") as write:
            write.reindex(*(row.path for row in rows))
            for row, entry in zip(rows, report.expired, strict=True):
                if (reason := self._not_to_expire(row, moment)) is not None:
                    report.skipped.append(Skipped(row.path, reason))
                    continue
                try:
                    entry.archived_to, entry.removed = self._remove_file(row, hard, write), True
                except (WriteConflict, PathOutsideVault) as error:
                    # Edited while being archived: the person's version stays, the others go on.
                    report.skipped.append(Skipped(row.path, str(error)))
            write.message = (f"vaultmem expire: {len(rows) - len(report.skipped)} expired note(s) "
                             f"{'deleted' if hard else 'archived'}\n\nas of {moment.isoformat()}")
        report.commit, report.not_committed = write.commit, write.not_committed
        return report

    def _not_to_expire(self, row: NoteRow, moment: object) -> str | None:
        """Why this expired note must not be moved now, or ``None``: the file is still the one
        indexed, still expired (not extended, not made permanent) and its metadata loads."""
        from .lifecycle import is_expired
        from .notes import read_note

        current = read_note(self.root, row.path)
        if current.content_hash != row.content_hash or current.permanent or not is_expired(current.expires_at, moment):
            return "changed on disk since it was indexed; run expire again"
        if current.metadata_unloaded:
            # Its expiry was read line by line from YAML that does not load: enough to hide
            # it, not enough to act on the file. The person fixes the YAML first.
            return "its frontmatter does not load (see `vaultmem check`); fix the YAML, then run expire again"
        return None

    @heals
    def consolidate(
        self,
        threshold: float | None = None,
        window: int | None = None,
        all: bool = False,  # noqa: A002 - the contract's name for "the whole vault"
        apply: bool = False,
        include_expired: bool = False,
        now: object = None,
        plan: ConsolidationPlan | None = None,
        any_note: bool = False,
    ) -> ConsolidationReport:
        """Cluster near-duplicate memories of one layer; ``apply`` merges each into its longest note.

        Only notes that carry a ``layer`` (memories) are considered; ``any_note`` widens the
        scope to the person's own notes too. A dry run by default. ``plan`` applies the
        clusters of an earlier dry run (``report.plan``) instead of computing new ones; a
        cluster any of whose files changed since is skipped. See consolidate.py, merge_apply.py and adr/0010.
        """
        from .consolidate import make_scope, plan_consolidation
        from .merge_apply import apply_plan

        scope = make_scope(self.config.consolidate, threshold, window, all, include_expired, resolve_now(now), any_note)
        if not apply:
            self.derived.index()
            return (plan if plan is not None else plan_consolidation(self.store, self.paths, scope)).report()
        with self._writing("consolidate") as write:
            self.derived.index()
            report = apply_plan(plan if plan is not None else plan_consolidation(self.store, self.paths, scope), self.paths)
            write.record(*report.changes)
            write.message = report.commit_message()
        report.commit, report.not_committed = write.commit, write.not_committed
        return report

    # ------------------------------------------------------------ usage history (usage.py; not a file write)

    @heals
    def mark_used(self, notes: Iterable[str], now: object = None) -> list[UsedNote]:
        """Record that these notes were used (appeared in a result the agent acted on)."""
        from .lifecycle import format_timestamp

        self.ensure_current()  # once for all of them
        moment = resolve_now(now)
        resolved = [self.locate(note, moment, refresh=False) for note in notes]  # all before anything is recorded
        located: dict[str, Located] = {}
        for item in resolved:
            located.setdefault(item.row.id, item)  # 'Inbox' and 'Inbox.md' are one use
        ids = list(located)
        with self.store.transaction():
            self.store.usage.record(ids, format_timestamp(moment), to_epoch_us(moment))
        usage = self.store.usage.for_ids(ids)
        return [UsedNote(item.row.id, item.row.path, usage[item.row.id].use_count, usage[item.row.id].last_used_at,
                         item.resolved_from) for item in located.values()]

    @heals
    def stale(self, days: float = DEFAULT_STALE_DAYS, layers: Iterable[str] | None = None, now: object = None,
              include_expired: bool = False) -> StaleNotes:
        """Notes unused (or, never used, created) more than ``days`` ago; oldest first.

        Expired notes are left out unless ``include_expired``: they are hidden from every
        read path, and ``expire`` is the job that lists them. ``result.left_out`` counts the
        notes not listed, by reason.
        """
        from .storage import Eligibility
        from .usage import find_stale

        self.ensure_current()
        moment = resolve_now(now)
        wanted = tuple(sorted({normalize_layer(layer) for layer in layers or ()}))
        # Expired notes are read too, only to be counted as left out (find_stale).
        rows = self.store.notes.eligible(Eligibility(to_epoch_us(moment), include_expired=True, layers=wanted))
        usage = self.store.usage.for_ids([row.id for row in rows])
        return find_stale(rows, usage, days, moment, include_expired)

    @heals
    def usage_export(self) -> dict[str, Any]:
        from .usage import export_document

        return export_document(self.store.usage.all())

    @heals
    def usage_import(self, document: Any) -> int:
        from .usage import parse_import

        rows = parse_import(document)
        with self.store.transaction():
            self.store.usage.replace(rows)
        return len(rows)


def _eligibility(layers: Iterable[str] | None, tags: Iterable[str] | None, include_expired: bool, now: object) -> Eligibility:
    """The read-time filters of a search (and of ``explain``, which must agree with it)."""
    from .storage import Eligibility

    return Eligibility(
        now_us=to_epoch_us(resolve_now(now)),
        include_expired=include_expired,
        layers=tuple(sorted({normalize_layer(layer) for layer in layers or ()})),
        tags=tuple(tag.lstrip("#") for tag in tags or ()),
    )
