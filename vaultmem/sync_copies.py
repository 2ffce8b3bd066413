"""Copies a sync tool made of a note, known by their names (pure: no files are read).

A vault synced over several devices collects copies of a note beside it when two devices
edited it at once: Dropbox and Nextcloud write ``Note (conflicted copy 2024-05-01).md``
(``(Maya's conflicted copy …)``), Obsidian Sync ``Note (Conflicted copy Laptop
202405011234).md``, Syncthing ``Note.sync-conflict-20240501-123456-ABCDEFG.md``, iCloud and
Finder ``Note 2.md``, Google Drive ``Note (1).md``. The original is the note the person
links to and knows by name; the copy is the sync tool's leftover. See adr/0010-consolidation.md.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from posixpath import dirname, join

# The name (without .md) of a copy, with the original's name as the group "name".
_COPY_NAMES = (
    re.compile(r"(?P<name>.+?) \([^()]*conflict[^()]*(?:\(\d+\)[^()]*)?\)", re.IGNORECASE),
    re.compile(r"(?P<name>.+?)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?"),
    re.compile(r"(?P<name>.+?) \d{1,3}"),
    re.compile(r"(?P<name>.+?) \(\d{1,3}\)"),
)


def original_name(path: str) -> str | None:
    """The path of the note ``path``'s name marks it a sync copy of, or None."""
    folder, file_name = dirname(path), path.rsplit("/", 1)[-1]
    if not file_name.endswith(".md"):
        return None
    stem = file_name[: -len(".md")]
    for pattern in _COPY_NAMES:
        matched = pattern.fullmatch(stem)
        if matched:
            return join(folder, matched.group("name") + ".md")
    return None


def is_copy_among(path: str, paths: Collection[str]) -> bool:
    """Whether ``path`` is named as a sync copy of another of ``paths``.

    Only a copy whose original is there counts: ``Chapter 2.md`` alone is a chapter.
    """
    original = original_name(path)
    return original is not None and original != path and original in paths
