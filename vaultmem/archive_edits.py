"""Archived notes whose file changed after it went to the archive (``check``, ``index``; adr/0009).

Two machines share a vault through git. One archives a note (``forget``, ``expire --apply``,
``consolidate --apply`` move it to the archive folder); the other edits the note before it
pulls that. Git takes the move for a rename and merges the edit into the archived file, with
no conflict: the change is in the vault, yet search never reads the archive, so it is lost
to recall, and nothing said so.

What vaultmem archived is in git: the commit that added the archived file holds its bytes
then. Every file under the archive folder whose bytes now (working tree, as git would hash
it) are not the blob the newest commit that added it put there is a problem naming that
commit, how to see the change, how to bring the note back to search (``git mv``: there is no
restore command; the note is a file, and a move keeps its history) and how to drop the
change. One ``git log`` limited to the archive folder and one ``hash-object`` for the files
it names, whatever vaultmem's index holds: the machine that did not archive sees it too.

A ``git pull --rebase`` on the machine that archived replays the archiving commit onto the
other machine's edit, so that commit itself adds the edited bytes. vaultmem's commit names
the blob it archived in its message (``gitops.ARCHIVED_TRAILER``), which a rebase keeps: a file
whose bytes are not that blob is reported too, and the fix restores the blob, not the commit.

A change not committed yet (``git diff HEAD`` names the file) was made here, not merged: an
editor still open on the note when it was archived saves it into the archive. The problem
says so, and how to drop it is a checkout of HEAD's bytes.

Not seen: an archive no commit holds yet (nothing to compare with), older than
``gitops.REMOVAL_SCAN_COMMITS`` commits, and a rebase of an archiving commit that is not
vaultmem's (``auto_commit`` off: the person committed the move, with no trailer).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import PurePosixPath

from .errors import GitError, Operation, Spelled
from .gitops import Addition, additions, archivings, in_progress, is_repository, moves, uncommitted, working_blobs
from .notes import Problem
from .paths import VaultPaths


def archive_edit_problems(paths: VaultPaths) -> list[Problem]:
    """One problem per archived file changed since the commit that put it in the archive; a
    git that fails to answer is one problem saying so (not a clean archive)."""
    if not (paths.root / paths.archive_dir).is_dir() or not is_repository(paths.root):
        return []
    try:
        return _edited(paths)
    except GitError as error:
        return [Problem(paths.archive_dir, "archive", f"could not compare the archive with git: {error}",
                        "fix what git says, then run the command again")]


def former_archive_problems(paths: VaultPaths) -> list[Problem]:
    """One problem per file vaultmem archived that is read as a note now: the archive folder
    moved (``archive_dir`` changed, say from ``_archive`` to a PARA vault's ``4 Archive``) and
    the old one became an ordinary folder, so what ``forget``, ``expire`` and ``consolidate`` put
    away is searched and recalled again, without a word (a trial: a forgotten memory came back
    second for "landlord phone number"). Git says where each file was archived to (its commit's
    trailer); a note moved out of the archive by hand is at another path and not named."""
    if not is_repository(paths.root):
        return []
    try:
        left = [addition for path, addition in sorted(archivings(paths.root).items())
                if _in_vault(path) and not paths.in_archive(path) and paths.is_note_path(path)
                and paths.absolute(path).is_file()]
        # One `git show` per archiving commit, not per file: expire --apply archives hundreds in
        # one commit, and 500 files left behind took 9 s of git on every index and check.
        moved = {commit: moves(paths.root, commit) for commit in {addition.commit for addition in left}}
        return [_left_behind(paths, addition, moved[addition.commit]) for addition in left]
    except GitError as error:
        return [Problem(paths.archive_dir, "archive", f"could not read from git where vaultmem archived notes: {error}",
                        "fix what git says, then run the command again")]


def _in_vault(path: str) -> bool:
    """Whether a trailer's path names a place in the vault. A commit message is anyone's text: a
    trailer naming ``/home/me/x.md`` or ``../x.md`` had check look at that file outside the vault
    and name it, with a `git mv` of it (a review)."""
    parts = PurePosixPath(path).parts
    return bool(parts) and not PurePosixPath(path).is_absolute() and ".." not in parts


def _left_behind(paths: VaultPaths, addition: Addition, moved: Mapping[str, str]) -> Problem:
    """A file archived where the archive folder was then, read as a note where it is now."""
    archive, then = paths.archive_dir, _archive_then(addition, moved)
    inside = PurePosixPath(archive, addition.path.removeprefix(then + "/"))
    # Into the folder, not to a file name: the fix is then the same for every file of one old
    # folder, and check says 500 of them once (problem_groups.py), not in 1,000 lines.
    target, folder = shlex.quote(f"{inside.parent}/"), shlex.quote(str(inside.parent))
    return Problem(addition.path, "archive",
                   # No commit nor date: the same words for each file of one old folder, said once
                   # for all of them (git log --grep 'Vaultmem-Archived:' lists the commits).
                   f"vaultmem archived this file here when the archive folder was {then}/; the archive folder is "
                   f"{archive}/ now (archive_dir in .vaultmem.toml), "
                   "so this archived file is read as a note again: search and recall find it",
                   _left_behind_fix(archive, then, f"`mkdir -p {folder} && git mv {shlex.quote(addition.path)} {target}`"))


def _left_behind_fix(archive: str, then: str, move: str) -> Spelled:
    """The fix of a file left in a former archive folder, as each surface can act on it: over MCP
    an agent has no shell to run the move in nor an index tool, and the server reads archive_dir
    only as it starts — it asks the person, and its watcher sees the move."""
    again = f"to make it a note again on purpose, move it out of {then}/"
    return Spelled(Operation(
        f"to keep it archived, move it into {archive}/: {move} (then `vaultmem index`), or set archive_dir back to "
        f"\"{then}\"; {again}",
        f"to keep it archived, move it into {archive}/: {move} (then Vault.index()), or set archive_dir back to "
        f"\"{then}\" (and make a new Vault); {again}",
        f"ask the person to keep it archived by moving it into {archive}/ ({move}; this server sees the move), or to "
        f"set archive_dir back to \"{then}\" in .vaultmem.toml and restart the MCP server (it reads the settings as it "
        f"starts); or, {again}"))


def _archive_then(addition: Addition, moved: Mapping[str, str]) -> str:
    """The archive folder ``addition`` was archived into: its folder less the folder the note
    was in before (the move git sees in that commit: ``_archive/memories/x-2.md`` from
    ``memories/x.md`` was archived into ``_archive``; by folder, not file, as a note archived
    beside one of its name gets another), else the path's first folder, where vaultmem's
    default and the usual ``archive_dir`` are."""
    source = moved.get(addition.path)
    archived_in, came_from = PurePosixPath(addition.path).parent.as_posix(), PurePosixPath(source or "").parent.as_posix()
    if source and came_from == ".":
        return archived_in
    if source and archived_in.endswith("/" + came_from):
        return archived_in[:-len(came_from) - 1]
    return addition.path.split("/", 1)[0]


def _edited(paths: VaultPaths) -> list[Problem]:
    added, _older_unread = additions(paths.root, paths.archive_dir)
    present = sorted(path for path in added if paths.absolute(path).is_file())
    now = working_blobs(paths.root, present)
    changed = [added[path] for path in present if now[path] != _archived(added[path])]
    origins = _origins(paths, changed)
    # A merge stopped on a conflict elsewhere has staged its own change to the archived copy,
    # uncommitted too: that one is git's merge, not this machine's edit.
    by_hand = set() if in_progress(paths.root) else uncommitted(paths.root, [addition.path for addition in changed])
    return [_problem(paths, addition, origins[addition.path], addition.path in by_hand) for addition in changed]


def _archived(addition: Addition) -> str:
    """The blob vaultmem archived: the one its commit names, else the one the commit added."""
    return addition.archived or addition.blob


def _origins(paths: VaultPaths, changed: list[Addition]) -> Mapping[str, str]:
    """Where each changed archived file was before it was archived: the move git sees in the
    commit that added it (one ``git show`` per commit), else its path inside the archive."""
    prefix = paths.archive_dir.rstrip("/") + "/"
    moved: dict[str, dict[str, str]] = {}
    origins = {}
    for addition in changed:
        if addition.commit not in moved:
            moved[addition.commit] = moves(paths.root, addition.commit)
        source = moved[addition.commit].get(addition.path)
        # A move within the archive (a person tidying it) is not where the note lived.
        origins[addition.path] = source if source and not source.startswith(prefix) else addition.path.removeprefix(prefix)
    return origins


def _problem(paths: VaultPaths, addition: Addition, origin: str, by_hand: bool) -> Problem:
    """``by_hand``: the change is not committed, so it was made on this machine (an editor still
    open on the note when it was archived, or an edit in the archive folder), not merged by git."""
    archived, commit = shlex.quote(addition.path), addition.commit[:10]
    if by_hand and _archived(addition) != addition.blob:
        # Archived with the person's uncommitted edit in it (its commit holds HEAD's bytes, its
        # trailer the bytes moved): checking HEAD out would throw that edit away too.
        blob = _archived(addition)
        shown = f"`git show {blob}` shows the note as it was archived"
        drop = f"to drop the change, `git show {blob} > {archived}`"
        how = "the file was edited in the archive folder on this machine after it was archived, and the edit is not committed"
    elif by_hand:
        shown = f"`git diff HEAD -- {archived}` shows the change"
        drop = f"to drop the change, `git checkout HEAD -- {archived}`"
        how = ("the file was edited in the archive folder on this machine and the edit is not committed: an editor "
               "still open on the note when it was archived saves it there")
    elif _archived(addition) == addition.blob:
        shown = f"`git diff {commit} -- {archived}` shows the change"
        drop = f"to drop the change, `git checkout {commit} -- {archived}`"
        how = (f"git merges an edit made elsewhere to {origin} into the archived copy when one machine archived the "
               "note and another edited it")
    else:
        # The commit itself holds the edit: checking it out again would keep it; the blob
        # the commit's message names is what vaultmem archived.
        blob = _archived(addition)
        shown = f"`git diff {blob} {addition.blob}` shows the change"
        drop = f"to drop the change, `git show {blob} > {archived}`"
        how = (f"a `git pull --rebase` replayed that commit on top of an edit made elsewhere to {origin}, so the "
               f"commit holds the edit instead of the bytes vaultmem archived, blob {blob[:10]}")
    if paths.absolute(origin).exists():
        back = (f"{origin} is a note again: copy the change into it by hand ({shown}), then {drop}")
    else:
        back = (f"to keep the change where search finds it, move the note back: `git mv {archived} {shlex.quote(origin)}` "
                f"(then `vaultmem index`); {drop}; {shown}")
    return Problem(addition.path, "archive",
                   f"changed since commit {commit} ({addition.date[:10]}) put it in the archive: search does not read "
                   f"the archive, so this change is never found ({how})", back)
