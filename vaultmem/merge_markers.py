"""Git's merge-conflict markers in a note: the person's merge, not yet resolved.

After a ``git pull`` or ``merge`` that conflicts, a note holds both sides between marker
lines (``<<<<<<< ours`` … ``=======`` … ``>>>>>>> theirs``), and a conflict may span the
frontmatter's closing ``---``. Such a file is not vaultmem's to edit: replacing its body
replaced one side and the ``=======``/``>>>>>>>`` lines with it, leaving the other side
gone from the file and an opening marker dangling (a two-machine trial). See adr/0006.

A UTF-16 note is merged by git as binary: no markers, the file keeps one side (the conflict
is in git's index only). Neither does ``git checkout --ours``, a rerere replay or a modify/delete
conflict: :func:`unmerged_notes` asks git's index, and every write refuses such a note as one
with markers (:func:`require_merged`, :class:`UnmergedNote`). A tool that merges its bytes as lines (GNU ``diff3
-a``, a byte-level merge driver) writes the markers as single bytes (UTF-8) into the UTF-16
text: :func:`utf16_with_byte_markers` reads such a file with its markers as lines.
"""

from __future__ import annotations

import bisect
import re
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import UnmergedNote, UnresolvedConflict
from .markdown import fenced_blocks, inline_code_spans

# A marker line written as single bytes, at a line start (after a 0x0A byte), with its line
# break: in UTF-16 text a 0x0A byte followed by seven 0x3C bytes would be the letters U+3C0A
# U+3C3C U+3C3C U+3C3C, rare CJK (and they must be followed by a marker's space or line break).
_BYTE_MARKER = re.compile(rb"(?<=\n)(?:<{7}|\|{7}|={7}|>{7})(?: [^\n\x00]*)?\n")


@dataclass(frozen=True)
class ConflictSpan:
    """1-based lines of the first opening marker and the closing marker after it."""

    opening: int
    closing: int


def first_conflict(text: str) -> ConflictSpan | None:
    """The first ``<<<<<<<`` … ``=======`` … ``>>>>>>>`` run of marker lines, in this order
    at line starts (git's default marker size), that is not inside one fenced code block;
    ``None`` when there is none. Lines are those of ``str.splitlines`` (a form feed or U+2028
    ends one too), and a marker line is one that, without its ``\\r``/``\\n`` line break, is
    seven marks alone or (``<``, ``>``) seven marks, a space and a label.

    A run inside a code block is a note showing what a conflict looks like (a vault's notes
    on git): taken for the person's merge, the note failed ``check`` and was refused every
    edit for good (a review). A real conflict whose two sides both fall inside one code
    block is missed so — rarer, and ``git status`` still names the file.

    Only the marker lines are read in Python: they are found with ``str.find``, and the code
    blocks from the lines holding a fence (:func:`markdown.fenced_blocks`). Walking every line
    cost a 5 MB pasted log that shows the markers ~110 ms on each read of it (adr/0018)."""
    lines = _MarkerLines(text)
    blocks: list[tuple[int, int]] | None = None
    opening = lines.following("<", 0)
    while opening < len(text):
        # After an opening, the next opening starts over and ``>>>>>>>`` lines are nothing yet.
        middle, reopening = lines.following("=", opening + 1), lines.following("<", opening + 1)
        if reopening < middle:
            opening = reopening
            continue
        # After a middle, the next opening starts over and more ``=======`` lines change nothing.
        closing, reopening = lines.following(">", middle + 1), lines.following("<", middle + 1)
        if reopening < closing:
            opening = reopening
            continue
        if closing >= len(text):
            return None
        blocks = fenced_blocks(text) if blocks is None else blocks
        if not _inside_code(text, blocks, opening, _line_end(text, closing)):
            return ConflictSpan(_line_number(text, opening), _line_number(text, closing))
        opening = lines.following("<", closing + 1)
    return None


# What ``str.splitlines`` ends a line at (``\r\n`` is one break), and a line's break.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK = re.compile("\r\n|[" + _LINE_BREAKS + "]")
_MARK_RUN = re.compile("<+|=+|>+")
# What may follow a marker's seven marks on its line: its line break (\r or \n: another break
# stays part of the line, and so the line is no marker), the text's end, or a space and a label.
_AFTER_MARKS = {"<": ("", "\r", "\n", " "), "=": ("", "\r", "\n"), ">": ("", "\r", "\n", " ")}


class _MarkerLines:
    """The marker lines of one text by kind, each kind looked for from where it was last found
    on: :func:`first_conflict` asks for each kind further on each time, so the text is searched
    about once per kind, however many marker lines it holds."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, tuple[int, int]] = {}  # kind: (looked for from, found at)

    def following(self, kind: str, position: int) -> int:
        """Where the first ``kind`` (``<``, ``=``, ``>``) marker line at or after ``position``
        starts; the text's length when there is none."""
        looked_from, found = self.found.get(kind, (len(self.text), -1))
        if not looked_from <= position <= found:
            start = _next_marker_line(self.text, kind * 7, position)
            found = len(self.text) if start < 0 else start
            self.found[kind] = (position, found)
        return found


def _next_marker_line(text: str, mark: str, position: int) -> int:
    """Where the first line from ``position`` on that is a ``mark`` marker line starts; -1: none."""
    start = text.find(mark, position)
    while start >= 0:
        after = text[start + len(mark):start + len(mark) + 1]
        if (start == 0 or text[start - 1] in _LINE_BREAKS) and after in _AFTER_MARKS[mark[0]]:
            return start
        # No line starts inside a run of marks: past it (one find per mark in a line of a million).
        run = _MARK_RUN.match(text, start)
        start = text.find(mark, run.end() if run else start + len(mark))
    return -1


def _line_end(text: str, start: int) -> int:
    """The end of the line starting at ``start``, after its line break (as splitlines keeps it)."""
    found = _LINE_BREAK.search(text, start)
    return len(text) if found is None else found.end()


def _line_number(text: str, start: int) -> int:
    """The 1-based number, as splitlines counts, of the line starting at ``start``: no
    ``\\r\\n`` is cut in two there."""
    breaks = text.count("\n", 0, start)
    if "\r" in text:
        breaks += text.count("\r", 0, start) - text.count("\r\n", 0, start)
    return 1 + breaks + sum(text.count(other, 0, start) for other in _LINE_BREAKS[2:] if other in text)


def _inside_code(text: str, blocks: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is inside one of the code ranges :func:`markdown.code_ranges`
    finds: a fenced block of ``blocks`` (:func:`markdown.fenced_blocks`), or an inline span —
    which lies on one ``\\n`` line, so only a run without a ``\\n`` (lone ``\\r`` breaks) is in one."""
    holder = bisect.bisect_right(blocks, (start, len(text) + 1)) - 1
    if holder >= 0 and end <= blocks[holder][1]:
        return True  # ranges do not overlap: only the last to open before start can hold it
    if text.find("\n", start, end) >= 0:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start:] if line_end < 0 else text[line_start:line_end]  # a \r at its end is in no span
    return any(line_start + left <= start and end <= line_start + right for left, right in inline_code_spans(line))


def require_resolved(relative: str, content: str | bytes) -> None:
    """Raise :class:`UnresolvedConflict` when ``content`` (a note's text or bytes) holds a
    conflict: every write, move and merge of a note asks first (adr/0006)."""
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    conflict = first_conflict(text) if "<<<<<<<" in text else None
    if conflict is not None:
        raise UnresolvedConflict(relative, conflict.opening, conflict.closing)


# More notes than this are asked about as the whole vault's list: one path each on git's
# command line could pass the system's limit (expire of 50,000 notes), and git reads its whole
# index either way.
ASKED_BY_NAME = 200

UNMERGED_WHY = ("git's merge of it stopped on a conflict it could not mark in the file (git merges a UTF-16 file as "
                "binary; or one side deleted it; or `git checkout --ours`/`--theirs` or rerere wrote one side in): the "
                "file holds one side only, the other is in git's index")


def unmerged_fix(relative: str) -> str:
    """How the person finishes the merge of a note git holds unmerged without markers."""
    quoted = shlex.quote(relative)
    return (f"`git show {shlex.quote(f':2:./{relative}')}` is your side, `:3:` the other (`git status` says how they "
            f"conflict); keep one (`git checkout --ours -- {quoted}` or `--theirs`), copy in what you want from the "
            f"other (a UTF-16 note re-saved as UTF-8), then `git add {quoted}`")


def unmerged_notes(root: Path, relatives: Sequence[str] = (".",)) -> set[str]:
    """Which of ``relatives`` (vault-relative; ``"."``: every file) git's index holds unmerged,
    markers in the file or not; none when the vault is no git repository (or git is not
    installed). :class:`GitError` when git does not answer: a write must not take that for
    "no conflict". Two git calls, about 10 ms at 10,000 notes (adr/0006)."""
    from .gitops import is_repository, unmerged  # gitops → noteio → notes → this module

    if not relatives or not is_repository(root):
        return set()
    if len(relatives) > ASKED_BY_NAME:
        return unmerged(root) & set(relatives)
    return unmerged(root, relatives)


def require_merged(root: Path, relatives: Sequence[str], unmerged: Collection[str] | None = None) -> None:
    """Raise :class:`UnmergedNote` for the first of ``relatives`` git's index holds unmerged
    (``unmerged``: the caller asked git already, for a whole batch; otherwise git is asked here).
    Every write, move and merge of a note asks, as :func:`require_resolved` asks its text."""
    listed = unmerged_notes(root, relatives) if unmerged is None else unmerged
    for relative in relatives:
        if relative in listed:
            raise UnmergedNote(relative, unmerged_fix(relative))


def utf16_with_byte_markers(body: bytes, codec: str) -> str | None:
    """The text of a UTF-16 ``body`` (``codec``: utf-16-le or -be, the BOM cut off) holding
    conflict marker lines written as single bytes, the markers as lines of it; ``None`` when
    it holds no ``<<<<<<<`` … ``=======`` … ``>>>>>>>`` run of them.

    Read as UTF-16 whole, each marker was three or four CJK letters and, a marker line being
    an odd number of bytes in a little-endian file, every letter after it was off by one
    byte: the note was indexed as garbage, its conflict unseen. Without the marker lines the
    bytes are the two sides' UTF-16 again; each marker goes back between them at the next
    whole letter (a little-endian line break's second byte follows the marker)."""
    markers = list(_BYTE_MARKER.finditer(body))
    kinds = bytes(marker.group()[0] for marker in markers)
    opening = kinds.find(b"<")
    middle = kinds.find(b"=", opening + 1) if opening >= 0 else -1
    if middle < 0 or kinds.find(b">", middle + 1) < 0:
        return None
    cleaned, cuts, last = bytearray(), [], 0
    for marker in markers:
        cleaned += body[last:marker.start()]
        cuts.append(len(cleaned) + len(cleaned) % 2)
        last = marker.end()
    cleaned += body[last:]
    parts, start = [], 0
    for cut, marker in zip(cuts, markers, strict=True):
        parts += [bytes(cleaned[start:cut]).decode(codec, errors="replace"), marker.group().decode("utf-8", "replace")]
        start = max(start, cut)
    return "".join([*parts, bytes(cleaned[start:]).decode(codec, errors="replace")])
