"""Edits to a note's body for ``revise --text/--append`` and a merge's appended lines.

The frontmatter's bytes (and a BOM) are copied as they are; only what follows them
changes. Text vaultmem adds takes the file's line ending and ends with one. Each edit is
verified by parsing the result: the frontmatter still ends where it did and the body is
exactly the intended one — else :class:`FrontmatterError` and nothing is written (the
caller writes the bytes through noteio's guarded writes). See adr/0019-memories-change.md.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from .errors import FrontmatterError
from .markdown import (
    code_ranges,
    excalidraw_data_start,
    fenced_blocks,
    foam_references_footer,
    math_spans,
    plugin_footer_start,
    unclosed_fence_closer,
)
from .noteio import original_offset, split_bom
from .notes import BOM, parse_note, split_frontmatter

_ARCHIVE_MARKER = re.compile(r"^\*\*\*\r?$", re.MULTILINE)


def replace_body(raw: bytes, body: str) -> bytes:
    """``raw`` with everything after its frontmatter replaced by ``body``. Refused for an
    Excalidraw drawing (markdown.excalidraw_data_start): its body holds the drawing itself,
    which the new text would replace — a trial's ``revise --text`` left a 35-line drawing as
    one line of prose, its shapes gone. On a Kanban board the new text replaces the lanes and
    the settings block stays the file's end (:func:`_kanban_settings_kept`)."""
    head, old_body, newline = _split_body(raw)
    if excalidraw_data_start(old_body.replace("\r\n", "\n")) is not None:
        raise FrontmatterError(
            "it is an Excalidraw drawing: its text is the drawing's (its text elements and the drawing itself, "
            "which Excalidraw writes), and a new text would replace the drawing; nothing was written. Append the words "
            "instead (an append goes above the drawing's data, where Excalidraw keeps it), or change the drawing in "
            "Obsidian")
    new_body = _as_lines(body, newline) + _kanban_settings_kept(old_body, body, newline)
    edited = head + new_body.encode("utf-8")
    _verify_body(raw, edited, new_body.replace("\r\n", "\n"))
    return edited


def body_lines(raw: bytes) -> tuple[str, int]:
    """``raw``'s body as a note's body reads (LF line ends: ``Note.body``) and how many lines
    are above it (a BOM and the frontmatter): its line N is the file's line N + that many."""
    head, body, _newline = _split_body(raw)
    return body.replace("\r\n", "\n"), head.decode("utf-8-sig").count("\n")


def replace_in_body(raw: bytes, edits: Sequence[tuple[int, int, str]]) -> bytes:
    """``raw`` with each ``(start, end, text)`` of its body (offsets in :func:`body_lines`' body,
    not overlapping) replaced by ``text``, words within one line (a property's value written in
    the text: revise --set); every other byte stays, a CRLF file's line ends too."""
    head, body, _newline = _split_body(raw)
    lf_body = body.replace("\r\n", "\n")
    pieces: list[str] = []
    position = 0
    for start, end, text in sorted(edits):
        begin = original_offset(body, lf_body, start)
        pieces += [body[position:begin], text]
        position = original_offset(body, lf_body, end)
    new_body = "".join(pieces) + body[position:]
    edited = head + new_body.encode("utf-8")
    _verify_body(raw, edited, new_body.replace("\r\n", "\n"))
    return edited


def _kanban_settings_kept(old_body: str, new_text: str, newline: str) -> str:
    """The board's settings block to keep below a Kanban board's new text, after a blank line
    (``""`` when the note is no board, or the new text ends with a settings block of its own —
    the whole board, as ``get`` showed it). The lanes and cards are the board's words and an agent
    may rewrite them; the settings block is the plugin's (new-card folder, lane widths, date
    formats): replaced by prose, the board fell back to Kanban's defaults."""
    footer_at = plugin_footer_start(old_body)
    if footer_at is None or not old_body.startswith("%% kanban:settings", footer_at):
        return ""
    if plugin_footer_start(new_text.replace("\r\n", "\n").rstrip("\n")) is not None:
        return ""
    return newline + old_body[footer_at:]


def append_paragraph(raw: bytes, paragraph: str) -> bytes:
    """``raw`` with ``paragraph`` added at the end of its body, after a blank line; every
    byte already there stays. A plugin's data block that ends the body (Kanban's settings,
    Excalidraw's drawing: markdown.plugin_footer_start) stays its end: the paragraph goes
    above it, a blank line between — below it, Kanban no longer found the board's settings. On
    a Kanban board with an archive (its ``***`` line and the lane below it), the paragraph goes
    above the archive: below, it would be an archived card. In an Excalidraw drawing it goes
    above the drawing's data (markdown.excalidraw_data_start: its "# Excalidraw Data" heading),
    which the plugin writes anew at each save: below that heading it was lost the next time the
    drawing was saved. Foam's link reference definitions (markdown.foam_references_footer), which
    Foam keeps as a note's last lines, stay them: the paragraph goes above. A code block the body
    ends inside, never closed, is closed first (markdown.unclosed_fence_closer)."""
    head, body, newline = _split_body(raw)
    lf_body = body.replace("\r\n", "\n")
    drawing_at = excalidraw_data_start(lf_body)
    footer_at = plugin_footer_start(body) if drawing_at is None else original_offset(body, lf_body, drawing_at)
    if footer_at is None:
        footer_at = foam_references_footer(body)
    words, footer = (body, "") if footer_at is None else (body[:footer_at], body[footer_at:])
    archive_at = _kanban_archive_start(words) if footer.startswith("%% kanban:settings") else None
    if archive_at is not None:
        words, footer = words[:archive_at], words[archive_at:] + footer
    _refuse_inside_math(words.replace("\r\n", "\n"), head.count(b"\n"))
    closer = unclosed_fence_closer(words) if "```" in words or "~~~" in words else None
    if closer is not None:
        # The text ends inside a code block never closed (a snippet pasted without its last
        # fence): Obsidian shows everything below it as code, the paragraph too (a trial's
        # `revise jq --append`). Closed first, the block shows as it did and the paragraph as text.
        words += ("" if words.endswith("\n") else newline) + closer + newline
    if not words.strip():
        separator = ""  # an empty body (or only blank lines): the paragraph is the body
    elif words.endswith((newline * 2, "\n\n")):
        separator = ""
    elif words.endswith("\n"):
        separator = newline
    else:
        separator = newline * 2  # the file had no final newline
    addition = separator + _as_lines(paragraph, newline) + (newline if footer else "")
    edited = head + (words + addition + footer).encode("utf-8")
    _verify_body(raw, edited, (words + addition + footer).replace("\r\n", "\n"))
    return edited


def _refuse_inside_math(words: str, lines_above: int) -> None:
    """Refuse an append to a text that ends inside a ``$$`` display block never closed: Obsidian
    reads all that follows as the formula, so the paragraph would render as broken math, not
    as words (and be searched as math). Nothing of the note's is changed to make room: closing
    the formula is the person's call. A block in a callout ends with the callout, which the
    paragraph's blank line ends; ``$$`` in code is code."""
    opened = _open_display_math(words)
    if opened is not None:
        raise FrontmatterError(
            f"its text ends inside a $$ math block opened on line {lines_above + opened} and never closed, so an appended "
            "paragraph would be read as part of the formula; nothing was written. Close the formula (a line $$ after it) "
            "and append again, or give the whole text with --text")


def _open_display_math(text: str) -> int | None:
    """The line (1-based, in ``text``) of the ``$$`` that opens a display block still open at the
    end of ``text``, outside quotes and fenced code (markdown.math_spans reads each line); None."""
    code = fenced_blocks(text) if "```" in text or "~~~" in text else []
    code_starts = [start for start, _end in code]
    in_display, opened, offset = False, 0, 0
    for number, line in enumerate(text.split("\n"), start=1):
        inside = bisect.bisect_right(code_starts, offset) - 1
        in_code = inside >= 0 and offset < code[inside][1]
        if not in_code and not line.lstrip().startswith(">") and (in_display or "$" in line):
            was_open = in_display
            in_display = math_spans(line, in_display)[1]
            opened = number if in_display and not was_open else opened
        offset += len(line) + 1
    return opened if in_display else None


def _kanban_archive_start(words: str) -> int | None:
    """Where a Kanban board's archive begins: its marker, a line that is ``***`` alone (the
    plugin's ``archiveMarkerRegex``), outside code; None on a board with no archive. Every card
    below it is archived — a card appended at the end was hidden from the board, in the archive
    lane (a trial on a board whose archive held last season's cards)."""
    code = code_ranges(words)
    for marker in _ARCHIVE_MARKER.finditer(words):  # the first: the plugin archives every card after it
        if not any(start <= marker.start() < end for start, end in code):
            return marker.start()
    return None


def _split_body(raw: bytes) -> tuple[bytes, str, str]:
    """(the bytes up to the body — BOM and frontmatter as they are —, the body, the file's newline)."""
    has_bom, text = split_bom(raw)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
    normalized = text.replace("\r\n", "\n")
    # The same reading as every other: a leading --- rule followed by prose is body.
    block = split_frontmatter("", normalized)[2]
    start = 0 if block is None else original_offset(text, normalized, block.body_start)
    head = (BOM if has_bom else "") + text[:start]
    if start and not head.endswith("\n"):
        # The closing --- was the file's last line, without a newline. Not after a BOM alone (no
        # frontmatter): a line added there moved the body, and every edit of the note was refused.
        head += newline
    return head.encode("utf-8"), text[start:], newline


def _as_lines(text: str, newline: str) -> str:
    """``text`` with the file's line ending and exactly one final newline."""
    return text.replace("\r\n", "\n").rstrip("\n").replace("\n", newline) + newline


def _verify_body(before: bytes, after: bytes, expected_body: str) -> None:
    # The head's bytes are copied, so the frontmatter can only read differently if the
    # body's new text moved where it ends (or made a block appear where there was none).
    old, new = parse_note("", before), parse_note("", after)
    added = [problem for problem in new.problems if problem.field == "body" and problem not in old.problems]
    if added:
        # A text that opens with a --- block of its own, under the note's: basic-memory's
        # duplicate frontmatter, whose properties Obsidian shows as text and nobody reads.
        raise FrontmatterError(
            f"the new text opens with a frontmatter block of its own: {added[0].message}; give the title, layer "
            "and tags with revise's own options and leave the block out of the text (the file was not touched)"
        )
    if new.has_frontmatter != old.has_frontmatter or new.body != expected_body:
        raise FrontmatterError(
            "vaultmem could not change this note's text without changing how its frontmatter reads "
            "(does the new text start with a --- block?); edit it by hand (the file was not touched)"
        )
