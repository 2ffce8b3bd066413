"""A forgotten note back in the vault beside its archived copy (``check``, ``index``; adr/0009).

``forget``, ``expire --apply`` and ``consolidate --apply`` move a note into the archive folder.
The person's own git can bring it back without a word: a merge of a branch that moved the note
elsewhere (git's rename/rename conflict leaves both files, and ``git add -A`` keeps both), a
modify/delete conflict resolved by keeping the branch's version, a "discard all changes" after a
forget that was not committed. The note is then live (search, recall and ``get`` answer with
it) and archived (nothing reads that copy), and a person who forgot it believes it forgotten.

Found by the files alone, with or without git: an archived file whose frontmatter ``id`` a live
note holds too (ids vaultmem writes are its own ULIDs: the same id is the same note). A note
without an ``id`` went by its path: it is the same note only when a file at its old path holds
the very bytes archived — a note a person wrote anew at a forgotten note's name is a note of its
own, and saying otherwise would tell them to forget it. Only archived files named as a live note
is (less the archive's ``-2``) are read, so every ``index`` does not read a large archive whole. Not
seen: a note back under another file name (renamed on the branch that brought it back), and an
id-less note back at another path or with an edit.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping

from .errors import Operation, Spelled
from .notes import Problem, path_without_suffix
from .paths import VaultPaths
from .resolution import archived_ids

LiveById = Callable[[Iterable[str]], Mapping[str, list[str]]]  # id → the live notes holding it (by frontmatter id)


def archived_twin_problems(paths: VaultPaths, live_paths: Iterable[str], live_by_id: LiveById) -> list[Problem]:
    """One problem per live note (of ``live_paths``, every note's) that is also in the archive
    folder, on the live note's path. Only archived files of a live note's file name are read
    (resolution.archived_ids): a note comes back under the name it was archived by."""
    archived = archived_ids(paths, {path.rpartition("/")[2] for path in live_paths})
    live = live_by_id([ident for _path, ident in archived if ident is not None])
    problems = []
    for copy, ident in archived:
        if ident is not None:
            problems += [_twin(note, copy, f"both hold id {ident!r}") for note in live.get(ident, [])
                         if path_without_suffix(note) != ident]  # a note whose path is its id does not say it
        elif (note := _same_bytes_at_old_path(paths, copy)) is not None:
            problems.append(_twin(note, copy, "the same bytes at the path it was archived from"))
    return problems


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


def _twin(live: str, copy: str, how: str) -> Problem:
    forget = Operation(f"`vaultmem forget {shlex.quote(live)}`", f"Vault.forget({live!r})", f"the forget tool with note={live!r}")
    delete = Operation(f"delete the archived copy (`git rm {shlex.quote(copy)}`, or delete the file)",
                       f"delete the archived copy (`git rm {shlex.quote(copy)}`, or delete the file)",
                       f"ask the person to delete the archived copy {copy} (no tool deletes an archived file)")
    return Problem(live, "archive",
                   f"forgotten, yet back in the vault: {copy} is this note archived ({how}); this file is the live one "
                   "(search, recall and get answer with it), nothing reads the archived copy. A merge, pull or checkout "
                   "of a branch that still had the note, or a restore of its file, brings a forgotten note back so",
                   Spelled("to keep it forgotten, forget it again (", forget, "; the archive then holds both copies); "
                           "to keep it, ", delete))
