"""A forgotten note back in the vault beside its archived copy (``check``, ``index``; adr/0009).

``forget``, ``expire --apply`` and ``consolidate --apply`` move a note into the archive folder.
The person's own git can bring it back without a word: a merge of a branch that moved or
renamed the note (git's rename/rename conflict leaves both files, and ``git add -A`` keeps
both), a modify/delete conflict resolved by keeping the branch's version, a "discard all
changes" after a forget that was not committed. The note is then live (search, recall and
``get`` answer with it) and archived (nothing reads that copy), and a person who forgot it
believes it forgotten.

Found by the files alone, with or without git: an archived file whose frontmatter ``id`` a live
note holds too (ids vaultmem writes are its own ULIDs: the same id is the same note). A note
without an ``id`` went by its path: it is the same note only when a file at its old path holds
the very bytes archived — a note a person wrote anew at a forgotten note's name is a note of its
own, and saying otherwise would tell them to forget it. ``check`` reads every archived file's
head, as it reads every note: a note back under another file name (Obsidian's rename, on the
branch that brought it back) is found. ``index`` reads only archived files named as a live note
is (in any case and Unicode form, less the archive's ``-2``) and those git says changed, so every
``index`` does not read a large archive whole. Not seen: an id-less note back at another path or
with an edit.

An archived file that is a twin is said once, as a twin: git merges the branch's edit into both
files of a rename/rename conflict, and the archive-edit problem (archive_edits.py) told the
person to move the archived copy back — a second live note with the same id (a review, s37).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from .archive_edits import archive_edit_problems, former_archive_problems
from .errors import Operation, Spelled
from .notes import Problem, path_without_suffix
from .paths import VaultPaths
from .resolution import archived_ids

LiveById = Callable[[Iterable[str]], Mapping[str, list[str]]]  # id → the live notes holding it (by frontmatter id)


@dataclass(frozen=True)
class Twin:
    live: str  # the note search and get answer with
    copy: str  # its archived copy
    how: str  # how the two are known to be one note
    differ: bool  # their bytes differ: the archived copy may hold words the live note lacks


def archive_problems(paths: VaultPaths, live_paths: Collection[str] | None, live_by_id: LiveById) -> list[Problem]:
    """The archive folder's problems, as ``check`` and ``index`` say them: edits git merged into
    archived files (archive_edits.py), files archived where the archive folder was before, and
    notes live and archived at once (:func:`archived_twins`; ``live_paths`` ``None``: the whole
    archive is read, else only files named as one of them). A twin's archived copy is no edit
    problem of its own: the move back that problem's fix gives would make a second live copy."""
    edits = archive_edit_problems(paths)
    twins = archived_twins(paths, live_paths, live_by_id, also=[problem.path for problem in edits])
    copies = {twin.copy for twin in twins}
    return [*(problem for problem in edits if problem.path not in copies), *former_archive_problems(paths),
            *(twin_problem(twin) for twin in twins)]


def archived_twins(paths: VaultPaths, live_paths: Collection[str] | None, live_by_id: LiveById,
                   also: Iterable[str] = ()) -> list[Twin]:
    """Each live note that is also in the archive folder, with its archived copy. Read: every
    archived file (``live_paths`` ``None``), else those of a live note's file name, and ``also``."""
    names = None if live_paths is None else {path.rpartition("/")[2] for path in live_paths}
    archived = archived_ids(paths, names, also)
    live = live_by_id([ident for _path, ident in archived if ident is not None])
    twins = []
    for copy, ident in archived:
        if ident is not None:
            twins += [Twin(note, copy, f"both hold id {ident!r}", _differ(paths, note, copy)) for note in live.get(ident, [])
                      if path_without_suffix(note) != ident]  # a note whose path is its id does not say it
        elif (note := _same_bytes_at_old_path(paths, copy)) is not None:
            twins.append(Twin(note, copy, "the same bytes at the path it was archived from", differ=False))
    return twins


def live_from_notes(ids_by_path: Mapping[str, str]) -> LiveById:
    """``live_by_id`` over notes read by ``check``: path → the id their frontmatter says."""
    def live_by_id(ids: Iterable[str]) -> Mapping[str, list[str]]:
        wanted = set(ids)
        found: dict[str, list[str]] = {}
        for path, ident in sorted(ids_by_path.items()):
            if ident in wanted:
                found.setdefault(ident, []).append(path)
        return found

    return live_by_id


def _same_bytes_at_old_path(paths: VaultPaths, copy: str) -> str | None:
    old = copy.removeprefix(paths.archive_dir.rstrip("/") + "/")
    if old == copy or not paths.is_note_path(old) or paths.in_archive(old):
        return None
    try:
        same = paths.absolute(old).read_bytes() == paths.absolute(copy).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None  # nothing at the old path: forgotten, as asked
    return old if same else None


def _differ(paths: VaultPaths, live: str, copy: str) -> bool:
    """Do the two files' bytes differ? Said only of two files read: one gone since the walk is
    no twin to say anything of, and the next check says what is there then."""
    live_bytes, copy_bytes = _bytes(paths, live), _bytes(paths, copy)
    return live_bytes is not None and copy_bytes is not None and live_bytes != copy_bytes


def _bytes(paths: VaultPaths, relative: str) -> bytes | None:
    try:
        return paths.absolute(relative).read_bytes()
    except FileNotFoundError:
        return None  # deleted or moved since the walk


def twin_problem(twin: Twin) -> Problem:
    """What ``check``, ``index`` and ``get`` say of ``twin``, on its live note's path."""
    live, copy = twin.live, twin.copy
    forget = Operation(f"`vaultmem forget {shlex.quote(live)}`", f"Vault.forget({live!r})", f"the forget tool with note={live!r}")
    compare = f"`git diff --no-index -- {shlex.quote(copy)} {shlex.quote(live)}` shows how"
    keep = (Operation(f"keep what you want of the archived copy in {live} ({compare}), then ",
                      f"keep what you want of the archived copy in {live} ({compare}), then ",
                      f"ask the person to keep what they want of the archived copy {copy} in {live} (the two differ), "
                      "then ") if twin.differ else "")
    delete = Operation(f"delete the archived copy (`git rm {shlex.quote(copy)}`, or delete the file)",
                       f"delete the archived copy (`git rm {shlex.quote(copy)}`, or delete the file)",
                       f"{'' if twin.differ else 'ask the person to '}delete the archived copy {copy} "
                       "(no tool deletes an archived file)")
    # Said when they differ: "delete the archived copy" alone threw away an edit only it held.
    differ = "; the two differ: the archived copy may hold words the live note lacks" if twin.differ else ""
    return Problem(live, "archive",
                   f"forgotten, yet back in the vault: {copy} is this note archived ({twin.how}); this file is the live one "
                   "(search, recall and get answer with it), nothing reads the archived copy. A merge, pull or checkout "
                   f"of a branch that still had the note, or a restore of its file, brings a forgotten note back so{differ}",
                   Spelled("to keep it forgotten, forget it again (", forget, "; the archive then holds both copies); "
                           "to keep it, ", keep, delete))
