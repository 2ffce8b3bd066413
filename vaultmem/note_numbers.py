"""A note's number: the id a Zettelkasten or Johnny.Decimal gives a note at the start of its name.

A Zettelkasten's timestamp id (``202403141205``, 12 or 14 digits: Obsidian's unique note
creator, Zettlr, The Archive) and a Johnny.Decimal id (``11.01``: area-category 11, item 01) open
a note's file name (``202403141205 Spaced repetition.md``, ``11.01 Grant proposal.md``) and name
the note for good: Zettlr's and The Archive's ``[[202403141205]]`` links by it alone. One
definition, read by resolution (``get 202403141205``), links (consolidate's rewrite of such a
link), dating (the day a zettel was made) and the ranking (a query that is the number names the
note). Pure.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

TIMESTAMP_ID = re.compile(r"\d{12}|\d{14}")  # YYYYMMDDHHmm(ss)
JOHNNY_DECIMAL_ID = re.compile(r"\d{2}\.\d{2}")  # AC.ID
TIMESTAMP_ID_KIND = "timestamp id"
JOHNNY_DECIMAL_KIND = "Johnny.Decimal id"
_LEADING_NUMBER = re.compile(r"\d{2}\.\d{2}|\d{14}|\d{12}")


def number_kind(text: str) -> str | None:
    """``TIMESTAMP_ID_KIND`` or ``JOHNNY_DECIMAL_KIND`` when ``text`` is such a number, else None."""
    if TIMESTAMP_ID.fullmatch(text) is not None:
        return TIMESTAMP_ID_KIND
    return JOHNNY_DECIMAL_KIND if JOHNNY_DECIMAL_ID.fullmatch(text) is not None else None


def file_name_id(reference: str) -> tuple[str, str] | None:
    """``reference`` (spaces around it dropped) and which kind of number it is, when it is a
    timestamp id or a Johnny.Decimal id; ``None`` for any other name (``3.14``, ``10.01.2026``,
    ``1.2``). Resolution finds a live note so, and the archive once no live note answers
    (resolution.archived_named)."""
    wanted = reference.strip()
    kind = number_kind(wanted)
    return None if kind is None else (wanted, kind)


def begins_with_number(file_name: str, number: str) -> bool:
    """``file_name`` begins with ``number`` and the number ends there: no digit follows, nor a
    dot and a digit (``11.01.2`` is another number than ``11.01``; ``11.01.md`` is not)."""
    rest = file_name[len(number):]
    return file_name.startswith(number) and not rest[:1].isdigit() and not (rest[:1] == "." and rest[1:2].isdigit())


def leading_number(path: str) -> str | None:
    """The number the file's name begins with (``202403141205`` of ``202403141205 Idea.md``,
    ``11.01`` of ``Work/11.01 Grant.md``), or None."""
    name = PurePosixPath(path).name
    match = _LEADING_NUMBER.match(name)
    return match.group() if match is not None and begins_with_number(name, match.group()) else None
