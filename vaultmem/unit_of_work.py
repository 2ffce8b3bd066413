"""The one path every write to the vault's files takes.

``remember``, ``forget``, ``expire --apply``, ``consolidate --apply``, ``check --fix`` —
and any write command to come — do the same four steps, in this order:

1. refuse up front when ``auto_commit`` is on but the vault is not a git repository
   (nothing is half-done);
2. act: write, move or delete files, recording on the :class:`VaultWrite` each path it
   touched;
3. bring the index in step with those paths (also when the act failed half-way: what
   it changed on disk is indexed as it is now);
4. when the vault's config asks for it, commit exactly those paths.

A write command opens ``with vault._writing("name") as write:`` and cannot skip a step.
Writes to usage history (``mark_used``, ``usage import``) touch no file and do not
come this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GitError
from .ordered import unique


@dataclass
class VaultWrite:
    """What one write operation changed, and (once the path has committed) its commit."""

    operation: str
    touched: list[str] = field(default_factory=list)  # written, created, moved or deleted: indexed and committed
    reindexed: list[str] = field(default_factory=list)  # read again by the index, not committed
    message: str = ""  # the commit message; default "vaultmem <operation>"
    commit: str | None = None

    def touch(self, *paths: str | None) -> None:
        """Record vault paths this write changed (``None``s — a deletion's archive — are skipped)."""
        self.touched += [path for path in paths if path is not None]

    def reindex(self, *paths: str) -> None:
        """Record paths the index must read again although this write did not change them."""
        self.reindexed += paths

    def paths_to_index(self) -> list[str]:
        return unique([*self.touched, *self.reindexed])


class WritePath:
    """Opens :class:`VaultWrite` units for one vault (see the module's docstring)."""

    def __init__(self, root: Path, auto_commit: bool, sync_index: Callable[[Sequence[str]], None]) -> None:
        self.root = root
        self.auto_commit = auto_commit
        self.sync_index = sync_index

    @contextmanager
    def begin(self, operation: str) -> Iterator[VaultWrite]:
        self.require_git()
        write = VaultWrite(operation)
        try:
            yield write
        finally:
            self.sync_index(write.paths_to_index())
        write.commit = self.commit(write.touched, write.message or f"vaultmem {operation}")

    def require_git(self) -> None:
        """Refuse a write up front when auto_commit cannot work, so nothing is half-done."""
        if self.auto_commit:
            from .gitops import is_repository

            if not is_repository(self.root):
                raise GitError(
                    "auto_commit is on in .vaultmem.toml but the vault is not a git repository; "
                    "run `git init` in the vault or set auto_commit = false (nothing was changed)"
                )

    def commit(self, relatives: list[str], message: str) -> str | None:
        """Commit exactly these paths when the vault's config turns auto_commit on."""
        if not self.auto_commit or not relatives:
            return None
        from .gitops import commit_paths

        try:
            return commit_paths(self.root, relatives, message)
        except GitError as error:
            raise GitError(f"the change was made ({', '.join(relatives)}) but not committed: {error}") from None
