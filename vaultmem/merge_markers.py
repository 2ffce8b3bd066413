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
from .markdown import code_ranges

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
    at line starts (git's default marker size), that is not inside one fenced code block;
    ``None`` when there is none.

    A run inside a code block is a note showing what a conflict looks like (a vault's notes
    on git): taken for the person's merge, the note failed ``check`` and was refused every
    edit for good (a review). A real conflict whose two sides both fall inside one code
    block is missed so — rarer, and ``git status`` still names the file."""
    opening = middle = None
    opening_at = offset = 0
    code: list[tuple[int, int]] | None = None
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        start, offset = offset, offset + len(line)
        line = line.rstrip("\r\n")
        if _OPENING.match(line):
            opening, middle, opening_at = number, None, start
        elif opening is not None and _MIDDLE.match(line):
            middle = number
        elif middle is not None and opening is not None and _CLOSING.match(line):
            code = code_ranges(text) if code is None else code
            if not any(block_start <= opening_at and offset <= block_end for block_start, block_end in code):
                return ConflictSpan(opening, number)
            opening = middle = None
    return None


def require_resolved(relative: str, content: str | bytes) -> None:
    """Raise :class:`UnresolvedConflict` when ``content`` (a note's text or bytes) holds a
    conflict: every write, move and merge of a note asks first (adr/0006)."""
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    conflict = first_conflict(text) if "<<<<<<<" in text else None
    if conflict is not None:
        raise UnresolvedConflict(relative, conflict.opening, conflict.closing)
