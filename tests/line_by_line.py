"""The parsers as they were before they read only the lines that matter (2026-12-01): every
line walked in Python. The references the fast ones are proven against, on generated texts."""

from __future__ import annotations

import re

from vaultmem.markdown import (
    _FENCE_OPEN,
    _MAY_HIDE,
    _QUERY_FENCE,
    HEADING_LINE,
    QUERY_BLOCK_LANGUAGES,
    _Closers,
    inline_code_spans,
    query_block_ranges,
)
from vaultmem.merge_markers import ConflictSpan
from vaultmem.passages import Section, _trimmed


def code_ranges(text: str) -> list[tuple[int, int]]:
    """markdown.code_ranges: each line parsed (the fence rules, _FENCE_OPEN and _Closers, are shared)."""
    if "`" not in text and "~~~" not in text:
        return []
    lines = _lines(text)
    closers = _Closers(lines)
    ranges: list[tuple[int, int]] = []
    number = 0
    while number < len(lines):
        start, content = lines[number]
        opening = _FENCE_OPEN.fullmatch(content) if "``" in content or "~~" in content else None
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            closing = closers.next_closer(opening.group(1)[0], len(opening.group(1)), number)
            if closing is not None:
                end_start, end_content = lines[closing]
                ranges.append((start, end_start + len(end_content)))
                number = closing + 1
                continue
            language = opening.group(2).split(maxsplit=1)
            if language and language[0].lower() in QUERY_BLOCK_LANGUAGES:
                ranges.append((start, len(text)))  # a query left open runs to the end
                break
        if "`" in content:
            ranges.extend((start + left, start + right) for left, right in inline_code_spans(content))
        number += 1
    return ranges


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, content without its line ending) of each line; only ``\\n`` ends a line."""
    lines = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, line[:-1] if line.endswith("\r") else line))
        offset += len(line) + 1
    return lines


_OPENING = re.compile(r"<{7}(?: |$)")
_MIDDLE = re.compile(r"={7}$")
_CLOSING = re.compile(r">{7}(?: |$)")


def first_conflict(text: str) -> ConflictSpan | None:
    """merge_markers.first_conflict: every line of ``text`` (as splitlines cuts it) walked."""
    return first_conflict_walk(text)[0]


def first_conflict_walk(text: str) -> tuple[ConflictSpan | None, int]:
    """(first_conflict, how many runs of markers it passed as inside code before it)."""
    in_code = 0
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
                return ConflictSpan(opening, number), in_code
            opening = middle = None
            in_code += 1
    return None, in_code


def sections(body: str) -> list[Section]:
    """passages.sections: each line of ``body`` looked at for a heading."""
    code = code_ranges(body)
    found: list[Section] = []
    path: list[tuple[int, str]] = []
    current_path: tuple[str, ...] = ()
    start = offset = code_index = 0
    for line in body.split("\n"):
        while code_index < len(code) and code[code_index][1] <= offset:
            code_index += 1
        in_code = code_index < len(code) and code[code_index][0] <= offset < code[code_index][1]
        heading = None if in_code or "#" not in line[:4] else HEADING_LINE.match(line)
        if heading and heading.group(2).strip():
            found.extend(_trimmed(body, current_path, start, offset))
            level = len(heading.group(1))
            path = [(depth, text) for depth, text in path if depth < level] + [(level, heading.group(2).strip())]
            current_path = tuple(text for _, text in path)
            start = offset
        offset += len(line) + 1
    found.extend(_trimmed(body, current_path, start, len(body)))
    return found


def without_query_blocks(text: str) -> str:
    """markdown.without_query_blocks: its query fence looked for with one regex search of ``text``."""
    if _QUERY_FENCE.search(text) is None and _MAY_HIDE.search(text) is None:
        return text
    pieces: list[str] = []
    position = 0
    for start, end in query_block_ranges(text):
        pieces += [text[position:start], "\n" * text.count("\n", start, end)]
        position = end
    return "".join(pieces) + text[position:]
