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

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence

# Properties that say who said a note's text, as conversation exports write them: a dialogue's
# `speaker`, a chat or mail export's `sender` and `from`. Not `author`: a reference's author
# (kepano's `References/`) wrote the book, not the note before it.
SPEAKER_KEYS = frozenset({"speaker", "sender", "from"})
CONTEXT_TURNS = 2  # turns before a turn that its rows hold (measured: 1, 2, 3; PASSAGES.md §36)
CONTEXT_CHARS = 1000  # of each: a turn is a sentence or a few; a pasted page says its own words
_NUMBER = re.compile(r"(\d+)")


def is_turn(props_text: str) -> bool:
    """Do these properties (``key: value`` lines, fields.SearchFields.props_text) name a speaker?"""
    for line in props_text.splitlines():
        key, colon, value = line.partition(":")
        if colon and value.strip() and key.strip().casefold() in SPEAKER_KEYS:
            return True
    return False


@functools.lru_cache(maxsize=65536)  # a watcher orders a folder's turns at every edit: its paths read once
def turn_order(path: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """A note's folder, then its file name with its numbers read as numbers: a folder's turns in this order."""
    folder, _, name = path.rpartition("/")
    return folder, tuple((int(part), "") if part.isdecimal() else (0, part) for part in _NUMBER.split(name.casefold()) if part)


def order_key(path: str) -> bytes:
    """:func:`turn_order` as bytes that sort as it does when compared byte by byte (as SQLite
    compares a BLOB): the index keeps each turn's, so that an edit reads the few turns around
    it by their place instead of its whole folder's (storage.notes, ``turn_key``). Equal keys iff
    equal orders. Each part ends where no longer part begins with it (a text ends in a NUL,
    which no path holds; a number is its count of digits, then them), so a name sorts before
    the names it begins."""
    folder, parts = turn_order(path)
    return _ended(folder) + b"".join(_number(number) + _ended(text) for number, text in parts)


def folder_keys(folder: str) -> tuple[bytes, bytes]:
    """The keys of the turns right in ``folder`` (:func:`order_key`; not its subfolders') are from
    the first of these on and before the second."""
    start = _ended(folder)
    return start, start[:-1] + b"\x01"


def _ended(text: str) -> bytes:
    # surrogatepass: a file name read with the surrogateescape of a name not in UTF-8; its
    # bytes sort where its code points do, as every other character's UTF-8 does.
    return text.encode("utf-8", "surrogatepass") + b"\x00"


def _number(number: int) -> bytes:
    digits = str(number).encode("ascii")
    return len(digits).to_bytes(4, "big") + digits


def affected(keys: Sequence[tuple[str, tuple[tuple[int, str], ...]]], changed: Sequence[str]) -> set[int]:
    """The positions among ``keys`` (one folder's turns' :func:`turn_order`, sorted) whose turns
    before them may have changed when the notes at ``changed`` paths of that folder were added,
    edited or removed (turns or not: one may have stopped being a turn): each such note's place
    and the :data:`CONTEXT_TURNS` turns after it. Names whose numbers read alike (``D1_10`` and
    ``D1_010``) share a place, in the order they were indexed: each such note's place is any of
    theirs, so all of them and the turns after the last are reached — without it the second turn
    after the later one kept the old text of an edited one."""
    found: set[int] = set()
    for path in changed:
        order = turn_order(path)
        first, after = bisect_left(keys, order), bisect_right(keys, order)
        found.update(range(first, min(len(keys), max(first + 1, after) + CONTEXT_TURNS)))
    return found


def turns_before(turns: Sequence[int], position: int) -> Sequence[int]:
    """The :data:`CONTEXT_TURNS` turns before the one at ``position`` of a folder's ``turns``, oldest first."""
    return turns[max(0, position - CONTEXT_TURNS):position]


def context(before: Sequence[int], texts: Mapping[int, str]) -> str:
    """What a turn's rows hold of the turns ``before`` it: their texts, each cut at :data:`CONTEXT_CHARS`."""
    return " \n ".join(texts.get(label, "")[:CONTEXT_CHARS] for label in before)
