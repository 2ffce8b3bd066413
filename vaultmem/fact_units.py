"""The short pieces of a passage a fact is said in: its sentences, and each two in a row.

``remember``'s ``similar`` compares a new one-line memory with a person's note (no layer) by
the piece of the note that says the most nearly the same (adr/0010, "`similar` names your
notes by their sentences"). A whole note, and even a passage (up to 1,000 characters, with
its title and properties), holds several facts: WordLlama's mean of their tokens put a fact
said twice at 0.2–0.6, below unrelated pairs. A sentence alone says one; two in a row keep
a sentence whose subject is in the one before it ("Went climbing with Priya. She says …").

Pure: text in, pieces (with the line of the passage each starts on) out.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from .markdown import HEADING_LINE

MIN_WORDS = 3  # a piece with fewer words ("My mother.", "## Log") says too little to compare
MAX_PIECES = 64  # per passage: a passage is at most ~1,000 characters; a list of short items stays under this
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？])\s+")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:[A-Z][a-z]{0,3}|[a-z]\.[a-z]|etc|vs|approx)\.$")  # "Dr.", "St.", "e.g.": no sentence end
_WIKILINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")  # [[target|shown]] → shown, as the note reads
_MARKUP = re.compile(r"`|\*\*|__|==")  # code and emphasis marks: not words of the sentence
_LINE_MARKER = re.compile(r"^\s*(?:[-*+]\s+\[.\]\s+|[-*+]\s+|\d+[.)]\s+|#{1,6}\s+|>\s*)+")


@dataclass(frozen=True)
class Piece:
    """A sentence (or two in a row) of a passage, and the passage's line (0-based) it starts on."""

    text: str  # as embedded: a [[link]] as the text it shows, code and emphasis marks dropped
    shown: str  # as the file has it
    line: int
    last_line: int
    headings: tuple[str, ...] = ()  # the headings above it within the passage, outermost first


def pieces_of(text: str) -> list[Piece]:
    """Each line's sentences of ``MIN_WORDS`` words or more, then each two sentences in a row
    of one line; at most ``MAX_PIECES``, in the passage's order. A heading line is no piece:
    it is the path of the pieces below it."""
    found: list[Piece] = []
    path: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines()):
        heading = HEADING_LINE.match(line)
        if heading and heading.group(2).strip():
            level = len(heading.group(1))
            path = [(depth, name) for depth, name in path if depth < level] + [(level, heading.group(2).strip())]
            continue
        headings = tuple(name for _, name in path)
        shown = _sentences(_LINE_MARKER.sub("", line).strip())
        sentences = [_MARKUP.sub("", _WIKILINK.sub(r"\1", sentence)) for sentence in shown]
        found.extend(Piece(sentence, raw, number, number, headings) for sentence, raw in zip(sentences, shown, strict=True)
                     if _says_something(sentence))
        found.extend(Piece(f"{first} {second}", f"{shown[at]} {shown[at + 1]}", number, number, headings)
                     for at, (first, second) in enumerate(itertools.pairwise(sentences))
                     if _words(first) + _words(second) >= MIN_WORDS)
    return found[:MAX_PIECES]


def heading_path(outer: tuple[str, ...], inner: tuple[str, ...]) -> tuple[str, ...]:
    """The headings of a piece: its passage's path (``outer``, as the index keeps it) joined with
    those above it inside the passage (``inner``). A passage cut at a heading starts with that
    heading, the last of its own path: it is said once."""
    if inner and outer and outer[-1] == inner[0]:
        return (*outer[:-1], *inner)
    return (*outer, *inner)


def _sentences(line: str) -> list[str]:
    """A line's sentences; a cut after an abbreviation is joined again ("Maya's dentist is Dr. Sousa.")."""
    found: list[str] = []
    for part in (part for part in _SENTENCE_END.split(line) if part):
        if found and _ABBREVIATION.search(found[-1]):
            found[-1] = f"{found[-1]} {part}"
        else:
            found.append(part)
    return found


def _says_something(sentence: str) -> bool:
    """Words enough, and not a lead-in to what follows ("Chuck needs to:" stood at 0.70 to a
    memory of Chuck's email: a name and nothing it says)."""
    return _words(sentence) >= MIN_WORDS and not sentence.endswith(":")


def _words(text: str) -> int:
    return len(text.split())
