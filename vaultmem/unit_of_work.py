"""The one path every write to the vault's files takes.

``remember``, ``forget``, ``expire --apply``, ``consolidate --apply``, ``check --fix`` —
and any write command to come — do the same four steps, in this order:

1. refuse up front when ``auto_commit`` is on but the vault is not a git repository
   (nothing is half-done);
2. act: write, move or delete files through noteio's guarded operations (adr/0014),
   recording on the :class:`VaultWrite` each :class:`FileChange` they return — the
   bytes checked and the bytes left;
3. bring the index in step with those paths (also when the act failed half-way: what
   it changed on disk is indexed as it is now); a failure after files changed is a
   :class:`NoteWritten` naming them, so a retrying agent does not make them twice;
4. when the vault's config asks for it, commit exactly vaultmem's change to them, and
   nothing of the person's (adr/0017).

A write command opens ``with vault._writing("name") as write:`` and cannot skip a step. Steps
2–4 hold the vault's write lock (gitops.commit_lock, with auto_commit on or off): writes of one
vault take turns, across processes and threads; one kept waiting says so after a couple of
seconds and is refused, nothing written, after five minutes (gitops.LockWait, adr/0017, adr/0036).
Writes to usage history (``mark_used``, ``usage import``) touch no file and do not
come this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .config import STATE_DIR
from .errors import GitError, NoteWritten
from .noteio import FileChange
from .ordered import unique
from .results import NotCommitted
from .writing_now import Announcer

if TYPE_CHECKING:
    from .gitops import CommitResult, LockWait


class CommitFields(Protocol):
    """A result that reports its write's commit (``expire``, ``consolidate``, ``check --fix``)."""

    commit: str | None
    not_committed: list[NotCommitted]
    yours_left_uncommitted: list[str]


@dataclass
class VaultWrite:
    """What one write operation changed, and (once the path has committed) its commit."""

    operation: str
    changes: list[FileChange] = field(default_factory=list)  # written, created, moved or deleted: indexed and committed
    reindexed: list[str] = field(default_factory=list)  # read again by the index, not committed
    message: str = ""  # the commit message; default "vaultmem <operation>"
    commit: str | None = None
    not_committed: list[NotCommitted] = field(default_factory=list)  # files left out of the commit, and why
    yours_left_uncommitted: list[str] = field(default_factory=list)  # committed with vaultmem's change only
    # Tells readers elsewhere which files this write is about to index (writing_now.py), so they
    # leave them to it instead of reading and embedding them a second time.
    announcer: Announcer | None = field(default=None, repr=False, compare=False)

    @property
    def touched(self) -> list[str]:
        return unique(change.path for change in self.changes)

    def record(self, *changes: FileChange) -> None:
        """Record what the guarded writes of noteio/writer did (they return these)."""
        self.changes += changes
        if self.announcer is not None:
            self.announcer.announce([change.path for change in changes])

    def report_commit(self, report: CommitFields) -> None:
        """Put the commit and what it left out (or in without the person's edit) on a report."""
        report.commit, report.not_committed = self.commit, self.not_committed
        report.yours_left_uncommitted = self.yours_left_uncommitted

    def unrecord(self, change: FileChange) -> None:
        """Take back a recorded change that was undone (a new note removed again): a failure
        must not name it as written, or the caller is told not to write it again."""
        self.changes = [recorded for recorded in self.changes if recorded is not change]

    def reindex(self, *paths: str) -> None:
        """Record paths the index must read again although this write did not change them."""
        self.reindexed += paths
        if self.announcer is not None:
            self.announcer.announce(paths)

    def paths_to_index(self) -> list[str]:
        return unique([*self.touched, *self.reindexed])


class WritePath:
    """Opens :class:`VaultWrite` units for one vault (see the module's docstring)."""

    def __init__(self, root: Path, auto_commit: bool, sync_index: Callable[[Sequence[str]], None],
                 state_dir: Path | None = None, lock_wait: LockWait | None = None) -> None:
        self.root = root
        self.auto_commit = auto_commit
        self.sync_index = sync_index
        self.state_dir = state_dir if state_dir is not None else root / STATE_DIR
        self.lock_wait = lock_wait  # how long a write waits for another's turn (None: gitops.LockWait())

    @contextmanager
    def begin(self, operation: str) -> Iterator[VaultWrite]:
        self.require_git()
        with self._taking_turns():
            announcer = Announcer(self.state_dir)
            write = VaultWrite(operation, announcer=announcer)
            try:
                try:
                    yield write
                finally:
                    try:
                        self.sync_index(write.paths_to_index())
                    finally:
                        announcer.withdraw()  # the index has the change (or it failed): readers index it now
            except Exception as error:
                if write.touched and not isinstance(error, NoteWritten):
                    # Files changed before the failure: say which, so a retry does not make them twice.
                    raise NoteWritten(write.touched, operation, error) from error
                raise
            committed = self.commit(write.changes, write.message or f"vaultmem {operation}", lock_held=True)
            write.commit, write.not_committed, write.yours_left_uncommitted = (
                committed.commit, committed.not_committed, committed.yours_left_uncommitted)

    def _taking_turns(self) -> AbstractContextManager[None]:
        """The vault's write lock from before the act until the index has the change (and, with
        auto_commit, until the commit is made). With auto_commit, two processes revising one
        note would otherwise write it in turn and commit in the other order: the second edit,
        beside the first in the file, made the first commit's merge overlap, and the note was
        left out of git from then on (adr/0017). Without auto_commit too (adr/0036): two agents
        appending to one note at once both read it, the second one's swap found the first one's
        bytes, and it was refused as WriteConflict, "changed on disk", in half the cases of a
        two-agent trial — an append refused for another agent's append, with no person involved.
        A write kept waiting says so after a couple of seconds and is refused, before it acts,
        after ``lock_wait.at_most``."""
        from .gitops import LockWait, commit_lock
        from .storage import ensure_state_dir

        ensure_state_dir(self.state_dir)  # the commit lock lives there, and git must never see it
        return commit_lock(self.state_dir, self.lock_wait or LockWait())

    def require_git(self) -> None:
        """Refuse a write up front when auto_commit cannot work, so nothing is half-done."""
        if self.auto_commit:
            from .gitops import is_repository

            if not is_repository(self.root):
                raise GitError(
                    "auto_commit is on in .vaultmem.toml but the vault is not a git repository; "
                    "run `git init` in the vault or set auto_commit = false (nothing was changed)"
                )

    def commit(self, changes: Sequence[FileChange], message: str, *, lock_held: bool = False) -> CommitResult:
        """Commit vaultmem's own change to these files when the vault's config turns
        auto_commit on: the commit, the files left out of it and why, and the files
        committed without the person's own edit in them (``lock_held``: the caller holds
        gitops.commit_lock)."""
        from .gitops import CommitResult, commit_changes

        if not self.auto_commit or not changes:
            return CommitResult()
        from .storage import ensure_state_dir

        ensure_state_dir(self.state_dir)  # the commit lock lives there, and git must never see it
        try:
            result = commit_changes(self.root, changes, message, self.state_dir, lock_held=lock_held)
        except GitError as error:
            paths = ", ".join(unique(change.path for change in changes))
            raise GitError(f"the change was made ({paths}) but not committed: {error}") from None
        return result
