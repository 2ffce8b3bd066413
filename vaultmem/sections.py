"""One section of a note, as an Obsidian link to it names it (``get "Note#Heading"``, adr/0019 "section").

``Note#Heading`` names the heading and what follows it up to the next heading of the same or a
higher level (a ``#`` fewer or as many), as Obsidian embeds ``![[Note#Heading]]``;
``Note#H1#H2`` a heading under another, at any depth below it, as Obsidian writes a nested
heading's link; ``Note#^block-id`` the block carrying `` ^block-id``: its paragraph, its list item
with the items under it, or — the id alone on its line, as Obsidian places it under a table or a
quote — the block above it. A ``#`` line in a fenced code block is no heading.

A heading is compared as written first (Obsidian's own heading links are matched so: a plugin's
author found heading and block links case-sensitive where note names are not — Obsidian's help
says nothing either way), then, when no heading is spelled so, in any case: an agent that
lower-cased a heading reads the section, told the heading is spelled otherwise. The characters
Obsidian leaves out of a link (``# | ^ : %% [[ ]]``) and runs of white space are compared as one
space. Several headings of one name: the first, as Obsidian's link goes to the first.

Pure functions over a body: the text given back is a slice of it, never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import SectionNotFound
from .markdown import HEADING_LINE, fenced_blocks

_NOT_IN_LINKS = re.compile(r"(?:[#|^:\[\]]|%%)+")  # what Obsidian drops from a heading's link
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$")
_LIST_ITEM = re.compile(r"([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # as written, closing #s left out
    line: int  # index of its line in the body's lines


@dataclass(frozen=True)
class Section:
    """A part of a note's body: the heading path or block id that names it, its lines in the
    file (1-based, inclusive) and its text as the body holds it."""

    anchor: str  # as the caller gave it, after the note's name and its '#'
    headings: tuple[str, ...]  # the heading path as the file writes it; () for a block
    block: str | None  # the block id, without ^
    first_line: int
    last_line: int
    text: str
    other_case: bool = False  # found only in another case than the one asked for

    def as_dict(self) -> dict[str, Any]:
        return {"anchor": self.anchor, "headings": list(self.headings), "block": self.block,
                "lines": [self.first_line, self.last_line], "other_case": self.other_case}

    def describe(self, path: str) -> str:
        """``the section 'Eigenvalues' of x.md, lines 5–9``: what get shows, said first."""
        named = f"the block ^{self.block}" if self.block is not None else "the section " + " > ".join(
            repr(heading) for heading in self.headings)
        spelled = " (found in another case: the file spells it so)" if self.other_case else ""
        return f"{named} of {path}, lines {self.first_line}–{self.last_line}{spelled}"


def find_section(path: str, body: str, body_line: int, anchor: str) -> Section:
    """The section ``anchor`` (``H1#H2`` or ``^block-id``) names in ``body`` (whose first line is
    the file's ``body_line``); :class:`SectionNotFound` naming the note's headings or blocks."""
    lines = _lines(body)
    code_lines = _code_lines(body)
    wanted = anchor.strip()
    if wanted.startswith("^"):
        return _block(path, lines, code_lines, body_line, anchor, wanted[1:].strip())
    parts = [part for part in wanted.split("#") if part.strip()]
    if not parts:
        raise SectionNotFound(path, anchor, [heading.text for heading in outline(lines, code_lines)])
    return _under_headings(path, lines, code_lines, body_line, anchor, parts)


def outline(lines: Sequence[str], code_lines: frozenset[int]) -> list[Heading]:
    """The ATX headings of ``lines``, in order, those in fenced code left out."""
    found = []
    for number, line in enumerate(lines):
        if number in code_lines or "#" not in line[:4 + 6]:
            continue
        heading = HEADING_LINE.match(line.rstrip("\r\n"))
        if heading is not None and heading.group(2).strip():
            found.append(Heading(len(heading.group(1)), heading.group(2).strip(), number))
    return found


def _under_headings(path: str, lines: Sequence[str], code_lines: frozenset[int], body_line: int, anchor: str,
                    parts: Sequence[str]) -> Section:
    headings = outline(lines, code_lines)
    chosen: list[Heading] = []
    other_case = False
    candidates = headings
    for part in parts:
        found, by_case = _first_named(candidates, part)
        if found is None:
            raise SectionNotFound(path, anchor, [heading.text for heading in headings], missing=part)
        chosen.append(found)
        other_case = other_case or by_case
        candidates = _below(headings, found)
    last = chosen[-1]
    end = next((heading.line for heading in headings if heading.line > last.line and heading.level <= last.level),
               len(lines))
    return _cut(lines, body_line, last.line, end, anchor, tuple(heading.text for heading in chosen), None, other_case)


def _first_named(headings: Sequence[Heading], name: str) -> tuple[Heading | None, bool]:
    """The first heading named ``name`` as written, else in any case (and whether it took that);
    ``name`` with an attribute block (``Preface {-}``) names the heading without it, as Obsidian,
    which reads no such blocks, links it (review, s34: the block left the name, the link failed)."""
    found, by_case = _first_named_as_given(headings, name)
    unattributed = HEADING_LINE.match("# " + name.strip())
    if found is None and unattributed is not None and unattributed.group(2).strip() != name.strip():
        return _first_named_as_given(headings, unattributed.group(2))
    return found, by_case


def _first_named_as_given(headings: Sequence[Heading], name: str) -> tuple[Heading | None, bool]:
    key = _link_form(name)
    exact = next((heading for heading in headings if _link_form(heading.text) == key), None)
    if exact is not None:
        return exact, False
    folded = key.casefold()
    return next((heading for heading in headings if _link_form(heading.text).casefold() == folded), None), True


def _below(headings: Sequence[Heading], parent: Heading) -> list[Heading]:
    """The headings inside ``parent``'s section (deeper, before the next of its level or higher)."""
    inside = []
    for heading in headings:
        if heading.line <= parent.line:
            continue
        if heading.level <= parent.level:
            break
        inside.append(heading)
    return inside


def _link_form(text: str) -> str:
    return " ".join(_NOT_IN_LINKS.sub(" ", text).split())


def _block(path: str, lines: Sequence[str], code_lines: frozenset[int], body_line: int, anchor: str,
           block_id: str) -> Section:
    carrying = {number: match.group(1) for number, line in enumerate(lines)
                if number not in code_lines and "^" in line and (match := _BLOCK_ID.search(line.rstrip("\r\n")))}
    number = next((number for number, found in carrying.items() if found == block_id), None)
    other_case = number is None
    if number is None:
        number = next((number for number, found in carrying.items() if found.casefold() == block_id.casefold()), None)
    if number is None:
        raise SectionNotFound(path, anchor, [f"^{found}" for found in carrying.values()], block=True)
    start, end = _block_lines(lines, number)
    return _cut(lines, body_line, start, end, anchor, (), carrying[number], other_case)


def _block_lines(lines: Sequence[str], number: int) -> tuple[int, int]:
    """(first, end) line indexes of the block the id on line ``number`` marks."""
    line = lines[number]
    if line.strip().startswith("^"):  # the id on a line of its own: the block above it (a table, a quote)
        start = number
        while start > 0 and not lines[start - 1].strip():
            start -= 1
        while start > 0 and lines[start - 1].strip():
            start -= 1
        return start, number + 1
    item = _LIST_ITEM.match(line)
    if item is not None:  # a list item, with the lines indented under it
        indent = len(item.group(1).expandtabs(4))
        end = number + 1
        while end < len(lines) and lines[end].strip() and _indent(lines[end]) > indent:
            end += 1
        return number, end
    start = number  # a paragraph: from the blank line (or heading) above it
    while start > 0 and lines[start - 1].strip() and HEADING_LINE.match(lines[start - 1].rstrip("\r\n")) is None:
        start -= 1
    return start, number + 1


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


def _cut(lines: Sequence[str], body_line: int, start: int, end: int, anchor: str, headings: tuple[str, ...],
         block: str | None, other_case: bool) -> Section:
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # the blank lines before the next heading are no part of the section
    return Section(anchor, headings, block, body_line + start, body_line + end - 1, "".join(lines[start:end]),
                   other_case)


def _lines(body: str) -> list[str]:
    """The body's lines with their ends, split at \\n alone (as the file's lines are counted:
    ``str.splitlines`` also splits at a form feed or U+2028, and the line numbers would drift)."""
    parts = body.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _code_lines(body: str) -> frozenset[int]:
    """The indexes of the lines inside fenced code blocks (fence lines too)."""
    if "```" not in body and "~~~" not in body:
        return frozenset()
    numbers: set[int] = set()
    for start, end in fenced_blocks(body):
        first = body.count("\n", 0, start)
        numbers.update(range(first, first + body.count("\n", start, end) + 1))
    return frozenset(numbers)
