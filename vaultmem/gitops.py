"""Git, through the ``git`` command line (see adr/0009-git-command-line.md).

Two uses: ``history`` (the commits that touched a note, following renames) and the
optional auto-commit of vaultmem's own writes. An auto-commit stages and commits
exactly the paths vaultmem changed (``git commit --only``), so a person's other
uncommitted or staged edits are never swept into it.

Every call runs with ``--literal-pathspecs``: a note path is a file name, never a
pattern. Without it ``:/secret`` names a file at the top of an enclosing repository
(outside the vault) and ``Meeting [draft].md`` glob-matches ``Meeting d.md``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import GitError

_FIELD = "\x1f"
_RECORD = "\x1e"


@dataclass(frozen=True)
class Commit:
    hash: str
    date: str
    author: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"hash": self.hash, "date": self.date, "author": self.author, "message": self.message}


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    if shutil.which("git") is None:
        raise GitError("git is not installed or not on PATH; install git to use history and auto_commit")
    result = subprocess.run(["git", "--literal-pathspecs", *args], cwd=root, capture_output=True, text=True, timeout=60)
    if check and result.returncode != 0:
        raise GitError(f"git {' '.join(args[:2])} failed in {root}: {result.stderr.strip() or result.stdout.strip()}")
    return result


def is_repository(root: Path) -> bool:
    if shutil.which("git") is None:
        return False
    result = _git(root, "rev-parse", "--is-inside-work-tree", check=False)
    return result.returncode == 0 and result.stdout.strip() == "true"


def require_repository(root: Path) -> None:
    if not is_repository(root):
        raise GitError(f"the vault {root} is not a git repository, so it has no history; run `git init` there to start one")


def history(root: Path, relative: str) -> list[Commit]:
    """Commits that touched ``relative`` (following renames), newest first."""
    require_repository(root)
    output = _git(
        root, "log", "--follow", f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%an <%ae>{_FIELD}%s", "--", relative
    ).stdout
    commits = []
    for record in output.split(_RECORD):
        fields = record.strip("\n").split(_FIELD)
        if len(fields) == 4:
            commits.append(Commit(*fields))
    return commits


def commit_paths(root: Path, relatives: Sequence[str], message: str) -> str | None:
    """Commit exactly ``relatives`` (added, changed, moved or deleted); returns the hash.

    Returns ``None`` when those paths hold no change to commit (or none git can take).
    """
    paths = committable_paths(root, sorted(set(relatives)))
    if not paths:
        return None
    _git(root, "add", "-A", "--", *paths)
    staged = _git(root, "diff", "--cached", "--name-only", "--", *paths).stdout.split()
    if not staged:
        return None
    # --only with pathspecs commits just these paths; anything else the person staged
    # stays staged and uncommitted.
    _git(root, "commit", "--quiet", "--only", "-m", message, "--", *paths)
    return _git(root, "rev-parse", "HEAD").stdout.strip()


def committable_paths(root: Path, relatives: Sequence[str]) -> list[str]:
    """The paths ``git add`` can stage: existing ones git does not ignore, and deletions
    of paths git tracks.

    ``git add`` fails on the whole list (after staging part of it) when one path is
    ignored (an archive folder in .gitignore) or is gone without git ever having known
    it (a never-committed note that was archived). The change was already made, so the
    commit records what git can record instead of failing half-way.
    """
    present = [path for path in relatives if os.path.lexists(root / path)]
    gone = [path for path in relatives if path not in present]
    ignored = _ignored(root, present) if present else set()
    tracked = set(_git(root, "ls-files", "-z", "--", *gone).stdout.split("\0")) if gone else set()
    return [path for path in relatives if (path in present and path not in ignored) or path in tracked]


def _ignored(root: Path, relatives: Sequence[str]) -> set[str]:
    """Which of these paths .gitignore excludes (tracked files never count as ignored).

    ``ls-files --others --ignored`` rather than ``check-ignore``: check-ignore refuses
    ``--literal-pathspecs``, and without it a name such as ``:top.md`` is read as magic.
    """
    listed = _git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", *relatives).stdout
    return set(listed.split("\0"))
