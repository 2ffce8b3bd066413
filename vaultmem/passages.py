"""A note's passages: the pieces both sides of search rank (pure).

A note whose body has at most :data:`PASSAGE_CHARS` characters is one passage. A longer
one is cut into heading sections (a ``#`` line inside code is not a heading; a section
keeps the path of headings above it), a section longer than the limit into groups of
whole paragraphs (a paragraph longer than that by sentences, then by words), and
consecutive small pieces are packed together up to the limit. Each passage is a slice of
the body, so its line range is exact. A short note of several facts (paragraphs, list items)
also has a passage of each, after its whole one (:func:`fact_pieces`): ranked by meaning only.
Only a day's note is asked for them (searchable.py: a title that only names a day).

What a passage's vector is made from (:func:`embed_head`): the note's title and the
passage's heading path (``title > heading > subheading``), then — in the note's first
passage only — its string properties as ``key: value`` lines, then the passage's text.
Chosen by measurement: benchmarks/PASSAGES.md, adr/0004-hybrid-ranking.md.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .markdown import HEADING_LINE, code_ranges

PASSAGE_CHARS = 1000
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Passage:
    number: int  # 0 for the note's first passage
    headings: tuple[str, ...]  # the heading path above it (the section's heading and its ancestors)
    text: str
    start_line: int  # lines of the body, 1-based, inclusive
    end_line: int
    offset: int = 0  # where its text starts in the body it was cut from (searchable.py: its words for the embedder)
    piece: bool = False  # one fact of a short note (fact_pieces), besides the whole note's passage: not part of the note's own vector


@dataclass(frozen=True)
class _Span:
    """A piece of the body: [start, end) character offsets, under a heading path."""

    headings: tuple[str, ...]
    start: int
    end: int


@dataclass(frozen=True)
class Section(_Span):
    text: str  # the body's characters [start, end): from its heading line, white space around it left out


def split_passages(body: str, max_chars: int | None = PASSAGE_CHARS, pack: bool = True,
                   pieces: bool = True) -> list[Passage]:
    """The note's passages, in order: the whole body when short (then, with ``pieces``, each of
    its facts: :func:`fact_pieces`), else sections cut to ``max_chars``.

    ``max_chars=None`` keeps every note one passage (benchmarks compare against that).
    """
    if max_chars is None or len(body) <= max_chars:
        whole = _whole(body)
        return [whole, *fact_pieces(body)] if pieces and max_chars is not None else [whole]
    spans = [piece for section in sections(body) for piece in _cut(body, section, max_chars)]
    if pack:
        spans = _packed(spans, max_chars)
    if not spans:
        return [_whole(body)]
    lines = _LineIndex(body)
    return [
        Passage(number, span.headings, body[span.start : span.end], lines.line_of(span.start), lines.line_of(span.end - 1),
                span.start)
        for number, span in enumerate(spans)
    ]


def _whole(body: str) -> Passage:
    """The body as one passage, byte for byte (its vector is then the note's own: embed_head)."""
    stripped = body.strip()
    if not stripped:
        return Passage(0, (), body, 1, 1)
    lines = _LineIndex(body)
    first = len(body) - len(body.lstrip())
    last = len(body.rstrip()) - 1
    return Passage(0, (), body, lines.line_of(first), lines.line_of(last))


# A list item's first line: `- `, `* `, `+ `, `1. ` or `1) ` after at most three spaces or tabs.
_LIST_ITEM = re.compile(r"^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S", re.MULTILINE)
FACT_PIECES_MIN = 2


def fact_pieces(body: str) -> list[Passage]:
    """A short note's facts, each a passage of its own (numbered from 1, after the whole note's
    passage 0): its paragraphs, and in a paragraph that is a list each item (with the lines under
    it), under their heading path; a heading line is in the path, not in a piece. None when the
    note holds fewer than :data:`FACT_PIECES_MIN` of them, or any code (a code block's blank
    lines are no break between facts).

    A daily note of three unrelated facts embedded whole is far from a question about one of
    them: "where did I park my car" is 0.047 from the whole note and 0.438 from its paragraph
    "Parked on level 3, row F at the airport garage." (WordLlama; adr/0004 "Facts of a short note")."""
    if code_ranges(body):
        return []
    spans = [span for section in sections(body) for span in _facts_of(body, section)]
    if len(spans) < FACT_PIECES_MIN:
        return []
    lines = _LineIndex(body)
    return [Passage(number, span.headings, body[span.start : span.end], lines.line_of(span.start),
                    lines.line_of(span.end - 1), span.start, piece=True)
            for number, span in enumerate(spans, start=1)]


def _facts_of(body: str, section: Section) -> list[_Span]:
    """The section's paragraphs (its heading line left out), a list's items one by one."""
    start = section.start
    if section.headings:  # a section with a heading path starts with its heading line
        line_end = body.find("\n", start, section.end)
        start = section.end if line_end < 0 else line_end + 1
    found: list[_Span] = []
    for paragraph in _small_parts_of(body, start, section.end):
        items = [match.start() for match in _LIST_ITEM.finditer(body, paragraph[0], paragraph[1])]
        if not items or items[0] != paragraph[0]:
            items = [paragraph[0]]
        for item_start, item_end in zip(items, [*items[1:], paragraph[1]], strict=True):
            trimmed = _strip(body, item_start, item_end)
            if trimmed is not None and _own_words(body[trimmed[0] : trimmed[1]]) >= FACT_WORDS_MIN:
                found.append(_Span(section.headings, trimmed[0], trimmed[1]))
    return found


# A link, an embed or a tag: a pointer to another note, not a fact of this one.
_POINTER = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|(?<!\w)#[\w/-]+")
_OWN_WORD = re.compile(r"[^\W\d_]{2,}")
FACT_WORDS_MIN = 4


def _own_words(text: str) -> int:
    """Words of ``text`` outside its links, embeds and tags: a list of links (a hub's
    ``- Deploys: [[deploy-harbor]]``, ``![[Books.base]]``) holds no fact of its own, and as a
    passage of its own it stood for the note it points to (benchmarks/PASSAGES.md)."""
    return len(_OWN_WORD.findall(_POINTER.sub(" ", text)))


def _small_parts_of(body: str, start: int, end: int) -> list[tuple[int, int]]:
    """The paragraphs of ``body[start:end]`` as (start, end), white space around them left out."""
    found: list[tuple[int, int]] = []
    position = start
    for match in [*_PARAGRAPH_BREAK.finditer(body, start, end), None]:
        stop = match.start() if match else end
        trimmed = _strip(body, position, stop)
        if trimmed is not None:
            found.append(trimmed)
        position = match.end() if match else end
    return found


def sections(body: str) -> list[Section]:
    """Heading sections in order, each from its heading line (text before the first heading
    has no heading path); blank space around a section is not part of it. Only the lines
    that may be headings (a ``#`` after at most three spaces or tabs, :func:`_heading_lines`)
    are read in Python: walking every line cost a 5 MB pasted log ~80 ms each time it was indexed."""
    code = code_ranges(body)
    code_starts = [code_start for code_start, _ in code]
    found: list[Section] = []
    path: list[tuple[int, str]] = []
    current_path: tuple[str, ...] = ()
    start = 0
    for offset, line in _heading_lines(body):
        holder = bisect.bisect_right(code_starts, offset) - 1
        heading = None if holder >= 0 and offset < code[holder][1] else HEADING_LINE.match(line)
        if heading and heading.group(2).strip():
            found.extend(_trimmed(body, current_path, start, offset))
            level = len(heading.group(1))
            path = [(depth, text) for depth, text in path if depth < level] + [(level, heading.group(2).strip())]
            current_path = tuple(text for _, text in path)
            start = offset
    found.extend(_trimmed(body, current_path, start, len(body)))
    return found


# A line HEADING_LINE may match: a # after at most three spaces or tabs.
_HEADING_START = re.compile(r"\n[ \t]{0,3}#")
_FIRST_HEADING_START = re.compile(r"[ \t]{0,3}#")


def _heading_lines(body: str) -> Iterator[tuple[int, str]]:
    """(offset, text up to its ``\\n``) of each line of ``body`` that may be a heading, in order."""
    first = [0] if _FIRST_HEADING_START.match(body) else []
    for start in [*first, *(match.start() + 1 for match in _HEADING_START.finditer(body))]:
        end = body.find("\n", start)
        yield start, body[start:] if end < 0 else body[start:end]


def _trimmed(body: str, headings: tuple[str, ...], start: int, end: int) -> list[Section]:
    """The section without the white space around it; nothing when it is all white space."""
    trimmed = _strip(body, start, end)
    if trimmed is None:
        return []
    return [Section(headings, trimmed[0], trimmed[1], body[trimmed[0] : trimmed[1]])]


def _cut(body: str, section: _Span, limit: int) -> list[_Span]:
    """Groups of whole paragraphs of at most ``limit`` characters (a longer paragraph by
    sentences, then by words)."""
    if section.end - section.start <= limit:
        return [section]
    parts: list[tuple[int, int]] = []
    position = section.start
    for match in [*_PARAGRAPH_BREAK.finditer(body, section.start, section.end), None]:
        end = match.start() if match else section.end
        parts.extend(_small_parts(body, position, end, limit))
        position = match.end() if match else section.end
    return [_Span(section.headings, start, end) for start, end in _grouped(parts, limit)]


def _small_parts(body: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """A paragraph as one part, or — longer than ``limit`` — its sentences, long ones by words."""
    trimmed = _strip(body, start, end)
    if trimmed is None:
        return []
    start, end = trimmed
    if end - start <= limit:
        return [(start, end)]
    sentences: list[tuple[int, int]] = []
    position = start
    for match in [*_SENTENCE_END.finditer(body, start, end), None]:
        stop = match.start() if match else end
        if stop - position <= limit:
            sentences.append((position, stop))
        else:
            words = [(word.start(), word.end()) for word in _WORD.finditer(body, position, stop)]
            sentences.extend(_grouped(words, limit))
        position = match.end() if match else end
    return _grouped(sentences, limit)


def _grouped(parts: Sequence[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    """Consecutive parts joined while the span they cover stays within ``limit`` characters."""
    groups: list[tuple[int, int]] = []
    for start, end in parts:
        if groups and end - groups[-1][0] <= limit:
            groups[-1] = (groups[-1][0], end)
        else:
            groups.append((start, end))
    return groups


def _packed(spans: Sequence[_Span], limit: int) -> list[_Span]:
    """Consecutive pieces joined while they fit in ``limit``; the first one's headings stay."""
    packed: list[_Span] = []
    for span in spans:
        if packed and span.end - packed[-1].start <= limit:
            packed[-1] = _Span(packed[-1].headings, packed[-1].start, span.end)
        else:
            packed.append(span)
    return packed


def _strip(body: str, start: int, end: int) -> tuple[int, int] | None:
    text = body[start:end]
    stripped = text.strip()
    if not stripped:
        return None
    first = start + (len(text) - len(text.lstrip()))
    return first, first + len(stripped)


class _LineIndex:
    """Line numbers (1-based) of character offsets in one text."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


# ------------------------------------------------------------------ what a passage's vector is made from


def embed_head(title: str, headings: Sequence[str], props_text: str = "") -> str:
    """``title > heading > subheading``, then ``props_text`` (the first passage's properties) on
    the next lines. A heading that repeats the title is left out of the path."""
    path = [heading for heading in headings if heading != title]
    head = " > ".join([title, *path])
    return f"{head}\n{props_text}" if props_text else head


def embed_text(head: str, text: str) -> str:
    """A passage's embedded text: its head, a blank line, its text. A one-passage note without
    properties embeds ``title\\n\\nbody``, exactly the whole note's text."""
    return f"{head}\n\n{text}"


def piece_text(head: str, text: str) -> str:
    """A fact piece's embedded text (:func:`fact_pieces`): its head and its text on one line,
    every run of white space one space. WordLlama's vector is the mean of its tokens', and a line
    break is a token of its own with a large vector of the same direction in every text: in a
    one-line fact the two of ``head\n\ntext`` weighed as much as its words ("where did I park my
    car": 0.438 from "Parked on level 3, row F at the airport garage.", 0.127 from the same after
    a blank line, 0.369 after ``2026-12-02`` and a space, 0.101 after ``2026-12-02`` and a blank
    line). Only a piece is embedded so: a passage's share of the whole note's vector, whose
    thresholds consolidation measured (adr/0010), keeps its text as written."""
    return " ".join(f"{head}\n{text}".split())
