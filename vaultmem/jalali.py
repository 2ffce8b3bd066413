"""Days of the Solar Hijri (Jalali) calendar, which Iran and Afghanistan write, read as the
Gregorian days vaultmem keeps (pure). See adr/0026, "Solar Hijri days".

A Persian vault names and dates its notes in that calendar: ``۱۴۰۳/۰۵/۱۲``, or ``1403-05-12.md``
as the Persian Calendar plugin names a day's note. Read as it stood, ``1403-05-12`` is a day
six centuries ago: a trial on a Persian vault listed its journal last and ``--since 2024`` left
it out, and ``remember --date ۱۴۰۳/۰۵/۱۲`` wrote ``date: 1403-05-12``. vaultmem keeps Gregorian
days; it converts a Solar Hijri day where the vault says that calendar names its notes
(daily_format: the Persian Calendar plugin turned on), and elsewhere refuses one written with
Persian digits, naming the Gregorian day it is (:func:`solar_hijri_said`).

The conversion is the arithmetic of the Jalaali calendar (Borkowski's, as jalaali-js and the
Persian Calendar plugin compute it): each year's start from the breaks of its 33-year cycles.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

# The Solar Hijri years a note of today is written in (1403 is 2024–25): a day with such a year
# and Persian digits is no Gregorian day of the 14th century.
YEARS = range(1300, 1500)
# The years the cycles below were fitted to (jalaali-js's range).
_BREAKS = (-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192, 2262, 2324, 2394, 2456, 3178)
_PERSIAN_DIGITS = re.compile("[\u06f0-\u06f9]")
_ARABIC_DIGITS = re.compile("[\u0660-\u0669]")
# A day written year first: ۱۴۰۳/۰۵/۱۲, ۱۴۰۳-۵-۱۲, 1403.05.12 (any digits; the year read alone).
_YEAR_FIRST = re.compile(r"\s*(\d{4})\s*([-/.])\s*(\d{1,2})\s*\2\s*(\d{1,2})\s*")


def _div(a: int, b: int) -> int:
    return int(a / b)  # towards zero, as the JavaScript the arithmetic comes from divides


def _mod(a: int, b: int) -> int:
    return a - _div(a, b) * b


def _year_start(year: int) -> tuple[date, bool]:
    """The Gregorian day 1 Farvardin of ``year`` is, and whether ``year`` is a leap year."""
    if not _BREAKS[0] <= year < _BREAKS[-1]:
        raise ValueError(f"year {year} is outside the Solar Hijri years {_BREAKS[0]} to {_BREAKS[-1] - 1}")
    gregorian = year + 621
    leaps = -14
    previous = _BREAKS[0]
    jump = 0
    for brk in _BREAKS[1:]:
        jump = brk - previous
        if year < brk:
            break
        leaps += _div(jump, 33) * 8 + _div(_mod(jump, 33), 4)
        previous = brk
    since = year - previous
    leaps += _div(since, 33) * 8 + _div(_mod(since, 33) + 3, 4)
    if _mod(jump, 33) == 4 and jump - since == 4:
        leaps += 1
    gregorian_leaps = _div(gregorian, 4) - _div((_div(gregorian, 100) + 1) * 3, 4) - 150
    march = 20 + leaps - gregorian_leaps
    if jump - since < 6:
        since = since - jump + _div(jump + 4, 33) * 33
    leap = _mod(_mod(since + 1, 33) - 1, 4)
    return date(gregorian, 3, march), leap == 0


def gregorian_day(year: int, month: int, day: int) -> date:
    """The Gregorian day that Solar Hijri ``year``/``month``/``day`` is (1403/05/12 →
    2024-08-02); ValueError when it is no day of that calendar (1403/07/31, 1402/12/30)."""
    if not 1 <= month <= 12:
        raise ValueError(f"month {month} is not 1 to 12")
    start, leap = _year_start(year)
    days = 31 if month <= 6 else 30 if month <= 11 else 30 if leap else 29
    if not 1 <= day <= days:
        raise ValueError(f"day {day} is not 1 to {days} in month {month} of {year}")
    return start + timedelta(days=(month - 1) * 31 - _div(month, 7) * (month - 7) + day - 1)


def solar_hijri_said(text: object) -> str:
    """Why ``text`` is no Gregorian day, if it is a day written year first in Persian or
    Arabic-Indic digits with a year of :data:`YEARS` (``۱۴۰۳/۰۵/۱۲``): in Persian digits a Solar
    Hijri day, named with the Gregorian day it is; in Arabic-Indic ones perhaps a lunar Hijri
    day, which vaultmem does not convert. ``""``: not such a text."""
    if not isinstance(text, str) or text.isascii():
        return ""
    found = _YEAR_FIRST.fullmatch(text)
    persian, arabic = _PERSIAN_DIGITS.search(text), _ARABIC_DIGITS.search(text)
    if found is None or not (persian or arabic) or int(found[1]) not in YEARS:
        return ""
    if arabic and not persian:
        return "a Hijri year, which vaultmem does not convert: it reads Gregorian days only"
    try:
        day = gregorian_day(int(found[1]), int(found[3]), int(found[4]))
    except ValueError as why:
        return f"a Solar Hijri (Jalali) year, but {why}"
    return f"a Solar Hijri (Jalali) day: {day.isoformat()} in the Gregorian calendar vaultmem reads"


def solar_hijri_parts(value: object) -> tuple[int, int, int] | None:
    """(year, month, day) of a date property's value that is a day written year first with a year
    of :data:`YEARS` — a YAML date (``date: 1403-05-12`` unquoted) or a text in any digits
    (``"1403/05/12"``, ``۱۴۰۳-۰۵-۱۲``, ``1403-02-31``, which YAML keeps as text) — as a vault
    whose daily notes the Persian Calendar plugin names writes its days; None for anything else
    (a time of day too: read as it stands)."""
    if isinstance(value, datetime):
        return None
    if isinstance(value, date):
        parts = (value.year, value.month, value.day)
    elif isinstance(value, str) and (found := _YEAR_FIRST.fullmatch(value)) is not None:
        parts = (int(found[1]), int(found[3]), int(found[4]))
    else:
        return None
    return parts if parts[0] in YEARS else None


def said_day(reason: str) -> str:
    """The Gregorian day a reason of :func:`solar_hijri_said` names (``""``: none)."""
    found = re.search(r"\d{4}-\d\d-\d\d", reason)
    return found[0] if found else ""
