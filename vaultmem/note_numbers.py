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
from datetime import date
from pathlib import PurePosixPath

from .jalali import YEARS as SOLAR_HIJRI_YEARS

TIMESTAMP_ID = re.compile(r"\d{12}|\d{14}")  # YYYYMMDDHHmm(ss)
JOHNNY_DECIMAL_ID = re.compile(r"\d{2}\.\d{2}")  # AC.ID
TIMESTAMP_ID_KIND = "timestamp id"
JOHNNY_DECIMAL_KIND = "Johnny.Decimal id"
_LEADING_NUMBER = re.compile(r"\d{2}\.\d{2}|\d{14}|\d{12}")


_COMPACT_DAY = re.compile(r"(\d{4})(\d{2})(\d{2})")  # YYYYMMDD: ISO 8601's basic format of a day


def compact_day(text: str, solar_hijri: bool = False) -> tuple[int, int, int] | None:
    """The (year, month, day) eight digits are (``20261203``: ISO 8601's basic format, as a daily note named
    ``YYYYMMDD`` spells it and as a timestamp id's first eight digits date a zettel), or None:
    not eight digits, or no calendar day (``12345678``). A day, not a note's number: a NOTE of
    eight digits names the note named for that day (resolution step 6), as ``2026-12-03`` does;
    a timestamp id (12 or 14 digits) names the note whose file name begins with it. Was (stop
    37's leftover): ``get 20261203`` said no note matches beside ``2026-12-03.md``. As (year,
    month, day) of the calendar written in (``solar_hijri``: a Solar Hijri year's day is checked as
    one of that calendar by who reads it, jalali.gregorian_day)."""
    found = _COMPACT_DAY.fullmatch(text.strip())
    if found is None:
        return None
    parts = (int(found[1]), int(found[2]), int(found[3]))
    if solar_hijri and parts[0] in SOLAR_HIJRI_YEARS:
        return parts if 1 <= parts[1] <= 12 and 1 <= parts[2] <= 31 else None
    try:
        date(*parts)
    except ValueError:
        return None
    return parts


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
