"""When git added each note: the date of a note nothing else dates, with ``[dates] from_git = true``
(adr/0026, "Dates from git").

A vault kept in git (a "TIL" repository, a team's notes) often writes no date anywhere: no
property, no day in a name, no ``created``. Its history knows when each file was added. With the
setting on, such a note is dated by the author date of the commit that added its file, following
its renames (dating.py's last rule: anything the note says wins).

One ``git log --raw`` pass over HEAD's history of the vault's folder (gitops.added_and_moved; a vault
in a bigger repository reads its own folder only), oldest first in ``git rev-list``'s order; when HEAD
moves on and the kept pass read the first of its commits in that order, only the commits since are
read on top of it (_on_top). A file moved into the vault's folder from elsewhere in the repository
(``git mv notes vault``) keeps what dated it there (_origins). The pass:
an added file takes the commit's date, a moved one keeps its file's (a file added again later is
dated by that later commit, unless it is the deleted file back: the same path and bytes). Which files HEAD holds is read from its tree (gitops.files_at),
not from the log's deletions: git log shows a merge only the changes it made against every parent
(``-c``: a note the merge commit itself added), so a file a merged branch deleted and the merge kept looked deleted (a review found such a note undated). ``--follow`` per file would be one pass per note.
The answer is kept in ``.vaultmem/git_dates.json``, keyed by HEAD (and the shallow clone's cut):
derived state, so a command run at the same HEAD asks git only for HEAD, and deleting
``.vaultmem/`` makes it again.

Not dated by git: a file no commit of HEAD holds yet (said by ``explain``); in a shallow clone
every file already there at the commits it was cut at (those commits have no parents here, so git
shows them adding every file they hold: their dates would be wrong; ``check`` says so, with the
number of such notes, and what fetches the history); and the notes of a first commit (or of one
whose history held fewer notes: a README first, a monorepo's notes/) that added
:data:`IMPORTED_NOTES` or more at once — a vault put in git after years of notes (``git init``,
Obsidian Git's first commit): that day is when git began, not when they were written (``explain``
says so). A first commit of fewer notes is taken as the day they were written (a new "TIL" repo).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import gitops
from .durable import replace_file
from .errors import GitError
from .notes import Problem

log = logging.getLogger(__name__)

CACHE_NAME = "git_dates.json"
_CACHE_VERSION = 9  # 2: files kept by HEAD's tree, not the log's deletions; 3: an importing first commit's notes;
# 4: a commit adding 10 notes to a history of fewer imports them too, not only one with no parents;
# 5: a file deleted and added back with the same bytes keeps its date; 6: signed commits read;
# 7: the pass's running state kept too, to read the commits HEAD moved on by on top of it;
# 8: a file moved into the vault's folder from elsewhere in the repository keeps what dated it there;
# 9: a merge commit's own additions read, and a first commit's where log.showRoot is false; the
# repository's folder the pass read kept, so that a renamed vault folder's is not read on top of
IMPORTED_NOTES = 10  # notes a first commit adds at once from which it is taken for an import, not their writing
_SETTING = "dates.from_git"
_CONFIG_FILE = ".vaultmem.toml"  # config.CONFIG_FILE (config imports dating, which reads this module's types)
_NO_COMMIT = "(no commit)"  # the fingerprint of a repository without a commit yet: every note uncommitted


@dataclass(frozen=True)
class Added:
    """When the file at a path was added: the author date of the commit that added it (or the
    file it was moved from), as git wrote it (``%aI``, in the author's zone), and that commit."""

    said: str
    commit: str

    @property
    def moment(self) -> datetime:
        return datetime.fromisoformat(self.said).astimezone(UTC)


@dataclass(frozen=True)
class GitDates:
    """The notes' dates from git under one HEAD (``enabled``: the setting is on). ``added`` holds
    every file of HEAD's history that git dates, vault-relative; ``unfetched`` the files a shallow
    clone's cut hides the adding of; ``problems`` why git dates fewer notes than it could."""

    enabled: bool = False
    head: str = ""
    added: Mapping[str, Added] = field(default_factory=dict)
    unfetched: frozenset[str] = frozenset()
    imported: frozenset[str] = frozenset()  # added by a first commit of IMPORTED_NOTES or more notes
    shallow: frozenset[str] = frozenset()
    problems: tuple[Problem, ...] = ()
    # Where the repository keeps HEAD and its refs (absolute), and their stats when HEAD was read:
    # while they hold, HEAD has not moved and git is not asked (a search of a long-lived process
    # pays a few stats, not two git processes: about 9 ms at each call, as much as the search).
    git_dirs: tuple[str, str] = ("", "")
    signature: tuple[tuple[int, int, int] | None, ...] = ()
    # The pass's running state at ``head`` (every path, deletions, the import count): the commits
    # HEAD moved on by are read on top of it (_on_top), not the whole history again.
    history: _Pass | None = field(default=None, compare=False, repr=False)

    @property
    def fingerprint(self) -> str:
        """What the index keeps to tell that the dates git gives may have changed: HEAD (``""``
        with the setting off, or when git could not be asked)."""
        # With the reading's version: an index dated by an older reading of the same HEAD is dated again.
        return f"{self.head} v{_CACHE_VERSION}" if self.enabled else ""

    def moments(self) -> Mapping[str, Added]:
        """What dating.note_date reads: nothing with the setting off."""
        return self.added if self.enabled else {}

    def changed_paths(self, before: GitDates) -> set[str]:
        """The paths whose date from git differs between ``before`` and this (added, moved or
        committed since), which the index reads again."""
        paths = set(self.added) | set(before.added)
        return {path for path in paths if self.added.get(path) != before.added.get(path)}

    def undated_reason(self, path: str) -> str:
        """Why git gives the note at ``path`` no date ("" when it gives one, or the setting is off)."""
        if not self.enabled or path in self.added:
            return ""
        if self.problems and not self.head:
            return f"; git dates no note: {self.problems[0].message}"
        if path in self.unfetched:
            return ("; git does not date it: it was already there at the shallow clone's oldest commit "
                    "(`git fetch --unshallow` fetches when it was added)")
        if path in self.imported:
            return (f"; git does not date it: the commit that brought the notes into git added it with "
                    f"{IMPORTED_NOTES} or more other notes at once, as when a vault is put in git after years of notes (that is when git began, not "
                    "when it was written): give it a date property")
        return "; git does not date it: it is not committed yet (HEAD holds no commit that added it)"


def commit_words(root: Path, added: Added) -> str:
    """``commit 1a2b3c4d5e ("react: remount")``: the commit that dated a note, as explain names it.
    A commit git cannot show (HEAD rewritten since the index dated the note) says why instead."""
    try:
        return f"commit {added.commit[:10]} ({json.dumps(gitops.subject(root, added.commit), ensure_ascii=False)})"
    except GitError as error:
        return f"commit {added.commit[:10]} (git cannot show it now: {error})"


def imported_undated(count: int) -> Problem:
    """``check``'s one line on the ``count`` notes an importing commit left undated: said, not a
    problem of the vault (the import rule's own choice; a vault git took in at once keeps them)."""
    some = "it" if count == 1 else "them"
    return _problem(f"{count} {'note' if count == 1 else 'notes'} with no other date {'is' if count == 1 else 'are'} not "
                    f"dated by git: the commit that brought the notes into git added {some} with {IMPORTED_NOTES} or more "
                    "at once (when git began, not when they were written)",
                    f"to date {some}, give each a date property (date: YYYY-MM-DD); `explain NOTE QUERY` names such a note")


def load_git_dates(root: Path, state_dir: Path, enabled: bool, held: GitDates | None = None,
                   is_note_name: Callable[[str], bool] = lambda name: True, keep: bool = True) -> tuple[GitDates, GitDates | None]:
    """The dates git gives the vault at ``root`` now, and the dates they replace when HEAD moved
    (those ``held`` in memory, else those kept in ``state_dir``; None when there were none). Never
    raises for git: a vault that is no repository, a missing git, a failed log are ``problems``.
    ``keep``: write what was read to ``state_dir`` when it holds none for HEAD. ``is_note_name``: which files to keep (paths.is_note_name; renames are followed through any)."""
    if not enabled:
        return GitDates(), None
    if held is not None and held.enabled and held.git_dirs[0] and _signature(*held.git_dirs) == held.signature:
        return held, None
    if shutil.which("git") is None:
        return GitDates(enabled=True, problems=(_problem("is true, but git is not installed (or not on PATH): no note is "
                                                         "dated by git", "install git, or remove from_git from [dates]"),)), None
    if not gitops.is_repository(root):
        return GitDates(enabled=True, problems=(_problem(f"is true, but the vault {root} is not in a git repository: no "
                                                         "note is dated by git", "commit the vault to git (git init; git add; "
                                                         "git commit), or remove from_git from [dates]"),)), None
    try:
        git_dirs = gitops.repository_dirs(root)
        signature = _signature(*git_dirs)  # before HEAD is read: a commit meanwhile is seen next time
        head = gitops.head_commit(root)
        if head is None:
            return GitDates(enabled=True, head=_NO_COMMIT, git_dirs=git_dirs, signature=signature), None
        shallow = gitops.shallow_commits(root)
        if held is not None and held.enabled and held.head == head and held.shallow == shallow:
            return replace(held, git_dirs=git_dirs, signature=signature), None
        kept = held if held is not None and held.enabled and held.history is not None else _read_cache(state_dir / CACHE_NAME)
        if kept is not None and kept.head == head and kept.shallow == shallow:
            return replace(kept, git_dirs=git_dirs, signature=signature), None
        walk = gitops.walk_order(root, head)
        place = gitops.vault_folder(root)
        history = _on_top(root, place, kept, walk, shallow, is_note_name)
        if history is None:
            history = _Pass(folder=place[1])
            _read_on(root, place, history, gitops.added_and_moved(root, head), walk, shallow, is_note_name)
        found = replace(history.view(head, shallow, is_note_name, gitops.files_at(root, head)),
                        git_dirs=git_dirs, signature=signature)
    except GitError as error:
        return GitDates(enabled=True, problems=(_problem(f"git cannot date the notes: {error}",
                                                         "fix the repository, or set from_git = false in [dates]"),)), None
    if keep:
        _write_cache(state_dir, found)
    return found, kept


def _signature(git_dir: str, common_dir: str) -> tuple[tuple[int, int, int] | None, ...]:
    """The stats of what names HEAD's commit: ``HEAD`` itself, the branch file it points to,
    ``packed-refs`` (where a branch may live instead) and ``shallow``. Git writes each whole
    to a lock file and renames it over: a new commit is a new file (inode, size, mtime)."""
    head = os.path.join(git_dir, "HEAD")
    try:
        with open(head, encoding="utf-8", errors="replace") as handle:
            pointed = handle.read(512).strip()
    except OSError:
        pointed = ""
    ref = pointed.removeprefix("ref: ").strip() if pointed.startswith("ref: ") else ""
    files = [head, os.path.join(common_dir, "packed-refs"), os.path.join(common_dir, "shallow")]
    if ref:
        files.append(os.path.join(common_dir, ref))
    return tuple(_stat(path) for path in files)


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _on_top(root: Path, place: tuple[Path, str], kept: GitDates | None, walk: Sequence[str], shallow: frozenset[str],
            is_note_name: Callable[[str], bool]) -> _Pass | None:
    """The pass at HEAD read as the kept one plus the commits since (``git log kept..HEAD``), when
    that is what the whole pass gives: the pass reads HEAD's commits in git's own order
    (``walk``, :func:`gitops.walk_order`), and the kept pass read the first of them, the same, in
    the same order — new commits on top, a fast-forward, a merge of commits newer than the kept
    HEAD. None otherwise: a rebase, a reset, an amend (the kept HEAD is no ancestor), a merged
    branch with commits older than the kept HEAD (git lists them among the kept ones by their
    dates, and the order decides which of two adds dates a file, and the import rule's count); a
    pass of another folder of the repository (``place``: the vault's, gitops.vault_folder) — the vault's
    folder renamed with its ``.vaultmem/``: the old folder's deleted notes were taken for the new one's,
    and a note added back with their bytes kept an old day that a reading from scratch did not give."""
    if (kept is None or kept.history is None or kept.shallow != shallow or kept.head in ("", _NO_COMMIT)
            or kept.history.folder != place[1]):
        return None
    walked = kept.history.walked
    if not 0 < walked < len(walk) or _walk_hash(walk[:walked]) != kept.history.walk_hash:
        return None
    history = kept.history.copy()
    _read_on(root, place, history, gitops.added_and_moved(root, walk[-1], since=kept.head), walk, shallow, is_note_name)
    return history


def _walk_hash(commits: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(commits).encode("ascii")).hexdigest()


_MOVES_FOLLOWED = 8  # folder moves followed back from the vault (notes -> docs/notes -> vault is two)


def _read_on(root: Path, place: tuple[Path, str], history: _Pass, log_bytes: bytes, walk: Sequence[str],
             shallow: frozenset[str], is_note_name: Callable[[str], bool]) -> None:
    """Read the vault's log (gitops.added_and_moved) on top of ``history``, in the order of
    ``walk`` (HEAD's commits in git's order, of which ``history`` read the first ``walked``), the
    files moved into the vault's folder from elsewhere in the repository keeping what dated them there."""
    position = {commit: number for number, commit in enumerate(walk[history.walked:])}
    commits = list(_commits(log_bytes))
    if any(commit[0] not in position for commit in commits):
        raise GitError("git log listed a commit that git rev-list did not: HEAD moved while they ran; run the command again")
    commits.sort(key=lambda commit: position[commit[0]])
    top, folder = place
    origins = _origins(top, commits, _under(folder), shallow, is_note_name, 0) if folder else {}
    history.feed(commits, shallow, is_note_name, origins)
    history.walked, history.walk_hash = len(walk), _walk_hash(walk)


def _under(folder: str) -> Callable[[str], str | None]:
    """A path relative to the repository's top → relative to the vault in ``folder`` ("notes/"), or None."""
    return lambda path: path[len(folder):] if path.startswith(folder) else None


@dataclass(frozen=True)
class _Origin:
    """What dated a file moved into the pass's folders from elsewhere, there: the add that dated
    it, or the name of the set of files git does not date it is in."""

    when: Added | None
    undated: str


def _origins(top: Path, commits: list[_LogCommit], inside: Callable[[str], str | None], shallow: frozenset[str],
             is_note_name: Callable[[str], bool], depth: int) -> dict[str, dict[str, _Origin]]:
    """The files each commit moved into the pass's folders from outside them (``inside``: a path
    from the repository's top → the pass's own, None outside), with what dated them where they
    were. The vault's log shows such a file added — a folder renamed (``git mv notes vault``)
    dated every note by the rename. Read from the commits that add a file only (one ``diff-tree``
    for them all), and each source's history up to the commit before (the same pass, recursively)."""
    adding = [commit for commit, _, first, changes in commits if not first and any(c[0] == "A" for c in changes)]
    origins: dict[str, dict[str, _Origin]] = {}
    if depth >= _MOVES_FOLLOWED:
        return origins  # further back, dated by the move, as a file moved in from elsewhere was
    for commit, moves in gitops.moved_between_folders(top, adding).items():
        arrived: dict[str, str] = {}
        for source, target in moves:
            here = inside(target)
            if here is not None and inside(source) is None:
                arrived[here] = source
        if arrived:
            origins[commit] = _origins_there(top, commit, arrived, shallow, is_note_name, depth)
    return origins


def _origins_there(top: Path, commit: str, arrived: Mapping[str, str], shallow: frozenset[str],
                   is_note_name: Callable[[str], bool], depth: int) -> dict[str, _Origin]:
    """What dated each moved file (``arrived``: its path in the pass → where it was, from the top)
    before ``commit``: the pass over the history of the folders it came from."""
    folders = _outermost({source.rsplit("/", 1)[0] if "/" in source else source for source in arrived.values()})
    there = _Pass()
    commits = list(_commits(gitops.added_and_moved_in(top, f"{commit}^", sorted(folders))))
    inside = _within(folders)
    there.feed(commits, shallow, is_note_name, _origins(top, commits, inside, shallow, is_note_name, depth + 1))
    found: dict[str, _Origin] = {}
    for path, source in arrived.items():
        undated = there._undated_set(source)
        if source in there.added or undated:
            found[path] = _Origin(there.added.get(source), undated)
    return found


def _outermost(folders: set[str]) -> set[str]:
    """``folders`` without those inside another of them (a pathspec of a folder holds its own)."""
    return {folder for folder in folders if not any(folder.startswith(f"{other}/") for other in folders)}


def _within(folders: set[str]) -> Callable[[str], str | None]:
    return lambda path: path if any(path == folder or path.startswith(f"{folder}/") for folder in folders) else None


_UNDATED = ("unfetched", "imported")  # the sets of files whose adding git does not date, by name


@dataclass(frozen=True)
class _Deleted:
    """A file a commit deleted: its last bytes (blob), and what dated it then (its date from git, or
    the name of the set of files git could not date it is in: "unfetched", "imported"; "" for none)."""

    blob: str
    when: Added | None
    undated: str


@dataclass
class _Pass:
    """The pass over HEAD's history, oldest first, as far as it has read: when each path was added
    (every path, not only HEAD's notes: a later commit may move or restore any of them), the files
    whose adding git does not date, the deleted files' last bytes, and how many notes earlier
    commits added (the import rule's count). Reading commits on top of it continues the pass."""

    added: dict[str, Added] = field(default_factory=dict)
    undated: dict[str, set[str]] = field(default_factory=lambda: {name: set() for name in _UNDATED})
    deleted: dict[str, _Deleted] = field(default_factory=dict)
    notes_before: int = 0  # the notes earlier commits added under the vault's folder
    walked: int = 0  # how many of HEAD's commits (gitops.walk_order) it read, in that order
    walk_hash: str = ""  # and which: the SHA-256 of their hashes, a line each
    folder: str = ""  # the repository's folder it read (gitops.vault_folder: "notes/", "" for the top)

    def copy(self) -> _Pass:
        return _Pass(dict(self.added), {name: set(files) for name, files in self.undated.items()}, dict(self.deleted),
                     self.notes_before, self.walked, self.walk_hash, self.folder)

    def feed(self, commits: Iterable[_LogCommit], shallow: frozenset[str], is_note_name: Callable[[str], bool],
             origins: Mapping[str, Mapping[str, _Origin]]) -> None:
        """Read ``commits`` (of gitops.added_and_moved, oldest first) on top. ``origins``: the files a
        commit moved into the folder from elsewhere in the repository, which git shows added here."""
        for commit, said, first, changes in commits:
            arrived = origins.get(commit, {})
            notes = sum(status == "A" and path not in arrived and is_note_name(path.rsplit("/", 1)[-1])
                        for status, path, _, _ in changes)
            # The commit that brought the notes into git: a first commit (no parents), or one whose history
            # held fewer notes than it adds at once — a repository begun with a README (GitHub's "new
            # repository"), a vault put into a bigger repository's folder after its code (a trial: 12 dated).
            # Notes moved in from another folder were brought in before: the history holds them.
            importing = (first or self.notes_before < IMPORTED_NOTES) and notes >= IMPORTED_NOTES
            self.notes_before += notes + sum(is_note_name(path.rsplit("/", 1)[-1]) for path in arrived)
            unknown = "unfetched" if commit in shallow else "imported" if importing else ""
            for status, path, moved_to, blob in changes:
                if status == "A" and path in arrived:
                    self._arrive(path, arrived[path])
                elif status == "D":
                    self._delete(path, blob)
                elif status == "A" and self._restored(self.deleted.pop(path, None), blob, path):
                    continue
                else:
                    self._apply(status, path, moved_to, Added(said, commit), unknown)

    def view(self, head: str, shallow: frozenset[str], is_note_name: Callable[[str], bool],
             at_head: frozenset[str]) -> GitDates:
        """The dates of the notes HEAD's tree holds (``at_head``), as commands read them."""
        notes = frozenset(path for path in at_head if is_note_name(path.rsplit("/", 1)[-1]))
        kept = {path: self.added[path] for path in notes & self.added.keys()}
        hidden = notes & self.undated["unfetched"]
        problems = (_shallow_problem(len(hidden)),) if shallow else ()
        return GitDates(enabled=True, head=head, added=kept, unfetched=hidden, imported=notes & self.undated["imported"],
                        shallow=shallow, problems=problems, history=self)

    def _undated_set(self, path: str) -> str:
        return next((name for name, files in self.undated.items() if path in files), "")

    def _delete(self, path: str, blob: str) -> None:
        self.deleted[path] = _Deleted(blob, self.added.get(path), self._undated_set(path))

    def _restored(self, was: _Deleted | None, blob: str, path: str) -> bool:
        """Whether a file added back at ``path`` is the one deleted there, its bytes the same (an undone
        deletion, a note restored from the trash or by ``git checkout``): it keeps what dated it (a trial
        found a note written on the 6th, deleted and restored on the 12th, dated the 12th). True: dated."""
        if was is None or not blob or blob != was.blob:
            return False
        if was.when is not None:
            self.added[path] = was.when
        elif was.undated:
            self.undated[was.undated].add(path)
            self.added.pop(path, None)
        else:
            return False
        return True

    def _arrive(self, path: str, origin: _Origin) -> None:
        """A file moved in from another folder of the repository: dated as it was there."""
        self.deleted.pop(path, None)
        for files in self.undated.values():
            files.discard(path)
        if origin.undated:
            self.undated[origin.undated].add(path)
            self.added.pop(path, None)
        elif origin.when is not None:
            self.added[path] = origin.when

    def _apply(self, status: str, path: str, moved_to: str | None, when: Added, unknown: str) -> None:
        """One change of one commit, in history's order. A deletion or a move drops nothing: which
        files HEAD holds is its tree's word (a merge may keep what one of its branches deleted).
        ``unknown``: the set this commit's additions go to, whose adding git does not date (a shallow
        clone's cut, an importing commit; "": dated by it)."""
        if status == "R" and moved_to is not None:
            source = self._undated_set(path)
            for files in self.undated.values():
                files.discard(moved_to)
            if source:
                self.undated[source].add(moved_to)
                self.added.pop(moved_to, None)
            else:
                # Moved from a file git dated (or from outside the vault's folder: added here by this commit).
                self.added[moved_to] = self.added.get(path, when)
        elif status == "A":
            for files in self.undated.values():
                files.discard(path)
            if unknown:  # every file it holds shown as added: when it was written is not known
                self.undated[unknown].add(path)
                self.added.pop(path, None)
            else:
                self.added[path] = when

    def as_json(self) -> dict[str, object]:
        return {"added": {path: [when.said, when.commit] for path, when in sorted(self.added.items())},
                "undated": {name: sorted(files) for name, files in self.undated.items()},
                "deleted": {path: [was.blob, None if was.when is None else [was.when.said, was.when.commit], was.undated]
                            for path, was in sorted(self.deleted.items())},
                "notes_before": self.notes_before, "walked": self.walked, "walk_hash": self.walk_hash,
                "folder": self.folder}

    @staticmethod
    def from_json(raw: dict[str, object]) -> _Pass:
        """The inverse of :meth:`as_json`; KeyError, TypeError, ValueError: not such a shape."""
        added = {path: Added(said, commit) for path, (said, commit) in _mapping(raw["added"]).items()}
        undated = {name: set(_mapping(raw["undated"])[name]) for name in _UNDATED}
        deleted = {path: _Deleted(blob, None if when is None else Added(*when), undated_name)
                   for path, (blob, when, undated_name) in _mapping(raw["deleted"]).items()}
        notes_before, walked, walk_hash, folder = raw["notes_before"], raw["walked"], raw["walk_hash"], raw["folder"]
        if (not isinstance(notes_before, int) or not isinstance(walked, int) or not isinstance(walk_hash, str)
                or not isinstance(folder, str)
                or any(name not in ("", *_UNDATED) for name in (was.undated for was in deleted.values()))):
            raise ValueError("not the kept pass of this version")
        return _Pass(added, undated, deleted, notes_before, walked, walk_hash, folder)


def _mapping(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, not {type(value).__name__}")
    return value


_LogCommit = tuple[str, str, bool, list[tuple[str, str, str | None, str]]]  # hash, author date, first, changes


def _commits(log_bytes: bytes) -> Iterator[_LogCommit]:
    """(hash, author date, whether it is a first commit (no parents), [(status letter, path, moved
    to, blob)]) of each commit of ``--raw -z``: the blob is the file's bytes after the change, or
    before it for a deletion.
    Read token by token: a file name may hold any byte but NUL and ``/``, our format's marks too (a
    file named with \\x1e split the log where it was cut at each mark, and every command failed)."""
    mark = gitops.RECORD.encode()
    tokens = iter(log_bytes.split(b"\0"))
    commit = said = parents = ""
    changes: list[tuple[str, str, str | None, str]] = []
    try:
        for token in tokens:
            word = token.lstrip(b"\n")  # git puts a newline between a commit's line and its changes
            if not word:
                continue
            if word.startswith(mark):  # where a change's `:mode mode blob blob status` may stand: a commit's line
                if commit:
                    yield commit, said, not parents.strip(), changes
                commit, said, parents = word[len(mark):].decode("ascii").split(gitops.FIELD, 2)
                changes = []
                continue
            letters, blob, parent_count = _raw_change(word)
            if parent_count > 1:  # a merge's: the path in each parent, then in the merge
                changes.append(_merge_change(letters, [_path(next(tokens)) for _ in range(parent_count + 1)], blob))
                continue
            path = _path(next(tokens))
            changes.append((letters[:1], path, _path(next(tokens)) if letters[:1] in ("R", "C") else None, blob))
    except (StopIteration, UnicodeDecodeError, ValueError) as error:
        raise GitError(f"git log's list of added and moved files cannot be read ({error!r})") from error
    if commit:
        yield commit, said, not parents.strip(), changes


def _raw_change(word: bytes) -> tuple[str, str, int]:
    """The status letters, blob and parent count of one ``--raw`` change (``:100644 000000 <before>
    <after> D``; ``R075``: the letter and the likeness): the blob after the change, before it for a
    deletion ("" for none). A merge's (``-c``) has a colon, mode, blob and letter per parent
    (``::<mode> <mode> <mode> <before> <before> <after> AA``). ValueError: not such a line."""
    fields = word.decode("ascii").split(" ")
    parents = len(fields[0]) - len(fields[0].lstrip(":"))
    if parents < 1 or len(fields) != 2 * parents + 3 or not fields[-1] or (parents > 1 and len(fields[-1]) != parents):
        raise ValueError(f"not a change of git log --raw: {word[:80]!r}")
    letters = fields[-1]
    blob = fields[parents + 1] if letters[0] == "D" else fields[2 * parents + 1]
    return letters, "" if not blob.strip("0") else blob, parents


def _merge_change(letters: str, paths: list[str], blob: str) -> tuple[str, str, str | None, str]:
    """A merge's own change (``paths``: the file's path in each parent, then in the merge;
    ``--combined-all-paths``), as the pass reads one: added or deleted against every parent; moved
    (a note renamed while a conflicted merge waited) when it was moved against a parent and added
    against the rest, from its path in the first such parent; else "M", a change the pass does not
    read (one parent held the file there: its branch's commits date it)."""
    final = paths[-1]
    if letters in ("A" * len(letters), "D" * len(letters)):
        return letters[0], final, None, blob
    if "R" in letters and set(letters) <= {"R", "A"}:
        return "R", paths[letters.index("R")], final, blob
    return "M", final, None, blob


def _path(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _shallow_problem(hidden: int) -> Problem:
    # Not dated rather than dated by the cut: its commit shows every file it holds as added, and
    # `list --since` that day would hold every older note of the vault.
    return _problem(f"the repository is a shallow clone: {hidden} note(s) already there at its oldest fetched commit "
                    "have no date from git (when they were added was not fetched)",
                    "fetch the whole history (git fetch --unshallow) to date them")


def _problem(message: str, fix: str) -> Problem:
    return Problem(_CONFIG_FILE, _SETTING, message, fix)


def _read_cache(path: Path) -> GitDates | None:
    """The dates kept under ``.vaultmem/``; None when there are none, or they cannot be read (a
    file from another version, a torn copy): derived state, made again from git."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or raw.get("version") != _CACHE_VERSION:
            return None
        shallow = frozenset(raw["shallow"])
        history = _Pass.from_json(_mapping(raw["pass"]))
        return GitDates(enabled=True, head=raw["head"], shallow=shallow,
                        added={path: history.added[path] for path in raw["dated"]},
                        unfetched=frozenset(raw["unfetched"]), imported=frozenset(raw["imported"]),
                        problems=(_shallow_problem(len(raw["unfetched"])),) if shallow else (), history=history)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.warning("%s cannot be read (%s): the dates are read from git again", path, error)
        return None


def _write_cache(state_dir: Path, found: GitDates) -> None:
    if not state_dir.is_dir() or found.history is None:
        return  # no index yet (``check`` on a new vault): nothing derived is written outside one
    # The notes' view (dated: the paths of ``pass.added`` HEAD holds as notes) and the pass it is
    # read from, which the next HEAD's commits are read on top of.
    data = {"version": _CACHE_VERSION, "head": found.head, "shallow": sorted(found.shallow),
            "unfetched": sorted(found.unfetched), "imported": sorted(found.imported), "dated": sorted(found.added),
            "pass": found.history.as_json()}
    # ASCII: a file name that is not UTF-8 (read with surrogateescape, as os.fsdecode reads it) is
    # kept as its \udcXX escapes and read back the same; as UTF-8 it could not be written at all.
    replace_file(state_dir / CACHE_NAME, json.dumps(data, separators=(",", ":")).encode("ascii"))
