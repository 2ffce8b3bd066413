"""Where notes live: vault-relative paths, the ignore rules and the scan.

Every path an agent or a user hands us goes through :func:`resolve_inside` before a
byte is read or written, so nothing can reach outside the vault through ``..``, an
absolute path or a symlink.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .errors import PathOutsideVault

NOTE_SUFFIX = ".md"
ALWAYS_IGNORED_DIRS = frozenset({".obsidian", ".git", ".trash", ".vaultmem"})
TEMP_SUFFIXES = ("~", ".tmp", ".swp", ".swx", ".swo")
TEMP_NAMES = frozenset({"4913"})


@dataclass(frozen=True)
class FileStat:
    path: str  # vault-relative POSIX
    mtime_ns: int
    size: int


@dataclass(frozen=True)
class ScanIssue:
    path: str
    reason: str


class VaultPaths:
    """The ignore rules of one vault (its archive folder is configurable)."""

    def __init__(self, root: Path, archive_dir: str) -> None:
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self._root_text = os.fspath(root)
        self.archive_dir = archive_dir.strip("/")

    def relative(self, absolute: Path | str) -> str:
        """Absolute path → vault-relative POSIX string (no resolution of symlinks)."""
        return PurePosixPath(Path(os.path.abspath(absolute)).relative_to(Path(os.path.abspath(self.root)))).as_posix()

    def absolute(self, relative: str) -> Path:
        return self.root / PurePosixPath(relative)

    def os_path(self, relative: str) -> str:
        """``absolute`` as a plain string: the indexer's per-file hot path avoids pathlib."""
        return os.path.join(self._root_text, relative)

    def is_ignored_dir(self, relative_dir: str) -> bool:
        parts = PurePosixPath(relative_dir).parts
        if not parts:
            return False
        if any(part.startswith(".") for part in parts):
            return True  # covers .obsidian/.git/.trash/.vaultmem and every hidden folder
        return relative_dir == self.archive_dir or relative_dir.startswith(self.archive_dir + "/")

    def is_note_path(self, relative: str) -> bool:
        """True for a Markdown file vaultmem indexes (not hidden, not temp, not ignored)."""
        folder, _, name = relative.rpartition("/")
        return is_note_name(name) and not self.is_ignored_dir(folder)

    def scan(self) -> tuple[list[FileStat], list[ScanIssue]]:
        """Every note file with its (mtime_ns, size), plus files that could not be read."""
        found: list[FileStat] = []
        issues: list[ScanIssue] = []
        self._scan_dir(self.root, "", found, issues)
        found.sort(key=lambda item: item.path)
        return found, issues

    def files_with_suffix(self, suffix: str) -> tuple[list[str], list[tuple[str, str]]]:
        """Vault-relative paths of the other files vaultmem may have to edit (e.g. ``.canvas``),
        under the same rules as notes: no ignored or hidden folders, no hidden or temp names,
        no symlinks; plus the folders that could not be listed, with the reason."""
        found: list[str] = []
        unreadable: list[tuple[str, str]] = []

        def report(error: OSError) -> None:
            unreadable.append((self.relative(error.filename) if error.filename else ".", f"folder cannot be listed: {error.strerror}"))

        for directory, folders, files in os.walk(self.root, onerror=report):
            prefix = self.relative(directory)
            prefix = "" if prefix == "." else prefix + "/"
            folders[:] = [name for name in folders if not self.is_ignored_dir(prefix + name)]
            for name in files:
                wanted = name.endswith(suffix) and not is_temp_name(name) and _is_utf8(name)
                if wanted and not os.path.islink(os.path.join(directory, name)):
                    found.append(prefix + name)
        return sorted(found), unreadable

    def _scan_dir(self, directory: Path, prefix: str, found: list[FileStat], issues: list[ScanIssue]) -> None:
        try:
            entries = list(os.scandir(directory))
        except OSError as error:
            issues.append(ScanIssue(prefix or ".", f"folder cannot be listed: {error.strerror}"))
            return
        for entry in entries:
            relative = f"{prefix}{entry.name}"
            if not _is_utf8(entry.name):
                # A name the filesystem holds as non-UTF-8 bytes cannot be stored in SQLite or
                # printed as JSON: report it instead of crashing the whole run on it.
                if entry.is_dir(follow_symlinks=False) or self.is_note_path(relative):
                    shown = relative.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                    issues.append(ScanIssue(shown, "name is not valid UTF-8; rename it so vaultmem can read it"))
                continue
            if entry.is_dir(follow_symlinks=False):
                if not self.is_ignored_dir(relative):
                    self._scan_dir(Path(entry.path), relative + "/", found, issues)
            elif is_note_name(entry.name):
                # The folder was accepted on the way down, so the name alone decides
                # (checking the whole path again per file dominated a no-change re-index).
                self._scan_file(entry, relative, found, issues)

    def _scan_file(self, entry: os.DirEntry[str], relative: str, found: list[FileStat], issues: list[ScanIssue]) -> None:
        try:
            if entry.is_symlink():
                issue = self._symlink_issue(Path(entry.path), relative)
                if issue is not None:
                    issues.append(issue)
                return
            stat = entry.stat()
        except OSError as error:
            issues.append(ScanIssue(relative, f"cannot stat: {error.strerror}"))
            return
        if not entry.is_file():
            return
        found.append(FileStat(relative, stat.st_mtime_ns, stat.st_size))

    def _symlink_issue(self, link: Path, relative: str) -> ScanIssue | None:
        """Why a symlinked note file is not indexed under its own name (None: nothing lost).

        A link to a note inside the vault is the same note: indexing it too would make
        two notes of one file, which consolidation then "merges", archiving the link.
        Its content is indexed at the real path, so that case is not a problem to report
        (it would make `check` fail forever on a vault that uses links on purpose).
        """
        if not self.contains_real(link):
            return ScanIssue(relative, "symlink points outside the vault; not indexed")
        target = self.real_relative(link)
        if not os.path.exists(link):
            return ScanIssue(relative, f"symlink to {target}, which does not exist; not indexed")
        if not self.is_note_path(target):
            return ScanIssue(relative, f"symlink to {target}, which vaultmem does not index "
                                       "(ignored folder or not a note); not indexed either")
        return None

    def real_relative(self, path: Path) -> str:
        """Vault-relative POSIX path of ``path`` with every symlink resolved (must be inside)."""
        return PurePosixPath(Path(os.path.realpath(path)).relative_to(self.real_root)).as_posix()

    def contains_real(self, path: Path) -> bool:
        """Does ``path``, with every symlink resolved, lie inside the vault?"""
        real = Path(os.path.realpath(path))
        return real == self.real_root or self.real_root in real.parents

    def resolve_inside(self, relative: str | os.PathLike[str]) -> Path:
        """A user- or agent-supplied vault path → absolute path, refused if it leaves the vault."""
        text = os.fspath(relative)
        candidate = PurePosixPath(text.replace("\\", "/"))
        if not text.strip() or candidate.is_absolute() or ".." in candidate.parts or "\x00" in text:
            raise PathOutsideVault(text, self.root)
        absolute = self.root / candidate
        if not self.contains_real(absolute):
            raise PathOutsideVault(text, self.root)
        return absolute


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_note_name(name: str) -> bool:
    """A Markdown file name that is not hidden and not an editor's temp or backup file."""
    return name.endswith(NOTE_SUFFIX) and len(name) > len(NOTE_SUFFIX) and not is_temp_name(name)


def is_temp_name(name: str) -> bool:
    """Editor temp and backup files: ``note.md~``, ``.note.md.swp``, vim's ``4913``, ``*.tmp``."""
    return name.startswith(".") or name in TEMP_NAMES or name.endswith(TEMP_SUFFIXES)
