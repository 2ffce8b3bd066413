"""Where notes live: vault-relative paths, the ignore rules and the scan.

Every path an agent or a user hands us goes through :func:`resolve_inside` before a
byte is read or written, so nothing can reach outside the vault through ``..``, an
absolute path or a symlink.

Two kinds of files are not notes: those vaultmem always ignores (hidden folders, the
archive, ``node_modules/``, temp files) and those the vault excludes (``.vaultmem.toml`` ``exclude``,
Obsidian's Excluded files and templates folders: exclusions.py). The exclusions are read
from the vault's settings files and read again when one of them changes (:meth:`VaultPaths.refresh`),
and so are the daily-note format, which says which notes are daily notes (daily_format.py), and
the properties that date a note (``.vaultmem.toml`` ``[dates]``: dating.DateProperties).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from .canvas import CANVAS_SUFFIX
from .daily_format import DAILY_SETTINGS, DailyFormat, load_daily_format
from .dating import DEFAULT_DATE_PROPERTIES, DateProperties
from .durable import written_for
from .errors import ConfigError, PathOutsideVault, UsageError, path_refused
from .exclusions import OBSIDIAN_SETTINGS, Exclusions, Rule, load_exclusions, settings_signature
from .fields import name_form
from .git_dates import GitDates, load_git_dates
from .inline_queries import DATAVIEW_SETTINGS, InlineQueries, load_inline_queries

log = logging.getLogger(__name__)

NOTE_SUFFIX = ".md"
TEMP_SUFFIXES = ("~", ".tmp", ".swp", ".swx", ".swo")
TEMP_NAMES = frozenset({"4913"})
# Hidden names (``.note.md.swp``, LibreOffice's ``.~lock.note.md#``), and Microsoft Office's owner
# file ``~$note.md``: a few bytes of another program's, or a half-written copy — in a synced vault
# a trial indexed ``~$Climbing gym.md`` (``The climbing gym is Boulder``) and ranked it fifth.
TEMP_PREFIXES = (".", "~$")
# A package manager's copies of other projects' files: a Quartz or Eleventy garden's
# `node_modules/` holds hundreds of READMEs after `npm install` (a trial on a Hugo garden
# found them searched as the person's notes). Nobody keeps notes there.
PACKAGE_FOLDERS = frozenset({"node_modules"})


@dataclass(frozen=True)
class FileStat:
    path: str  # vault-relative POSIX
    mtime_ns: int
    size: int


UNREADABLE_FIX = "fix the file or its permissions"
# Was UNREADABLE_FIX, which sent the person to the file's permissions for a name's bytes.
RENAME_TO_UTF8 = ("rename it to a UTF-8 name (`ls -b` shows its bytes; `convmv -f latin1 -t utf-8 -r --notest` "
                  "renames a whole folder's worth)")
NOT_UTF8_NAME_FIX = f"{RENAME_TO_UTF8}; until then it is not indexed, checked or changed"


@dataclass(frozen=True)
class ScanIssue:
    """A file or folder the scan could not take as notes, why, and how to fix it."""

    path: str
    reason: str
    fix: str = UNREADABLE_FIX


@dataclass(frozen=True)
class ExcludedFolder:
    """A folder the vault excludes whole, and how many note files it holds (by name only)."""

    path: str
    rule: Rule
    files: int  # note files under it, counted by scan_vault (0 from a read's scan)


@dataclass(frozen=True)
class ExcludedFile:
    """A note file the vault excludes one by one, and the rule that does."""

    path: str
    rule: Rule


@dataclass(frozen=True)
class ExcludedFiles:
    """The note files one rule excludes one by one: how many, and the first few by path."""

    rule: Rule
    files: int
    named: tuple[str, ...]


@dataclass(frozen=True)
class SkippedFile:
    """A file that looks like a note but is not one (``Note.MD``), and why."""

    path: str
    reason: str


NAMED_FILES = 3  # the files a report names per rule (or skipped), beside the count of all


def by_rule(excluded: Sequence[ExcludedFile], named: int = NAMED_FILES) -> list[ExcludedFiles]:
    """Files excluded one by one, grouped by the rule that excludes them (in the order the
    rules first exclude a file, by path), each group's first ``named`` paths named."""
    groups: dict[Rule, list[str]] = {}
    for item in sorted(excluded, key=lambda item: item.path):
        groups.setdefault(item.rule, []).append(item.path)
    return [ExcludedFiles(rule, len(paths), tuple(paths[:named])) for rule, paths in groups.items()]


@dataclass(frozen=True)
class NotNotes:
    """What a walk of the vault found that is not a note, as ``index`` and ``check`` report it:
    what the exclusions left out (folders whole, files one by one), and files named like a
    note in another case (``Note.MD``). A person counting their Markdown files learns where
    the rest went (a trial: ``check`` said ``51 notes checked`` in a vault of 103, its
    templates left out without a word)."""

    excluded_folders: tuple[ExcludedFolder, ...] = ()
    excluded_files: int = 0  # every note file excluded: one by one and in those folders
    excluded_by_rule: tuple[ExcludedFiles, ...] = ()  # those excluded one by one, a few named per rule
    skipped_files: int = 0
    skipped_named: tuple[SkippedFile, ...] = ()  # the first few, with the reason

    @classmethod
    def of(cls, scan: Scan) -> NotNotes:
        """From :meth:`VaultPaths.scan_vault`'s walk (a read's walk does not count excluded folders)."""
        return cls(tuple(scan.excluded_folders), scan.excluded_notes, tuple(by_rule(scan.excluded_one_by_one)),
                   len(scan.skipped), tuple(scan.skipped[:NAMED_FILES]))

    def as_dict(self) -> dict[str, object]:
        return {
            "excluded": {
                "folders": [{"path": folder.path, "source": folder.rule.source, "pattern": folder.rule.pattern,
                             "files": folder.files} for folder in self.excluded_folders],
                "files": self.excluded_files,
                "rules": [{"source": group.rule.source, "pattern": group.rule.pattern, "files": group.files,
                           "named": list(group.named)} for group in self.excluded_by_rule],
            },
            "skipped": {
                "files": self.skipped_files,
                "named": [{"path": skipped.path, "reason": skipped.reason} for skipped in self.skipped_named],
            },
        }


@dataclass
class Scan:
    """One walk of the vault: the note files, what could not be read, what was excluded."""

    files: list[FileStat] = field(default_factory=list)
    issues: list[ScanIssue] = field(default_factory=list)
    excluded_folders: list[ExcludedFolder] = field(default_factory=list)  # skipped whole (their notes only counted)
    excluded_files: int = 0  # note files excluded one by one (outside those folders)
    excluded_one_by_one: list[ExcludedFile] = field(default_factory=list)  # those files, each with its rule
    skipped: list[SkippedFile] = field(default_factory=list)  # named like a note in another case (Note.MD): not notes
    # Plain-text or other-Markdown files (Dentist.txt): named in `skipped` when they are at least as
    # many as the notes — a folder of another app's notes —, not for a requirements.txt among notes
    other_formats: list[SkippedFile] = field(default_factory=list)
    # vaultmem's own temp files (`.n.md.1a2b3c4d.tmp`): a write killed midway left them (check names them)
    temp_files: list[FileStat] = field(default_factory=list)
    # (link, note) of each symlinked note file whose note is read at its real path: the link's
    # file name still names that note (resolution._by_link_name)
    linked_notes: list[tuple[str, str]] = field(default_factory=list)
    # Note files that are symlinks out of the vault (never read): their bare name is told so
    # (resolution.refuse_if_named_link_out), not "no note matches"
    links_out: list[str] = field(default_factory=list)

    @property
    def excluded_notes(self) -> int:
        """Every note file the exclusions left out: one by one and in the excluded folders."""
        return self.excluded_files + sum(folder.files for folder in self.excluded_folders)


# Obsidian's settings files VaultPaths reads (the watcher rescans when one changes: feed.py).
SETTINGS_FILES = (*OBSIDIAN_SETTINGS, *DAILY_SETTINGS, DATAVIEW_SETTINGS)


class VaultPaths:
    """The ignore rules of one vault (its archive folder is configurable), its exclusions, its
    daily-note format and the properties that date its notes."""

    def __init__(self, root: Path, archive_dir: str, exclude: Sequence[str] = (),
                 dates: DateProperties = DEFAULT_DATE_PROPERTIES) -> None:
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self._root_text = os.fspath(root)
        self.archive_dir = archive_dir.strip("/")
        self._exclude = tuple(exclude)
        self._refresh_lock = threading.Lock()
        self._signature = self._settings_signature()
        self.exclusions: Exclusions = load_exclusions(root, self._exclude)
        self.daily: DailyFormat = load_daily_format(root)
        self.inline_queries: InlineQueries = load_inline_queries(root)
        self.dates: DateProperties = dates
        self.git_dates: GitDates = GitDates()  # as last read (refresh_git_dates): none until then

    # -- the dates git gives ([dates] from_git: git_dates.py)

    def refresh_git_dates(self, keep: bool = True) -> tuple[GitDates, GitDates | None]:
        """Read when git added each note again if HEAD moved (or ``[dates] from_git`` was turned
        on), and the dates that replaced (None when HEAD did not move); nothing, and no git, when
        the setting is off. ``keep``: write the answer under ``.vaultmem/`` (the indexer's;
        ``check`` reads without writing, so that the index still sees what HEAD moved from)."""
        from .config import STATE_DIR

        found, before = load_git_dates(self.root, self.root / STATE_DIR, self.dates.from_git, self.git_dates,
                                       is_note_name, keep=keep)
        self.git_dates = found
        return found, before

    # -- exclusions (exclusions.py) and the daily-note format (daily_format.py)

    def _settings_signature(self) -> tuple[tuple[int, int] | None, ...]:
        from .config import CONFIG_FILE

        return settings_signature(self.root, (CONFIG_FILE, *SETTINGS_FILES))

    def refresh(self) -> bool:
        """Read the exclusions, the daily-note format, the date properties and Dataview's
        inline-query prefixes (inline_queries.py) again if a settings file changed; True when
        any of them changed.

        Cheap (a ``stat`` call per settings file) so that every reconcile can afford it: a folder the person
        excludes in Obsidian while vaultmem runs leaves the index at the next reconcile, and
        notes a changed daily-note format or ``[dates]`` dates otherwise are dated again.
        ``.vaultmem.toml`` is read again only when it changed since this object read it
        (a ``Vault`` given its config in code keeps that config's ``exclude`` and ``dates``).
        """
        with self._refresh_lock:
            signature = self._settings_signature()
            if signature == self._signature:
                return False
            if signature[0] != self._signature[0]:
                self._exclude, self.dates = self._config_settings()
            self._signature = signature
            before = self._fingerprints()
            self.exclusions = load_exclusions(self.root, self._exclude)
            self.daily = load_daily_format(self.root)
            self.inline_queries = load_inline_queries(self.root)
            return self._fingerprints() != before

    def _fingerprints(self) -> tuple[str, str, str, str]:
        return self.exclusions.fingerprint, self.daily.fingerprint, self.dates.fingerprint, self.inline_queries.fingerprint

    def _config_settings(self) -> tuple[tuple[str, ...], DateProperties]:
        from .config import load_config

        try:
            config = load_config(self.root)
        except ConfigError as error:
            # Mid-edit, or a mistake: the settings in force stay; the next command says it loudly.
            log.warning("%s; the exclusions and date properties read before stay in force", error)
            return self._exclude, self.dates
        return config.exclude, config.dates

    def exclusion_rule(self, relative: str) -> Rule | None:
        """Why the vault excludes ``relative`` (a file), or ``None``."""
        return self.exclusions.file_rule(relative)

    def relative(self, absolute: Path | str) -> str:
        """Absolute path → vault-relative POSIX string (no resolution of symlinks)."""
        return PurePosixPath(Path(os.path.abspath(absolute)).relative_to(Path(os.path.abspath(self.root)))).as_posix()

    def absolute(self, relative: str) -> Path:
        return self.root / PurePosixPath(relative)

    def os_path(self, relative: str) -> str:
        """``absolute`` as a plain string: the indexer's per-file hot path avoids pathlib."""
        return os.path.join(self._root_text, relative)

    def is_ignored_dir(self, relative_dir: str) -> bool:
        """A folder vaultmem never reads: hidden, the archive, or excluded by the vault."""
        return self._is_always_ignored_dir(relative_dir) or self.exclusions.excludes_folder(relative_dir)

    def _is_always_ignored_dir(self, relative_dir: str) -> bool:
        # A plain split, not PurePosixPath(...).parts: asked once a note by the indexer's re-check
        # before each write. The same parts but the empty and "." ones, which neither test matches.
        parts = [part for part in relative_dir.split("/") if part and part != "."]
        if not parts:
            return False
        if any(part.startswith(".") or part in PACKAGE_FOLDERS for part in parts):
            return True  # covers .obsidian/.git/.trash/.vaultmem, every hidden folder and node_modules/
        return self.in_archive(relative_dir)

    def in_archive(self, relative: str) -> bool:
        """Is ``relative`` (a file or folder) the archive folder or inside it?"""
        return relative == self.archive_dir or relative.startswith(self.archive_dir + "/")

    def is_archived_note_path(self, relative: str) -> bool:
        """A Markdown file in the archive folder that would be a note anywhere else: not hidden,
        not temp, in no hidden folder or ``node_modules/`` below the archive's own (``get`` reads
        such a file by its path, read-only: resolution.archived_file_at). The archive folder
        itself is the one the vault's config names, even a hidden one."""
        folder, _, name = relative.rpartition("/")
        if not is_note_name(name) or not self.in_archive(folder):
            return False
        below = PurePosixPath(folder).parts[len(PurePosixPath(self.archive_dir).parts):]
        return not any(part.startswith(".") or part in PACKAGE_FOLDERS for part in below)

    def is_note_path(self, relative: str) -> bool:
        """True for a Markdown file vaultmem indexes (not hidden, not temp, not ignored, not excluded)."""
        folder, _, name = relative.rpartition("/")
        return is_note_name(name) and not self._is_always_ignored_dir(folder) and not self.exclusions.excludes(relative)

    def scan(self) -> tuple[list[FileStat], list[ScanIssue]]:
        """Every note file with its (mtime_ns, size), plus files that could not be read."""
        found = self._walk()
        return found.files, found.issues

    def walk(self) -> Scan:
        """:meth:`scan`'s walk whole: also the symlinked notes it met (a read's catch-up keeps them)."""
        return self._walk()

    def scan_vault(self) -> Scan:
        """:meth:`scan`, also telling what the vault's exclusions left out — the notes in an
        excluded folder counted too (the reconcile's walk; a read's walk does not count them)."""
        found = self._walk()
        found.excluded_folders = [replace(folder, files=self._count_notes(self.absolute(folder.path), folder.path))
                                  for folder in found.excluded_folders]
        return found

    def _walk(self) -> Scan:
        found = Scan()
        self._scan_dir(self._root_text, "", found)
        if len(found.other_formats) >= len(found.files):
            found.skipped.extend(found.other_formats)
        found.files.sort(key=lambda item: item.path)
        found.skipped.sort(key=lambda item: item.path)
        return found

    def files_with_suffix(self, suffix: str) -> tuple[list[str], list[tuple[str, str]]]:
        """Vault-relative paths of the other files vaultmem may have to edit (e.g. ``.canvas``),
        under the same rules as notes: no ignored or hidden folders, no hidden or temp names,
        no symlinks; plus the folders that could not be listed, with the reason."""
        found: list[str] = []
        unreadable: list[tuple[str, str]] = []

        def report(error: OSError) -> None:
            unreadable.append((self.relative(error.filename) if error.filename else ".", f"folder cannot be listed: {error.strerror}"))

        exclusions = self.exclusions
        for directory, folders, files in os.walk(self.root, onerror=report):
            prefix = self.relative(directory)
            prefix = "" if prefix == "." else prefix + "/"
            folders[:] = [name for name in folders if not self.is_ignored_dir(prefix + name)]
            for name in files:
                wanted = name.endswith(suffix) and not is_temp_name(name) and _is_utf8(name)
                if wanted and exclusions.per_file and exclusions.excludes(prefix + name):
                    continue  # an excluded canvas is the person's file: its links stay as they are
                if wanted and not os.path.islink(os.path.join(directory, name)):
                    found.append(prefix + name)
        return sorted(found), unreadable

    def _scan_dir(self, directory: str, prefix: str, found: Scan) -> None:
        # Folders go down as plain strings, not Paths: a read's walk lists every folder of the
        # vault, and building a Path per folder was a third of the walk at 15k folders (stop 36).
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as error:
            found.issues.append(ScanIssue(prefix or ".", f"folder cannot be listed: {error.strerror}"))
            return
        exclusions = self.exclusions
        for entry in entries:
            relative = f"{prefix}{entry.name}"
            if not (entry.name.isascii() or _is_utf8(entry.name)):
                # A name the filesystem holds as non-UTF-8 bytes cannot be stored in SQLite or
                # printed as JSON: report it instead of crashing the whole run on it.
                if entry.is_dir(follow_symlinks=False) or self.is_note_path(relative):
                    shown = relative.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                    found.issues.append(ScanIssue(shown, "name is not valid UTF-8, so vaultmem leaves it out (� stands for "
                                                  "the bytes it cannot read)", NOT_UTF8_NAME_FIX))
                continue
            if entry.is_dir(follow_symlinks=False):
                self._scan_subdir(entry, relative, found)
            elif is_note_name(entry.name):
                # The folder was accepted on the way down, so the name alone decides (checking
                # the whole path again per file dominated a no-change re-index) — unless the
                # vault has rules that exclude single files.
                rule = exclusions.file_rule(relative) if exclusions.per_file else None
                if rule is not None:
                    found.excluded_files += 1
                    found.excluded_one_by_one.append(ExcludedFile(relative, rule))
                    continue
                self._scan_file(entry, relative, found)
            elif written_for(entry.name) is not None and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):  # gone: its write finished, nothing is left
                    info = entry.stat(follow_symlinks=False)
                    found.temp_files.append(FileStat(relative, info.st_mtime_ns, info.st_size))
            elif entry.is_symlink():
                link = Path(entry.path)
                # A linked Note.MD is judged as the link it is (outside the vault, to nothing,
                # to a note read at its real path): renaming it would not make it a note.
                linked_file = is_other_case_note_name(entry.name) and not os.path.isdir(link)
                issue = self._symlink_issue(link, relative) if linked_file else self._linked_folder_issue(link, relative)
                if issue is not None and not (exclusions.per_file and exclusions.excludes(relative)):
                    found.issues.append(issue)
            elif is_other_case_note_name(entry.name) and not (exclusions.per_file and exclusions.excludes(relative)):
                found.skipped.append(SkippedFile(relative, other_case_reason(entry.name)))
            elif (note := icloud_placeholder_of(entry.name)) is not None and not (
                    exclusions.per_file and exclusions.excludes(prefix + note)) and not os.path.exists(os.path.join(directory, note)):
                # (beside its note, a placeholder is one iCloud has not cleaned up yet: the note is here)
                found.skipped.append(SkippedFile(relative, icloud_placeholder_reason(note)))
            elif is_other_note_format(entry.name) and not (exclusions.per_file and exclusions.excludes(relative)):
                found.other_formats.append(SkippedFile(relative, other_format_reason(entry.name)))

    def _scan_subdir(self, entry: os.DirEntry[str], relative: str, found: Scan) -> None:
        # Only the new name and the archive are asked: the folders above were accepted on the way
        # down (the same answer as _is_always_ignored_dir(relative), without splitting the path).
        name = entry.name
        if name.startswith(".") or name in PACKAGE_FOLDERS or self.in_archive(relative):
            return
        rule = self.exclusions.folder_rule(relative)
        if rule is not None:
            found.excluded_folders.append(ExcludedFolder(relative, rule, 0))  # counted by scan_vault
            return
        self._scan_dir(entry.path, relative + "/", found)

    def _count_notes(self, directory: Path, relative: str) -> int:
        """Note files under an excluded folder — named, never read or stat'ed: one listing per
        folder (hidden folders and the archive, which hold no notes, are not entered)."""
        count = 0
        folders: list[tuple[str | Path, str]] = [(directory, relative)]
        while folders:
            folder, prefix = folders.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue  # a count, not a read: a folder that cannot be listed holds no note we know of
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not self._is_always_ignored_dir(f"{prefix}/{entry.name}"):
                        folders.append((entry.path, f"{prefix}/{entry.name}"))
                elif is_note_name(entry.name):
                    count += 1
        return count

    def _scan_file(self, entry: os.DirEntry[str], relative: str, found: Scan) -> None:
        try:
            if entry.is_symlink():
                issue = self._symlink_issue(Path(entry.path), relative)
                if issue is not None:
                    found.issues.append(issue)
                    if self.is_link_out(relative):
                        found.links_out.append(relative)
                else:
                    found.linked_notes.append((relative, self.real_relative(Path(entry.path))))
                return
            stat = entry.stat()
        except OSError as error:
            found.issues.append(ScanIssue(relative, f"cannot stat: {error.strerror}"))
            return
        if not entry.is_file():
            return
        found.files.append(FileStat(relative, stat.st_mtime_ns, stat.st_size))

    def _symlink_issue(self, link: Path, relative: str) -> ScanIssue | None:
        """Why a symlinked note file is not indexed under its own name (None: nothing lost).

        A link to a note inside the vault is the same note: indexing it too would make
        two notes of one file, which consolidation then "merges", archiving the link.
        Its content is indexed at the real path, so that case is not a problem to report
        (it would make `check` fail forever on a vault that uses links on purpose).
        """
        if not self.contains_real(link):
            return ScanIssue(relative, "symlink points outside the vault; not indexed", _outside_fix(relative))
        if _in_a_loop(link):  # was "symlink to a.md, which does not exist", of a.md → b.md → a.md (s35 review)
            return ScanIssue(relative, "symlink in a loop (it leads back to itself); not indexed",
                             f"point the link at a note, remove it, or {_exclude_hint(relative)}")
        target = self.real_relative(link)
        if not os.path.exists(link):
            return ScanIssue(relative, f"symlink to {target}, which does not exist; not indexed",
                             f"point the link at a note that exists, remove it, or {_exclude_hint(relative)}")
        if not self.is_note_path(target):
            return ScanIssue(relative, f"symlink to {target}, which vaultmem does not index "
                                       "(ignored or excluded, or not a note); not indexed either",
                             f"link to a note vaultmem indexes, or {_exclude_hint(relative)}")
        return None

    def _linked_folder_issue(self, link: Path, relative: str) -> ScanIssue | None:
        """Why a symlinked folder is not read (None: nothing lost, or not a folder).

        The scan never enters a symlinked folder. One pointing inside the vault holds notes
        the scan reaches at their real path: entering it too would index each of them twice.
        One pointing outside would read files outside the vault. Only the link's target is
        looked at (``realpath``, one ``stat``); nothing in it is listed or read.
        """
        if self.is_ignored_dir(relative) or (self.exclusions.per_file and self.exclusions.excludes(relative)):
            return None  # the person left it out: nothing to report
        if not os.path.isdir(link):
            return None  # a link to a file that is not named as a note, or to nothing: not a note either way
        if not self.contains_real(link):
            return ScanIssue(relative, "symlink to a folder outside the vault; not read", _outside_fix(relative))
        target = self.real_relative(link)
        if target != "." and self.is_ignored_dir(target):
            return ScanIssue(relative, f"symlink to the folder {target}/, which vaultmem does not index "
                                       "(hidden, the archive, or excluded); not indexed either",
                             f"link to a folder vaultmem indexes, or {_exclude_hint(relative)}")
        return None

    def linked_note(self, relative: str) -> str | None:
        """The note a symlinked note file at ``relative`` leads to, as the scan records it
        (Scan.linked_notes): None when ``relative`` is no such link (not a link, a link the scan
        reports as a problem, in a folder the scan never enters or one reached through a link)."""
        folder = relative.rpartition("/")[0]
        link = self.absolute(relative)
        if not self.is_note_path(relative) or not link.is_symlink() or (folder and not self.reached_without_links(folder)):
            return None
        return self.real_relative(link) if self._symlink_issue(link, relative) is None else None

    def reached_without_links(self, relative: str) -> bool:
        """Is ``relative`` where it is through no symlink (no linked folder on the way, not a
        link itself)? A note is indexed at that path only: through a folder linked inside
        the vault it is the same file as its real path (two notes of one file), through one
        linked outside it is not the vault's."""
        return os.path.realpath(self.os_path(relative)) == os.path.join(self.real_root, *relative.split("/"))

    def spelled_on_disk(self, relative: str) -> str | None:
        """``relative`` as the file system spells it: each name as its folder lists it, the
        one written byte for byte, else the one that is the same name in NFC (a file macOS
        named decomposed, typed composed). ``None``: no such entry, or two that normalize
        alike. Only folders inside the vault are listed."""
        folder = self.root
        spelled: list[str] = []
        for part in PurePosixPath(relative).parts:
            if not self.contains_real(folder):
                return None
            try:
                names = os.listdir(folder)
            except OSError:
                return None
            wanted = name_form(part)
            same = [part] if part in names else [name for name in names if name_form(name) == wanted]
            if len(same) != 1:
                return None
            spelled.append(same[0])
            folder = folder / same[0]
        return "/".join(spelled)

    def real_relative(self, path: Path) -> str:
        """Vault-relative POSIX path of ``path`` with every symlink resolved (must be inside)."""
        return PurePosixPath(Path(os.path.realpath(path)).relative_to(self.real_root)).as_posix()

    def contains_real(self, path: Path) -> bool:
        """Does ``path``, with every symlink resolved, lie inside the vault?"""
        real = Path(os.path.realpath(path))
        return real == self.real_root or self.real_root in real.parents

    def is_link_out(self, relative: str) -> bool:
        """Is the file at ``relative`` itself a symlink whose target is outside the vault?"""
        link = self.absolute(relative)
        return link.is_symlink() and not self.contains_real(link)

    def link_out(self, relative: str) -> str | None:
        """Why ``relative`` (a note's path as given) is not read, when it is reached through a
        symlink out of the vault — the file itself, or a folder on the way —; None otherwise.
        ``get`` of such a link was told only "no note matches" (or to write the path "without
        symlinks out", of a path that has none), while ``check`` said why. Lexical: '..' and
        absolute paths are refused before this is asked; no link's target is read (a stat says folder or file)."""
        parts = PurePosixPath(relative).parts
        if not parts or ".." in parts or PurePosixPath(relative).is_absolute():
            return None
        for end in range(1, len(parts) + 1):
            prefix = "/".join(parts[:end])
            link = self.absolute(prefix)
            if link.is_symlink() and not self.contains_real(link):
                # `get ext` of a folder linked out was called "a symlink to a file" (s35 review)
                kind = "folder" if link.is_dir() else "file"
                what = (f"{prefix} is a symlink to a {kind} outside the vault" if end == len(parts)
                        else f"{relative} is in {prefix}/, a symlink to a folder outside the vault")
                return (f"{what}: vaultmem reads, indexes and changes nothing outside the vault, so it is no note. "
                        "Move what the link points to into the vault (a link to a note or folder inside the vault is "
                        f"read at its real path), or {_exclude_hint(prefix)}")
        return None

    def _inside_relative(self, absolute: str) -> str | None:
        """The vault-relative path of an absolute path that leads into the vault (links
        followed), or None: outside, or the vault's root itself."""
        real = Path(os.path.realpath(absolute))
        if self.real_root not in real.parents:
            return None
        return PurePosixPath(real.relative_to(self.real_root)).as_posix()

    def from_shell(self, typed: str, cwd: Path) -> str:
        """A file-system path a person typed in a shell (absolute, or from ``cwd``) → the
        vault-relative path of that file; a UsageError for a folder, and PathOutsideVault,
        saying where it leads (symbolic links followed), when that is not in the vault. Its folders are resolved as the
        file system resolves them (``..``, symlinks, a vault reached through a link); its last
        name is kept as typed: a note is named where it lies, not where a link in it points."""
        joined = os.path.join(cwd, typed)
        if not os.path.isdir(joined):
            # `/old/path/` (a Hugo alias no note has) was "a folder" that does not exist: said as
            # the path it is, outside the vault or a note that is not there.
            joined = joined.rstrip("/") or joined
        folder, name = os.path.split(joined)
        if name in ("", ".", "..") or os.path.isdir(joined):
            # `forget ./` in Projekte/ archived the note Projekte.md beside the folder (a review).
            raise UsageError(f"{typed!r} names a folder ({os.path.normpath(joined)}), not a note: name a note's file")
        real = Path(os.path.realpath(folder), name)
        if real != self.real_root and self.real_root not in real.parents:
            raise PathOutsideVault(typed, self.root, leads_to=str(real))
        return PurePosixPath(real.relative_to(self.real_root)).as_posix()

    def resolve_inside(self, relative: str | os.PathLike[str]) -> Path:
        """A user- or agent-supplied vault path → absolute path, refused if it leaves the vault."""
        text = os.fspath(relative)
        candidate = PurePosixPath(text.replace("\\", "/"))
        if candidate.is_absolute() and "\x00" not in text:
            # Not read as a file path here (only the CLI reads NOTE as a shell path), but an agent
            # given one that is in the vault was told it "resolves outside the vault" (a trial).
            raise path_refused(text, self.root, inside=self._inside_relative(candidate.as_posix()))
        if not text.strip() or ".." in candidate.parts or "\x00" in text:
            raise path_refused(text, self.root)
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
    """A Markdown file name — or an Obsidian canvas's, read as the text of its cards (canvas.py,
    adr/0033) — that is not hidden and not an editor's temp or backup file."""
    suffix = NOTE_SUFFIX if name.endswith(NOTE_SUFFIX) else CANVAS_SUFFIX if name.endswith(CANVAS_SUFFIX) else None
    return suffix is not None and len(name) > len(suffix) and not is_temp_name(name)


def is_other_case_note_name(name: str) -> bool:
    """``Note.MD``, ``Note.Md``: a note's name with its extension in another case. Not a
    note (adr/0020), but said so by ``index``: it looks like one to a person."""
    lowered = name[: -len(NOTE_SUFFIX)] + name[-len(NOTE_SUFFIX):].lower()
    return lowered != name and is_note_name(lowered)


# Notes another app exports in plain text (Simplenote, Standard Notes: `.txt`) or under another
# Markdown extension (`.markdown`): not notes (Obsidian does not open them either), but said so by
# `index` — a trial: a folder of `.txt` notes indexed as "0 added" and searched as "no matching
# notes", a failure that looked like an empty vault. Said when they are at least as many as the
# notes (Scan.other_formats): an attachment's `diagram.txt` among notes is no note to rename.
OTHER_NOTE_SUFFIXES = (".txt", ".text", ".markdown", ".mdown", ".mkd", ".mkdn", ".qmd", ".rmd", ".mdx", ".ipynb")
# A documentation site's Markdown under its tool's extension: Quarto (`.qmd`), R Markdown (`.Rmd`),
# MDX (Docusaurus, Nextra); and a Jupyter Book's notebooks (`.ipynb`, other_format_reason). A
# Quarto book's chapters are all `.qmd`: its folder indexed as its one README and said nothing of
# the rest (a trial on a docs folder). Renaming one is advice with a cost there: the site's build
# reads the extension (Quarto runs the code cells of `.qmd` files).
SOURCE_SUFFIX_TOOLS = {".qmd": "Quarto", ".rmd": "R Markdown", ".mdx": "MDX"}


def is_other_note_format(name: str) -> bool:
    """A plain-text or Markdown file under another extension than ``.md`` (``Dentist.txt``)."""
    stem, dot, suffix = name.rpartition(".")
    return bool(stem) and bool(dot) and f".{suffix.lower()}" in OTHER_NOTE_SUFFIXES and not is_temp_name(name)


def other_format_reason(name: str) -> str:
    """Why ``Dentist.txt`` is not a note, and how to make it one."""
    stem, _dot, suffix = name.rpartition(".")
    if suffix.lower() == "ipynb":
        # A Jupyter Book's chapters are often notebooks: JSON, so renaming one makes no note.
        return (f"extension .{suffix} (a Jupyter notebook, JSON), not {NOTE_SUFFIX}: only {NOTE_SUFFIX} files are notes; "
                f"to search it, keep a Markdown copy beside it (`jupytext --to md {name}` writes {stem}{NOTE_SUFFIX})")
    tool = SOURCE_SUFFIX_TOOLS.get(f".{suffix.lower()}")
    if tool is not None:
        article = "an" if tool in ("R Markdown", "MDX") else "a"  # said "an R", "an MDX"
        return (f"extension .{suffix} ({article} {tool} source), not {NOTE_SUFFIX}: only {NOTE_SUFFIX} files are notes; to "
                f"search it, rename it to {stem}{NOTE_SUFFIX} (check first that your site's build still finds it: "
                f"{tool} treats the two extensions differently)")
    return (f"extension .{suffix}, not {NOTE_SUFFIX}: only {NOTE_SUFFIX} files are notes; if it is a note, rename it "
            f"to {stem}{NOTE_SUFFIX} to make it one (its text is read as Markdown)")


def other_case_reason(name: str) -> str:
    """Why ``Note.MD`` is not a note, and how to make it one."""
    return (f"extension {name[-len(NOTE_SUFFIX):]}, not {NOTE_SUFFIX}: only {NOTE_SUFFIX} files are notes (Obsidian's "
            f"extensions are case-sensitive too); rename it to {name[: -len(NOTE_SUFFIX)]}{NOTE_SUFFIX} to make it one")


def _outside_fix(relative: str) -> str:
    return ("vaultmem reads nothing outside the vault: move what the link points to into the vault (a link to a note "
            f"or folder inside the vault is read at its real path), or {_exclude_hint(relative)}")


def _in_a_loop(link: Path) -> bool:
    """Does following ``link`` lead back to a link on its way (ELOOP), rather than to a file or to nothing?"""
    try:
        os.stat(link)
    except OSError as error:
        return error.errno == errno.ELOOP
    return False


def _exclude_hint(relative: str) -> str:
    """How to leave ``relative`` out on purpose: its pattern in ``.vaultmem.toml`` ``exclude``."""
    from .config import CONFIG_FILE

    literal = re.sub(r"([*?\[\]\\])", r"\\\1", relative)  # a name taken literally, not as a glob
    return f"add {json.dumps('/' + literal, ensure_ascii=False)} to exclude in {CONFIG_FILE} to leave it out without this report"


def is_temp_name(name: str) -> bool:
    """Editor temp and backup files: ``note.md~``, ``.note.md.swp``, vim's ``4913``, ``*.tmp``,
    Office's ``~$note.md``."""
    return name.startswith(TEMP_PREFIXES) or name in TEMP_NAMES or name.endswith(TEMP_SUFFIXES)


ICLOUD_PLACEHOLDER = ".icloud"


def icloud_placeholder_of(name: str) -> str | None:
    """The note an iCloud Drive placeholder stands for (``.Wedding.md.icloud`` → ``Wedding.md``),
    or None. iCloud puts one in place of a file it has not downloaded to this Mac or iPhone (or
    has evicted to save space): the note's text is not on this device."""
    if not (name.startswith(".") and name.endswith(ICLOUD_PLACEHOLDER)):
        return None
    note = name[1: -len(ICLOUD_PLACEHOLDER)]
    return note if is_note_name(note) else None


def icloud_placeholder_reason(note: str) -> str:
    """Why an iCloud placeholder is not read, and how to get its note."""
    return (f"{note} is in iCloud Drive but not downloaded to this device (an iCloud placeholder: its text is not here, "
            "so it is not searched); download it (Finder or Files: Download Now, or `brctl download` on its path), "
            "then index again")
