"""A conversation turn and the turns said before it (pure): what a reply's full-text rows also hold.

A vault made of a conversation, one note per turn (a chat export, a benchmark of dialogues
turned into notes), answers a question with a turn that does not repeat what it answers:
"Mostly visit the museums and take a cooking class" answers "what did Ben plan to do in
Mexico City?", and the city is named two turns before it ("Okay, it's official: Mexico City,
next month." — "What's the plan once you're there?"). So a turn's full-text rows hold, in a
column of their own weighing half its own text (storage.passages BM25_WEIGHTS), the text of
the :data:`CONTEXT_TURNS` turns before it in its folder. Only the full text: embedded with its
neighbours, a turn's vector is the neighbours' more than its own (benchmarks/PASSAGES.md §7).

A note is a **turn** when its properties name who said it (:data:`SPEAKER_KEYS`); its folder's
turns are in the order of their file names, numbers read as numbers (``D1_9`` before ``D1_10``),
the order a chat export names them in. A note that names no speaker (a reference, a manual's
page, a daily note) is no turn: it holds nothing of its neighbours and gives them nothing — a
folder of references in alphabetical order is no conversation (§21: neighbours by file name
cost the manuals and the references). See adr/0004, "A turn and the turns before it".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

# Properties that say who said a note's text, as conversation exports write them: a dialogue's
# `speaker`, a chat or mail export's `sender` and `from`. Not `author`: a reference's author
# (kepano's `References/`) wrote the book, not the note before it.
SPEAKER_KEYS = frozenset({"speaker", "sender", "from"})
CONTEXT_TURNS = 2  # turns before a turn that its rows hold (measured: 1, 2, 3; PASSAGES.md §32)
CONTEXT_CHARS = 1000  # of each: a turn is a sentence or a few; a pasted page says its own words
_NUMBER = re.compile(r"(\d+)")


def is_turn(props_text: str) -> bool:
    """Do these properties (``key: value`` lines, fields.SearchFields.props_text) name a speaker?"""
    for line in props_text.splitlines():
        key, colon, value = line.partition(":")
        if colon and value.strip() and key.strip().casefold() in SPEAKER_KEYS:
            return True
    return False


def turn_order(path: str) -> tuple[str, list[tuple[int, str]]]:
    """A note's folder, then its file name with its numbers read as numbers: a folder's turns in this order."""
    folder = str(PurePosixPath(path).parent)
    name = PurePosixPath(path).name.casefold()
    return folder, [(int(part), "") if part.isdigit() else (0, part) for part in _NUMBER.split(name) if part]


def folders_of(paths: Sequence[str]) -> set[str]:
    return {str(PurePosixPath(path).parent) for path in paths}


def contexts(turns: Sequence[int], texts: Mapping[int, str]) -> dict[int, str]:
    """For each turn of one folder (note labels, in :func:`turn_order`), the text of the
    :data:`CONTEXT_TURNS` turns before it, oldest first, each cut at :data:`CONTEXT_CHARS`
    (``texts``: each turn's text); the folder's first turn holds none."""
    found: dict[int, str] = {}
    for position, label in enumerate(turns):
        before = turns[max(0, position - CONTEXT_TURNS):position]
        found[label] = " \n ".join(texts.get(other, "")[:CONTEXT_CHARS] for other in before)
    return found
