"""Which notes git's index holds unmerged, as every read sees them (search, list, explain), for
a stat or two per query (adr/0006).

A note git holds unmerged without conflict markers in its file (a UTF-16 note merged as binary,
``git checkout --ours``, a rerere replay, a modify/delete conflict) is one side of the person's
merge: a hit of it must say so, or an agent recalls that side as the truth. Nothing in the
file tells, and nothing in it changes when the person runs ``git add``: only git's index
knows. Asking git on every query (``git ls-files --unmerged``, about 5 ms at 10,000 notes)
would take half of search's 10 ms. The operation files (``MERGE_HEAD``, ``rebase-merge`` …)
cannot gate it: a ``git stash pop`` that conflicts leaves unmerged entries and none of them
(git 2.39, checked). So the answer is kept, keyed on the index file's identity: git writes
its index whole to ``index.lock`` and renames it over, so each change is a new file (inode,
size, mtime, ctime), and ``git add`` of the resolved note is seen on the next query. A vault
with a repository pays the stat of its ``.git`` and of the index file; one without, a stat of
``.git`` in its folder and each folder above — never git.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from . import gitops
from .errors import CHECK, GET, GitError, Spelled


@dataclass(frozen=True)
class Unmerged:
    """The notes git's index holds unmerged (vault-relative), or why git could not say."""

    paths: frozenset[str] = frozenset()
    problem: Spelled | None = None  # git failed to answer: the paths are unknown, not none


def unmerged_warning() -> Spelled:
    """A hit's (or a listed note's) warning, worded as a marker conflict's (notes.conflict_problems)."""
    return Spelled("conflict: an unfinished git merge (git's index holds it unmerged, the file shows no markers): the "
                   "file is one side only, the other is in git's index, and vaultmem changes nothing in it until the "
                   "merge is finished (", GET, " says how to finish it)")


def unasked_warning(error: GitError) -> Spelled:
    """The answer's warning when git did not say which notes are in an unfinished merge."""
    return Spelled(f"could not ask git which notes are in an unfinished merge ({error}): a hit may be one side of one "
                   "(", CHECK, " names them once git answers)")


@dataclass(frozen=True)
class _Repository:
    """Where the vault's repository keeps its index, found through the ``.git`` at ``found``."""

    found: str  # the .git entry (or $GIT_DIR) it was asked through
    index_file: Path | None  # None: git says the vault is in no work tree (or git is not installed)


class UnmergedWatch:
    """The unmerged notes of one vault, asked of git again only when its index file changed.
    One per thread (a searcher's): it holds no lock."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._repository: _Repository | None = None
        self._key: tuple[int, ...] | None = None
        self._answer = Unmerged()

    def now(self) -> Unmerged:
        """The notes git's index holds unmerged now (none in a vault that is in no repository)."""
        index_file = self._index_file()
        if index_file is None:
            return Unmerged()
        try:
            info = os.stat(index_file)
        except FileNotFoundError:
            return Unmerged()  # no index yet (`git init` alone): nothing is unmerged
        except OSError:
            key = None  # git reads it or says why it cannot
        else:
            key = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        if key is None or key != self._key:
            # Stat first, ask after: an index written in between is answered newer than its key
            # says, and the next query, seeing another key, asks again.
            self._answer, self._key = self._asked(), key
        return self._answer

    def _asked(self) -> Unmerged:
        try:
            return Unmerged(frozenset(gitops.unmerged(self.root)))
        except GitError as error:
            return Unmerged(problem=unasked_warning(error))

    def _index_file(self) -> Path | None:
        """The repository's index file, asked of git once per ``.git`` found (a linked worktree's,
        ``$GIT_INDEX_FILE``: git says where); ``None`` when the vault is in no work tree."""
        found = os.environ.get("GIT_DIR") or _dot_git(self.root)
        if found is None:
            return None
        if self._repository is None or self._repository.found != found:
            self._repository = _Repository(found, _asked_index_file(self.root))
        return self._repository.index_file


def _dot_git(root: Path) -> str | None:
    """The nearest ``.git`` (a folder, or a worktree's file) in ``root`` or a folder above, as
    git looks for one; ``None``: none, so git would find no repository either."""
    folder = os.path.abspath(root)
    while True:
        candidate = os.path.join(folder, ".git")
        if os.path.lexists(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _asked_index_file(root: Path) -> Path | None:
    """Where git keeps the index of the work tree ``root`` is in; ``None`` when it is in none
    (a bare repository, a ``.git`` git will not read) or git is not installed — as
    :func:`gitops.is_repository` decides for the writes."""
    if shutil.which("git") is None or not gitops.is_repository(root):
        return None
    return root / gitops.git_path(root, "index")
