"""What a merge adds to the canonical note's text, so that no fact leaves recall (adr/0019).

Consolidation keeps the longest note of a cluster and archives the others. A shorter
duplicate can still hold a fact the longest one lacks ("ask Dana before upgrading,
ticket QX-7731"); archived, that fact would be found by nobody. So the canonical's body
gets, at its end, the lines of each merged note that it does not already contain, under
a small heading naming the source note. Pure functions over text; consolidate.py shows
them in its dry run and appends them when it applies.

Rules:
- A *unit* is a non-blank line, or a whole fenced code block (keeping half of a fence
  would swallow the rest of the note). Lines, not paragraphs: a memory often holds one
  fact per line without blank lines between them, and a paragraph that repeats one
  known sentence would bring it back twice. The lines of a paragraph whose every line
  is new stay together, so a hard-wrapped paragraph reads as it did.
- A unit is already there when its words, in order — without list, quote and checkbox
  markers, punctuation and case; line breaks do not count — appear in the canonical's
  text (or in what an earlier merged note of the cluster added). Units without a
  letter or digit (rules, lone markers) carry no fact and are left out, as is a heading
  that only repeats the merged note's title (its title is recorded in ``aliases``).
- Kept units keep their own text; a blank line in the source between two kept units is
  kept too. A level-1 heading becomes level 2: the canonical's own ``# heading`` (often
  the title written inline, as Obsidian users do) stays its only one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .markdown import HEADING_LINE, code_ranges
from .notes import Note

_MARKERS = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?")
_H1 = re.compile(r"^([ \t]{0,3})#(?=[ \t])")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Addition:
    """The lines of one merged note that the canonical note did not contain."""

    path: str  # the merged note's path before it was archived
    title: str
    lines: tuple[str, ...]  # as appended ("" marks a blank line between kept units)

    def section(self) -> str:
        return f'### Merged from "{self.title}" ({self.path})\n\n' + "\n".join(self.lines)


def additions(canonical: Note, merged: Sequence[Note]) -> list[Addition]:
    """For each merged note, in order, the units the canonical (plus what came before) lacks."""
    known = f" {normalize(canonical.body)} "
    found: list[Addition] = []
    for note in merged:
        lines: list[str] = []
        gap = False
        for unit, blank_before in _units(note.body):
            key = normalize(unit)
            if not key or f" {key} " in known or _repeats_title(unit, note.title):
                gap = gap or blank_before
                continue
            if lines and (gap or blank_before):
                lines.append("")
            lines.append(_H1.sub(r"\1##", unit))
            known += f"| {key} "
            gap = False
        if lines:
            found.append(Addition(note.path, note.title, tuple(lines)))
    return found


def appended_text(found: Sequence[Addition]) -> str:
    """What is appended to the canonical's body: each addition's section, a blank line apart."""
    return "\n\n".join(addition.section() for addition in found)


def normalize(text: str) -> str:
    """The words of ``text`` in order, without line markers, punctuation or case ("is it there?")."""
    return " ".join(_WORD.findall(" ".join(_MARKERS.sub("", line) for line in text.split("\n")))).casefold()


def _repeats_title(unit: str, title: str) -> bool:
    heading = HEADING_LINE.match(unit)
    return heading is not None and heading.group(2).strip().casefold() == title.strip().casefold()


def _units(body: str) -> Iterator[tuple[str, bool]]:
    """(unit, whether a blank line came before it) for each non-blank line or fenced block."""
    fences = {start: end for start, end in code_ranges(body) if "\n" in body[start:end]}  # blocks start a line
    offset = 0
    inside_until = -1
    blank_before = False
    for line in body.split("\n"):
        line_start, offset = offset, offset + len(line) + 1
        if line_start < inside_until:
            continue  # a line of the fenced block just yielded
        if line_start in fences:
            inside_until = fences[line_start]
            yield body[line_start:inside_until], blank_before
            blank_before = False
        elif line.strip():
            yield line.rstrip(), blank_before
            blank_before = False
        else:
            blank_before = True
