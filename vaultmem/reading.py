"""One note as it is now: ``get`` (its file, expiry, successor, usage, version) and
``history`` (the git commits that touched it).

Both name the note as every command does (resolution.py) from an index brought in line
with the files (adr/0021); ``get`` reads the file itself and, when it changed a moment
ago, indexes it first, so the view never contradicts the file. A note that is gone still
has a history under its old path, and git is never asked about a path outside the vault.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import NoteNotFound
from .lifecycle import resolve_now, to_epoch_us
from .notes import read_note, text_values
from .resolution import locate, locate_on_disk
from .results import History, NoteRef, NoteView

if TYPE_CHECKING:
    from .derived import DerivedIndex
    from .storage import NoteStore


def view_note(index: DerivedIndex, reference: str, now: object = None) -> NoteView:
    """The note as it is on disk now, with whether (and when) it expired, what superseded
    it, its ``version`` and its usage."""
    located = locate_on_disk(index, reference)
    row = located.row
    current = read_note(index.paths.root, row.path)
    if current.content_hash != row.content_hash:
        index.indexer.sync_paths([row.path])  # written a moment ago
        row = locate(index, row.path, refresh=False).row
    successor = text_values(current.meta, "superseded_by")
    store = index.store
    return NoteView.of(row, current, store.usage.for_ids([row.id]).get(row.id), to_epoch_us(resolve_now(now)),
                       superseded_by=note_ref(store.notes, successor[0]) if successor else None,
                       resolved_from=located.resolved_from)


def note_ref(notes: NoteStore, ident: str) -> NoteRef:
    """An id and, while that note is in the vault, its path."""
    rows = notes.find(ident)
    return NoteRef(ident, rows[0].path if len(rows) == 1 else None)


def note_history(index: DerivedIndex, reference: str) -> History:
    """Commits that touched the note, newest first, following renames."""
    from .gitops import history, require_repository

    paths = index.paths
    require_repository(paths.root)
    resolved_from = None
    try:
        located = locate(index, reference)
        relative, resolved_from = located.row.path, located.resolved_from
    except NoteNotFound:
        # A note that is gone (deleted, archived) still has a history under its old path.
        relative = reference if reference.endswith(".md") else reference + ".md"
    # Both branches: git must never be asked about a path outside the vault (in a vault
    # nested in a larger repository that would list the commits of the user's other files).
    paths.resolve_inside(relative)
    commits = history(paths.root, relative)
    if not commits and not paths.absolute(relative).exists():
        raise NoteNotFound(reference)
    return History(commits, relative, resolved_from)
