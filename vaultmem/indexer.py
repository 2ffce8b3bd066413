"""Reconcile the derived index with the vault: add, update, move, remove.

Change detection is cheap first: (mtime_ns, size) from one directory walk against one
SQL query. Only files whose stat changed are read; only notes whose embedded texts
changed (searchable.py: the passages' and the whole note's) are re-embedded; a moved
file (same bytes, new path) keeps its row, vectors and usage history. Work is committed in chunks, each in one ``BEGIN IMMEDIATE``
transaction, so a ``kill -9`` at any instant leaves a state the next run completes. A
reconcile of several chunks reads and embeds the next while it writes one (``_in_turn``,
adr/0008): one worker thread that never touches SQLite.
"""

from __future__ import annotations

import functools
import os
import secrets
import stat as stat_module
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from .daily_format import DailyFormat, dated_folders, titled_as_in_logseq
from .dating import GIT_SOURCE, DateProperties, day_as_written, made_moment, note_date, note_problems
from .errors import INDEX, RE_EMBED, DerivedIndexError, Spelled
from .exclusions import Exclusions
from .fields import opening_heading_key
from .lifecycle import to_epoch_us
from .notes import (
    Note,
    Problem,
    epoch_us_or_none,
    expiry_text,
    lookup_names,
    parse_note,
    path_without_suffix,
    tags_of,
)
from .paths import FileStat, NotNotes, VaultPaths
from .periods import Span
from .plain_due import Anchor
from .searchable import INDEX_RULES, SearchableNote, searchable
from .storage import (
    DAILY_FORMAT_KEY,
    DATE_PROPERTIES_KEY,
    EXCLUSIONS_KEY,
    GIT_DATES_KEY,
    INLINE_QUERIES_KEY,
    READER_KEY,
    REBUILDING,
    SPACES,
    FileState,
    NoteRow,
    Store,
)
from .storage.passages import props_as_held
from .task_dates import TaskLine, is_kanban_board, task_lines
from .turn_windows import head_hash, head_text, windows_possible
from .turns import CONTEXT_TURNS, affected, chain_keys, context, is_turn, order_key, turns_before
from .writing_now import left_to_writer

if TYPE_CHECKING:
    from .embedders import Embedder
    from .git_dates import Added
    from .searchable import NoteVectors

CHUNK = 512
# A chunk also ends once its files hold this many bytes: its passages are embedded at once, so
# without it a chunk that caught a vault's few huge notes (exported chats, pasted changelogs:
# a trial's 22 files of 10 MB made 44% of 24,550 passages) ran 19 s while the progress bar
# stood still, its ETA at 1 s, and held every passage's text and vectors in memory together.
CHUNK_BYTES = 1 << 20
Progress = Callable[[int], None]
Batch = TypeVar("Batch")
Made = TypeVar("Made")
# A file whose mtime is this close to the moment we read it may still be written again
# within the same timestamp tick (coarse clocks, FAT's 2 s): see settled_stat().
RACY_WINDOW_NS = 2_000_000_000


def _in_turn(batches: Sequence[Batch], prepare: Callable[[Batch], Made], write: Callable[[Made], None]) -> None:
    """``write(prepare(batch))`` for each batch in order, the next batch prepared on one worker
    thread while the caller's thread writes the current one.

    At most two batches are in flight: the one being written and the one being prepared (a
    batch is a chunk's texts and vectors: memory stays bounded). ``write`` runs on the caller's
    thread only, so SQLite never sees the worker. An exception in ``prepare`` is raised here,
    with its traceback, when its batch's turn comes: after every earlier batch was written,
    as without the thread. However this ends (an exception, an interrupt), the worker is done
    before it returns: nothing prepares after ``index`` has answered.
    """
    if len(batches) < 2:  # a watcher's few files, a small vault: no thread
        for batch in batches:
            write(prepare(batch))
        return
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vaultmem-prepare")
    try:
        ahead: Future[Made] = pool.submit(prepare, batches[0])
        for following in [*batches[1:], None]:
            made = ahead.result()
            if following is not None:
                ahead = pool.submit(prepare, following)
            write(made)
    finally:
        # Waits for the batch being prepared (at most one chunk's read and embedding): a
        # worker left running would embed beside the caller's next use of the embedder.
        pool.shutdown(wait=True, cancel_futures=True)


def chunks(stats: Sequence[FileStat], most: int = CHUNK, most_bytes: int = CHUNK_BYTES) -> Iterator[list[FileStat]]:
    """``stats`` in order, cut into runs of at most ``most`` files and about ``most_bytes``
    bytes (a file larger than that is a run of its own): the units a reconcile reads, embeds
    and commits, and reports progress by."""
    run: list[FileStat] = []
    size = 0
    for stat in stats:
        if run and (len(run) == most or size + stat.size > most_bytes):
            yield run
            run, size = [], 0
        run.append(stat)
        size += stat.size
    if run:
        yield run


@dataclass
class IndexReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0
    embedded: int = 0
    deferred: list[str] = field(default_factory=list)  # changed again while being read
    # Changed files a vaultmem write elsewhere is indexing and had not indexed when the wait for
    # it ended (writing_now.py): left to it, not in the index yet; ``elsewhere_by`` says who.
    elsewhere: list[str] = field(default_factory=list)
    elsewhere_by: str = ""
    problems: list[Problem] = field(default_factory=list)
    rebuilt: bool = False
    reread: bool = False  # every file read again: the index was made under earlier rules (searchable.INDEX_RULES)
    not_notes: NotNotes = field(default_factory=NotNotes)  # excluded (exclusions.py), and Note.MD skipped
    # Where conversation turns this run changed were among their chain's turns before (turns.order_key):
    # a turn removed, moved, renumbered or no longer a turn leaves the turns after its old place.
    turn_places_left: list[bytes] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "removed": len(self.removed),
            "moved": len(self.moved),
            "unchanged": self.unchanged,
            "embedded": self.embedded,
            "deferred": self.deferred,
            "rebuilt": self.rebuilt,
            "reread": self.reread,
            **self.not_notes.as_dict(),
            "problems": [problem.as_dict() for problem in self.problems],
        }

    def summary(self) -> str:
        """``3 added, 1 updated, 0 moved, 0 removed, 996 unchanged``."""
        return (f"{len(self.added)} added, {len(self.updated)} updated, {len(self.moved)} moved, "
                f"{len(self.removed)} removed, {self.unchanged} unchanged")

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.moved)


@dataclass
class _Prepared:
    """One chunk read, parsed and embedded (by the worker thread: no SQLite), waiting for its
    transaction; what it found goes into the report when it is written, on the writing thread."""

    pending: list[_Pending]
    touched: list[tuple[FileState, NoteRow]]  # same bytes, a new stat: only the stat is written
    problems: list[Problem]
    files: int  # the chunk's files, read or not: what progress counts
    embedded: int = 0


@dataclass
class _Pending:
    """One note read from disk, waiting to be written in the chunk's transaction."""

    note: Note
    searchable: SearchableNote
    row: NoteRow
    existing: FileState | None
    tasks: list[TaskLine] = field(default_factory=list)  # its task lines (task_dates.task_lines)
    read_stat: FileStat | None = None  # the stat taken before the bytes were read
    moved_from: FileState | None = None
    vectors: NoteVectors | None = None
    needs_vector: bool = False
    head: tuple[str, np.ndarray] | None = None  # a turn's head hash and sum, embedded with its passages (Indexer._embed_heads)


def note_row(note: Note, stat: FileStat, embed_hash: str, daily: DailyFormat, dates: DateProperties,
             tags: Sequence[str] | None = None, git: Mapping[str, Added] | None = None, props_text: str = "") -> NoteRow:
    """Everything the index stores about a note, derived from the note alone (and, for its
    date, the vault's daily-note format and date properties, and when git added its file).
    ``tags``: ``note.tags`` when the caller has them already (its search fields': the body's
    inline tags are found once); ``props_text``: its search fields' (fields.SearchFields), which
    say whether it is a conversation turn (turns.is_turn)."""
    expires = note.meta.get("expires_at")
    # A permanent (L4 / permanent: true) note never expires even if it wrongly carries an
    # expires_at: `check` reports the contradiction; reads must not drop the note meanwhile.
    expires_us = None if note.permanent else epoch_us_or_none(expires)
    created = note.meta.get("created")
    # The vault's created names ([dates] created, in order), each read as the note's date reads it
    # (`created: 3 March 2026`): `creado:` too, where the settings name it.
    made = made_moment(note.meta, dates, daily.solar_hijri)
    dated = note_date(note.meta, note.path, daily, dates, note.body, git)
    if made is None and dated is not None and dated.made:
        # No `created`, but the note's date says when it was made (a zettel's timestamp id, an
        # `erstellt:` stamp): `stale` counts from it, not from the file's modification time,
        # which a copy or a checkout resets (a trial: no zettel of 2024 was ever stale).
        made = dated.made_at or dated.moment
    return NoteRow(
        id=note.id,
        path=note.path,
        title=note.title,
        layer=note.layer,
        tags=note.tags if tags is None else list(tags),
        created=expiry_text(created),
        created_us=None if made is None else to_epoch_us(made),
        expires_at=expiry_text(expires),
        expires_us=expires_us,
        expiry_invalid=note.expiry_invalid,
        permanent=note.permanent,
        content_hash=note.content_hash,
        embed_hash=embed_hash,
        mtime_ns=stat.mtime_ns,
        size=stat.size,
        body_chars=len(note.body.strip()),
        problems=[problem.as_stored() for problem in note_problems(note, daily, dates)],
        dated_us=None if dated is None else to_epoch_us(dated.moment),
        dated_day=None if dated is None else dated.day,
        dated_end_us=None if dated is None or dated.last is None else to_epoch_us(dated.last),
        dated_said=None if dated is None else dated.said,
        dated_from="git" if dated is not None and dated.source == GIT_SOURCE else None,
        turn_key=order_key(note.path, note.meta) if is_turn(props_text, note.meta) else None,
    )


def _run_mark() -> str:
    """A mark of one reconcile or sync, said in the index while it owes turns their turns-before."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


WHOLE_CHAIN_AT = 64  # changed places in one chain (turns.chain_keys) from which its turns are read at once, not around each


def _turns_before_of(turns: Sequence[tuple[int, bytes]], changed: Sequence[bytes]) -> dict[int, Sequence[int]]:
    """Among ``turns`` ((label, key) of a run of one chain's turns, in order), each turn whose
    turns before it the turns at ``changed`` keys may have changed → those turns (turns.affected).
    The run must hold every such turn and its turns before: the whole chain, or the turns around
    one changed key (NoteStore.turns_around)."""
    labels = [label for label, _ in turns]
    places = affected([key for _, key in turns], changed)
    return {labels[place]: turns_before(labels, place) for place in places}


class Indexer:
    """Writes the derived index of one vault (one Indexer per thread)."""

    def __init__(self, paths: VaultPaths, store: Store, embedder: Callable[[], Embedder], embedder_identity: str,
                 before_reembedding: Callable[[str], None] | None = None) -> None:
        self.paths = paths
        self.store = store
        self._run = _run_mark()  # this reconcile's or sync's mark (each starts a new one): _owe_turns
        self._embedder = embedder
        self.embedder_identity = embedder_identity
        # Called with the stored embedder's identity before the vectors of another are dropped:
        # raises when this process's embedder is no longer the vault's (DerivedIndex).
        self._before_reembedding = before_reembedding
        self._heads_owed: dict[int, tuple[str, str]] = {}  # turn → (title, properties): written without its head sum

    # -- whole-vault reconcile

    def reconcile(self, progress: Callable[[int, int], Progress] | None = None, completes_rebuild: bool = False) -> IndexReport:
        """Bring the index to the files: add, update, move and remove what changed.

        ``completes_rebuild``: this is the rebuild's own pass (the caller holds the rebuild
        lock). A rebuild that was killed half-way is finished here, under its lock, by
        whichever reconcile comes next (``index``, ``watch``, the first search).
        """
        if not completes_rebuild and self.store.meta.rebuild_state() == "interrupted":
            with self.store.meta.rebuilding():
                # Re-read under the lock: another process may have finished it meanwhile.
                return self._reconcile(progress, self.store.meta.get("indexed") == REBUILDING)
        return self._reconcile(progress, completes_rebuild)

    def _reconcile(self, progress: Callable[[int, int], Progress] | None, completes_rebuild: bool) -> IndexReport:
        report = IndexReport()
        self._run = _run_mark()
        report.rebuilt = self._reset_if_embedder_changed()
        self.paths.refresh()  # a folder excluded since the last run leaves the index now
        exclusions, daily = self.paths.exclusions, self.paths.daily
        self._redate_if_format_changed(daily)
        self._redate_if_properties_changed(self.paths.dates)
        self._redate_if_git_moved()
        self._reread_if_inline_queries_changed()
        made_under = self.store.meta.get(READER_KEY)
        if made_under in (None, INDEX_RULES) and self.store.notes.count() == 0:
            # A new index (or a rebuild's, its rows dropped): its rows are made under today's rules
            # from the first chunk on. Said now, not at the end: a first index killed after some
            # chunks left rows without rules, and the next reconcile read every note again, "made
            # by another version". The settings too: without them recorded (or with the last
            # index's, before a rebuild), the next reconcile took Dataview's prefixes, the [dates]
            # properties or the daily-note format for changed and read every note again.
            self._record_rules(exclusions, daily)
        elif made_under != INDEX_RULES:
            # Rows without rules: an index from before the rules were kept.
            report.reread = True
            with self.store.transaction():
                self.store.notes.mark_all_changed()  # rows made by another reader: read every file again
        scan = self.paths.scan_vault()
        files = scan.files
        report.not_notes = NotNotes.of(scan)
        report.problems.extend(Problem(issue.path, "file", issue.reason, issue.fix) for issue in scan.issues)
        known = self.store.notes.file_states()
        seen = {stat.path for stat in files}
        todo = [stat for stat in files if _stat_changed(known.get(stat.path), stat)]
        report.unchanged = len(files) - len(todo)
        vanished = _Vanished({path: state for path, state in known.items() if path not in seen})
        tick = progress(len(todo), len(files)) if progress and todo else None
        committed = 0  # chunks: each leaves the full text a segment of its own

        def write(prepared: _Prepared) -> None:
            nonlocal committed
            self._write_chunk(prepared, report)
            committed += 1
            if tick:
                tick(prepared.files)

        # The next chunk is read and embedded while this one is written (2 cores: the
        # embedder's numpy and SQLite's C code release the GIL): the index's own work, about
        # 5 of a cold index's 18 CPU s at 10,000 notes, ran while nothing was embedded.
        _in_turn(list(chunks(todo)), lambda chunk: self._prepare(chunk, known, vanished), write)
        self._remove(vanished, report)
        self._hold_turns_before(report)
        self._embed_missing(report)
        self._pay_heads_owed()
        self.store.meta.mark_indexed(completes_rebuild)
        self._record_rules(exclusions, daily)
        self.store.meta.set_linked_notes(scan.linked_notes)
        self.store.meta.set_links_out(scan.links_out)
        self._merge_full_text(report, committed)  # last: a kill during it leaves a complete index, its segments apart
        # Report every problem the vault has now, not only those of files read in this
        # run: a second `index` must not pretend a broken note was fixed.
        read_failures = [problem for problem in report.problems if problem.field == "file"]
        report.problems = [*exclusions.problems, *daily.problems, *self.paths.git_dates.problems, *self.paths.inline_queries.problems,
                           *read_failures, *self.store.notes.all_problems()]
        return report

    def _merge_full_text(self, report: IndexReport, committed: int) -> None:
        """After a reconcile that wrote several chunks (``committed``) and at least half the
        index's notes (a cold index, a rebuild, most of the vault re-read), merge the full
        text's segments into one (PassageStore.merge_full_text: searches ~1 ms faster at 10,000
        notes). Only then: the merge rewrites the whole index, which costs less than having
        written half of it, but more than a few changed notes are worth (a branch switch of
        600 files)."""
        written = len(report.added) + len(report.updated)
        if committed > 1 and 2 * written >= self.store.notes.count():
            with self.store.transaction():
                self.store.passages.merge_full_text()

    def _record_rules(self, exclusions: Exclusions, daily: DailyFormat) -> None:
        """Record what the rows are read under: the reader's rules and the vault's settings that
        change a note's row (each compared at the next reconcile, which reads again what changed)."""
        self.store.meta.set(EXCLUSIONS_KEY, exclusions.fingerprint)
        self.store.meta.set(DAILY_FORMAT_KEY, daily.fingerprint)
        self.store.meta.set(DATE_PROPERTIES_KEY, self.paths.dates.fingerprint)
        self.store.meta.set(INLINE_QUERIES_KEY, self.paths.inline_queries.fingerprint)
        self.store.meta.set(READER_KEY, INDEX_RULES)

    def _redate_if_format_changed(self, daily: DailyFormat) -> None:
        """The daily-note format changed since the notes were dated (the person set another in
        Obsidian): the notes of the old format's folder and of the new one are read again, so
        each gets the date the format in use gives it — without this they kept the old one
        until their file changed. (An index from before formats were read dated by none.)"""
        before = self.store.meta.get(DAILY_FORMAT_KEY) or ""
        if before == daily.fingerprint:
            return
        folders = [*dated_folders(before), *dated_folders(daily.fingerprint)]
        # The folders are kept in NFC; macOS names files decomposed, and a row's path is the file's.
        folders += [unicodedata.normalize("NFD", folder) for folder in folders]
        with self.store.transaction():
            self.store.notes.mark_changed_in(folders)

    def _redate_if_properties_changed(self, dates: DateProperties) -> None:
        """The properties that date a note changed since the notes were dated (``[dates]`` in
        .vaultmem.toml): every note is read again, since any may carry an old or a new one, and
        gets the date they give it — without this a note kept its old date until its file
        changed. Its vectors stay: what is embedded did not change. (An index from before the
        setting was read by ``date`` and ``created``: the default, whose fingerprint is ``""``.)"""
        if (self.store.meta.get(DATE_PROPERTIES_KEY) or "") == dates.fingerprint:
            return
        with self.store.transaction():
            self.store.notes.mark_all_changed()

    def _redate_if_git_moved(self) -> None:
        """HEAD moved since the notes were dated by git (``[dates] from_git``): the notes whose
        date from git changed (committed, moved or deleted since) are read again — without this a
        note committed after it was indexed stayed undated until its file changed, since a commit
        changes no file. When the dates HEAD moved from are not at hand (another process read
        them), every note is read again. Nothing is asked of git with the setting off."""
        found, before = self.paths.refresh_git_dates()
        stored = self.store.meta.get(GIT_DATES_KEY) or ""
        if stored == found.fingerprint:
            return
        with self.store.transaction():
            if stored and before is not None and before.fingerprint == stored:
                # Only files still there: a moved note's old row keeps its content hash, by which the
                # reconcile finds the move (its vectors and usage history kept), not a removal and an add.
                changed = [path for path in found.changed_paths(before) if os.path.lexists(self.paths.os_path(path))]
                self.store.notes.mark_paths_changed(sorted(changed))
            else:
                self.store.notes.mark_all_changed()
            self.store.meta.set(GIT_DATES_KEY, found.fingerprint)

    def _reread_if_inline_queries_changed(self) -> None:
        """Dataview was turned on or off, or its inline-query prefixes changed, since the notes
        were read (inline_queries.py): every note is read again, since any may hold such a span —
        without this a note kept a query's words in its passages (or missed a span's that is
        code again) until its file changed. Only the notes whose text changed are embedded
        again (their embed hash). An index from before the setting was read hid none: ``""``."""
        if (self.store.meta.get(INLINE_QUERIES_KEY) or "") == self.paths.inline_queries.fingerprint:
            return
        with self.store.transaction():
            self.store.notes.mark_all_changed()

    # -- a few paths (the watcher, remember, forget)

    def sync_paths(self, relatives: Sequence[str], wait_for_writer: float | None = None) -> IndexReport:
        """Bring the given vault paths up to date: indexed if a note file, dropped if gone.

        ``wait_for_writer`` (a reader's, a watcher's): a big changed file (writing_now.LEAVE_BYTES)
        that a vaultmem write on another process or thread is indexing right now is left to it —
        waited for this many seconds, then named in ``report.elsewhere`` if still not indexed —
        instead of being read and embedded a second time beside it (writing_now.py)."""
        report = IndexReport()
        self._run = _run_mark()
        known = {path: state for path in set(relatives) if (state := self._state(path))}
        present: list[FileStat] = []
        gone: dict[str, FileState] = {}
        for relative in sorted(set(relatives)):
            # A path through a linked folder is not a note either (the scan never enters one,
            # VaultPaths._linked_folder_issue): without this `get linked/note.md` indexed the
            # note a second time under that path. The scan's own paths need no such check.
            stat = self._stat(relative)
            if stat is not None and not self.paths.reached_without_links(relative):
                stat = None
            if stat is None:
                if relative in known:
                    gone[relative] = known[relative]
            elif _stat_changed(known.get(relative), stat):
                present.append(stat)
            else:
                report.unchanged += 1
        if wait_for_writer is not None and present:
            present = self._leave_to_writer(present, known, wait_for_writer, report)
        vanished = _Vanished(gone)
        self._sync_chunk(present, known, vanished, report)
        self._remove(vanished, report)
        self._hold_turns_before(report)
        self._pay_heads_owed()
        self._keep_links(relatives)
        return report

    def _leave_to_writer(self, present: list[FileStat], known: dict[str, FileState], wait_seconds: float,
                         report: IndexReport) -> list[FileStat]:
        """The changed files this caller must index itself: not those a write elsewhere indexed
        while we waited, nor those it is still indexing (put in ``report.elsewhere``)."""
        by_path = {stat.path: stat for stat in present}
        waiting, writer = left_to_writer(self.store.state_dir, {stat.path: stat.size for stat in present},
                                         lambda path: not _stat_changed(self._state(path), by_path[path]), wait_seconds)
        if writer is None:
            return present  # no write elsewhere announced any of them: all ours, as they were
        if waiting:
            report.elsewhere, report.elsewhere_by = sorted(waiting), writer.who
        mine = []
        for stat in present:
            if stat.path in waiting:
                continue
            state = self._state(stat.path)  # the writer may have indexed it meanwhile
            if not _stat_changed(state, stat):
                report.unchanged += 1
                continue
            if state is not None:
                known[stat.path] = state
            mine.append(stat)
        return mine

    def _hold_turns_before(self, report: IndexReport) -> None:
        """Give the conversation turns this run may have changed the turns before of (turns.py)
        the text of those turns, written only where it changed. After every write of the run: a
        turn's rows are written without it (PassageStore._write_fts), and the turn before it may
        have been added, edited or removed while the turn itself was not. Only the places of the
        changed turns — where they are now, and where they were (``report.turn_places_left``: a
        turn removed, moved, renumbered or no longer naming its speaker) — and the turns after
        them are written, found by their place in the index of the turns' keys
        (NoteStore.turns_around): an edit in a folder of thousands of turns reads a few turns and
        their texts (a vault with no turn: one look-up, no write lock). Read under the write
        lock: another process may write the same folder meanwhile."""
        written = [*report.added, *report.updated, *(new for _, new in report.moved)]
        owed_by = self.store.meta.turns_owed_by()
        if not (written or report.turn_places_left) and owed_by is None:
            return
        if not self.store.notes.has_turns():
            if owed_by is not None:
                self.store.meta.clear_turns_owed()
            return
        with self.store.transaction():
            owed_by = self.store.meta.turns_owed_by()
            places = [*self.store.notes.turn_keys_at(written), *report.turn_places_left]
            if owed_by is not None and owed_by != self._run:
                # Another run wrote notes and did not get here: killed (or Ctrl-C) between its
                # chunks and this step, its turns kept the turns-before of their last index (a
                # first index cut short: none) for good, as nothing of theirs looked changed again.
                places = [*places, *self.store.notes.turn_keys()]
            self.store.passages.set_turn_contexts(self._turns_before_changed(places))
            if owed_by is not None:
                self.store.meta.clear_turns_owed()

    def _owe_turns(self) -> None:
        """Inside a transaction that wrote or dropped notes: while the index holds turns, say this
        run owes them their turns-before (:meth:`_hold_turns_before` pays it, in its own transaction)."""
        if self.store.notes.has_turns():
            self.store.meta.owe_turns(self._run)

    def _turns_before_changed(self, places: Sequence[bytes]) -> dict[int, str]:
        """Passage label → the ``context`` its row should hold and does not, for the turns whose
        turns before them changed at these ``places`` (turns' keys, turns.affected)."""
        changed_in: dict[tuple[bytes, bytes], list[bytes]] = {}
        for key in places:
            changed_in.setdefault(chain_keys(key), []).append(key)
        wanted: dict[int, Sequence[int]] = {}  # turn → the turns before it
        for chain, keys in changed_in.items():
            wanted.update(self._turns_near(chain, keys))
        if not wanted:
            return {}
        rows = self.store.passages.of_notes(sorted({*wanted, *(label for before in wanted.values() for label in before)}))
        bodies = self.store.passages.bodies([row.label for before in wanted.values() for label in before for row in rows.get(label, [])])
        texts = {label: " ".join(bodies.get(row.label, "") for row in rows.get(label, [])) for before in wanted.values() for label in before}
        contexts = {row.label: context(before, texts) for label, before in wanted.items() for row in rows.get(label, [])}
        held = self.store.passages.turn_contexts(list(contexts))
        return {label: text for label, text in contexts.items() if held.get(label) != text}

    def _turns_near(self, chain: tuple[bytes, bytes], changed: Sequence[bytes]) -> dict[int, Sequence[int]]:
        """Each turn of ``chain`` (its keys' bounds, turns.chain_keys) whose turns before it the
        ``changed`` places of it may have changed (turns.affected) → those turns. A few changes
        read the turns around each (the turns before it, it and the turns after it: every turn
        reached and its turns before); many (a cold index, a copied conversation) the chain's
        turns once, in order. (1 + CONTEXT_TURNS after: a removed note's place, with none at it,
        reaches three, as affected does.)"""
        if len(changed) >= WHOLE_CHAIN_AT:
            return _turns_before_of(self.store.notes.turns_in(chain), changed)
        wanted: dict[int, Sequence[int]] = {}
        for key in changed:
            around = self.store.notes.turns_around(chain, key, CONTEXT_TURNS, 1 + CONTEXT_TURNS)
            wanted.update(_turns_before_of(around, [key]))
        return wanted

    def _keep_links(self, relatives: Sequence[str]) -> None:
        """The stored symlinked note files (resolution._by_link_name) with these paths as they
        are now. Without it a link made while a watcher or a server ran was known by its bare
        name only after the next full walk: `get Alias` said "no note matches" until a restart.
        No path asked keeps both as stored, so they are not read: a read whose feed heard no change
        asks this with none."""
        if not relatives:
            return
        asked = set(relatives)
        stored = self.store.meta.linked_notes()
        kept = [(link, note) for link, note in stored if link not in asked]
        kept += [(link, note) for link in sorted(asked) if (note := self.paths.linked_note(link)) is not None]
        if set(kept) != set(stored):
            self.store.meta.set_linked_notes(kept)
        stored_out = self.store.meta.links_out()
        kept_out = [link for link in stored_out if link not in asked]
        kept_out += [link for link in sorted(asked) if self.paths.is_note_path(link) and self.paths.is_link_out(link)]
        if set(kept_out) != set(stored_out):
            self.store.meta.set_links_out(kept_out)

    def catch_up(self, wait_for_writer: float | None = None) -> IndexReport:
        """Apply what changed on disk since the index last looked; write nothing if nothing did.

        One walk of the vault (a stat per file) against one query. A read that must answer
        from a current index calls this when no watcher can vouch for it (adr/0021).
        """
        if self.store.meta.rebuild_state() == "running":
            # Another process is rebuilding: answer from what it has rebuilt so far (the
            # search says so) instead of indexing every file it has not reached yet.
            return IndexReport()
        self._redate_if_git_moved()  # a commit changes no file: the notes it dates look changed now
        walked = self.paths.walk()
        files = walked.files
        # A link made or removed changes no note, yet its bare name names one (resolution._by_link_name):
        # written only when the links changed.
        self.store.meta.set_linked_notes(walked.linked_notes)
        self.store.meta.set_links_out(walked.links_out)
        indexed = self.store.notes.file_stats()
        changed = [stat.path for stat in files if indexed.get(stat.path) != (stat.mtime_ns, stat.size)]
        on_disk = {stat.path for stat in files}
        vanished = [path for path in indexed if path not in on_disk]
        if len(changed) + len(vanished) > CHUNK:
            return self.reconcile()  # a branch switch, a copied folder: chunked, with progress
        report = self.sync_paths(changed + vanished, wait_for_writer) if changed or vanished else IndexReport()
        report.unchanged += len(files) - len(changed)
        return report

    # -- internals

    def _state(self, relative: str) -> FileState | None:
        return self.store.notes.file_state(relative)

    def _stat(self, relative: str) -> FileStat | None:
        if not self.paths.is_note_path(relative):
            return None
        try:
            info = os.lstat(self.paths.os_path(relative))
        except (FileNotFoundError, NotADirectoryError):
            return None
        # Only regular files: the scan's rule (VaultPaths._symlink_issue) is that a link is
        # never a note of its own — one pointing inside is indexed at its real path.
        if not stat_module.S_ISREG(info.st_mode):
            return None
        return FileStat(relative, info.st_mtime_ns, info.st_size)

    def _sync_chunk(self, stats: Sequence[FileStat], known: dict[str, FileState], vanished: _Vanished, report: IndexReport) -> None:
        self._write_chunk(self._prepare(stats, known, vanished), report)

    def _prepare(self, stats: Sequence[FileStat], known: dict[str, FileState], vanished: _Vanished) -> _Prepared:
        """Read, parse and embed one chunk: files and the embedder only, never the store (a
        reconcile runs this on its worker thread, _in_turn)."""
        prepared = _Prepared([], [], [], len(stats))
        for stat in stats:
            item = self._read(stat, known.get(stat.path), prepared.problems)
            if item is None:
                continue
            existing = item.existing
            if existing is not None and existing.content_hash == item.row.content_hash:
                prepared.touched.append((existing, item.row))  # touched or chmod-ed: same bytes
                continue
            if existing is None:
                item.moved_from = vanished.take_move_source(item.row.content_hash)
            base = existing or item.moved_from
            item.needs_vector = base is None or base.embed_hash != item.row.embed_hash
            prepared.pending.append(item)
        prepared.embedded = self._embed(prepared.pending)
        self._embed_heads([item for item in prepared.pending if item.needs_vector])
        return prepared

    def _write_chunk(self, prepared: _Prepared, report: IndexReport) -> None:
        """Write one prepared chunk in one transaction (on the reconcile's own thread)."""
        report.problems.extend(prepared.problems)
        report.unchanged += len(prepared.touched)
        report.embedded += prepared.embedded
        pending, touched = prepared.pending, prepared.touched
        if not pending and not touched:
            # Nothing to write: no write lock. A read whose feed held no change (every search of
            # a watched vault) took BEGIN IMMEDIATE … COMMIT for nothing, 0.25 ms at 10k notes,
            # and waited on any writer of another process.
            return
        with self.store.transaction():
            if pending:
                self._require_own_vectors()
            for state, row in touched:
                self.store.notes.touch(state.label, row.mtime_ns, row.size)  # the settled stat
            for item in pending:
                self._write(item, report)
            self._owe_turns()

    def _read(self, stat: FileStat, existing: FileState | None, problems: list[Problem]) -> _Pending | None:
        read_started_ns = time.time_ns()
        try:
            with open(self.paths.os_path(stat.path), "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            return None  # vanished since the scan: the removal pass or the next event handles it
        except OSError as error:
            problems.append(Problem(stat.path, "file", f"cannot read: {error.strerror}", "fix the file's permissions"))
            return None
        note = titled_as_in_logseq(parse_note(stat.path, raw), self.paths.daily)
        problems.extend(note.problems)
        found = searchable(note, self.paths.inline_queries.prefixes)
        return _Pending(note, found, note_row(note, settled_stat(stat, read_started_ns), found.embed_hash, self.paths.daily,
                                                self.paths.dates, found.fields.tags, self.paths.git_dates.moments(), found.fields.props_text), existing, task_lines(note.body, note.body_line, is_kanban_board(note.meta), self.paths.daily.maker == "Logseq", self._task_anchor(note)), read_stat=stat)

    def _task_anchor(self, note: Note) -> Anchor:
        """The note's own day (its date, its name, its ``created``; not git's), or the period a
        periodic note is of, asked only by a task whose due day is a weekday or a day without its
        year (plain_due.py)."""
        @functools.cache
        def anchor() -> date | Span | None:
            found = note_date(note.meta, note.path, self.paths.daily, self.paths.dates, note.body)
            if found is None:
                return None
            return found.span if found.span is not None and found.span.first != found.span.last else day_as_written(found)
        return anchor

    def _embed(self, pending: Sequence[_Pending], force: bool = False) -> int:
        """Give the items that need them their vectors; how many were embedded."""
        wanted = [item for item in pending if item.needs_vector or force]
        if not wanted:
            return 0
        from .searchable import embed_notes

        for item, vectors in zip(wanted, embed_notes(self._embedder(), [item.searchable for item in wanted]), strict=True):
            item.vectors = vectors
        return len(wanted)

    def _embed_heads(self, items: Sequence[_Pending]) -> None:
        """The heads of the turns among ``items`` (turn_windows.head_text), embedded with their
        passages: a search takes them from the store instead of embedding them (turn_windows.py)."""
        turns = [item for item in items if item.row.turn_key is not None]
        if not turns:
            return
        embedder = self._embedder()
        if not windows_possible(embedder):
            return
        texts = [head_text(item.searchable.fields.title, props_as_held(item.searchable.fields.props_text)) for item in turns]
        for item, text, summed in zip(turns, texts, embedder.sums(texts).totals, strict=True):
            item.head = (head_hash(text), np.asarray(summed, dtype=np.float32))

    def _put_turn_head(self, label: int, item: _Pending, new: bool = False) -> None:
        """After a write of note ``label``'s rows (in its transaction): its row in the turns' feed
        (storage turn_heads) at a new seq, with its head sum when it has one — embedded with its
        passages, or stored already for the same head text; else none, and the run owes it (the
        searcher embeds it meanwhile). A note that is no turn (any more) leaves the feed; a ``new``
        label that is none has nothing to leave (a cold index of 10,000 notes asks nothing)."""
        if item.row.turn_key is None:
            if not new:
                self.store.turn_heads.leave([label])
            return
        digest = head_hash(head_text(item.searchable.fields.title, props_as_held(item.searchable.fields.props_text)))
        if item.head is not None and item.head[0] == digest:
            self.store.turn_heads.put([(label, digest, item.head[1])])
            return
        stored = self.store.turn_heads.sums([label]) if self.store.turn_heads.hashes([label]).get(label) == digest else {}
        if label in stored:
            self.store.turn_heads.put([(label, digest, stored[label])])
            return
        self.store.turn_heads.owe([label])
        self._heads_owed[label] = (item.searchable.fields.title, item.searchable.fields.props_text)

    def _pay_heads_owed(self) -> None:
        """Embed, in one batch, the heads of the turns written this run without one (an index of
        before stop 41 read again, a note moved into a conversation's folder), and store them."""
        owed, self._heads_owed = self._heads_owed, {}
        if not owed:
            return
        embedder = self._embedder()
        if not windows_possible(embedder):
            return
        texts = {label: head_text(title, props_as_held(props)) for label, (title, props) in owed.items()}
        sums = embedder.sums(list(texts.values())).totals
        with self.store.transaction():
            # Only a turn still owed the same head: another process may have written it since.
            still = self.store.turn_heads.owed(list(texts))
            self.store.turn_heads.put([(label, head_hash(text), summed)
                                       for (label, text), summed in zip(texts.items(), sums, strict=True) if label in still])

    def _write(self, item: _Pending, report: IndexReport) -> None:
        """Write one note inside the chunk's transaction.

        The row is looked up again under the write lock: another process (a running
        ``watch`` beside a ``remember``) may have indexed the same file meanwhile, and
        deciding on the stale view would insert a duplicate or re-embed for nothing.
        """
        row = item.row
        if item.read_stat is not None and self._stat(row.path) != item.read_stat:
            # The file changed (or vanished) after we read it; whoever wrote it will be
            # heard (watch event, next reconcile: the row's stat no longer matches). Writing
            # our older read now could overwrite what a concurrent watcher already indexed.
            report.deferred.append(row.path)
            return
        current = self._state(row.path)
        if current is not None and current.content_hash == row.content_hash:
            self.store.notes.touch(current.label, row.mtime_ns, row.size)
            if item.vectors is not None and self._vectors_missing(current.label):
                # Same bytes, but vectors are missing (embedder switch, crash mid-switch):
                # without this the fresh vectors were dropped and search lost its vector side.
                self._put_vectors(current.label, self.store.passages.labels_of([current.label]), item.vectors)
                self._put_turn_head(current.label, item)
            report.unchanged += 1
            return
        source = item.moved_from if current is None and item.moved_from and self._still_gone(item.moved_from) else None
        base = current or source
        fields = item.searchable.fields
        heading = opening_heading_key(item.note.body, fields.name_keys)
        if base is not None:
            old = self.store.notes.by_labels([base.label]).get(base.label)
            if old is not None and old.turn_key is not None and old.turn_key != row.turn_key:
                report.turn_places_left.append(old.turn_key)
            self.store.notes.update(base.label, row, lookup_names(item.note), fields.name_keys, fields.topic_keys, heading)
            label = base.label
            if source is not None and old is not None:
                self.store.usage.rename(old.id, row.id)
                report.moved.append((source.path, row.path))
            else:
                if old is not None and old.id == path_without_suffix(old.path) != row.id:
                    # The file gained an id line (Dendron writes one into a note made outside it;
                    # so do Obsidian plugins): the same note, so its history follows, as on a move.
                    self.store.usage.rename(old.id, row.id)
                report.updated.append(row.path)
            self.store.tasks.replace(label, item.tasks, tags_of(item.note.meta))
        else:
            label = self.store.notes.insert(row, lookup_names(item.note), fields.name_keys, fields.topic_keys, heading)
            self.store.tasks.insert(label, item.tasks, tags_of(item.note.meta))
            report.added.append(row.path)
        self._write_passages(label, base, item, report)
        self._put_turn_head(label, item, new=base is None)

    def _write_passages(self, label: int, base: FileState | None, item: _Pending, report: IndexReport) -> None:
        """The note's passages and full text, and its vectors when what they embed changed."""
        passages, fields = item.searchable.passages, item.searchable.fields
        if base is not None and base.embed_hash == item.row.embed_hash:
            kept = self.store.passages.labels_of([label])
            if len(kept) == len(passages):
                # Same embedded texts (a tag, an expiry, a path changed): new fields and
                # places for the same passages, whose vectors stay.
                self.store.passages.rewrite(kept, passages, fields)
                return
        if base is not None:  # a new label (AUTOINCREMENT: never one used before) has no passages to drop
            self.store.passage_vectors.delete(self.store.passages.delete_for_notes([label]))
        labels = self.store.passages.insert(label, passages, fields)
        self._put_vectors(label, labels, self._embedded(item, report))

    def _put_vectors(self, label: int, passage_labels: Sequence[int], vectors: NoteVectors) -> None:
        from .vectors import vector_to_blob

        self.store.vectors.put([label], [vector_to_blob(vectors.note)])
        self.store.passage_vectors.put(passage_labels, [vector_to_blob(row) for row in vectors.passages])

    def _vectors_missing(self, label: int) -> bool:
        passages = self.store.passages.labels_of([label])
        return (not self.store.vectors.for_labels([label])
                or len(self.store.passage_vectors.for_labels(passages)) < len(passages))

    def _embedded(self, item: _Pending, report: IndexReport) -> NoteVectors:
        """The note's vectors, embedded now if its chunk did not (another process indexed it first)."""
        if item.vectors is None:
            report.embedded += self._embed([item], force=True)
        if item.vectors is None:  # _embed gives every item vectors or raises
            raise DerivedIndexError(Spelled(f"the embedder returned no vector for {item.row.path}; ", INDEX))
        return item.vectors

    def _remove(self, vanished: _Vanished, report: IndexReport) -> None:
        """Drop rows whose file is gone — checked again under the write lock.

        The list was made from a scan that may be seconds old: a file restored since
        (git checkout back, a watcher that already re-indexed it) must not be dropped.
        """
        if not vanished.by_path:
            return
        with self.store.transaction():
            gone = [state for state in vanished.by_path.values() if self._still_gone(state)]
            labels = [state.label for state in gone]
            report.turn_places_left.extend(self.store.notes.turn_keys_of(labels))
            self.store.notes.delete(labels)
            self.store.tasks.delete_for_notes(labels)
            self.store.vectors.delete(labels)
            self.store.passage_vectors.delete(self.store.passages.delete_for_notes(labels))
            self.store.turn_heads.leave(labels)
            if gone:
                self._owe_turns()
        report.removed.extend(sorted(state.path for state in gone))
        vanished.by_path.clear()

    def _still_gone(self, state: FileState) -> bool:
        """The file is still missing and the index still holds the same row for its path."""
        current = self._state(state.path)
        return self._stat(state.path) is None and current is not None and current.label == state.label

    def _embed_missing(self, report: IndexReport) -> None:
        """Notes without their vectors (a crash between chunks of an embedder switch): embed them."""
        orphans = self.store.passages.owners(self.store.passage_vectors.missing_labels())
        labels = sorted({*self.store.vectors.missing_labels(), *orphans.values()})
        if not labels:
            return
        rows = self.store.notes.by_labels(labels)
        stats = [stat for row in rows.values() if (stat := self._stat(row.path)) is not None]
        # Empty hashes make every one of them count as changed, so each is re-read and embedded.
        known = {row.path: FileState(label, row.path, row.mtime_ns, row.size, "", "") for label, row in rows.items()}
        unchanged = report.unchanged  # the scan counted these notes already
        for chunk in chunks(stats):
            self._sync_chunk(chunk, known, _Vanished({}), report)
        report.unchanged = unchanged

    def _require_own_vectors(self) -> None:
        """Refuse to write this embedder's vectors into an index of another's (checked in the
        write's transaction). A reconcile switches the whole index first; a note synced alone
        (``watch``, a read that indexes a changed file) does not: a server started before the
        person named another embedder and ran `vaultmem index` wrote one note's 32 numbers
        among 48-number vectors, and every later search failed inside numpy."""
        stored = self.store.meta.get("embedder")
        if stored is not None and stored != self.embedder_identity:
            if self._before_reembedding is not None:
                # The settings name another embedder than this process started with: only a
                # restart helps (it says so). Re-embedding here, as RE_EMBED advises, would be
                # refused the same way, and `vaultmem index` finds nothing to do.
                self._before_reembedding(stored)
            raise DerivedIndexError(Spelled(
                f"the index holds vectors from {stored}, but this process embeds with {self.embedder_identity}; ", RE_EMBED,
                " (vectors are never mixed; nothing was written)"))

    def _reset_if_embedder_changed(self) -> bool:
        stored = self.store.meta.get("embedder")
        if stored == self.embedder_identity:
            return False
        if stored is not None and self._before_reembedding is not None:
            self._before_reembedding(stored)
        from .snapshots import remove_files, snapshot_files

        stale = snapshot_files(self.store.state_dir)  # see DerivedIndex.drop: only these go
        with self.store.transaction():
            self.store.meta.set("embedder", self.embedder_identity)
            for space in SPACES:
                vectors = self.store.vector_store(space)
                vectors.clear()
                # In the same transaction: a kill between clearing the vectors and forgetting
                # the snapshot left the old embedder's HNSW file (maybe another dimension,
                # which hnswlib loads without complaint) as the base of every later search and fold.
                vectors.swap_snapshot(vectors.snapshot().file, None, 0, 0)
            self.store.turn_heads.clear()  # the old embedder's head sums, under a new epoch
        remove_files(stale)
        return stored is not None


def settled_stat(stat: FileStat, read_started_ns: int) -> FileStat:
    """The (mtime, size) to record for a file whose bytes were read from ``read_started_ns`` on.

    A write that lands after our read but within the same timestamp tick leaves mtime
    and size as we recorded them ("racy git"): trusting that stat would hide the newer
    bytes from every later reconcile and watcher event for good. So a stat that is not
    clearly older than the read is recorded one nanosecond off: the next look re-reads
    the file and compares its hash once, and records the real stat when it has settled.
    """
    if read_started_ns - stat.mtime_ns > RACY_WINDOW_NS:
        return stat
    return FileStat(stat.path, stat.mtime_ns - 1, stat.size)


def _stat_changed(state: FileState | None, stat: FileStat) -> bool:
    return state is None or state.mtime_ns != stat.mtime_ns or state.size != stat.size


class _Vanished:
    """Indexed notes whose file is gone — unless a new file with the same bytes shows up."""

    def __init__(self, states: dict[str, FileState]) -> None:
        self.by_path = dict(states)
        self.by_hash: dict[str, list[str]] = {}
        for path, state in sorted(states.items()):
            self.by_hash.setdefault(state.content_hash, []).append(path)

    def take_move_source(self, content_hash: str) -> FileState | None:
        for path in self.by_hash.get(content_hash, []):
            if path in self.by_path:
                return self.by_path.pop(path)
        return None


