"""One note as it is now: ``get`` (its file, expiry, successor, usage, version) and
``history`` (the git commits that touched it). ``get`` also reads a file in the archive
folder named by its path there, read-only and never indexed (adr/0002 "Reading the archive").

Both name the note as every command does (resolution.py) from an index brought in line
with the files (adr/0021); ``get`` reads the file itself and, when it changed a moment
ago, indexes it first, so the view never contradicts the file. A note that is gone still
has a history: git is searched for its old id, path or title (gone.py), and is never asked
about a path outside the vault.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .archived_twins import archived_twins, twin_problem
from .errors import ArchivedNote, NoteNotFound, NoteReadError, NotInRecentHistory, RemovedNote
from .gone import Gone, RenamedTo, find_removed
from .indexer import note_row
from .lifecycle import resolve_now, to_epoch_us
from .notes import SUCCESSOR_FIELDS, Note, Problem, read_note, text_values
from .paths import FileStat
from .resolution import Located, Resolution, archived_with_id, link_parts, live_twin, locate, locate_on_disk
from .results import History, NoteRef, NoteView, Succession, Successor
from .sections import find_section
from .shown_titles import shown_title

if TYPE_CHECKING:
    from .derived import DerivedIndex
    from .storage import NoteStore


def view_note(index: DerivedIndex, reference: str, now: object = None) -> NoteView:
    """The note as it is on disk now, with whether (and when) it expired, what superseded
    it, its ``version`` and its usage. A file in the archive folder named by its path there
    is shown read-only (:func:`view_archived`); a note found by an id it superseded or merged
    names where the note that id named is in the archive (``resolved_from.archived``)."""
    try:
        located = locate_on_disk(index, reference, now)
    except ArchivedNote as archived:
        if not archived.by_path:
            raise  # by an id, old path or title: the error names the path that reads it
        return view_archived(index, archived.archived, now)
    except NoteNotFound as missing:
        section = view_section(index, reference, missing, now)
        if section is None:
            raise
        return section
    located = _with_archived_predecessor(index, located)
    row = located.row
    current = read_note(index.paths.root, row.path)
    if current.content_hash != row.content_hash:
        index.indexer.sync_paths([row.path])  # written a moment ago
        row = locate(index, row.path, refresh=False).row
    successor = text_values(current.meta, "superseded_by")
    store = index.store
    return NoteView.of(row, current, store.usage.for_ids([row.id]).get(row.id), to_epoch_us(resolve_now(now)),
                       superseded_by=note_ref(store.notes, successor[0]) if successor else None,
                       resolved_from=located.resolved_from, daily=index.paths.daily, dates=index.paths.dates,
                       more_problems=[*_unfinished_merge(index.paths.root, current), *_archived_twin(index, row.path)])


def view_section(index: DerivedIndex, reference: str, missing: NoteNotFound, now: object = None) -> NoteView | None:
    """``Note#Heading`` / ``Note#H1#H2`` / ``Note#^block`` that no note is named (``missing``),
    when ``Note`` names one: that note's view with only the section in its body and ``section``
    saying which lines of the file it is (sections.py); None when the reference is no such link.
    Only a read: a write by the link refuses (resolution._a_link_to), as it would act on the
    whole note. Was: get said only "it is a link to the heading …", and an agent reading one
    section of a long note had to take the whole of it."""
    parts = link_parts(reference)
    if parts is None or not parts[1] or type(missing) is not NoteNotFound:
        return None
    written, anchor = parts
    try:
        whole = view_note(index, written, now)
    except NoteNotFound:
        raise missing from None  # no note by that name either: the reference's own error says so
    if whole.archived:
        return None
    section = find_section(whole.path, whole.body, whole.body_line, anchor)
    return replace(whole, body=section.text, section=section)


def view_archived(index: DerivedIndex, relative: str, now: object = None) -> NoteView:
    """A file in the archive folder (``resolution.archived_file_at`` found it), as ``get`` shows
    a note, with ``archived=True``: read and parsed as the indexer would, never indexed (the
    archive is kept out of search, adr/0002). Only named by its path in the archive: an id or
    title that only an archived note answers to stays an error naming that path, so an agent
    never takes a retired or forgotten fact for a current one without asking for the archive."""
    paths = index.paths
    current = read_note(paths.root, relative)
    stat = paths.absolute(relative).stat()
    row = note_row(current, FileStat(relative, stat.st_mtime_ns, stat.st_size), "", paths.daily, paths.dates)
    successor = text_values(current.meta, "superseded_by")
    store = index.store
    view = NoteView.of(row, current, store.usage.for_ids([row.id]).get(row.id), to_epoch_us(resolve_now(now)),
                       superseded_by=note_ref(store.notes, successor[0]) if successor else None,
                       daily=paths.daily, dates=paths.dates, archived=True)
    return replace(view, live_at=live_twin(index, relative))


def _with_archived_predecessor(index: DerivedIndex, located: Located) -> Located:
    """``located``, its ``resolved_from`` naming the archived file of the note its reference
    named when that was an id in the found note's ``supersedes`` or ``merged_from``: the id
    opens the note that replaced it, and without the path the old text was out of an agent's
    reach once expire or consolidate archived it."""
    found = located.resolved_from
    if found is None or found.via not in SUCCESSOR_FIELDS or found.archived is not None:
        return located  # (a merged note's permalink found it: resolution named its archived file)
    archived = archived_with_id(index.paths, found.reference)
    return located if archived is None else replace(located, resolved_from=replace(found, archived=archived))


def _unfinished_merge(root: Path, current: Note) -> list[Problem]:
    """The note's conflict when git's index holds it unmerged with no markers in the file (a
    UTF-16 note git merged as binary reads as one side, whole): one question to git per get."""
    from .check import ask_unmerged, unmarked_conflict_problems

    unmerged, git_problem = ask_unmerged(root, [current.path])
    return [git_problem] if git_problem is not None else unmarked_conflict_problems([current], unmerged)


def _archived_twin(index: DerivedIndex, relative: str) -> list[Problem]:
    """The note's copy in the archive folder when the person's git undid its forget
    (archived_twins.py), as ``check`` says it: ``get`` is the read of one note, and an agent
    reading it took a note the person forgot for one they keep. Looked for as ``index`` does,
    by the note's file name (a walk of the archive's names: 0.08 s for 5,000 archived files);
    a search does not look (a walk per query), ``check`` and ``index`` say it."""
    twins = archived_twins(index.paths, [relative], index.store.notes.paths_by_id)
    return [twin_problem(twin) for twin in twins if twin.live == relative]


SUCCESSION_LIMIT = 32  # successors followed from a revised note: a chain longer is no history vaultmem wrote


def succession(root: Path, notes: NoteStore, note: Note) -> Succession:
    """Where ``note``'s ``superseded_by`` leads: the note it names (while it is in the vault) and
    the notes that replaced that one in turn, up to the one that holds the current fact (no
    ``superseded_by`` of its own). A revise of a note superseded twice named the first successor,
    itself retired, as the one to revise (s35). Followed at most :data:`SUCCESSION_LIMIT` steps and
    never twice through one note: a loop made by hand (``a`` → ``b`` → ``a``) or a fork (several
    ids) stops the walk with ``problem`` saying where and how to fix it."""
    chain: list[Successor] = []
    seen = {note.id: note.path}
    current = note
    while True:
        successors = text_values(current.meta, "superseded_by")
        if not successors:
            return Succession(tuple(chain))
        if len(successors) > 1:
            # The revised note's own fork: its first id (its `superseded_by` in the answer) is named by
            # path and title still — left out, it was said to be "no longer in the vault".
            first = notes.find(successors[0]) if not chain else []
            named = (Successor(first[0].id, first[0].path, shown_title(first[0].title, first[0].path)),) if len(first) == 1 else ()
            return Succession((*chain, *named), f"{current.path} is superseded by several notes ({', '.join(successors)}), "
                                                "so which holds the current fact is yours to say: keep one id in its superseded_by")
        rows = notes.find(successors[0])
        if len(rows) != 1:
            return Succession((*chain, Successor(successors[0], None, None)))  # left the vault: said by its id
        row = rows[0]
        if row.id in seen:
            return Succession(tuple(chain), _loop_words(current.path, successors[0], seen[row.id], row.id == note.id))
        if len(chain) == SUCCESSION_LIMIT:
            return Succession(tuple(chain), f"its superseded_by chain goes on past {SUCCESSION_LIMIT} notes ({current.path} "
                                            "names another); find the note that holds the current fact and revise it")
        chain.append(Successor(row.id, row.path, shown_title(row.title, row.path)))
        seen[row.id] = row.path
        try:
            current = read_note(root, row.path)
        except NoteReadError as error:
            return Succession(tuple(chain), f"{row.path} could not be read to follow its superseded_by ({error})")


def _loop_words(path: str, ident: str, target: str, itself: bool) -> str:
    named = "this note" if itself else f"{target}, earlier on the chain"
    return (f"the superseded_by of {path} names {ident} ({named}): a loop, made by hand (vaultmem never writes one), so no "
            f"note on it holds the current fact; fix superseded_by in {path} (name the note that replaced it, or remove "
            "the key), then revise the note that holds the current fact")


def note_ref(notes: NoteStore, ident: str) -> NoteRef:
    """An id and, while that note is in the vault, its path."""
    rows = notes.find(ident)
    return NoteRef(ident, rows[0].path if len(rows) == 1 else None)


def note_history(index: DerivedIndex, reference: str) -> History:
    """Commits that touched the note, newest first, following renames. A note no longer in
    the vault (deleted, archived: gone.py) is found in git by its old id, path or title; its
    history starts with the commit that took it out and says where it went."""
    from .gitops import history, require_repository

    paths = index.paths
    require_repository(paths.root)
    try:
        located = locate(index, reference)
    except NoteNotFound as missing:
        return _removed_history(index, reference, missing)
    return History(history(paths.root, located.row.path), located.row.path, located.resolved_from)


def _removed_history(index: DerivedIndex, reference: str, missing: NoteNotFound) -> History:
    from .gitops import REMOVAL_SCAN_COMMITS, history

    paths = index.paths
    if isinstance(missing, RemovedNote) and isinstance(missing.gone, Gone):
        found: Gone | RenamedTo | None = missing.gone  # locate asked git already
        truncated = False
    else:
        found, truncated = find_removed(paths, index.store.notes, reference)
    if isinstance(found, RenamedTo):
        return History(history(paths.root, found.path), found.path, Resolution(reference, "old name"))
    if found is not None:
        return History(history(paths.root, found.follow), found.follow, gone=found)
    # Not a note git saw leave: a path git knows (a file that is not a note, one older than
    # the scan). Git must never be asked about a path outside the vault (in a vault nested in
    # a larger repository that would list the commits of the user's other files).
    relative = reference if reference.endswith(".md") else reference + ".md"
    paths.resolve_inside(relative)
    commits = history(paths.root, relative)
    if commits or paths.absolute(relative).exists():
        return History(commits, relative)
    if truncated and type(missing) is NoteNotFound:
        raise NotInRecentHistory(reference, REMOVAL_SCAN_COMMITS)
    raise missing
