"""A note that is no longer in the vault, found in git: the ``history`` of a note a person
deleted (committed or not), or that forget, expire or consolidate archived or deleted
(adr/0009-git-command-line.md).

Asked only once a NOTE names no note in the vault (resolution.py). The files git saw
removed from the vault (gitops.removals: the working tree's uncommitted deletions, then the
newest commits' deletions and moves) are matched against the reference as resolution
matches a live note, on what each removed file held: first its id (the frontmatter ``id``)
or its path (with or without ``.md``), exactly — the newest removal wins; else its bare file
name or its title, in any case — where removed notes that differ answer to it, it is
ambiguous, never a guess. From the removal that matched, the note is followed through its
later moves (archived, then deleted from the archive) to where it is now: deleted, in the
archive, moved to a file that is not a note — or a live note after all (a person renamed
it: its old path or old title still names it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import AmbiguousNote
from .fields import name_fold, name_form
from .gitops import Removal, blobs, removals
from .notes import content_hash, parse_note
from .ordered import unique
from .paths import is_note_name
from .resolution import ARCHIVE_SCAN_FILES, holds_id, newest_archived, spellings

if TYPE_CHECKING:
    from pathlib import Path

    from .paths import VaultPaths
    from .storage import NoteStore


@dataclass(frozen=True)
class Gone:
    """Where the note that was at ``path`` went: ``commit`` took it out (``None``: not
    committed yet); ``moved_to`` is where it is now, when it was moved (to the archive:
    ``archived``) rather than deleted. ``follow`` is the path git follows its commits from."""

    path: str
    commit: str | None
    moved_to: str | None
    archived: bool
    follow: str

    def __str__(self) -> str:
        if self.moved_to is None:
            what = "deleted"
        elif self.archived:
            what = f"archived to {self.moved_to}"
        else:
            what = f"moved to {self.moved_to}, which is not a note vaultmem reads"
        when = f" in commit {self.commit[:10]}" if self.commit else ", not committed yet"
        return f"{self.path} is no longer in the vault: {what}{when}"


@dataclass(frozen=True)
class RenamedTo:
    """The reference names a note that lives on at ``path`` (a rename git recorded)."""

    path: str


@dataclass(frozen=True)
class _Candidate:
    index: int  # in the removals, newest first
    id: str | None


def find_removed(paths: VaultPaths, notes: NoteStore, reference: str) -> tuple[Gone | RenamedTo | None, bool]:
    """The note ``reference`` named before it left the vault (``None``: no removal git saw
    answers to it), and whether git's older commits were left unread (gitops.REMOVAL_SCAN_COMMITS)."""
    removed, truncated = removals(paths.root)
    # As written first, then stripped (resolution.spellings): a removed ` x.md` is its own note.
    chosen = next(filter(None, (_choose(spelling, removed, paths) for spelling in spellings(reference))), None)
    if chosen is None:
        return None, truncated
    return _where_now(paths, notes, removed, chosen), truncated


def _choose(reference: str, removed: list[Removal], paths: VaultPaths) -> _Candidate | None:
    notes = [(index, removal) for index, removal in enumerate(removed) if is_note_name(removal.path.rpartition("/")[2])]
    contents = blobs(paths.root, unique(removal.blob for _, removal in notes))
    exact: list[_Candidate] = []
    named: list[_Candidate] = []
    for index, removal in notes:
        note_id, title = _identity(removal, contents.get(removal.blob), reference)
        candidate = _Candidate(index, note_id)
        if _is_path(removal.path, reference) or note_id in (reference, name_form(reference)):
            exact.append(candidate)
        elif _is_file_name(removal.path, reference) or (title is not None and name_fold(title) == name_fold(reference)):
            named.append(candidate)
    if exact:
        return exact[0]  # newest first: the last note that had that id or path
    if not named:
        return None
    ends = unique(_follow(removed, candidate.index).path for candidate in named)
    if len(ends) > 1:
        raise AmbiguousNote(reference, ends)
    return named[0]


def _identity(removal: Removal, content: bytes | None, reference: str) -> tuple[str | None, str | None]:
    """The removed note's id and title; read only when the reference could be one of them (a
    YAML load for every removed note would make a long history slow)."""
    if content is None:
        return None, None
    named = _is_path(removal.path, reference) or _is_file_name(removal.path, reference)
    if not named and name_fold(reference) not in name_fold(content.decode("utf-8", "replace")):
        return None, None
    note = parse_note(removal.path, content)
    return note.id, note.title


def _is_path(path: str, reference: str) -> bool:
    return name_form(path) in (name_form(reference), name_form(reference) + ".md")


def _is_file_name(path: str, reference: str) -> bool:
    if "/" in reference:
        return False
    wanted = reference if reference.endswith(".md") else reference + ".md"
    return name_fold(path.rpartition("/")[2]) == name_fold(wanted)


def _follow(removed: list[Removal], index: int) -> Removal:
    """The note's last removal: from ``removed[index]`` through each later removal of the path
    it moved to (archived by one commit, deleted from the archive by a later one)."""
    current = removed[index]
    while current.moved_to is not None:
        later = next((removal for removal in reversed(removed[:index]) if removal.path == current.moved_to), None)
        if later is None:
            break
        index, current = removed.index(later), later
    return current


def _where_now(paths: VaultPaths, notes: NoteStore, removed: list[Removal], chosen: _Candidate) -> Gone | RenamedTo:
    last = _follow(removed, chosen.index)
    if last.moved_to is not None:
        if any(row.path == last.moved_to for row in notes.find(last.moved_to)):
            return RenamedTo(last.moved_to)
        return Gone(last.path, last.commit, last.moved_to, paths.in_archive(last.moved_to), follow=last.moved_to)
    alive = [row for row in notes.find(chosen.id) if row.id == chosen.id] if chosen.id else []
    if len(alive) == 1:
        return RenamedTo(alive[0].path)  # moved and edited past git's rename detection, or copied and then deleted
    holding = _live_copies(paths, notes, last)
    if len(holding) == 1:
        # Renamed by hand and not committed yet: git sees a deletion beside an untracked file and
        # pairs them only once both are staged; the index holds the new file's bytes. Without this
        # a note renamed in Obsidian (`Drusz.md` → `Drusz (Droop).md`) was called deleted (a trial).
        return RenamedTo(holding[0])
    # Deleted from git's view; forget without auto-commit moves it to the archive on disk, and
    # a person drags it there (Obsidian puts it at the archive's top, a move git has not seen
    # while the new file is untracked): without looking, that note was called deleted.
    archived = None if paths.in_archive(last.path) else newest_archived(paths, last.path) or _moved_to_archive(paths, last, chosen.id)
    return Gone(last.path, last.commit, archived, archived is not None, follow=last.path)


def _live_copies(paths: VaultPaths, notes: NoteStore, removal: Removal) -> list[str]:
    """The live notes whose file holds exactly the bytes ``removal`` took away (outside the archive)."""
    content = blobs(paths.root, [removal.blob]).get(removal.blob)
    if content is None:
        return []
    return [path for path in notes.paths_holding(content_hash(content)) if not paths.in_archive(path)]


def _moved_to_archive(paths: VaultPaths, removal: Removal, note_id: str | None) -> str | None:
    """The archived file that is the note ``removal`` took away, moved there by hand: among at
    most ARCHIVE_SCAN_FILES of the archive's files, one that holds the removed bytes, else one
    whose frontmatter has the note's id (edited before or after the move); of several, the one
    with the note's file name, else the first by path. None: the archive holds no such file."""
    archive = paths.root / paths.archive_dir
    if not archive.is_dir():
        return None
    content = blobs(paths.root, [removal.blob]).get(removal.blob)
    same: list[str] = []
    with_id: list[str] = []
    for count, path in enumerate(sorted(archive.rglob("*.md"))):
        if count >= ARCHIVE_SCAN_FILES:
            break
        if content is not None and _holds(path, content):
            same.append(path.relative_to(paths.root).as_posix())
        elif note_id is not None and holds_id(path, note_id):
            with_id.append(path.relative_to(paths.root).as_posix())
    found = same or with_id
    name = removal.path.rpartition("/")[2]
    return next((path for path in found if path.rpartition("/")[2] == name), found[0] if found else None)


def _holds(path: Path, content: bytes) -> bool:
    """Does the file at ``path`` hold exactly ``content``? (Its size first: most files differ there.)"""
    try:
        return path.stat().st_size == len(content) and path.read_bytes() == content
    except OSError:
        return False  # unreadable or gone while looked at: not the file that can be named
