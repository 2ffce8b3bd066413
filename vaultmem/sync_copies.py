"""Copies a sync tool made of a note, known by their names (pure: no files are read).

A vault synced over several devices collects copies of a note beside it when two devices
edited it at once: Dropbox and Nextcloud write ``Note (conflicted copy 2024-05-01).md``
(``(Maya's conflicted copy …)``), Obsidian Sync ``Note (Conflicted copy Laptop
202405011234).md``, Syncthing ``Note.sync-conflict-20240501-123456-ABCDEFG.md``, iCloud and
Finder ``Note 2.md``, Google Drive ``Note (1).md``, OneDrive ``Note-DESKTOP-7K2QF9M.md``. The original is the note the person
links to and knows by name; the copy is the sync tool's leftover. See adr/0010-consolidation.md.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from posixpath import dirname, join
from typing import TypeVar

from .notes import find_frontmatter

# Obsidian's "Duplicate file" names its copy as iCloud does ("Note 1.md"): either made it.
ICLOUD, GOOGLE_DRIVE = "iCloud or Obsidian's Duplicate file", "Google Drive"
# The name (without .md) of a copy, with the original's name as the group "name", and the
# tools that name a copy so (one pattern can be several tools' spelling).
_COPY_NAMES = (
    (re.compile(r"(?P<name>.+?) \([^()]*conflict[^()]*(?:\(\d+\)[^()]*)?\)", re.IGNORECASE),
     "Dropbox, Nextcloud or Obsidian Sync"),
    (re.compile(r"(?P<name>.+?)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?"), "Syncthing"),
    # OneDrive's "keep both" names the local version after the computer: Windows names one
    # DESKTOP-7K2QF9M or LAPTOP-4F1A9C2B unless its owner renamed it (then it is not told apart
    # from a person's own "Project-X.md" beside "Project.md", and is left alone).
    (re.compile(r"(?P<name>.+?)-(?:DESKTOP|LAPTOP)-[A-Z0-9]{7,8}"), "OneDrive"),
    (re.compile(r"(?P<name>.+?) \d{1,3}"), ICLOUD),
    (re.compile(r"(?P<name>.+?) \(\d{1,3}\)"), GOOGLE_DRIVE),
)

# A number is also how Obsidian names a new note beside one of the same name ("Untitled 1.md")
# and how people number a series ("Sprint 2.md"): a copy so named counts only when its text is
# a version of the original's (:func:`resembles`).
RESEMBLING = 0.5  # the share of the two texts' words both hold (Jaccard), at least


@dataclass(frozen=True)
class SyncCopy:
    """What a copy's name says: the note it is a copy of, and which sync tool names copies so."""

    path: str
    original: str
    tool: str

    @property
    def numbered(self) -> bool:
        """Named by a number alone (``Note 2.md``, ``Note (1).md``), as notes of the person's own are too."""
        return self.tool in (ICLOUD, GOOGLE_DRIVE)

    def of_text(self, copy_text: str, original_text: str) -> bool:
        """Whether the notes' texts agree with what the name says (:data:`RESEMBLING`)."""
        return not self.numbered or resembles(copy_text, original_text)

    def describe(self) -> str:
        """``looks like a copy Syncthing made of Coffee order.md`` (the original is beside it)."""
        return f"looks like a copy {self.tool} made of {self.original.rsplit('/', 1)[-1]}"


NAMES_REMEMBERED = 1 << 16  # paths whose answer named_copy keeps (each a few hundred bytes)


@functools.lru_cache(maxsize=NAMES_REMEMBERED)
def named_copy(path: str) -> SyncCopy | None:
    """What ``path``'s name marks it a sync copy of, or None (whether that note exists is not asked).

    Remembered by path (a pure function of it): a search asks it of each of its ~150 fused
    candidates, 0.2 ms a search at 10k notes when worked out anew."""
    file_name = path.rsplit("/", 1)[-1]
    if not file_name.endswith(".md"):
        return None
    stem = file_name[: -len(".md")]
    last = stem[-1:]
    if not (last == ")" or last.isdecimal() or "A" <= last <= "Z"):
        # Each of _COPY_NAMES ends in ")", a digit (\d: any decimal one) or an ASCII capital; most
        # names end otherwise, and every note's is asked at every index.
        return None
    for pattern, tool in _COPY_NAMES:
        matched = pattern.fullmatch(stem)
        if matched:
            original = join(dirname(path), matched.group("name") + ".md")
            return SyncCopy(path, original, tool) if original != path else None
    return None


def tool_named_original(path: str) -> str | None:
    """The original of a copy whose name only a sync tool writes (``(conflicted copy …)``,
    ``.sync-conflict-…``, ``-DESKTOP-…``), or None — never for ``Note 2.md`` or ``Note (1).md``,
    which a person may have named so."""
    copy = named_copy(path)
    return None if copy is None or copy.numbered else copy.original


def original_name(path: str) -> str | None:
    """The path of the note ``path``'s name marks it a sync copy of, or None."""
    copy = named_copy(path)
    return None if copy is None else copy.original


def copy_among(path: str, paths: Collection[str]) -> SyncCopy | None:
    """``path`` as a sync copy of another of ``paths``, or None.

    Only a copy whose original is there counts: ``Chapter 2.md`` alone is a chapter.
    """
    copy = named_copy(path)
    return copy if copy is not None and copy.original in paths else None


def is_copy_among(path: str, paths: Collection[str]) -> bool:
    """Whether ``path`` is named as a sync copy of another of ``paths`` (:func:`copy_among`)."""
    return copy_among(path, paths) is not None


T = TypeVar("T")


def originals_first(ranked: Sequence[T], path_of: Callable[[T], str],
                    is_copy: Callable[[SyncCopy], bool] = lambda copy: True) -> list[T]:
    """``ranked`` with each sync copy whose original is also in it moved to just below that
    original (``is_copy``: whether the texts agree with the name, :meth:`SyncCopy.of_text`).

    A conflict copy holds the other device's version, most often the older one, and ties with
    its original or beats it on the words of its long name: ``search`` answered a port that had
    changed with the copy's old one first (a trial). The original is the note links, ids and
    every write resolve to; the copy stays in view right under it, with its warning. A copy
    whose original is not in ``ranked`` keeps its place."""
    position = {path_of(item): index for index, item in enumerate(ranked)}
    below: dict[int, list[T]] = {}
    for item in ranked:
        copy = named_copy(path_of(item))
        if copy is not None and copy.original in position and is_copy(copy):
            below.setdefault(position[copy.original], []).append(item)
    if not below:
        return list(ranked)
    moved = {id(item) for items in below.values() for item in items}
    placed: list[T] = []

    def place(index: int, item: T) -> None:
        placed.append(item)
        for copy in below.get(index, ()):
            place(position[path_of(copy)], copy)  # a copy of a copy goes under the copy

    for index, item in enumerate(ranked):
        if id(item) not in moved:
            place(index, item)
    return placed


def resembles(first: str, second: str) -> bool:
    """Whether two notes' bodies (their frontmatter left out) are versions of one text: the
    same, or at least :data:`RESEMBLING` of their words in common."""
    words = [set(_WORDS.findall(_body(text).casefold())) for text in (first, second)]
    union = words[0] | words[1]
    return not union or len(words[0] & words[1]) >= RESEMBLING * len(union)


_WORDS = re.compile(r"\w+")


def _body(text: str) -> str:
    block = find_frontmatter(text)
    return text if block is None else text[block.body_start:]
