"""Git's merge-conflict markers in a note: the person's merge, not yet resolved.

After a ``git pull`` or ``merge`` that conflicts, a note holds both sides between marker
lines (``<<<<<<< ours`` … ``=======`` … ``>>>>>>> theirs``), and a conflict may span the
frontmatter's closing ``---``. Such a file is not vaultmem's to edit: replacing its body
replaced one side and the ``=======``/``>>>>>>>`` lines with it, leaving the other side
gone from the file and an opening marker dangling (a two-machine trial). See adr/0006.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import UnresolvedConflict

_OPENING = re.compile(r"<{7}(?: |$)")
_MIDDLE = re.compile(r"={7}$")
_CLOSING = re.compile(r">{7}(?: |$)")


@dataclass(frozen=True)
class ConflictSpan:
    """1-based lines of the first opening marker and the closing marker after it."""

    opening: int
    closing: int


def first_conflict(text: str) -> ConflictSpan | None:
    """The first ``<<<<<<<`` … ``=======`` … ``>>>>>>>`` run of marker lines, in this order
    at line starts (git's default marker size); ``None`` when there is none."""
    opening = middle = None
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip("\r")
        if _OPENING.match(line):
            opening, middle = number, None
        elif opening is not None and _MIDDLE.match(line):
            middle = number
        elif middle is not None and opening is not None and _CLOSING.match(line):
            return ConflictSpan(opening, number)
    return None


def require_resolved(relative: str, content: str | bytes) -> None:
    """Raise :class:`UnresolvedConflict` when ``content`` (a note's text or bytes) holds a
    conflict: every write, move and merge of a note asks first (adr/0006)."""
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    conflict = first_conflict(text) if "<<<<<<<" in text else None
    if conflict is not None:
        raise UnresolvedConflict(relative, conflict.opening, conflict.closing)
