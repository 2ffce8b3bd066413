"""``expire``: which notes expired at an instant, and (``--apply``) archiving them — or,
``hard``, deleting them.

Which notes are expired is the index's answer (the one rule, lifecycle.py: ``expires_at``
<= now). Each file is then read again: a note a person extended, made permanent or edited
since the index saw it is skipped and reported, not archived; so is one whose YAML does
not load (its expiry was read line by line: enough to hide it, not to act on the file).
The dry run makes the same checks and reports the same skips, so it never promises what
``--apply`` will not do. A note edited while it is being moved stays, and the others go
on. Notes without ``expires_at`` and permanent/L4 notes are never listed. See adr/0002.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from .errors import CHECK, PathOutsideVault, ReadOnlyNote, Spelled, WriteConflict, message_parts
from .lifecycle import is_expired
from .merge_markers import UNMERGED_WHY, unmerged_fix, unmerged_notes
from .noteio import refuse_read_only
from .notes import read_note
from .results import ExpireReport, Skipped
from .writer import remove_note

if TYPE_CHECKING:
    from .paths import VaultPaths
    from .storage import NoteRow
    from .unit_of_work import VaultWrite


def plan_expiry(paths: VaultPaths, rows: Sequence[NoteRow], report: ExpireReport, moment: datetime) -> list[NoteRow]:
    """The expired notes that can be archived now; the others go to ``report.skipped`` with
    why (the dry run's answer, and the first step of ``--apply``)."""
    movable = []
    unmerged = unmerged_notes(paths.root, [row.path for row in rows])  # one question to git for all of them
    for row in rows:
        if (reason := not_to_expire(paths, row, moment, unmerged, report.hard)) is not None:
            report.skipped.append(Skipped(row.path, reason))
        else:
            movable.append(row)
    return movable


def remove_expired(write: VaultWrite, paths: VaultPaths, rows: Sequence[NoteRow], report: ExpireReport,
                   moment: datetime) -> None:
    """Archive (``report.hard``: delete) each expired note still as indexed; the others are
    ``report.skipped`` with why. Changes are recorded on ``write``."""
    write.reindex(*(row.path for row in rows))
    entries = {entry.path: entry for entry in report.expired}
    movable = plan_expiry(paths, rows, report, moment)
    for row in movable:
        entry = entries[row.path]
        try:
            # Each was asked of git's index a moment ago (plan_expiry): not once more per note.
            entry.archived_to, changes = remove_note(paths, row.path, row.content_hash, report.hard, unmerged=())
        except (WriteConflict, PathOutsideVault, OSError) as error:
            # Edited while being archived: the person's version stays, the others go on. So
            # too for a note the file system refuses (ReadOnlyNote, a folder not writable, a
            # full disk): the run was stopped there, the notes before it gone, the rest not.
            report.skipped.append(Skipped(row.path, Spelled(*message_parts(error))))
            continue
        write.record(*changes)
        entry.removed = True
    write.message = (f"vaultmem expire: {len(rows) - len(report.skipped)} expired note(s) "
                     f"{'deleted' if report.hard else 'archived'}\n\nas of {moment.isoformat()}")


def not_to_expire(paths: VaultPaths, row: NoteRow, moment: datetime, unmerged: Collection[str],
                  hard: bool = False) -> str | None:
    """Why this expired note must not be moved now, or ``None``: the file is still the one
    indexed, still expired (not extended, not made permanent), not in an unfinished git merge
    (``unmerged``: the notes git's index holds unmerged) and its metadata loads; ``hard``:
    and it is not read-only (deleted, it would be refused: ReadOnlyNote; archived, it is moved)."""
    current = read_note(paths.root, row.path)
    if current.content_hash != row.content_hash or current.permanent or not is_expired(current.expires_at, moment):
        return "changed on disk since it was indexed; run expire again"
    conflicted = [problem for problem in current.problems if problem.field == "conflict"]
    if conflicted:
        return f"{conflicted[0].message}; {conflicted[0].fix}, then run expire again"
    if row.path in unmerged:  # moved, git's conflict would name a file that is gone
        return f"{UNMERGED_WHY}; {unmerged_fix(row.path)}, then run expire again"
    if current.metadata_unloaded:
        # Its expiry was read line by line from YAML that does not load: enough to hide
        # it, not enough to act on the file. The person fixes the YAML first.
        return Spelled("its frontmatter does not load (see ", CHECK, "); fix the YAML, then run expire again")
    if hard:
        try:
            refuse_read_only(paths.absolute(row.path), row.path)
        except ReadOnlyNote as error:  # the dry run listed it as to be deleted, and --apply skipped it
            return Spelled(*message_parts(error))
    return None
