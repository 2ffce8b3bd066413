"""``Vault``: the one object agents, the CLI and the MCP server talk to.

A thin facade: each method resolves its arguments, opens what it needs lazily and
calls one function of the layer below — the index's lifecycle (derived.py), search,
explain, naming a note (resolution.py), ``get``/``history`` (reading.py), ``remember``
(remembering.py), ``revise`` (revision.py), ``forget`` (writer.py), ``expire``
(expiring.py), ``consolidate`` (consolidate.py, merge_apply.py), ``check``, usage
(usage.py). Heavy modules (numpy, hnswlib, the embedder) are imported only by the
methods that need vectors, so ``vaultmem check`` or ``vaultmem get`` stay quick in a
fresh process.

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
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar

from .config import DEFAULT_STALE_DAYS, STATE_DIR, VaultConfig, load_config
from .derived import DerivedIndex, IndexWaitShown, Progress
from .errors import Argument, GitError, UsageError
from .healing import heals
from .lifecycle import resolve_now, to_epoch_us
from .option_names import Surface, option_names
from .paths import VaultPaths
from .results import (
    ExpiredNote,
    ExpireReport,
    Forgotten,
    History,
    NoteView,
    Remembered,
    Revised,
    Stats,
    UsedNote,
)
from .text_arguments import takes_text
from .unit_of_work import VaultWrite, WritePath

if TYPE_CHECKING:
    from .check import CheckReport
    from .consolidate import ConsolidationPlan, ConsolidationReport
    from .embedders import Embedder
    from .explain import Explanation
    from .indexer import Indexer, IndexReport
    from .resolution import Located
    from .search import Hits, Listing
    from .storage import NoteRow, Store
    from .tasks import TaskList
    from .usage import StaleNotes
    from .watcher import Change, Watcher

__all__ = ["ExpireReport", "Forgotten", "NoteView", "Remembered", "Stats", "UsedNote", "Vault"]

# A search that finds files changed waits this long for another writer's lock to index them,
# then answers from the index as it is, with a warning (adr/0021); other commands wait 30 s.
SEARCH_LOCK_WAIT_SECONDS = 2.0


class Vault:
    """A Markdown vault and its derived index under ``<vault>/.vaultmem/``."""

    def __init__(self, path: str | os.PathLike[str], *, config: VaultConfig | None = None, embedder: Embedder | None = None,
                 on_index_wait: IndexWaitShown | None = None) -> None:
        """``on_index_wait``: told when a call must index before it answers (a vault never indexed,
        one made by an earlier vaultmem: index_progress.IndexWait), as the reading starts; it
        returns what to call with each count of notes read. Unset, the wait is only logged
        (logger ``vaultmem``, INFO): the library prints nothing."""
        if embedder is not None:
            _require_embedder(embedder)
        root = Path(path).expanduser()
        if not root.is_dir():
            # The path given for the vault is wrong: a usage error (the CLI exits 2, as for any bad option).
            what = "is a file, not a folder" if root.exists() else "is not a folder (it does not exist)"
            raise UsageError(f"vault {str(root)!r} {what}{_read_from_here(root)}; pass the vault's folder: --vault PATH "
                             "or VAULTMEM_VAULT")
        self.root = root.absolute()
        self.config = config if config is not None else load_config(self.root)
        self.config_from_file = config is None  # check compares the file with it (a long-running server's)
        self.paths = VaultPaths(self.root, self.config.archive_dir, self.config.exclude, self.config.dates)
        self.state_dir = self.root / STATE_DIR
        self.derived = DerivedIndex(self.paths, self.state_dir, self.config.embedder, self.config.watch, embedder,
                                    on_index_wait)
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
        from .archived_twins import archive_problems

        self.derived.require_writable()
        report = self.derived.index(rebuild, progress)
        # Not a note's problem, so the reconcile never meets it: a change git merged into an
        # archived note is in the vault and never found by search (archive_edits.py); a file
        # archived where the archive folder was before archive_dir changed is an ordinary note to
        # it, a forgotten memory recalled again; so is a forgotten note a person's merge brought
        # back, live and archived too (archived_twins.py: by file name only, as check reads all).
        report.problems.extend(archive_problems(self.paths, self.store.notes.file_stats(), self.store.notes.paths_by_id))
        return report

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

    @takes_text()
    @heals
    def search(
        self,
        query: str,
        k: int = 10,
        layers: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        include_expired: bool = False,
        now: object = None,
        since: str | None = None,
        until: str | None = None,
    ) -> Hits:
        """Hybrid search; expired notes are hidden unless ``include_expired``.

        Answers from an index in line with the files at the time of the call, and each hit
        says what its file says (adr/0021). ``now`` evaluates expiry at another instant
        (preview what will still be recalled): a time, or ``tomorrow``, ``+7d``
        (lifecycle.resolve_now). ``since`` / ``until`` keep the notes whose date (its
        ``date``, a date in its file name, or its ``created``: dating.py) is in that range:
        ISO dates or times, periods (``2026-11``, ``last week``), or durations back from now
        (``7d``). A search by date that comes back short says in its warnings how many dated
        notes fall outside the range.
        """
        from .query_periods import period_hint
        from .search import require_hit_count, require_query_text, search_filters, weekdays_said

        require_query_text(query, "a search")
        require_hit_count(k)
        eligibility = search_filters(_names("layers", layers), _names("tags", tags), include_expired, now, since, until,
                                     self.paths.daily.week_start)
        with self.store.waiting_at_most(SEARCH_LOCK_WAIT_SECONDS):
            busy = self.derived.bring_current()
            hits = self.derived.searcher().search(query, k, eligibility)
            empty = None if hits or busy is not None else self._no_notes_yet()
        if busy is not None:
            hits.warn(str(busy))
        if empty is not None:
            hits.warn(empty)
        # First: the days searched, or the period the words name that no range searched (a hint, not a filter).
        hint = period_hint(query, since, until, [name for hit in hits for name in (hit.title, PurePosixPath(hit.path).stem)])
        hits.warnings[:0] = [*([] if hint is None else [hint]), *weekdays_said(now, since, until, self.paths.daily.week_start)]
        hits.warnings.extend(self.derived.after_search())  # read-only here, just healed, a snapshot rebuilt
        return hits

    @takes_text()
    @heals
    def list_notes(self, k: int = 20, layers: Iterable[str] | None = None, tags: Iterable[str] | None = None,
                   include_expired: bool = False, now: object = None, since: str | None = None,
                   until: str | None = None, offset: int = 0) -> Listing:
        """The notes that pass the filters of :meth:`search` (the same arguments, without a
        query), by date: newest first, then the notes with no date, most recently modified
        first. ``k`` notes at most, from the ``offset``-th on (the next part of a long list);
        ``listing.more`` says how many more passed after them. Expired notes are hidden
        unless ``include_expired``, as on every read path."""
        from .search import require_hit_count, require_offset, search_filters, weekdays_said

        require_hit_count(k)
        require_offset(offset)
        eligibility = search_filters(_names("layers", layers), _names("tags", tags), include_expired, now, since, until,
                                     self.paths.daily.week_start)
        with self.store.waiting_at_most(SEARCH_LOCK_WAIT_SECONDS):
            busy = self.derived.bring_current()
            listing = self.derived.searcher().listing(k, eligibility, offset)
            empty = None if listing or busy is not None else self._no_notes_yet()
        if offset and not listing:
            # An empty part past the end read as "no notes": say where the end is.
            raise UsageError(Argument("offset", flag="--offset"), f" {offset} is past the end of the list "
                             f"({listing.passed} note(s) pass the filters); "
                             "pass a smaller offset, or 0 for the start")
        if busy is not None:
            listing.warnings.append(str(busy))
        if empty is not None:
            listing.warnings.append(empty)
        listing.warnings[:0] = weekdays_said(now, since, until, self.paths.daily.week_start)  # first: the days listed
        listing.warnings.extend(self.derived.after_search())
        return listing

    def _no_notes_yet(self) -> str | None:
        """An empty answer from a vault that holds no note at all says so: a first-time user's agent
        read ``{"hits": [], "warnings": []}`` as "nothing about that", the same as in a vault of
        thousands (s35 trial). Not said while an index is being built: the notes may not be in yet."""
        if self.store.notes.count_at_most(1):
            return None
        return (f"the vault holds no notes yet ({self.root} has no Markdown note vaultmem reads): nothing to "
                "find; what you remember from now on is kept there")

    @takes_text()
    @heals
    def tasks(self, status: str | None = None, due_since: str | None = None, due_until: str | None = None,
              done_since: str | None = None, done_until: str | None = None, tags: Iterable[str] | None = None,
              query: str | None = None, k: int = 50, include_expired: bool = False, now: object = None,
              offset: int = 0) -> TaskList:
        """The vault's tasks (list items with a box, tasks.py), by due day, then path and line.

        ``status``: ``open`` (the default; ``done`` when a done bound is given), ``done``,
        ``cancelled``, ``all``, or ``overdue`` (open, due before today). The bounds are read as
        :meth:`search`'s ``since``/``until`` (``this week`` in the vault's week, ``next week``,
        ``2025-12``, an ISO day) and held against the task's due or done day. ``tags``: each
        carried by the task's line or its note. ``query``: the question as asked; its periods,
        status words and words of asking are read as such (task_query.py; ``read`` says how),
        each other word is in the task's words, its note's title or its lane, in any case; words
        that contradict an argument are refused. Tasks of expired notes are hidden unless
        ``include_expired``; ``k`` at most from the ``offset``-th (the next part of a long list),
        ``more`` says how many more passed after them."""
        from .search import require_offset
        from .task_settings import load_task_rules
        from .tasks import TaskQuestion, find_tasks, task_filter

        require_offset(offset)
        named = _names("tags", tags)
        question = TaskQuestion(status=status, due_since=due_since, due_until=due_until, done_since=done_since,
                                done_until=done_until, tags=tuple(named or ()), query=query, k=k)
        rules, unread = load_task_rules(self.root)  # the Tasks plugin's settings, as they are now
        asked = task_filter(question, resolve_now(now), self.paths.daily.week_start, include_expired, rules)  # refused before indexing
        with self.store.waiting_at_most(SEARCH_LOCK_WAIT_SECONDS):
            busy = self.derived.bring_current()
            found = find_tasks(self.store, asked, k, offset)
            if not found and asked.as_text is not None:
                # A word read as a status or a day may be the task's own ("complete onboarding",
                # "sunday school"): nothing matched as read, so the words are asked as text.
                literal = task_filter(replace(question, query=asked.as_text), resolve_now(now), self.paths.daily.week_start,
                                      include_expired, rules)
                as_text = find_tasks(self.store, literal, k, offset)
                if as_text:
                    as_text.warnings.insert(0, f"no task matched the query as read ({asked.read}); these hold its words "
                                               "as text")
                    found = as_text
        if busy is not None:
            found.warnings.append(str(busy))
        found.warnings.extend(unread)
        found.warnings.extend(self.derived.after_search())
        return found

    @takes_text()
    @heals
    def explain(self, note: str, query: str, k: int = 10, layers: Iterable[str] | None = None,
                tags: Iterable[str] | None = None, include_expired: bool = False, now: object = None,
                since: str | None = None, until: str | None = None, surface: Surface = Surface.API) -> Explanation:
        """Why ``note`` is or is not among the hits of ``search(query, k, …)`` with the same
        options: its rank and score on each side, its best passage, and every reason (explain.py).
        A reason names an option as ``surface`` spells it: these keywords (``include_expired=True``)
        unless a shell says it is the command line or the MCP server (option_names.py)."""
        from .explain import explain_note

        return explain_note(self.derived, note, query, k, layers=_names("layers", layers), tags=_names("tags", tags),
                            include_expired=include_expired,
                            now=now, since=since, until=until, lock_wait_seconds=SEARCH_LOCK_WAIT_SECONDS,
                            names=option_names(surface))

    # ------------------------------------------------------------ notes

    @takes_text()
    @heals
    def resolve(self, reference: str, *, refresh: bool = True) -> NoteRow:
        """A NOTE argument → its index row (see :meth:`locate`)."""
        return self.locate(reference, refresh=refresh).row

    @takes_text()
    @heals
    def locate(self, reference: str, now: object = None, *, refresh: bool = True) -> Located:
        """A NOTE argument → its index row, and how it was found when not by its own name.

        Tried in order (resolution.py, adr/0019): the id, the vault-relative path or the
        path without ``.md``; a bare file name, in any case, unique in the vault (as in
        [[wikilinks]]); an id in a note's ``merged_from`` or ``supersedes``; a unique alias
        (``aliases`` or ``alias``, a list or a comma-separated string), in any case, a
        permalink or a citekey (``notes.CITEKEY_KEYS``, with or without its ``@``); a
        unique title, in any case. When other notes answer to the reference too (by a file name,
        alias or title; not to an id or path given exactly), ``resolved_from.others`` names them:
        a read takes the first step's note, the writes refuse (``resolution.sole``). An id is an opaque token matched exactly, before anything is
        read as a path: a note whose ``id`` is ``../x`` or ``/etc/passwd`` is reachable by
        it, and such a reference that names no note is refused as a path that leaves the vault.
        ``refresh`` (reads): first bring the index in line with the files (adr/0021); without
        it (writes that compare against what the index last saw) the index is taken as it is.
        """
        from .resolution import locate

        return locate(self.derived, reference, now, refresh=refresh)

    @takes_text()
    @heals
    def get(self, note: str, now: object = None) -> NoteView:
        """A note as it is on disk now, with whether (and when) it expired, what superseded
        it, its ``version`` and its usage (reading.py). A file in the archive folder named by its
        path there (``_archive/memories/x.md``) is read too, read-only, with ``archived=True``
        (adr/0002 "Reading the archive"); every write to it raises :class:`ArchivedNote`."""
        from .reading import view_note

        return view_note(self.derived, note, now)

    @takes_text()
    @heals
    def history(self, note: str) -> History:
        """Commits that touched the note, newest first, following renames (reading.py)."""
        from .reading import note_history

        return note_history(self.derived, note)

    # ------------------------------------------------------------ check and stats

    def check_settings(self) -> None:
        """Raise the :class:`ConfigError` another command would raise on a setting read only
        when it is used (the embedder: its name, argument and model folder), without using
        it: no model is loaded."""
        from .config import check_embedder_name

        check_embedder_name(self.config.embedder, self.root)

    @takes_text()
    @heals
    def check(self, fix: bool = False, now: object = None) -> CheckReport:
        """Lint every note; ``fix`` applies only the safe, explicit fixes.

        A setting every other call would refuse (:meth:`check_settings`, or a ``.vaultmem.toml``
        changed since this Vault read it into one that does not load) is the one problem
        reported, and no note is checked; ``fix`` raises it instead — it would write under a
        config the rest of vaultmem refuses. A valid file changed since is a problem too: this
        process (an MCP server, ``watch``) still works under the settings it read."""
        from .check import auto_commit_problem, changed_config_problem, check_vault, config_report
        from .config import load_config
        from .errors import ConfigError

        try:
            self.check_settings()
            on_disk = load_config(self.root) if self.config_from_file else self.config  # a server read it when it started
        except ConfigError as error:
            if fix:
                raise
            return config_report(error)
        if not fix:
            report = check_vault(self.paths, self.config.policy, fix=False, now=now)
            if on_disk != self.config:
                report.problems.insert(0, changed_config_problem())
            if (no_git := auto_commit_problem(self.root, on_disk)) is not None:  # a write would find it; check says it first
                report.problems.insert(0, no_git)
            return report
        with self._writing("check --fix") as write:
            report = check_vault(self.paths, self.config.policy, fix=True, now=now)
            write.record(*report.changes)
            write.message = report.commit_message()
        write.report_commit(report)
        return report

    @takes_text()
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
        on_changes: Callable[[list[Change]], None] | None = None,
    ) -> Watcher:
        """Keep the index live while the vault is edited (background threads).

        ``with vault.watch() as watcher: ...`` or ``watcher = vault.watch(); ...;
        watcher.stop()``. With ``start`` (the default) the start-up reconcile is done
        when this returns. Each applied change goes to ``on_change`` (from the
        watcher's thread, or from a reader's that applied it first) and, unless ``quiet``,
        to the ``vaultmem.watcher`` log at INFO; ``on_changes`` gets each applied batch's changes
        as one list after that (``vaultmem watch`` tells a folder's moves in one line from it). ``polling`` uses watchdog's
        PollingObserver instead of inotify/FSEvents. The watcher's worker thread opens (and
        closes) its own Store/Indexer. While it runs, this Vault's reads settle it instead
        of walking the vault, and reads in other processes fence it (adr/0021).
        """
        watcher = self.derived.watcher(polling=polling, log_changes=not quiet, on_change=on_change, on_changes=on_changes)
        return watcher.start() if start else watcher

    # ------------------------------------------------------------ writes to the vault's files

    def _writing(self, operation: str) -> AbstractContextManager[VaultWrite]:
        """The unit of work every write takes: git check → act → index → commit."""
        self.derived.require_writable()  # an index that cannot be written refuses before anything is
        return self._writes.begin(operation)

    @takes_text(text="TEXT")
    @heals
    def remember(
        self,
        text: str,
        *,
        title: str | None = None,
        layer: str | None = None,
        tags: Iterable[str] = (),
        expires_at: object = None,
        ttl: str | None = None,
        permanent: bool = False,
        folder: str | None = None,
        supersedes: str | Iterable[str] | None = (),
        now: object = None,
        date: object = None,
    ) -> Remembered:
        """Write a new note with the layer's policy applied; searchable when this returns.

        ``supersedes``: notes this one replaces (one note's id or path alone, or several in a
        list; a string is never split); each is retired at once (``superseded_by``
        and ``expires_at`` = now) and hidden from recall (supersede.py). ``layer`` None: the
        layer of the notes it supersedes (the highest when they differ), else L2; no ``tags``:
        theirs. ``date``: the day (or time) the memory is about, written as its ``date``
        property (the vault's first ``[dates] date`` key): it dates the note in search and list.
        """
        from .remembering import expires_before, same_named, similar_notes, write_memory

        day, date_read = self._memory_day(date, now)
        with self._writing("remember") as write:
            written = write_memory(self.derived, write, self.config, text, title=title, layer=layer,
                                   tags=_names("tags", tags), expires_at=expires_at, ttl=ttl, permanent=permanent,
                                   folder=folder, supersedes=_one_or_names("supersedes", supersedes), now=now, day=day)
        # No second walk here (a one-shot command pays one, adr/0021): write_memory brought the
        # index current before it chose the file name, and the write path indexed the new note.
        remembered = written.remembered(write, similar_notes(self.derived, written, self.config.consolidate.similar_threshold, now),
                                        same_named(self.derived, written, now))
        if date is None:  # a memory the caller dated lives from that day: the day it names is theirs
            remembered = replace(remembered, expires_before=expires_before(f"{remembered.title}\n{text}", remembered.expires_at,
                                                                          resolve_now(now), self.paths.daily.week_start))
        return remembered if date_read is None else replace(remembered, date_read=date_read)

    def _memory_day(self, date: object, now: object) -> tuple[object, str | None]:
        """``remember``'s and ``revise``'s ``date`` with a day in words (``yesterday``, ``next
        tuesday``) read as the day it names on this machine's calendar at ``now``, as ``since``
        reads it, and what it was read as (dating.memory_day_word); any other value as given."""
        from .dating import memory_day_word

        read = memory_day_word(date, resolve_now(now), self.paths.daily.week_start)
        return (date, None) if read is None else read

    @takes_text()
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
        set_properties: Mapping[str, object] | None = None,
        unset_properties: Iterable[str] = (),
        date: object = None,
    ) -> Revised:
        """Change a note in place, keeping its id, path, usage and other keys (revision.py).

        ``text`` replaces the body, ``append`` adds a paragraph at its end; a title that
        ``remember`` made from the old text is made anew from a new ``text`` (a chosen one
        stays; the file name stays either way); a layer change without ``ttl``/``expires_at`` re-applies the new layer's policy from ``now``
        (or from the note's date when later); a changed date moves an expiry vaultmem computed (adr/0003).
        ``if_version``: refuse with :class:`WriteConflict` unless the file is still at that
        version (a person edited it since the caller read it). Contradictions and an empty
        revision are :class:`UsageError` and change nothing.
        ``set_properties`` (``{"company": "Acme"}``) and ``unset_properties`` change other
        properties in place (property_sets.py: values typed as YAML reads them, vaultmem's own
        keys refused, ``layer``/``expires_at``/``permanent`` taken as those options).
        ``date``: the day (or time) the note is about now (a moved appointment), written as
        ``remember``'s ``date`` is, in the vault's first ``[dates] date`` key.
        """
        from .property_sets import with_date
        from .reading import succession
        from .remembering import expires_before
        from .resolution import locate_to_write, refuse_dating_a_daily_note
        from .revision import Revision, write_revision
        from .writer import memory_day

        given, date_read = self._memory_day(date, now)
        day = None if given is None else memory_day(given)  # as remember reads it: 2025年3月5日, a wall-clock time, next tuesday
        set_properties = with_date(set_properties, day, self.paths.dates.date[0])
        revision = Revision.of(text=text, append=append, title=title, layer=layer, ttl=ttl, expires_at=expires_at,
                               permanent=permanent, add_tags=_names("add_tags", add_tags),
                               remove_tags=_names("remove_tags", remove_tags), if_version=if_version,
                               set_properties=set_properties, unset_properties=_names("unset_properties", unset_properties),
                               date_keys=(*self.paths.dates.date, *self.paths.dates.created), now=now)
        with self._writing("revise") as write:
            located = locate_to_write(self.derived, note, now)  # `today` is the day of ``now``, as get reads it
            write.reindex(located.row.path)  # also when refused: the index learns the file as it is now
            if day is not None:
                refuse_dating_a_daily_note(self.paths, located.row.path)
            revised = write_revision(self.paths, located.row.path, revision, self.config.policy)
            if revised.change is not None:
                write.record(revised.change)
                write.message = revised.commit_message()
        answer = Revised.of(revised.after, revised.changed, write, located.resolved_from, revised.title_before, revision.moment,
                            succession(self.paths.root, self.store.notes, revised.after), revised.in_text, date_read)
        written_text = text if text is not None else append
        # As remember: only the words written now. An expiry that does not parse (`expires_at: tomorrow`)
        # never comes (check says so), so no day outlives it.
        if day is None and written_text is not None and not answer.expired and not answer.expiry_invalid:
            answer = replace(answer, expires_before=expires_before(written_text, answer.expires_at, resolve_now(now),
                                                                  self.paths.daily.week_start))
        return answer

    @takes_text()
    @heals
    def forget(self, note: str, hard: bool = False) -> Forgotten:
        """Archive a note (recoverable), or delete it with ``hard``; the index follows at once."""
        from .gitops import commits_holding
        from .resolution import locate_to_write, refuse_a_superseded_reference
        from .writer import remove_note

        with self._writing("forget") as write:
            located = locate_to_write(self.derived, note)
            refuse_a_superseded_reference(self.derived, located)
            row = located.row
            # Indexed again even when the delete is refused (WriteConflict): the person's edit
            # wins this time, and re-running the command acts on the current version, knowingly.
            write.reindex(row.path)
            copies = self._sync_copies_of(row.path)  # read before the note leaves: a numbered copy is judged by its text
            try:
                held, unknown = commits_holding(self.root, row.path), None  # asked before the file moves: its history follows its path
            except GitError as error:  # forget still forgets; its answer says what it could not find out
                held, unknown = [], str(error)
            archived, changes = remove_note(self.paths, row.path, row.content_hash, hard)
            write.record(*changes)
            write.message = f"vaultmem forget: {row.title}\n\n{row.path} {'deleted' if hard else f'archived to {archived}'}"
        if archived is not None and write.commit is not None:
            held.insert(0, write.commit[:10])  # the commit that archived it holds the archived copy
        return Forgotten(row.id, row.path, archived, write.commit, write.not_committed, write.yours_left_uncommitted,
                         located.resolved_from, copies, held, unknown)

    def _sync_copies_of(self, path: str) -> list[str]:
        """The notes beside ``path`` named as a sync tool's copy of it whose text agrees
        (sync_copies.py): from its folder as it is now, since one may have come since the index looked."""
        from .errors import NoteReadError
        from .notes import read_text
        from .sync_copies import SyncCopy, named_copy

        folder = path.rpartition("/")[0]
        names = sorted(entry.name for entry in os.scandir(self.paths.absolute(folder)) if entry.is_file(follow_symlinks=False))
        copies = [copy for name in names if (copy := named_copy(f"{folder}/{name}" if folder else name)) is not None
                  and copy.original == path and self.paths.is_note_path(copy.path)]

        def agrees(copy: SyncCopy) -> bool:
            try:
                return copy.of_text(read_text(self.paths.root, copy.path), read_text(self.paths.root, path))
            except NoteReadError:
                return True  # unread: said to be left all the same, the person looks at it

        return [copy.path for copy in copies if not copy.numbered or agrees(copy)]

    @takes_text()
    @heals
    def expire(self, apply: bool = False, hard: bool = False, now: object = None) -> ExpireReport:
        """List notes expired at ``now``; with ``apply`` archive them (``hard``: delete).

        Notes without ``expires_at``, permanent/L4 notes and unparseable expiries are never
        touched. Each file is re-read before it is moved: a note a person extended or edited
        since the index saw it, or whose frontmatter does not load, is skipped, not archived
        — and the dry run lists the same skips (expiring.py).
        """
        from .expiring import plan_expiry, remove_expired

        if apply:
            self.derived.require_writable()  # refused before anything is read or reconciled
        self.derived.index()
        moment = resolve_now(now)
        rows = self.store.notes.expired(to_epoch_us(moment))
        report = ExpireReport([ExpiredNote(row.id, row.path, row.title, row.layer, row.expires_at) for row in rows], apply, hard)
        if not apply:
            plan_expiry(self.paths, rows, report, moment)
            return report
        with self._writing("expire") as write:
            remove_expired(write, self.paths, rows, report, moment)
        write.report_commit(report)
        return report

    @takes_text()
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
        """Cluster near-duplicate memories of one layer; ``apply`` merges each into the note that says the most.

        Only notes that carry a ``layer`` (memories) are considered; ``any_note`` widens the
        scope to the person's own notes too. A dry run by default. ``plan`` applies the
        clusters of an earlier dry run (``report.plan``) instead of computing new ones; a
        cluster any of whose files changed since is skipped. A merge a kill cut off before its notes
        were archived is finished (``finished``; a dry run: ``plan.unfinished``) when the kept note
        holds them as the merge wrote them. See consolidate.py, merge_apply.py and adr/0010.
        """
        from .consolidate import make_scope, plan_consolidation
        from .merge_apply import apply_plan, cut_off_writes, preview_plan
        from .usage import carry_merged_uses

        scope = make_scope(self.config.consolidate, threshold, window, all, include_expired, resolve_now(now), any_note)
        if not apply:
            self.derived.index()
            return preview_plan(plan if plan is not None else plan_consolidation(self.store, self.paths, scope, self.derived.embedder().embed),
                                self.paths)
        self.derived.require_writable()  # refused before anything is reconciled
        with self._writing("consolidate") as write:
            self.derived.index()
            report = apply_plan(plan if plan is not None else plan_consolidation(self.store, self.paths, scope, self.derived.embedder().embed),
                                self.paths, scope.now)
            if self.config.auto_commit and report.finished:
                # Before report.changes: its first before of a kept note is what HEAD holds.
                kept_notes, unsaid = cut_off_writes(self.paths, report)
                write.record(*kept_notes)
                report.warnings += unsaid
            write.record(*report.changes)  # first: a failure carrying uses names the files merged (NoteWritten)
            write.message = report.commit_message()
            carry_merged_uses(self.store, report)
        write.report_commit(report)
        return report

    # ------------------------------------------------------------ usage history (usage.py; not a file write)

    @takes_text()
    @heals
    def mark_used(self, notes: Iterable[str], now: object = None) -> list[UsedNote]:
        """Record that these notes were used (appeared in a result the agent acted on)."""
        from .resolution import sole
        from .usage import record_uses

        self.derived.require_writable()  # refused before anything is read: a use could not be kept
        self.ensure_current()  # once for all of them
        moment = resolve_now(now)
        # All before anything is recorded; a name other notes answer to too is refused, as a
        # write's is: a use kept on the wrong note cannot be rebuilt from the files.
        resolved = [sole(self.locate(note, moment, refresh=False)) for note in _names("notes", notes)]
        return record_uses(self.store, resolved, moment)

    @takes_text()
    def once(self, request_id: str | None, tool: str, arguments: Mapping[str, object],
             operation: Callable[[], dict[str, Any]], now: object = None, *,
             still_valid: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """``operation()``'s JSON-ready answer, made once per ``request_id``: a call sent again
        with the same id and arguments gets the first answer (with ``replayed``) and writes
        nothing; the same id with other arguments is a ``UsageError``. ``request_id=None``:
        once per identical call for two minutes, while ``still_valid(first)`` (adr/0031)."""
        from .retried_writes import once

        self.derived.require_writable()  # an answer that could not be kept would let a retry write twice
        return once(self.store, request_id, tool, arguments, operation, resolve_now(now), still_valid=still_valid)

    @takes_text()
    @heals
    def stale(self, days: float = DEFAULT_STALE_DAYS, layers: Iterable[str] | None = None, now: object = None,
              include_expired: bool = False) -> StaleNotes:
        """Notes unused (or, never used, created) more than ``days`` ago; oldest first.

        Expired notes are left out unless ``include_expired``: they are hidden from every
        read path, and ``expire`` is the job that lists them. ``result.left_out`` counts the
        notes not listed, by reason.
        """
        from .usage import stale_notes

        self.ensure_current()
        return stale_notes(self.store, days, _names("layers", layers), resolve_now(now), include_expired)

    @heals
    def usage_export(self) -> dict[str, Any]:
        from .usage import export_document

        return export_document(self.store.usage.all())

    @heals
    def usage_import(self, document: Any) -> int:
        from .usage import parse_import

        rows = parse_import(document)
        self.derived.require_writable()
        with self.store.transaction():
            self.store.usage.merge(rows)
        return len(rows)



_Names = TypeVar("_Names", bound="Iterable[str] | None")


def _names(argument: str, value: _Names) -> _Names:
    """``value`` itself, once it is known not to be one string: a ``str`` is an iterable of
    strings too, so ``tags="travel"`` would otherwise be read one letter at a time — a note
    written with the tags t, r, a, v, e, l, or ``layers="L3"`` refused as the layer 'L'."""
    if isinstance(value, str | bytes):
        raise UsageError(f"{argument} takes a list of strings, not the string {value!r}: "
                         f"pass {argument}=[{value!r}]")
    return value


def _one_or_names(argument: str, value: str | Iterable[str] | None) -> list[str]:
    """``value`` as :func:`_names` takes it, but one string is one name: a note's id or path
    has one reading (``supersedes="coffee"``: the note coffee), unlike a tag list, where
    ``"travel, work"`` could be one tag or two. None is none (a wrapper passing on an argument
    it was not given); anything else but strings is refused naming the argument — it raised
    "'NoneType' object is not iterable" or "'int' object is not iterable", naming nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    names = list(_names(argument, value)) if isinstance(value, Iterable) else None
    if names is None or not all(isinstance(name, str) for name in names):
        raise UsageError(f"{argument} takes a note's id or path, or a list of them, not {value!r}: "
                         f"pass {argument}=\"<id or path>\" or {argument}=[\"<id>\", …]")
    return names


def _require_embedder(embedder: object) -> None:
    """An embedder given to :class:`Vault` is an :class:`Embedder` object. Without this a name
    passed here (``Vault(path, embedder="hashing")``) failed at the first index, deep inside, as
    "'str' object has no attribute 'identity'"."""
    from .embedders import Embedder

    if not isinstance(embedder, Embedder):
        raise UsageError(f"embedder={embedder!r} is not an Embedder object: pass one (vaultmem.embedders."
                         "HashingEmbedder(), WordLlamaEmbedder() …), or name it in .vaultmem.toml (embedder = "
                         "\"hashing\") and leave embedder out")


def _read_from_here(root: Path) -> str:
    """Where a relative vault path that names no folder was looked for. An MCP client (Claude
    Desktop, Cursor) starts the server in a folder of its own (``/`` on macOS), so the
    ``"args": ["--vault", "Notes", "mcp"]`` of a config file names ``/Notes``; the bare "does not
    exist" left the person looking at a folder that does exist, in their home."""
    if root.is_absolute():
        return ""
    try:
        here = repr(os.getcwd())
    except FileNotFoundError:  # the folder it was started in was deleted since
        here = "a folder that no longer exists"
    return (f", read from {here}, the folder vaultmem was started in (an MCP client starts it in a folder "
            "of its own: give the vault's absolute path)")
