"""A day spelled in text as people and daily-note tools write it: ``2026-11-30``, ``20261130``,
``November 30, 2026``, ``30. November 2026``, ``2026年11月30日``. Read by dating.py (a file name's
day, a date property in words) and by notes.py, below it: ``check`` must not call a ``created``
that dates the note "invalid" (a trial: ``created: Sunday, January 5, 2026 at 8:15 PM`` dated the
note on 2026-01-05 while ``check`` called it an invalid timestamp). Pure functions over text.

:func:`value_date` is the one reader of a date property's value — ``date``, ``created`` and the
vault's own names — for dating.py's note date and for notes.created_moment, which the index's
``created_us`` (``stale``), ``check``, consolidation's oldest-created rule and ``revise`` read: a
second parser of ``created`` had the index read only a timestamp where the note's date read words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from .errors import InvalidTimestamp
from .fields import name_form
from .jalali import YEARS as SOLAR_HIJRI_YEARS
from .jalali import gregorian_day, solar_hijri_parts
from .lifecycle import is_absent, parse_timestamp
from .month_names import ENGLISH_WORD_NAMES, month_spellings, named_month
from .periods import YEAR, Span, iso_span, span_of

SPELLED_DAY_CHARS = 300  # a longer text is not read for a day (a property's text, not a page)
# A day in a file name, as daily-note tools write it: 2026-11-30 (Obsidian), 2026_11_30
# (Logseq's journals), 2026.11.30, 20261130 and a Zettelkasten id 202611301200(00).
NAME_DATE = re.compile(r"(?<!\d)(\d{4})([-_.]?)(\d{2})\2(\d{2})(?:(?<=\d{8})([0-2]\d)([0-5]\d)(?:[0-5]\d)?)?(?!\d)")

# Months in words, full and short, as moment.js writes them in English, German, French, Spanish, Russian, Ukrainian,
# Turkish, Portuguese and Italian (month_names.py: daily_format.py reads the vault's daily-note format with the
# same names), a short one with or without its dot; "sept" is how people shorten September too. Not a short
# name that is an English word ("Set 3 2024", "Mag 7 2024": month_names.ENGLISH_WORD_NAMES), which only
# the vault's daily-note format reads.
MONTHS = {spelled: number for part in (0, 1) for name, number in month_spellings(part)
           if (spelled := name.casefold().rstrip(".")) not in ENGLISH_WORD_NAMES} | {"sept": 9}
MONTH = "|".join(re.escape(name) for name in sorted(MONTHS, key=len, reverse=True))
# November 30, 2026 · Nov 30th 2026 · 30 November 2026 · 30th Nov, 2026 · 30. November 2026 (German)
# · 30 novembre 2026 · 1er décembre 2026 (French writes the first of a month so) · 30 de noviembre de
# 2026 (or "del 2026"; Portuguese 30 de novembro de 2026) · 1º de maio de 2024, 1º marzo 2024 (the
# ordinal Portuguese and Italian write the first with, as moment's Do does any day) · 30-nov-2026, as
# moment's DD-MMM-YYYY writes it (a month in words is no one's guess)
WORDED_DATE = re.compile(
    rf"(?<![^\W\d])(?:(?P<m1>{MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+|(?<!\d)(?P<d2>\d{{1,2}})"
    rf"(?:(?:st|nd|rd|th|(?<=(?<!\d)1)er|º|\.)?\s+(?:de\s+)?(?P<m2>{MONTH})\.?,?(?:\s+del?)?\s+|-(?P<m3>{MONTH})\.?-))"
    rf"(?P<y>\d{{4}})(?!\d)", re.IGNORECASE)

# 2026年11月30日 as Chinese and Japanese write a day in numbers (moment's zh-cn and ja write LL so),
# 2026년 11월 30일 as Korean does, and Chinese 30号/號 for the day: each number followed by the
# character that says what it is, so no order is guessed (a trial on a Chinese vault). The day's
# character ends it: a time may follow with no space (2026年11月20日10点组会).
CJK_DATE = re.compile(r"(?<!\d)(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일号號]")


def text_date(text: str) -> datetime | None:
    """The day a property's text spells as a file name would (``May 4, 2023``, ``2023年5月4日``, ``2023-05-04
    Thursday``, ``20230504``), when it spells exactly one. ``04/05/2023`` is none (day or month
    first?), and so is a link: ``[[Retro 2026-11-20]]`` names a note, not a day."""
    if "[[" in text:
        return None
    spelled = numbered_days(text) + worded_days(text) + cjk_days(text)
    days = {day for day in (first_day([found]) for found in spelled) if day is not None}
    return days.pop() if len(days) == 1 else None


def days_said(text: str) -> list[date]:
    """Every whole day (with its year) a text says, as remember reads a memory's text for a day it
    would not live to see (remembering.expires_before): ``2026-12-11`` (not ``20261211``, as often
    a number as a day in prose), ``11 December 2026``, ``December 11th, 2026``, ``2026年12月11日``."""
    spelled = [(match[1], match[3], match[4]) for match in NAME_DATE.finditer(text) if match[2]]
    spelled += worded_days(text) + cjk_days(text)
    return [day.date() for day in (first_day([found]) for found in spelled) if day is not None]


def numbered_days(text: str) -> list[tuple[str, str, str]]:
    return [(match[1], match[3], match[4]) for match in NAME_DATE.finditer(text) if not match[5] or int(match[5]) < 24]


def worded_days(text: str) -> list[tuple[str, str, str]]:
    text = name_form(text)  # März as macOS names it (a + U+0308) is März
    return [(match["y"], str(named_month(match["m1"] or match["m2"] or match["m3"], MONTHS)), match["d1"] or match["d2"])
            for match in WORDED_DATE.finditer(text)]


def cjk_days(text: str) -> list[tuple[str, str, str]]:
    return [(match[1], match[2], match[3]) for match in CJK_DATE.finditer(text)]


def first_day(candidates: list[tuple[str, str, str]], solar_hijri: bool = False) -> datetime | None:
    for year, month, day in candidates:
        hijri = int(year) in SOLAR_HIJRI_YEARS and (solar_hijri or not year.isascii())
        if hijri and not solar_hijri:
            continue  # ۱۴۰۳-۰۵-۱۲: a Solar Hijri day in Persian digits, not a day of 1403 AD (jalali.py)
        try:
            if hijri:
                return parse_timestamp(gregorian_day(int(year), int(month), int(day)))
            return parse_timestamp(date(int(year), int(month), int(day)))
        except ValueError:  # 2026-13-45, 20261345: not a day
            continue
    return None


# [[2026-11-20]], [[Daily/2026-11-20|Friday]]: a link to a daily note (its folder and label aside)
LINKED_DATE = re.compile(r"\[\[\s*(?:[^\[\]|#]*/)?(\d{4}-\d{2}-\d{2})\s*(?:[|#][^\]]*)?\]\]")
_YEAR = re.compile(r"[0-9]{4}")  # a year a date property holds (property_span)
_PERIOD_CHARS = 8  # 2026-W09: the longest period property_span reads


@dataclass(frozen=True)
class ValueDate:
    """What a date property's value says (:func:`value_date`)."""

    moment: datetime  # its day's midnight UTC, a period's first day's, or its time
    value: object  # what was read: a linked day's text, a one-item list's item, else the value itself
    span: Span | None = None  # the period it holds whole (``2026``, ``2026-03``)
    timestamp: bool = False  # a timestamp as lifecycle.parse_timestamp reads it: day or instant by ``value``; else a day


def value_date(value: object, solar_hijri: bool = False) -> ValueDate | None:
    """The date a property's value holds, or None: a link to a daily note (``[[2026-11-20]]``),
    alone or as the one item of a list; with ``solar_hijri`` (the vault's Persian Calendar plugin
    is on), a day of a year in jalali.YEARS as that calendar's (one it lacks: None); a period
    (:func:`property_span`); a timestamp; else the one day its text spells (:func:`text_date`:
    ``March 3rd 2026``, ``3 March 2026``, ``Sunday, January 5, 2026 at 8:15 PM``)."""
    if isinstance(value, list):
        return value_date(value[0], solar_hijri) if len(value) == 1 else None
    if is_absent(value):
        return None
    if isinstance(value, str) and len(stripped := value.strip()) <= SPELLED_DAY_CHARS:  # a longer link is no daily note's
        linked = LINKED_DATE.fullmatch(stripped)
        if linked:
            value = linked[1]
    if solar_hijri and (parts := solar_hijri_parts(value)) is not None:
        try:
            return ValueDate(parse_timestamp(gregorian_day(*parts)), value)
        except ValueError:
            return None  # 1402-12-30: no day of that calendar (check says why: dating._not_a_date)
    if solar_hijri and (timed := solar_hijri_timed(value)) is not None:
        return _solar_hijri_instant(value, *timed)
    span = property_span(value)
    if span is not None:
        return ValueDate(parse_timestamp(span.first), value, span=span)
    try:
        return ValueDate(parse_timestamp(value), value, timestamp=True)
    except InvalidTimestamp:
        pass  # not a timestamp: perhaps a day in words
    if isinstance(value, str) and len(value) <= SPELLED_DAY_CHARS:
        worded = text_date(value)
        return None if worded is None else ValueDate(worded, value)
    return None


# A day written year first and a time after it (`1403-05-12T10:00`, `1403-05-12 10:00:00+03:30`).
_DAY_AND_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})([T ]\d.*)", re.DOTALL)


def solar_hijri_timed(value: object) -> tuple[tuple[int, int, int], str] | None:
    """(year, month, day) and the time that follows them (``T10:00:00+03:30``) of a timestamp whose
    year is a Solar Hijri year (jalali.YEARS) — a text, or a YAML timestamp (``created:
    1403-05-12T10:00:00+03:30`` unquoted) — else None. With the Persian Calendar plugin on, its
    day is that calendar's, as a day without a time is: read as 1403 AD, ``check --fix`` stamped
    such a note an expiry 623 years past and hid it (review, s38; a day alone was fixed in s37)."""
    if isinstance(value, datetime):
        if value.year not in SOLAR_HIJRI_YEARS:
            return None
        return (value.year, value.month, value.day), value.isoformat()[10:]
    found = _DAY_AND_TIME.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None or int(found[1]) not in SOLAR_HIJRI_YEARS:
        return None
    return (int(found[1]), int(found[2]), int(found[3])), found[4]


def _solar_hijri_instant(value: object, parts: tuple[int, int, int], time_said: str) -> ValueDate | None:
    """The instant a Solar Hijri day and its time are (the time and zone as written); the day's
    midnight UTC when the time does not read (``T25:00``: ``check`` says so, as of a Gregorian
    day's); None when it is no day of that calendar."""
    try:
        day = gregorian_day(*parts)
    except ValueError:
        return None  # no day of that calendar (check says why: dating._not_a_date)
    try:
        return ValueDate(parse_timestamp(day.isoformat() + time_said), value, timestamp=True)
    except InvalidTimestamp:
        return ValueDate(parse_timestamp(day), value)


def property_span(value: object) -> Span | None:
    """The period a date property holds whole: a year (``2011``, a number or text of four digits:
    a paper's year, as a Zotero import writes ``date``), or a month, week or quarter as ISO
    writes it (``2026-03``, ``2026-W09``, ``2026-Q1``). Without it ``date: 2011`` was "not a
    date" and the note fell out of every search by date, though ``--since 2011`` names that
    year. The person named the property a date, so a bare year is one here (a file named
    ``1984.md`` is not read so: periods.py)."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    elif isinstance(value, str):
        text = value.strip()
    else:
        return None
    if _YEAR.fullmatch(text):
        return span_of(YEAR, int(text), 0) if int(text) >= 1 else None
    found = iso_span(text) if len(text) <= _PERIOD_CHARS else None
    return found if isinstance(found, Span) and found.name == text.upper() else None
