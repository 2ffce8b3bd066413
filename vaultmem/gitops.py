"""Git, through the ``git`` command line (see adr/0009-git-command-line.md, adr/0017-commits-hold-only-vaultmems-change.md).

Two uses: ``history`` (the commits that touched a note, following renames; with
``removals``, where a note no longer in the vault was deleted or moved) and the
optional auto-commit of vaultmem's own writes. An auto-commit holds only vaultmem's
change: it is built in a private index from HEAD plus, for each file vaultmem touched,
HEAD's version with vaultmem's edit applied. A person's uncommitted edit in that file
stays uncommitted in the working tree (the result names the file in
``yours_left_uncommitted``); their staged changes stay staged; nothing else is ever
staged. A file whose vaultmem change could not be committed is in ``not_committed``. Processes serialise their commits on a lock file under ``.vaultmem/``;
git's own ``index.lock`` and the swap of the person's index file are git_index_lock.py's.

Every call runs with ``--literal-pathspecs``: a note path is a file name, never a
pattern. Without it ``:/secret`` names a file at the top of an enclosing repository
(outside the vault) and ``Meeting [draft].md`` glob-matches ``Meeting d.md``.
"""

from __future__ import annotations

import logging
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from . import git_index_lock, index_checks, own_uncommitted
from .errors import GitError, LockFileUnwritable, WriteLockBusy
from .lock_files import POLL_SECONDS, open_lock_file, process_running, read_lock_file, try_lock
from .noteio import FileChange
from .results import NotCommitted

FIELD = "\x1f"  # between a commit's fields in a --format of ours
RECORD = "\x1e"  # before each commit's
_FIELD = FIELD
_RECORD = RECORD


@dataclass(frozen=True)
class Commit:
    hash: str
    date: str
    author: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"hash": self.hash, "date": self.date, "author": self.author, "message": self.message}


def _git(root: Path, *args: str, check: bool = True, env: Mapping[str, str] | None = None,
         stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    result = _run(root, args, env, stdin)
    output = subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8", "surrogateescape"),
                                         result.stderr.decode("utf-8", "replace"))
    if check and result.returncode != 0:
        raise GitError(f"git {_named(args)} failed in {root}: {output.stderr.strip() or output.stdout.strip()}")
    return output


def _git_bytes(root: Path, *args: str, env: Mapping[str, str] | None = None, stdin: bytes | None = None) -> bytes:
    result = _run(root, args, env, stdin)
    if result.returncode != 0:
        raise GitError(f"git {_named(args)} failed in {root}: {result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout


def _named(args: Sequence[str]) -> str:
    """The command's first two words, as an error names it (``update-index -z``), after any
    ``-c key=value`` of ours."""
    while len(args) >= 2 and args[0] == "-c":
        args = args[2:]
    return " ".join(args[:2])


GIT_SECONDS = 60  # a git command that takes longer is stopped and said to have failed


def _run(root: Path, args: Sequence[str], env: Mapping[str, str] | None, stdin: bytes | None) -> subprocess.CompletedProcess[bytes]:
    if shutil.which("git") is None:
        raise GitError("git is not installed or not on PATH; install git to use history and auto_commit")
    try:
        # log.showSignature (a person who signs commits) writes "No signature", "Good signature…"
        # lines into a log's output, where vaultmem reads only its own format. log.showRoot = false
        # hides the repository's first commit's changes from a log: its notes had no history
        # (`--follow` found nothing) and from_git left them undated. i18n.logOutputEncoding: git
        # re-encodes messages and names to it, where vaultmem reads UTF-8 (a Latin-1 one put "caf\xe9"
        # into explain's and history's output, --json too).
        return subprocess.run(["git", "-c", "log.showSignature=false", "-c", "log.showRoot=true",
                               "-c", "i18n.logOutputEncoding=UTF-8", "--literal-pathspecs", *args], cwd=root,
                              capture_output=True, timeout=GIT_SECONDS,
                              input=stdin, env=None if env is None else {**os.environ, **env}, check=False)
    except subprocess.TimeoutExpired:
        # A GitError, as every other failure of git: the callers say what was not done (a commit,
        # dates from git, history) where this escaped as a crash of the command (a review).
        raise GitError(f"git {' '.join(args[:2])} took more than {GIT_SECONDS} s in {root} and was stopped; run it "
                       "by hand to see why (a huge history, a lock held by another git, a network file system)") from None


def is_repository(root: Path) -> bool:
    if shutil.which("git") is None:
        return False
    result = _git(root, "rev-parse", "--is-inside-work-tree", check=False)
    return result.returncode == 0 and result.stdout.strip() == "true"


def git_path(root: Path, name: str) -> str:
    """Where the repository ``root`` is in keeps ``name`` (``index``, ``MERGE_HEAD``), as git
    says: a linked worktree's own folder, ``$GIT_DIR``, ``$GIT_INDEX_FILE``; relative to ``root``
    or absolute."""
    return _git(root, "rev-parse", "--git-path", name).stdout.strip()


def require_repository(root: Path) -> None:
    if not is_repository(root):
        raise GitError(f"the vault {root} is not a git repository, so it has no history; run `git init` there to start one")


def has_commits(root: Path) -> bool:
    """Whether the repository's current branch has a commit yet (``git init`` alone: none)."""
    return _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).returncode == 0


# How alike two files must be for git to take one for the other moved or copied. Git's 50%
# suits code; two short memories share most of their frontmatter (a trial: 55%), and at 50%
# `--follow` took a new note for a copy of another and listed that note's commits as its own.
SAME_FILE = "-M75%"


def history(root: Path, relative: str) -> list[Commit]:
    """Commits that touched ``relative`` (following renames), newest first; none in a
    repository without a commit yet (git's log fails there)."""
    require_repository(root)
    if not has_commits(root):
        return []
    # --cc -s: a merge whose result differs from every parent (where the person resolved a
    # conflict in the note) is listed; `--follow` alone never lists a merge, so the commit
    # that decided the note's text went missing. -s keeps the diff that --cc reads unprinted.
    output = _git(
        root, "log", "--follow", SAME_FILE, "--cc", "-s",
        f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%an <%ae>{_FIELD}%s", "--", relative,
    ).stdout
    commits = []
    for record in output.split(_RECORD):
        fields = record.strip("\n").split(_FIELD)
        if len(fields) == 4:
            commits.append(Commit(*fields))
    return commits


def commits_holding(root: Path, relative: str) -> list[str]:
    """The commits that wrote a version of ``relative`` (following renames), newest first, as
    short hashes; none outside a git repository. What ``forget`` says git history still holds:
    archiving or deleting a file takes it out of the vault, never out of those commits. Raises
    ``GitError`` when they cannot be read (git missing in a repository, a git that fails)."""
    if shutil.which("git") is None and any((folder / ".git").exists() for folder in (root, *root.parents)):
        # Not "none": the person's commits still hold the note, git is only not here to say which.
        raise GitError(f"git is not installed or not on PATH, and {root} is in a git repository")
    if not is_repository(root):
        return []
    return [commit.hash[:10] for commit in history(root, relative)]


@dataclass(frozen=True)
class Removal:
    """A file taken from ``path``: deleted, or moved to ``moved_to`` (git's rename detection);
    ``blob`` is what it held there. ``commit`` ``None``: deleted in the working tree, not
    committed yet."""

    path: str
    blob: str
    commit: str | None
    moved_to: str | None = None


# How far back `history` looks for a note that is no longer in the vault. Measured on a
# generated vault (a flat folder of 2,000 notes, one commit per change): the newest 10,000
# commits take about 2 s of git's time, the whole 20,000 about 3 s (adr/0009).
REMOVAL_SCAN_COMMITS = 10_000


def removals(root: Path) -> tuple[list[Removal], bool]:
    """Files in the vault deleted or moved away, newest first: those deleted in the working
    tree and not committed, then those of the newest :data:`REMOVAL_SCAN_COMMITS` commits
    (merges' own changes are not read); and whether older commits were left unread."""
    if not has_commits(root):
        return [], False  # nothing was ever removed
    # A vault nested in a larger repository reads only its own folder (the rest is not its
    # business); one at the top reads everything, without a pathspec: matching "." against
    # every entry of every commit's tree doubled the scan (6.3 s against 2.9 s, 20,000 commits).
    nested = ["--relative", "--", "."] if _git(root, "rev-parse", "--show-prefix").stdout.strip() else []
    found = [Removal(path, blob, None) for path, blob, _moved_to in _raw_entries(_git_bytes(
        root, "diff", "--no-renames", "--diff-filter=D", "--raw", "--no-abbrev", "-z", "HEAD", *nested))]
    recent, truncated = _recent_commits(root)
    # --no-follow: a log.follow setting would follow "." as one file.
    logged = _git_bytes(root, "log", "--no-follow", SAME_FILE, "--diff-filter=DR", "--raw", "--no-abbrev", "-z",
                        f"--format={_RECORD}%H", *recent, *nested)
    for record in logged.split(_RECORD.encode()):
        commit, _, changes = record.partition(b"\0")
        found += [Removal(path, blob, commit.decode().strip(), moved_to) for path, blob, moved_to in _raw_entries(changes)]
    return found, truncated


def _recent_commits(root: Path) -> tuple[list[str], bool]:
    """The revisions a scan of HEAD's newest :data:`REMOVAL_SCAN_COMMITS` commits names to
    ``git log``, and whether older commits are left out."""
    boundary = _git(root, "rev-list", "--max-count=1", f"--skip={REMOVAL_SCAN_COMMITS}", "HEAD").stdout.strip()
    return ["HEAD", *([f"^{boundary}"] if boundary else [])], bool(boundary)


def _raw_entries(raw: bytes) -> Iterator[tuple[str, str, str | None]]:
    """(path, its blob before, the path it moved to) of each ``--raw -z`` entry but a copy's
    (a copy leaves the file where it was)."""
    for status, path, before, _after, moved_to in _raw_changes(raw):
        if status != "C":
            yield path, before, moved_to


def _raw_changes(raw: bytes) -> Iterator[tuple[str, str, str, str, str | None]]:
    """(status letter, path, blob before, blob after, the path it moved to) of each ``--raw -z``
    entry: ``:META\0PATH\0``, or ``:META\0OLD\0NEW\0`` for a rename (status R…) or a copy (C…)."""
    tokens = iter(raw.lstrip(b"\n").split(b"\0"))
    for meta in tokens:
        if not meta.startswith(b":"):
            continue
        fields = meta.decode().split()
        status = fields[-1][:1]
        path = os.fsdecode(next(tokens))
        moved_to = os.fsdecode(next(tokens)) if status in ("R", "C") else None
        yield status, path, fields[2], fields[3], moved_to


@dataclass(frozen=True)
class Addition:
    """The newest commit that added the file at ``path`` (``git log --diff-filter=A``, renames
    not followed), and the blob it put there; ``archived``: the blob the commit's message says
    vaultmem archived there (its :data:`ARCHIVED_TRAILER`), ``None`` when it says none. The two
    differ when ``git pull --rebase`` replayed vaultmem's commit onto an edit made elsewhere, and
    when the note moved with the person's uncommitted edit in it (the commit holds HEAD's bytes,
    the trailer the bytes moved: adr/0017)."""

    path: str
    blob: str
    commit: str
    date: str  # the commit's date, ISO 8601
    archived: str | None = None


def head_commit(root: Path) -> str | None:
    """The commit HEAD names, or None before the first commit. Raises :class:`GitError` when
    ``root`` is in no repository or git is not installed (say which: a missing history is not
    an empty one)."""
    inside = _git(root, "rev-parse", "--is-inside-work-tree", check=False)  # raises when git is not installed
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        raise GitError(f"the vault {root} is not in a git repository, so it has no history")
    result = _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    if result.returncode != 0:
        return None
    return result.stdout.strip()


def repository_dirs(root: Path) -> tuple[str, str]:
    """Where the repository ``root`` is in keeps its ``HEAD`` and its refs (a linked worktree
    keeps them apart), both absolute."""
    lines = _git(root, "rev-parse", "--absolute-git-dir", "--git-common-dir").stdout.splitlines()
    git_dir, common_dir = lines[0].strip(), lines[1].strip()
    return git_dir, os.path.normpath(os.path.join(root, common_dir))


def shallow_commits(root: Path) -> frozenset[str]:
    """The commits a shallow clone was cut at (git's ``shallow`` file: their parents were not
    fetched, so every file they hold looks added by them); empty for a whole history."""
    shallow = root / git_path(root, "shallow")
    try:
        text = shallow.read_text(encoding="ascii")
    except FileNotFoundError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


# The changes git_dates' pass reads from a log (the first commit's too: _run's log.showRoot). ``-c``: git log shows no change
# for a merge, so a note the merge commit itself added (a conflict ended by Obsidian Git's next
# ``git add -A; git commit``) was undated and called uncommitted; the combined diff shows only the
# files that differ from every parent (``::`` lines, read by git_dates._raw_change), never what a
# merged branch's own commits added; ``--combined-all-paths``: a file the merge renamed names its
# path in each parent too (a note renamed while the merge waited kept no date). ``--no-follow``: a
# person's ``log.follow = true`` made the log of a single file (a note moved in from the repository's
# top) a ``--follow`` one, which shows the file added by its own earlier rename.
_PASS_DIFFS = ("--no-follow", "-c", "--combined-all-paths", SAME_FILE, "--diff-filter=ADR", "--raw", "--no-abbrev", "-z")


def added_and_moved(root: Path, head: str, since: str | None = None) -> bytes:
    """One ``git log`` of HEAD's history, oldest first: each commit's hash, author date (``%aI``)
    and parents (``%P``: none for a repository's first commit), then the files it added, deleted
    or moved with their blobs (``--raw -z``, paths relative to ``root``; renames found at
    :data:`SAME_FILE`; the blobs tell a deleted file added back). Read by git_dates.py: one pass
    over the history for every note, where ``--follow`` is one pass per file. ``head``: the commit
    read as HEAD (HEAD may move meanwhile); ``since``: only the commits after it (``since..head``).
    Only the commits that change ``root``'s folder (``-- .``: a vault in a bigger repository's folder
    was read over every commit and every changed path of the repository, a monorepo's code too, and
    ``--relative`` threw the rest away); ``--full-history`` so that no branch's commit is left out
    for a merge the same as one side (git's default simplification), as without the pathspec.
    :data:`_PASS_DIFFS`: the first commit's files and a merge's own additions shown too."""
    return _git_bytes(root, "log", "--reverse", "--full-history", *_PASS_DIFFS, "--relative", f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%P",
                      head if since is None else f"{since}..{head}", "--", ".")


def vault_folder(root: Path) -> tuple[Path, str]:
    """The top of the repository ``root`` is in, and ``root``'s folder in it (``"notes/"``; ``""``
    when ``root`` is the top), as git says it (``rev-parse --show-cdup --show-prefix``)."""
    lines = _git(root, "rev-parse", "--show-cdup", "--show-prefix").stdout.split("\n")
    if len(lines) < 2:
        raise GitError(f"git rev-parse in {root} did not say where the repository's top is: {lines!r}")
    return (root / lines[0]).resolve() if lines[0] else root, lines[1]


def moved_between_folders(top: Path, commits: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """The files each of ``commits`` moved ((from, to), relative to the repository's top ``top``),
    as git's rename detection sees them over the whole tree (:data:`SAME_FILE`): one ``diff-tree
    --stdin`` for them all. A commit that moved nothing is absent."""
    if not commits:
        return {}
    shown = _git_bytes(top, "diff-tree", "--stdin", "-r", SAME_FILE, "--diff-filter=R", "--raw", "--no-abbrev", "-z",
                       stdin="".join(f"{commit}\n" for commit in commits).encode("ascii"))
    moved: dict[str, list[tuple[str, str]]] = {}
    tokens = iter(shown.split(b"\0"))
    commit = ""
    for token in tokens:
        word = token.strip(b"\n")
        if not word:
            continue
        if not word.startswith(b":"):  # the commit the changes after it are of
            commit = word.decode("ascii")
            continue
        source, target = next(tokens), next(tokens)
        moved.setdefault(commit, []).append((source.decode("utf-8", "surrogateescape"),
                                             target.decode("utf-8", "surrogateescape")))
    return moved


def added_and_moved_in(top: Path, commit: str, folders: Sequence[str]) -> bytes:
    """:func:`added_and_moved` of ``commit``'s history within ``folders`` of the repository (paths
    relative to its top ``top``, as given: literal pathspecs, any byte of a name is itself)."""
    return _git_bytes(top, "log", "--reverse", "--full-history", *_PASS_DIFFS,
                      f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%P", commit, "--", *folders)


def subject(root: Path, commit: str) -> str:
    """The first line of ``commit``'s message."""
    return _git(root, "show", "-s", "--format=%s", commit, "--").stdout.strip()


def walk_order(root: Path, head: str) -> list[str]:
    """``head``'s commits, oldest first, in the order ``git log --reverse`` lists them (by commit
    date from ``head``): one ``rev-list``, no diffs."""
    return _git(root, "rev-list", "--reverse", head, "--").stdout.split()


def files_at(root: Path, commit: str) -> frozenset[str]:
    """The files ``commit``'s tree holds under ``root``, relative to it."""
    raw = _git_bytes(root, "ls-tree", "-r", "-z", "--name-only", commit, "--")
    return frozenset(path.decode("utf-8", "surrogateescape") for path in raw.split(b"\0") if path)


# The trailer vaultmem's commit gives each file it moved to the archive: `<blob> <path>`. A
# rebase keeps a commit's message but rewrites its tree: replayed onto another machine's edit of
# the note, the commit adds the edited bytes, and only this line still says what was archived.
ARCHIVED_TRAILER = "Vaultmem-Archived"


def additions(root: Path, folder: str) -> tuple[dict[str, Addition], bool]:
    """Each file under ``folder`` (vault-relative) that a commit of HEAD's history added, with
    the newest such commit, read from the newest :data:`REMOVAL_SCAN_COMMITS` commits (merges'
    own changes are not read: a merge that changed a file added it nowhere); and whether older
    commits were left unread. One ``git log`` limited to the folder."""
    if not has_commits(root):
        return {}, False
    recent, truncated = _recent_commits(root)
    logged = _git_bytes(root, "log", "--no-follow", "--no-renames", "--diff-filter=A", "--raw", "--no-abbrev", "-z",
                        "--relative", f"--format={_RECORD}%H{_FIELD}%cI{_FIELD}%(trailers:key={ARCHIVED_TRAILER},valueonly)",
                        *recent, "--", folder)
    found: dict[str, Addition] = {}
    for record in logged.split(_RECORD.encode()):
        header, _, changes = record.partition(b"\0")
        if not header.strip():
            continue  # before the first record
        commit, date, trailers = header.decode("utf-8", "surrogateescape").strip("\n").split(_FIELD, 2)
        archived = _archived_blobs(trailers)
        for status, path, _before, blob, _moved_to in _raw_changes(changes):
            if status == "A":  # newest first: the first seen is the newest
                found.setdefault(path, Addition(path, blob, commit, date, archived.get(path)))
    return found, truncated


def archivings(root: Path) -> dict[str, Addition]:
    """Each path a vaultmem commit of HEAD's newest :data:`REMOVAL_SCAN_COMMITS` commits says it
    archived a file to (its :data:`ARCHIVED_TRAILER` lines), with the newest such commit: where
    the archive folder was when it archived, whatever ``archive_dir`` says now. One ``git log``."""
    if not has_commits(root):
        return {}
    recent, _truncated = _recent_commits(root)
    # A vault nested in a larger repository reads only the commits that touched its folder: a
    # trailer's path is its own vault's, and a sibling vault's archiving named a file of this
    # one, the person's own, as archived here (a review). At the top, no pathspec (removals).
    nested = ["--", "."] if _git(root, "rev-parse", "--show-prefix").stdout.strip() else []
    # Only vaultmem's archiving commits: a vault of 10,000 commits prints a few, not every one.
    logged = _git(root, "log", "--fixed-strings", f"--grep={ARCHIVED_TRAILER}: ",
                  f"--format={_RECORD}%H{_FIELD}%cI{_FIELD}%(trailers:key={ARCHIVED_TRAILER},valueonly)", *recent,
                  *nested).stdout
    found: dict[str, Addition] = {}
    for record in logged.split(_RECORD):
        if not record.strip():
            continue  # before the first record
        commit, date, trailers = record.strip("\n").split(_FIELD, 2)
        for path, blob in _archived_blobs(trailers).items():
            found.setdefault(path, Addition(path, blob, commit, date, blob))  # newest first: the first seen is the newest
    return found


def _archived_blobs(trailers: str) -> dict[str, str]:
    """Path → blob of each :data:`ARCHIVED_TRAILER` value (``<blob> <path>``, one a line). A
    line of another shape (a person's own trailer of that name) names nothing: its file is
    compared with the blob its commit added, as one without a trailer."""
    found = {}
    for line in trailers.splitlines():
        blob, _, path = line.strip().partition(" ")
        if path and all(char in "0123456789abcdef" for char in blob) and len(blob) in (40, 64):
            found[path] = blob
    return found


def unmerged(root: Path, relatives: Sequence[str] = (".",)) -> set[str]:
    """The files of the vault (vault-relative; of ``relatives`` only, ``"."``: all) git's index
    holds unmerged: a merge, rebase, cherry-pick or ``am`` stopped on their conflict and they
    are not ``git add``-ed yet. One ``ls-files``, which reads the index whole either way
    (10,000 notes: about 5 ms, adr/0006)."""
    if not relatives:
        return set()
    listed = _git_bytes(root, "ls-files", "-z", "--unmerged", "--", *relatives)
    return {name for _fields, name in _records(listed)}


def working_blobs(root: Path, relatives: Sequence[str]) -> dict[str, str]:
    """The blob id git would give each file as it is now in the working tree (its clean filters
    applied, as ``git add`` would: a CRLF checkout hashes as committed). One ``hash-object
    --stdin-paths`` for all; a name holding a line break, which that cannot read, on its own."""
    listed = [relative for relative in relatives if "\n" not in relative]
    found: dict[str, str] = {}
    if listed:
        # --stdin-paths reads paths from the repository's top, not from the vault's folder
        # (a vault nested in a larger repository: "could not open '_archive/x.md'").
        prefix = _git(root, "rev-parse", "--show-prefix").stdout.strip()
        names = "".join(f"{prefix}{name}\n" for name in listed).encode("utf-8", "surrogateescape")
        output = _git_bytes(root, "hash-object", "--stdin-paths", stdin=names).decode().split()
        found.update(zip(listed, output, strict=True))
    for relative in relatives:
        if "\n" in relative:
            found[relative] = _git(root, "hash-object", "--", relative).stdout.strip()
    return found


def uncommitted(root: Path, relatives: Sequence[str]) -> set[str]:
    """The files of ``relatives`` (vault-relative) whose working tree or staged bytes differ from
    HEAD's: changed and not committed (one ``git diff``)."""
    if not relatives:
        return set()
    listed = _git_bytes(root, "diff", "--name-only", "-z", "--relative", "--no-renames", "HEAD", "--", *relatives)
    return {name for name in listed.decode("utf-8", "surrogateescape").split("\0") if name}


def committed_bytes(root: Path, relative: str) -> bytes | None:
    """The bytes HEAD holds at ``relative`` (vault-relative); ``None`` when it holds no such file."""
    if not has_commits(root):
        return None
    prefix = _git(root, "rev-parse", "--show-prefix").stdout.strip()
    found = blobs(root, [f"HEAD:{prefix}{relative}"])  # keyed by blob id: one asked, at most one found
    return next(iter(found.values()), None)


def moves(root: Path, commit: str) -> dict[str, str]:
    """The files ``commit`` moved, as git's rename detection sees them (:data:`SAME_FILE`):
    new path → old path, both vault-relative (a move from outside the vault is left out)."""
    shown = _git_bytes(root, "show", SAME_FILE, "--raw", "-z", "--relative", "--format=", commit)
    return {moved_to: path for path, _blob, moved_to in _raw_entries(shown) if moved_to is not None}


def blobs(root: Path, names: Sequence[str]) -> dict[str, bytes]:
    """The content of each blob (one ``cat-file --batch`` for all); a blob git no longer has is left out."""
    if not names:
        return {}
    output = _git_bytes(root, "cat-file", "--batch", stdin="".join(f"{name}\n" for name in names).encode())
    contents: dict[str, bytes] = {}
    position = 0
    while position < len(output):
        end = output.index(b"\n", position)
        header = output[position:end].decode().split()
        position = end + 1
        if len(header) == 3:
            size = int(header[2])
            contents[header[0]] = output[position:position + size]
            position += size + 1  # the content, then a newline
    return contents


@dataclass
class CommitResult:
    """The commit vaultmem made (``None``: nothing to commit), the files whose vaultmem change
    it does not hold, and the files it holds with vaultmem's change only."""

    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # vaultmem's change is not in git
    # Committed with vaultmem's change only: the person's own uncommitted edit in them stays uncommitted.
    yours_left_uncommitted: list[str] = field(default_factory=list)


DETACHED_REASON = ("HEAD is detached (a rebase, bisect or checked-out commit), so a commit would be on no branch and "
                   "`git rebase --abort` or a checkout would drop it; commit it yourself once HEAD is on a branch")


def _inside_git_commit_reason() -> str | None:
    """Why no commit can be made from inside a ``git commit``'s hook (a ``vaultmem check --fix`` in
    ``pre-commit``, as a formatter is run). git gives the hooks of a commit (``pre-commit``,
    ``prepare-commit-msg``, ``commit-msg``, ``post-commit``) the index it commits in
    ``GIT_INDEX_FILE``: the lock it is writing (``index.lock``, ``next-index-*.lock``) for ``commit
    -a`` or of named files, ``.git/index`` itself for an as-is ``git commit`` (git 2.39, checked).
    Committing there moved HEAD under that commit, which failed ("cannot lock ref 'HEAD'"); with a
    lock, the person's index was also left without vaultmem's new note (``git status``: ``D``), for
    their next commit to delete (two reviews). Nothing else tells a pre-commit from a post-commit
    hook, so a write in a post-commit hook is left uncommitted too: said, never lost. A person who
    sets ``GIT_INDEX_FILE`` themselves gets the same answer: vaultmem would otherwise take that index
    for theirs and point it at its commit. ``None``: it is not set."""
    index = os.environ.get("GIT_INDEX_FILE")
    if index is None:
        return None
    writing = "the index that commit is writing" if index.endswith(".lock") else "the index that commit is made from"
    return (f"vaultmem runs inside a `git commit` (its hook: GIT_INDEX_FILE is {index}, {writing}), and a commit "
            "now would make that one fail; run vaultmem outside git's hooks, or commit this file yourself (`git "
            "add` it in the hook to have it in your commit). If no git command is running, unset GIT_INDEX_FILE")


@dataclass(frozen=True)
class _Operation:
    """An operation git stops in the middle of (on a conflict), as ``git status`` tells it: the
    file or folder of the git directory that marks it, its name, and how to finish or abort it."""

    marker: str
    name: str
    finish: str
    abort: str
    detaches_head: bool = False


# Checked in this order: a rebase's own stops can leave MERGE_HEAD (`rebase -r`), and `git am`
# shares rebase-apply with `rebase --apply` (its `applying` file tells them apart). A bisect is
# not here: HEAD is detached at each of its steps (DETACHED_REASON), and before its first step
# nothing is staged and `git bisect reset` checks the branch out again, commits and all. Nor is
# `sequencer/` alone: a cherry-pick of several commits between two picks holds nothing half
# done, and git leaves that folder behind at times, which would refuse every commit for good.
_IN_PROGRESS = (
    _Operation("rebase-merge", "a rebase", "git rebase --continue", "git rebase --abort", detaches_head=True),
    _Operation("rebase-apply/applying", "a `git am`", "git am --continue", "git am --abort"),
    _Operation("rebase-apply", "a rebase", "git rebase --continue", "git rebase --abort", detaches_head=True),
    _Operation("MERGE_HEAD", "a merge", "git commit", "git merge --abort"),
    _Operation("CHERRY_PICK_HEAD", "a cherry-pick", "git cherry-pick --continue", "git cherry-pick --abort"),
    _Operation("REVERT_HEAD", "a revert", "git revert --continue", "git revert --abort"),
)


def _in_progress_markers(top: Path) -> list[tuple[_Operation, Path]]:
    """Where each operation's marker would be, found with ``rev-parse --git-path``, which knows
    where a linked worktree's or a submodule's git directory is."""
    found = _git(top, "rev-parse", *[arg for operation in _IN_PROGRESS for arg in ("--git-path", operation.marker)])
    return [(operation, top / marker) for operation, marker in zip(_IN_PROGRESS, found.stdout.splitlines(), strict=True)]


def _first_in_progress(markers: Sequence[tuple[_Operation, Path]]) -> str | None:
    for operation, marker in markers:
        if marker.exists():
            return _in_progress_text(operation)
    return None


def in_progress(root: Path) -> str | None:
    """The merge, rebase, ``git am``, cherry-pick or revert stopped in the middle in the vault's
    repository, said as a refused commit says it (``None``: none is)."""
    return _first_in_progress(_in_progress_markers(root))


def _in_progress_text(operation: _Operation) -> str:
    # The commit that finishes the operation is made from git's index, which holds its
    # changes and not vaultmem's: it reverted vaultmem's change to a file both changed (a
    # trial: a note a merge had changed lost vaultmem's append in the merge commit, while
    # the CLI had said "committed"). A rebase's HEAD is detached, and its abort drops it too.
    undone = ("the commit that finishes it is made from git's index, which holds its changes and not vaultmem's, "
              "so it would undo vaultmem's change to any file both changed")
    if operation.detaches_head:
        undone = f"HEAD is detached, so `{operation.abort}` would drop a commit made now, and {undone}"
    return (f"{operation.name} is in progress: {undone}; finish it (`{operation.finish}`) or abort it "
            f"(`{operation.abort}`), then commit this file yourself")


COMMIT_ATTEMPTS = 5  # HEAD moved under us (the person committed at that moment): start again
# How long a commit waits for git's index lock (held by a person's git command) before it leaves
# the change uncommitted: a pull's merge holds it for a moment, a `git commit` for as long as
# its editor is open.
INDEX_LOCK_SECONDS = 5.0
_INDEX_BUSY = ("another git command held git's index ({lock}: a `git commit` waiting for its message, a pull, "
               "a merge) for {seconds:g} s, and committing under it would fail that command; vaultmem's change is "
               "in the file: commit it yourself once that command is done. If no git command is running (your "
               "editor's git panel included), one that crashed left the lock behind, which vaultmem cannot know for "
               "certain: check that no process has it open (`lsof {lock}` or `fuser {lock}` prints nothing, and "
               "`pgrep -a git` lists no git working in {top}), then delete it (`rm {lock}`)")
# Said of a note vaultmem created that a commit left out (own_uncommitted.py).
_COMMITTED_LATER = (" (or leave it to vaultmem: its next commit once git can take one commits this note, while it "
                    "holds only what vaultmem wrote)")
LOCK_NAME = "git.lock"
HOLDER_COMMAND_CHARS = 200  # a program name and two command words fit
_ZERO = "0" * 40
_FILE_MODES = ("100644", "100755")  # a plain file's index modes (not a symlink's, nor a submodule's)

log = logging.getLogger("vaultmem")


@dataclass(frozen=True)
class LockWait:
    """How a write waits for another holding the commit lock: it says so once after
    ``say_after`` seconds, and is refused after ``at_most`` (adr/0017: the bound is a few
    times the longest write measured, a ``consolidate --apply`` of a 10k vault)."""

    at_most: float = 300.0
    say_after: float = 2.0
    # A listener (lock_waits_told_to) hears it again this often: an MCP client that restarts its
    # timeout on progress keeps waiting; one that hears nothing gives up long before at_most.
    tell_every: float = 5.0


@dataclass(frozen=True)
class LockWaiting:
    """A write kept waiting for the commit lock, as a listener hears it (an MCP client: the
    log the person reads is on the server's stderr, which the agent never sees)."""

    message: str  # who holds it, and when this write is refused
    waited: float  # seconds so far; grows with each telling
    at_most: float  # refused after this many


# Who else hears that a write of this thread (context) waits: set by lock_waits_told_to.
_wait_listener: ContextVar[Callable[[LockWaiting], None] | None] = ContextVar("vaultmem_lock_wait_listener", default=None)


@contextmanager
def lock_waits_told_to(listener: Callable[[LockWaiting], None]) -> Iterator[None]:
    """While this block runs, a write it makes that waits for the commit lock tells
    ``listener`` too: once it has waited ``say_after`` seconds (when the log says it), then
    every ``tell_every`` seconds, so a caller that gives up on silence hears the write is alive."""
    token = _wait_listener.set(listener)
    try:
        yield
    finally:
        _wait_listener.reset(token)


def commit_lock(lock_dir: Path, wait: LockWait = LockWait()) -> AbstractContextManager[None]:
    """The lock vaultmem's writes and commits take turns on, across processes and threads
    (``lock_dir/git.lock``). Every write holds it from before it reads the file until the
    index has its change and, with auto_commit, its commit is made (unit_of_work.py):
    otherwise a second process writes the file between the first one's write and commit, the
    first commit's merge finds the second edit beside its own, and the file is left out of
    git from then on (adr/0017); and without auto_commit two agents' appends to one note
    refused each other as WriteConflict (adr/0036).
    A write that waits long says so, naming the holder, and is refused after ``wait.at_most``
    (:class:`WriteLockBusy`: nothing was written)."""
    return _exclusive_lock(lock_dir / LOCK_NAME, wait)


def commit_changes(root: Path, changes: Sequence[FileChange], message: str, lock_dir: Path, *,
                   lock_held: bool = False) -> CommitResult:
    """Commit vaultmem's own ``changes`` (vault-relative) and nothing else.

    For each changed file the commit holds HEAD's version with vaultmem's edit applied;
    a file whose uncommitted changes by the person overlap that edit, or that git never
    tracked, is left out and named in the result (vaultmem's change is on disk either
    way). Serialised across processes by :func:`commit_lock`, taken here unless the caller
    holds it (``lock_held``).
    """
    with nullcontext() if lock_held else commit_lock(lock_dir):
        for _attempt in range(COMMIT_ATTEMPTS):
            try:
                result = _Commit(root, lock_dir, message).make(_collapse(changes))
            except OSError as error:
                # A full disk or a git directory this user cannot write, met by vaultmem itself (the
                # copy of the person's index, git's index.lock): said as git's own failures are, so
                # the caller says the change was made but not committed (it escaped as a bare OSError).
                raise GitError(f"{error.strerror or error} ({error.filename or root}): free some space on that disk, or "
                               "make the git directory writable, then see `git status` and commit the files "
                               "yourself") from None
            if result is not None:
                return result
    raise GitError(f"the change was made but not committed: HEAD of {root} kept moving while vaultmem committed "
                   "(another git process?); commit the files by hand")


def _collapse(changes: Sequence[FileChange]) -> list[FileChange]:
    """One change per path: the first ``before``, the last ``after``."""
    by_path: dict[str, FileChange] = {}
    for change in changes:
        first = by_path.get(change.path)
        by_path[change.path] = change if first is None else FileChange(change.path, first.before, change.after, first.moved_from)
    return list(by_path.values())


@dataclass(frozen=True)
class _Entry:
    mode: str
    blob: str


# The private index a commit is built in is whole and plain, whatever the person's git config says
# of their own. With `core.splitIndex` on, each commit's private index wrote a shared index of the
# whole tree into the git directory (`sharedindex.<id>`, named by nothing once the private index
# was deleted, removed by git only two weeks later): one orphan the size of the index per commit.
# `core.fsmonitor`: the person's hook (a watchman query) was run by each of these commands, which
# look at no file of the working tree.
_PRIVATE_INDEX = ("-c", "core.splitIndex=false", "-c", "core.fsmonitor=false")


_UNDONE_IN_THE_FILE = ("{paths}: the file holds what git's HEAD holds again since vaultmem wrote its change (a `git "
                       "stash`, `git checkout -- <file>` or `git reset --hard` of yours, or an undo in your editor, took "
                       "it out), so a commit now would record a change the vault does not have; nothing is committed. "
                       "If you stashed it, `git stash pop` brings it back: commit it then")


class _LeftOut:
    """A path that stays out of the commit (named in the result when it matters)."""


_LEFT_OUT = _LeftOut()


_GONE_BEFORE_COMMIT = ("no longer in the vault when vaultmem came to commit it (a `git checkout` of another branch, "
                       "or you, removed it meanwhile): not committed; the branch that holds it brings it back")


class _Commit:
    """One attempt: a private index from HEAD plus vaultmem's changes, committed only if
    HEAD has not moved meanwhile (``update-ref`` with the old value)."""

    def __init__(self, root: Path, lock_dir: Path, message: str) -> None:
        self.root = root
        self.lock_dir = lock_dir
        # A note's title comes from its file, and YAML can spell a NUL ("\0"): git takes no NUL
        # in an argument, and the note would stay written but uncommitted.
        self.message = "".join("\ufffd" if unicodedata.category(char) == "Cc" and char not in "\n\t" else char
                               for char in message)
        self.top = Path(_git(root, "rev-parse", "--show-toplevel").stdout.strip())
        self.prefix = _git(root, "rev-parse", "--show-prefix").stdout.strip()
        head = _git(self.top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
        self.head = head.stdout.strip() if head.returncode == 0 else None
        self.zero = "0" * len(self.head or _ZERO)  # 40 for SHA-1 repositories, 64 for SHA-256
        detached = _git(self.top, "symbolic-ref", "--quiet", "HEAD", check=False).returncode != 0
        # Where each operation's marker is: looked at now, and again under git's index lock.
        self.markers = _in_progress_markers(self.top)
        self.refusal = (_inside_git_commit_reason() or _first_in_progress(self.markers)
                        or (DETACHED_REASON if detached else None))
        self.index_file = lock_dir / f"git-index-{os.getpid()}-{git_index_lock.HOST_TAG}-{secrets.token_hex(4)}"
        self.not_committed: list[NotCommitted] = []
        self.yours_left_uncommitted: list[str] = []
        # A note moved with the person's uncommitted edit in it: the blob of the bytes moved, which
        # its trailer names (the commit holds HEAD's); path as in the tree → blob.
        self._moved_bytes: dict[str, str] = {}
        # What earlier commits set in the person's index, to be checked by this one (index_checks.py).
        self._open_checks: list[index_checks.IndexSet] = []
        self._put_back: dict[str, str] = {}  # path → the commit whose change the index had lost, put back
        self._unstaged: dict[str, str] = {}  # the same, but written too late to be git's: only said
        self._staged_apart: list[str] = []  # the person's staged version overlaps vaultmem's edit: kept, said
        self._staged_deleted: dict[str, str] = {}  # path → the person's staged blob of a file this commit deletes
        self._moves: dict[str, str] = {}  # a file this commit moves (to the archive): its path → where it was
        # vaultmem's own new notes an earlier commit left out (own_uncommitted.py): path as in the tree → blob.
        self._own_pending = own_uncommitted.load(lock_dir)
        self._late: set[str] = set()  # those this commit takes (paths as in the tree)

    def make(self, changes: Sequence[FileChange]) -> CommitResult | None:
        """The result, or ``None`` when HEAD moved and the attempt must start again."""
        try:
            return self._make(changes)
        finally:
            for leftover in (self.index_file, self.index_file.with_name(self.index_file.name + ".lock")):
                leftover.unlink(missing_ok=True)

    def _make(self, changes: Sequence[FileChange]) -> CommitResult | None:
        if self.refusal is not None:
            # A commit on a detached HEAD belongs to no branch: `git rebase --abort`, or the
            # checkout of a branch, drops it, and with it a note vaultmem created (a trial:
            # "remembered … committed", then gone from the vault after a rebase --abort).
            # A merge or cherry-pick in progress undoes it too (_in_progress_text). Left
            # uncommitted, a new note survives all of them and the person commits it.
            for change in changes:
                self._note(change.path, self.refusal + self._later(change))
            self._keep_own(changes)
            return CommitResult(None, self.not_committed)
        changes = [*changes, *self._late_changes(changes)]
        paths = [self.full(change.path) for change in changes] + [self.full(change.moved_from) for change in changes if change.moved_from]
        head_entries = self._entries(paths) if self.head else {}
        ignored = _ignored(self.top, [self.full(change.path) for change in changes if change.after is not None])
        updates: dict[str, _Entry | None] = {}
        for change in changes:
            decision = self._decide(change, head_entries, ignored)
            if not isinstance(decision, _LeftOut):
                updates[self.full(change.path)] = decision
        updates = {path: entry for path, entry in updates.items() if entry != head_entries.get(path)}
        if not updates:
            return CommitResult(None, self.not_committed)
        late = [f"{own_uncommitted.LATE_TRAILER}: {path}" for path in sorted(self._late) if path in updates]
        commit = self._commit_object(updates, [*self._archived_trailers(changes, updates), *late])
        self._moves = {self.full(change.path): self.full(change.moved_from) for change in changes
                       if change.moved_from is not None}
        index = self.top / git_path(self.top, "index")
        git_index_lock.remove_leftovers(index, self.lock_dir)
        self._open_checks = index_checks.load(self.lock_dir)
        prepared = self._person_index(index, updates, head_entries)
        try:
            # HEAD moves under git's own index lock, which every git command that moves HEAD or
            # writes the index takes: a pull's merge or a `git commit -a` waiting for its message
            # saw HEAD before vaultmem's commit and failed at its end ("cannot lock ref 'HEAD': is
            # at … but expected …"), a pull leaving a half-done merge whose advice, `git reset
            # --hard`, would throw away what vaultmem wrote meanwhile (a trial). Held for as
            # little as can be (a git command that finds it taken fails: a pull says "stash failed").
            with git_index_lock.hold_lock(index, INDEX_LOCK_SECONDS) as held:
                if not held:
                    return self._left_uncommitted(changes, updates, _INDEX_BUSY.format(
                        lock=shlex.quote(str(git_index_lock.lock_path(index))), seconds=INDEX_LOCK_SECONDS, top=self.top))
                refusal = _first_in_progress(self.markers)  # asked again: a pull may have stopped on a conflict since
                if refusal is not None:
                    return self._left_uncommitted(changes, updates, refusal)
                if self._created_gone(changes):  # a checkout took one away since it was decided: decide again
                    return None
                undone = self._undone_in_the_files(changes, head_entries)
                if undone:
                    return self._left_uncommitted(changes, updates, _UNDONE_IN_THE_FILE.format(paths=", ".join(undone)))
                if prepared.stamp != git_index_lock.stamp(index):  # the person's git wrote it since: made again, from theirs
                    prepared.discard()
                    prepared = self._person_index(index, updates, head_entries)
                # The index first, then HEAD: a `git commit` reads HEAD, then the index. Moved first,
                # HEAD was new to one that read both between the two steps, the index old, and that
                # commit succeeded with a tree lacking vaultmem's new note — recorded deleted, unsaid
                # (adr/0017). Now it reads the new index, or the old HEAD and fails at its end.
                was = git_index_lock.set_aside(index) if prepared.copy is not None else None
                try:
                    if prepared.copy is not None:
                        prepared.copy.replace(index)  # the person's index, pointing at what is committed next
                    moved = self._move_head(commit)
                except BaseException:
                    if prepared.copy is not None:
                        git_index_lock.put_back(index, was)
                    raise
                if not moved:
                    if prepared.copy is not None:
                        git_index_lock.put_back(index, was)  # HEAD moved meanwhile: their index as it was, byte for byte
                    return None
                if was is not None:
                    was.unlink(missing_ok=True)
                self._record_index_set(commit, index, prepared)
                self._forget_own(changes)
        finally:
            prepared.discard()
        return CommitResult(commit, self.not_committed, self.yours_left_uncommitted)

    def _record_index_set(self, commit: str, index: Path, prepared: _PreparedIndex) -> None:
        """Say what this commit put back in the person's index, and keep what it set there for the
        next commit to check (index_checks.py): a `git commit` that read the index before this one
        may write it back yet. Failing to keep it is said; the commit is made either way."""
        for path, earlier in self._put_back.items():
            log.warning("vaultmem: git's index had %s as it was before vaultmem's commit %s: a `git commit` that "
                        "failed (\"cannot lock ref 'HEAD'\") wrote back the index it had read before that commit. Set "
                        "back to what is committed, so your next commit does not undo it; your staged changes are "
                        "as they were", path, earlier[:10])
        for path, earlier in self._unstaged.items():
            log.warning("vaultmem: git's index has %s as it was before vaultmem's commit %s, so your next commit "
                        "would undo that commit's change to it. If you did not unstage it yourself, `git reset -q -- "
                        "%s` puts it back as committed", path, earlier[:10], shlex.quote(path))
        for path, blob in self._staged_deleted.items():
            log.warning("vaultmem: your staged version of %s went with the file, which vaultmem's commit %s deletes for "
                        "good: staged, your next commit would have put it back. `git show %s` prints it, to take it "
                        "back (`git show %s > %s`)", path, commit[:10], blob[:10], blob[:10], shlex.quote(path))
        for path in self._staged_apart:
            log.warning("vaultmem: your staged version of %s overlaps vaultmem's change to it in commit %s, so it "
                        "is left as you staged it: committing it as staged undoes that change. `git diff --cached -- "
                        "%s` shows it; stage the file again (`git add -p`) to keep both", path, commit[:10], shlex.quote(path))
        now = time.time_ns()
        still_open = [check for check in self._open_checks if check.open_at(now)]
        stamp = git_index_lock.stamp(index)
        if prepared.copy is not None and prepared.set_paths and stamp is not None:
            still_open.append(index_checks.IndexSet(commit, now, stamp[0], {
                path: (_entry_text(replaced), _entry_text(entry)) for path, (replaced, entry) in prepared.set_paths.items()}))
        try:
            index_checks.save(self.lock_dir, still_open)
        except OSError as error:
            log.warning("vaultmem: committed %s, but could not keep what it set in git's index for the next commit "
                        "to check (%s): if a `git commit` of yours failed just now, run `git status`", commit[:10], error)

    def _created_gone(self, changes: Sequence[FileChange]) -> bool:
        """Whether a note vaultmem created is no longer in the folder. The person's `git add -A &&
        git commit` on a branch took it before vaultmem's commit, and `git checkout main` removed it
        (a soak trial): committed anyway, main and the person's index held a file the folder lacked,
        the merge of that branch did not bring it back and the next `git add -A` deleted it."""
        return any(change.before is None and change.after is not None and not (self.top / self.full(change.path)).exists()
                   for change in changes)

    def _undone_in_the_files(self, changes: Sequence[FileChange], head: Mapping[str, _Entry]) -> list[str]:
        """The files (vault-relative) where HEAD's version is back since vaultmem wrote its change: an
        edited note holding HEAD's bytes again, a deleted or moved one back where it was. A `git
        stash` run between vaultmem's write and its commit took the edit into the stash and out of
        the file, and the commit recorded it all the same: the file then lacked it, `git stash pop`
        left it out (HEAD already had it), and the person's next `git commit -a` undid it (a review).
        Asked under git's index lock, so no git command changes them meanwhile."""
        undone = []
        for change in changes:
            for relative, wanted in self._written_by(change):
                if self._back_to_head(self.full(relative), wanted, head):
                    undone.append(relative)
        return undone

    @staticmethod
    def _written_by(change: FileChange) -> list[tuple[str, bytes | None]]:
        """What ``change`` left at each path it wrote (None: no file), a note it created aside."""
        if change.after is None:
            return [(change.path, None)]
        if change.moved_from is not None:
            return [(change.moved_from, None)]
        return [] if change.before is None else [(change.path, change.after)]

    def _back_to_head(self, path: str, wanted: bytes | None, head: Mapping[str, _Entry]) -> bool:
        entry = head.get(path)
        if entry is None:
            return False
        try:
            found = (self.top / path).read_bytes()
        except FileNotFoundError:
            return False  # gone: a deletion stands, and an edited note that is gone is the next write's business
        except OSError:
            return False  # a folder there, no permission: not HEAD's bytes as far as can be read
        if found == wanted:
            return False
        return self._blob(found, path) == entry.blob and (wanted is None or self._blob(wanted, path) != entry.blob)

    def _left_uncommitted(self, changes: Sequence[FileChange], updates: Mapping[str, _Entry | None],
                          reason: str) -> CommitResult:
        self.yours_left_uncommitted.clear()
        for change in changes:
            if self.full(change.path) in updates and self.full(change.path) not in self._late:
                self._note(change.path, reason + self._later(change))
        self._keep_own(changes)
        return CommitResult(None, self.not_committed)

    def _keep_own(self, changes: Sequence[FileChange]) -> None:
        """Keep the notes ``changes`` created (or moved out of a note kept so) for the commit after
        this one, which git could not take: without it the next commit took them for the person's."""
        for change in changes:
            if change.after is None:
                continue
            path = self.full(change.path)
            if change.before is None or self._own_moved(change) or self._own_edited(path, change.before):
                self._own_pending.pop(path, None)
                self._own_pending[path] = self._blob(change.after, path)
            if change.moved_from is not None:
                self._own_pending.pop(self.full(change.moved_from), None)
        self._save_own()

    def _later(self, change: FileChange) -> str:
        """What the reason adds for a note :meth:`_keep_own` keeps: it is not left to the person alone."""
        own = change.after is not None and (change.before is None or self._own_moved(change)
                                            or self._own_edited(self.full(change.path), change.before))
        return _COMMITTED_LATER if own else ""

    def _forget_own(self, changes: Sequence[FileChange]) -> None:
        """After a commit: what it took, and what vaultmem no longer knows as its own alone, is
        forgotten; a change it left out that is still vaultmem's alone stays kept."""
        for change in changes:
            path = self.full(change.path)
            left_out = any(item.path == change.path for item in self.not_committed)
            if not left_out:
                self._own_pending.pop(path, None)
            if change.moved_from is not None:
                self._own_pending.pop(self.full(change.moved_from), None)
        self._save_own()

    def _save_own(self) -> None:
        try:
            own_uncommitted.save(self.lock_dir, self._own_pending)
        except OSError as error:
            log.warning("vaultmem: could not keep the list of notes it wrote but could not commit (%s): `git status` "
                        "shows them, for you to commit", error)

    def _own_edited(self, path: str, before: bytes) -> bool:
        """Whether ``before`` (the bytes vaultmem replaced at ``path``) are a note of its own it kept."""
        return path in self._own_pending and self._own_pending[path] == self._blob(before, path)

    def _own_moved(self, change: FileChange) -> bool:
        """Whether ``change`` moved (archived) a note of vaultmem's own that it kept, unchanged."""
        if change.moved_from is None or change.after is None:
            return False
        source = self.full(change.moved_from)
        return source in self._own_pending and self._own_pending[source] == self._blob(change.after, source)

    def _late_changes(self, changes: Sequence[FileChange]) -> list[FileChange]:
        """The kept notes of vaultmem's own this commit takes: each whose file still holds the bytes
        vaultmem wrote and which git holds neither in HEAD nor staged. One the person edited,
        committed, staged or removed since is theirs: forgotten, never taken."""
        touched = {self.full(change.path) for change in changes} | {self.full(change.moved_from) for change in changes
                                                                  if change.moved_from is not None}
        late: list[FileChange] = []
        for path, blob in list(self._own_pending.items()):
            if path in touched:
                continue
            found = self._own_bytes(path, blob)
            if found is None:
                del self._own_pending[path]
                continue
            self._late.add(path)
            late.append(FileChange(path.removeprefix(self.prefix), None, found))
        return late

    def _own_bytes(self, path: str, blob: str) -> bytes | None:
        """The file at ``path`` if it is still vaultmem's alone (the bytes of ``blob``, in no commit
        and not staged); ``None`` otherwise."""
        if not path.startswith(self.prefix):
            return None
        try:
            found = (self.top / path).read_bytes()
        except OSError:
            return None  # gone, or no longer a file: nothing of vaultmem's to commit
        if self._blob(found, path) != blob or self._staged_only(path) or path in _ignored(self.top, [path]):
            return None  # the person's since: edited, staged, or put under .gitignore
        in_head = self._entries([path]) if self.head else {}
        return None if path in in_head else found

    def full(self, relative: str | None) -> str:
        return f"{self.prefix}{relative}"

    def _archived_trailers(self, changes: Sequence[FileChange], updates: Mapping[str, _Entry | None]) -> list[str]:
        """An :data:`ARCHIVED_TRAILER` line for each file this commit moves (to the archive), read
        by archive_edits.py. A name a trailer line cannot hold (a line break, a control
        character, spaces at an end) gets none: its file is compared as one without."""
        lines = []
        for change in changes:
            entry = updates.get(self.full(change.path))
            name = change.path
            if (change.moved_from is not None and entry is not None and name == name.strip()
                    and not any(unicodedata.category(char) == "Cc" for char in name)):
                # The bytes moved, not the commit's when the person's uncommitted edit moved with
                # them: without it every check said that edit was made in the archive folder
                # afterwards, and its fix (`git checkout HEAD -- …`) threw the person's line away.
                lines.append(f"{ARCHIVED_TRAILER}: {self._moved_bytes.get(self.full(name), entry.blob)} {name}")
        return lines

    def _decide(self, change: FileChange, head: Mapping[str, _Entry], ignored: set[str]) -> _Entry | _LeftOut | None:
        """The entry to commit for one path, ``None`` to remove it, or left out."""
        path = self.full(change.path)
        if change.after is None:
            return None if path in head else _LEFT_OUT  # gone, and git never knew it
        if path not in head and path in ignored:
            return self._leave(change.path, "ignored by git (.gitignore)")
        if change.moved_from is not None:
            source = head.get(self.full(change.moved_from))
            if source is None and self._own_moved(change):  # vaultmem's own note, left out earlier: a new file here
                return _Entry("100644", self._blob(change.after, path, write=True))
            if source is None:
                return self._leave(change.path, self._untracked_source_reason(change.moved_from, change.path))
            moved = self._blob(change.after, path)
            if moved != source.blob:
                self.yours_left_uncommitted.append(change.path)  # committed as it was in HEAD
                # Written, so that check's fix can name it (`git show <blob>`): the bytes archived.
                self._moved_bytes[path] = self._blob(change.after, path, write=True)
            return source
        if change.before is None:
            if not (self.top / path).exists():
                return self._leave(change.path, _GONE_BEFORE_COMMIT)
            return _Entry("100644", self._blob(change.after, path, write=True))  # a note vaultmem created
        return self._edited(change.path, change.before, change.after, head.get(path))

    def _untracked_source_reason(self, moved_from: str, moved_to: str) -> str:
        """Why a note moved from a path HEAD does not hold stays out of the commit. "Never tracked"
        was said also of a note git held until a moment ago: the person's `git commit -a`, run
        while vaultmem moved it, committed its removal (a trial: consolidate beside a person's
        commits), and the person was told the note had never been in git."""
        if self._staged_only(self.full(moved_from)):
            return (f"moved from {moved_from}, which git holds only as staged (your `git add` or `git mv`, not committed "
                    f"yet), so vaultmem does not commit it; staged there, your next commit puts it back at {moved_from}: "
                    f"`git add -A -- {shlex.quote(moved_from)} {shlex.quote(moved_to)}` stages the move too")
        removed = _git(self.top, "log", "-1", "--format=%h", "--", self.full(moved_from), check=False).stdout.strip()
        if not removed:
            return f"moved from {moved_from}, which git never tracked; vaultmem does not commit a file it did not write"
        return (f"moved from {moved_from}, whose removal from git another commit made meanwhile ({removed}: a "
                f"`git commit -a` run while vaultmem moved it); the moved copy is not in git: `git add {moved_to}` "
                "and commit it to keep it there")

    def _staged_only(self, path: str) -> bool:
        """Whether the person's index holds ``path``, which HEAD does not (a staged addition or rename)."""
        entries, unmerged = _index_stages(self.top, [path])
        return bool(entries or unmerged)

    def _edited(self, relative: str, before: bytes, after: bytes, head: _Entry | None) -> _Entry | _LeftOut:
        path = self.full(relative)
        if head is None:
            if self._own_edited(path, before):  # vaultmem's own note, left out while git could take no commit
                return _Entry("100644", self._blob(after, path, write=True))
            if self._staged_only(path):  # was said "never tracked" of a note the person had just `git mv`-ed
                return self._leave(relative, "git holds it only as staged (your `git add` or `git mv`, not committed "
                                                "yet), so a commit would hold the whole file, not only vaultmem's change; "
                                                "commit it yourself")
            return self._leave(relative, "git never tracked it, so a commit would hold the whole file, not only "
                                            "vaultmem's change; commit it yourself if you want it in git")
        if self._blob(before, path) == head.blob:
            return _Entry(head.mode, self._blob(after, path, write=True))
        merged = self._merge(head.blob, before, after, path)
        if merged is None:
            return self._leave(relative, "your uncommitted changes in it overlap vaultmem's edit; vaultmem's "
                                            "change is in the file but not committed")
        self.yours_left_uncommitted.append(relative)
        return _Entry(head.mode, self._blob(merged, path, write=True))

    def _leave(self, relative: str, reason: str) -> _LeftOut:
        self._note(relative, reason)
        return _LEFT_OUT

    def _note(self, relative: str, reason: str) -> None:
        self.not_committed.append(NotCommitted(relative, reason))

    def _blob(self, data: bytes, path: str, write: bool = False) -> str:
        # --path: git's own clean filters and line-ending rules for that file apply.
        args = ["hash-object", *(["-w"] if write else []), f"--path={path}", "--stdin"]
        return _git_bytes(self.top, *args, stdin=data).decode().strip()

    def _merge(self, head_blob: str, before: bytes, after: bytes, path: str) -> bytes | None:
        """HEAD's version with vaultmem's edit (before → after) applied; None on overlap."""
        return self._three_way(self._smudged(head_blob, path), before, after)

    def _smudged(self, blob: str, path: str) -> bytes:
        """The bytes ``blob`` has in the working tree at ``path`` (its smudge filter and line endings)."""
        return _git_bytes(self.top, "cat-file", "--filters", f"--path={path}", blob)

    def _three_way(self, ours: bytes, base: bytes, theirs: bytes) -> bytes | None:
        """``ours`` with the change from ``base`` to ``theirs`` applied (``git merge-file``); None
        when the two overlap."""
        folder = self.index_file.parent
        names = [folder / f"{self.index_file.name}.{part}" for part in ("ours", "base", "theirs")]
        try:
            for name, data in zip(names, (ours, base, theirs), strict=True):
                name.write_bytes(data)
            result = _run(self.top, ["merge-file", "-p", "--quiet", *map(str, names)], None, None)
        finally:
            for name in names:
                name.unlink(missing_ok=True)
        return result.stdout if result.returncode == 0 else None

    def _carried_into_staged(self, updates: Mapping[str, _Entry | None], staged: Mapping[str, _Entry],
                             head: Mapping[str, _Entry]) -> dict[str, _Entry]:
        """The person's staged version of each file vaultmem edits, with vaultmem's edit applied
        (three-way: HEAD's blob, their staged one, the one committed now), so that what they staged
        stays their change and no more. Left as it was, it lacked vaultmem's edit: `git diff
        --cached` showed that edit undone, and their next `git commit` recorded it undone, unsaid (a
        review: a `git add -p` hunk staged in a note vaultmem then tagged). Where the two overlap
        their staged version is kept as it was and said (:attr:`_staged_apart`)."""
        self._staged_apart.clear()
        carried: dict[str, _Entry] = {}
        for path, entry in updates.items():
            was, theirs = head.get(path), staged.get(path)
            if (entry is None or was is None or theirs is None or theirs in (was, entry)
                    or theirs.mode not in _FILE_MODES or was.mode not in _FILE_MODES):
                continue  # not edited by both (a deletion, a new note, nothing staged, a symlink)
            # Merged as the working tree holds them (smudged), and stored through the path's filters:
            # what a filter stores (git-crypt's cipher, an LFS pointer) is no text to merge, and every
            # staged hunk was said to overlap and kept without vaultmem's edit (a review).
            merged = self._three_way(*(self._smudged(blob, path) for blob in (theirs.blob, was.blob, entry.blob)))
            if merged is None:
                self._staged_apart.append(path)
                continue
            carried[path] = _Entry(theirs.mode, self._blob(merged, path, write=True))
        return carried

    def _entries(self, paths: Sequence[str]) -> dict[str, _Entry]:
        listed = _git_bytes(self.top, "ls-tree", "-z", "--full-tree", self.head or "", "--", *paths) if paths else b""
        return {name: _Entry(mode, blob) for (mode, kind, blob), name in _records(listed) if kind == "blob"}

    def _commit_object(self, updates: Mapping[str, _Entry | None], trailers: Sequence[str]) -> str:
        """The commit of HEAD plus ``updates`` (an object only: HEAD is not moved)."""
        env = {"GIT_INDEX_FILE": str(self.index_file)}
        if self.head:
            _git(self.top, *_PRIVATE_INDEX, "read-tree", self.head, env=env)
        else:
            _git(self.top, *_PRIVATE_INDEX, "read-tree", "--empty", env=env)
        _git_bytes(self.top, *_PRIVATE_INDEX, "update-index", "-z", "--index-info", env=env,
                   stdin=_index_info(updates, self.zero))
        tree = _git(self.top, *_PRIVATE_INDEX, "write-tree", env=env).stdout.strip()
        parents = ["-p", self.head] if self.head else []
        signing = ["-S"] if _signs_commits(self.top) else []
        message = "\n\n".join([self.message, "\n".join(trailers)]) if trailers else self.message
        return _git(self.top, "commit-tree", tree, *parents, *signing, "-m", message).stdout.strip()

    def _move_head(self, commit: str) -> bool:
        # Only if HEAD is still the commit this one was built on: otherwise a commit made
        # meanwhile would be silently reverted by our tree. Then the caller starts again.
        moved = _git(self.top, "update-ref", "-m", f"commit: {self.message.splitlines()[0]}", "HEAD", commit,
                     self.head or "", check=False)
        return moved.returncode == 0

    def _person_index(self, index: Path, updates: Mapping[str, _Entry | None], head: Mapping[str, _Entry]) -> _PreparedIndex:
        """A copy of the person's index (beside it, so a rename replaces it) pointing at what is
        about to be committed — only for paths where it held HEAD's version (nothing staged):
        their staged changes stay as they were. No copy when no path needs it. Paths an earlier
        commit's change was lost from by a failed `git commit` are put back (:meth:`_owed`)."""
        stamp = git_index_lock.stamp(index)
        copy = git_index_lock.own_name(index, "vaultmem")
        env = {"GIT_INDEX_FILE": str(copy)}
        try:
            if stamp is not None:
                shutil.copy2(index, copy)
            checked = [path for check in self._open_checks for path in check.paths]
            staged, unmerged = _index_stages(self.top, [*updates, *checked], env)
            put_back = self._owed(staged, unmerged, stamp)
            staged = {**{path: entry for path, entry in staged.items() if path not in put_back},
                      **{path: entry for path, entry in put_back.items() if entry is not None}}
            moved_along = self._staged_moved_along(updates, staged, head)
            unchanged = {path: entry for path, entry in updates.items()
                         if staged.get(path) == head.get(path) and path not in moved_along}
            writes = {**put_back, **unchanged, **self._carried_into_staged(updates, staged, head),
                      **self._staged_of_deleted(updates, staged, head, moved_along), **moved_along}
            if not writes:
                copy.unlink(missing_ok=True)
                return _PreparedIndex(None, stamp)
            _git_bytes(self.top, "update-index", "-z", "--index-info", env=env, stdin=_index_info(writes, self.zero))
        except BaseException:
            copy.unlink(missing_ok=True)
            raise
        return _PreparedIndex(copy, stamp, {path: (head.get(path), entry) for path, entry in unchanged.items()})

    def _staged_moved_along(self, updates: Mapping[str, _Entry | None], staged: Mapping[str, _Entry],
                            head: Mapping[str, _Entry]) -> dict[str, _Entry | None]:
        """The person's staged version of each file this commit moves (to the archive), moved with
        the file: gone from where it was, staged where it went (their working-tree edit moves with
        it too). Left where it was, it was a staged addition of a file no longer there (`git status`:
        `AD`), and their next `git commit` put the forgotten note back at its old path in the tree —
        recalled again on every machine that pulled it (a review)."""
        moved: dict[str, _Entry | None] = {}
        for target, source in self._moves.items():
            theirs = staged.get(source)
            if (theirs is None or theirs == head.get(source) or source not in updates or updates[source] is not None
                    or updates.get(target) is None or staged.get(target) != head.get(target)):
                continue  # nothing of theirs staged there, or the commit does not move it (left out)
            moved[source], moved[target] = None, theirs
        return moved

    def _staged_of_deleted(self, updates: Mapping[str, _Entry | None], staged: Mapping[str, _Entry],
                           head: Mapping[str, _Entry], moved_along: Mapping[str, _Entry | None]) -> dict[str, None]:
        """The person's staged version of each file this commit deletes for good (``forget --hard``),
        taken out of their index with the file, and said with its blob (:attr:`_staged_deleted`). Left
        there, it was a staged addition of a file no longer anywhere (`git status`: `AD`), and their next
        `git commit` put the deleted note back into the tree, for every machine that pulled to recall."""
        self._staged_deleted.clear()
        for path, entry in updates.items():
            theirs = staged.get(path)
            if entry is None and path not in self._moves.values() and path not in moved_along \
                    and theirs is not None and theirs != head.get(path):
                self._staged_deleted[path] = theirs.blob
        return dict.fromkeys(self._staged_deleted)

    def _owed(self, staged: Mapping[str, _Entry], unmerged: set[str],
              stamp: tuple[int, int, int] | None) -> dict[str, _Entry | None]:
        """The paths of the person's index to put back as an earlier commit of vaultmem's set them:
        the index holds again what that commit replaced, HEAD still holds what it committed, and
        the index was written by another than vaultmem within seconds of that commit — a `git
        commit` that read the index before it and failed ("cannot lock ref 'HEAD'") wrote back
        what it had read, and the person's next commit would undo vaultmem's (a remembered note
        recorded deleted). Written later, it is the person's own unstaging: only said."""
        self._put_back.clear()
        self._unstaged.clear()
        if stamp is None or not self._open_checks:
            return {}
        head = self._entries([path for check in self._open_checks for path in check.paths]) if self.head else {}
        owed: dict[str, _Entry | None] = {}
        for check in self._open_checks:
            for path, (replaced, committed) in check.paths.items():
                if (path in unmerged or replaced == committed or _entry_text(staged.get(path)) != replaced
                        or _entry_text(head.get(path)) != committed):
                    continue
                if check.written_in_window(stamp[0], stamp[1]):
                    owed[path] = head.get(path)
                    self._put_back[path] = check.commit
                else:
                    self._unstaged[path] = check.commit
        return owed


@dataclass
class _PreparedIndex:
    """The person's index as it is to be after a commit (``copy``; None: unchanged), made from
    the index whose :func:`git_index_lock.stamp` was ``stamp``."""

    copy: Path | None
    stamp: tuple[int, int, int] | None
    # path → (the entry the copy replaced, the one it set) for the paths this commit changed
    set_paths: Mapping[str, tuple[_Entry | None, _Entry | None]] = field(default_factory=dict)

    def discard(self) -> None:
        if self.copy is not None:
            self.copy.unlink(missing_ok=True)


def _signs_commits(top: Path) -> bool:
    """Whether the person's ``commit.gpgSign`` asks for signed commits. ``commit-tree``
    ignores that setting (git reads it only in ``commit``), so vaultmem's commits went
    unsigned into a history the person signs; a bad value fails as their own commit would."""
    setting = _git(top, "config", "--bool", "commit.gpgSign", check=False)
    if setting.returncode == 1 and not setting.stderr.strip():
        return False  # not set
    return _git(top, "config", "--bool", "commit.gpgSign").stdout.strip() == "true"


def _index_info(updates: Mapping[str, _Entry | None], zero: str) -> bytes:
    lines = []
    for path, entry in updates.items():
        line = f"0 {zero}\t{path}" if entry is None else f"{entry.mode} {entry.blob}\t{path}"
        lines.append(os.fsencode(line) + b"\0")
    return b"".join(lines)


def _index_stages(top: Path, paths: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[dict[str, _Entry], set[str]]:
    """The index's entries of ``paths`` (stage 0), and which of them are unmerged (a conflict)."""
    listed = _git_bytes(top, "ls-files", "-z", "--stage", "--", *paths, env=env) if paths else b""
    records = list(_records(listed))
    return ({name: _Entry(mode, blob) for (mode, blob, stage), name in records if stage == "0"},
            {name for (_mode, _blob, stage), name in records if stage != "0"})


def _entry_text(entry: _Entry | None) -> index_checks.Entry:
    return None if entry is None else f"{entry.mode} {entry.blob}"


def _records(listed: bytes) -> Iterator[tuple[tuple[str, str, str], str]]:
    """The three fields and the path of each ``FIELDS\\tPATH\\0`` record git prints with ``-z``
    (``ls-tree``: mode, kind, blob; ``ls-files --stage``: mode, blob, stage)."""
    for record in listed.split(b"\0"):
        if record:
            meta, _, name = record.partition(b"\t")
            first, second, third = meta.decode().split()
            yield (first, second, third), os.fsdecode(name)


def _ignored(root: Path, relatives: Sequence[str]) -> set[str]:
    """Which of these paths .gitignore excludes (tracked files never count as ignored).

    ``ls-files --others --ignored`` rather than ``check-ignore``: check-ignore refuses
    ``--literal-pathspecs``, and without it a name such as ``:top.md`` is read as magic.
    """
    if not relatives:
        return set()
    listed = _git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", *relatives).stdout
    return set(listed.split("\0"))


@contextmanager
def _exclusive_lock(path: Path, wait: LockWait) -> Iterator[None]:
    """Hold an OS file lock on ``path`` (released however the process ends), waiting for
    another holder as ``wait`` says; the holder's pid and command are in the file meanwhile."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = open_lock_file(path)
    try:
        _wait_for_lock(descriptor, path, wait)
        try:
            _write_holder(descriptor)
        except OSError as error:
            # A full disk: os.write's error names no file ("No space left on device"), and the
            # person could not tell which disk to free (a review).
            raise LockFileUnwritable(path, error) from None
        try:
            yield
        finally:
            os.ftruncate(descriptor, 0)  # released: no name is left behind for a waiter to read
    finally:
        os.close(descriptor)  # closing releases the lock


def _wait_for_lock(descriptor: int, path: Path, wait: LockWait) -> None:
    """Take the lock, polling; say once when the wait passes ``wait.say_after`` seconds, and
    refuse with :class:`WriteLockBusy` after ``wait.at_most``."""
    started = time.monotonic()
    told_at: float | None = None
    listener = _wait_listener.get()
    while not try_lock(descriptor):
        waited = time.monotonic() - started
        if waited >= wait.at_most:
            raise WriteLockBusy(path, wait.at_most, _holder(path))
        if told_at is None and waited >= wait.say_after:
            message = _waiting_message(path, wait)
            log.warning("%s", message)
            told_at = waited
            if listener is not None:
                listener(LockWaiting(message, waited, wait.at_most))
        elif told_at is not None and listener is not None and waited - told_at >= wait.tell_every:
            told_at = waited
            listener(LockWaiting(_waiting_message(path, wait), waited, wait.at_most))
        time.sleep(POLL_SECONDS)


def _waiting_message(path: Path, wait: LockWait) -> str:
    return (f"waiting for another vaultmem write to finish: {_holder(path)} holds {path}; this write goes ahead when "
            f"it is done, or is refused after {wait.at_most:g} s")


def _write_holder(descriptor: int) -> None:
    """Put this process's pid and command in the lock file it now holds (read by a waiter:
    :func:`_holder`). A process that dies leaves its line behind, but its lock goes with it:
    the next holder writes over it, and a waiter checks the pid is alive before naming it."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("python")
    # `python -m vaultmem` runs vaultmem/__main__.py: name the package, as the person typed it.
    name = program.parent.name if program.name == "__main__.py" else "python -c" if program.name == "-c" else program.name
    # The command's words only (`vaultmem consolidate`), never its values: a remember's text
    # or a path would be copied into the file and into another process's log.
    command = " ".join([name, *[word for word in sys.argv[1:] if word.isalpha()][:2]])
    line = f"{os.getpid()} {socket.gethostname()} {command[:HOLDER_COMMAND_CHARS]}\n".encode(errors="replace")
    os.ftruncate(descriptor, 0)
    os.lseek(descriptor, 0, os.SEEK_SET)
    os.write(descriptor, line)


def _holder(path: Path) -> str:
    """Who holds the lock, as the lock file says: ``pid 123 (`vaultmem consolidate --apply`)``,
    or "another process" when it cannot say (not written yet, an older vaultmem, a dead pid,
    another machine, or Windows, where the locked byte cannot be read)."""
    if sys.platform == "win32":
        return "another process"  # and os.kill(pid, 0) would end the holder there: it is TerminateProcess
    try:
        pid_text, host, command = read_lock_file(path, HOLDER_COMMAND_CHARS * 4).decode(errors="replace").rstrip("\n").split(" ", 2)
        pid = int(pid_text)
    except (OSError, ValueError):
        return "another process"
    if host != socket.gethostname():
        return f"pid {pid} on {host} (`{command}`)"
    if not process_running(pid):
        return "another process"  # the line of a process that died; its successor has not written yet
    return f"pid {pid} (`{command}`)" + (" in this process" if pid == os.getpid() else "")

