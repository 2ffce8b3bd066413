"""A day spelled in text as people and daily-note tools write it: ``2026-11-30``, ``20261130``,
``November 30, 2026``, ``30. November 2026``, ``2026年11月30日``. Read by dating.py (a file name's
day, a date property in words) and by notes.py, below it: ``check`` must not call a ``created``
that dates the note "invalid" (a trial: ``created: Sunday, January 5, 2026 at 8:15 PM`` dated the
note on 2026-01-05 while ``check`` called it an invalid timestamp). Pure functions over text.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from .fields import name_form
from .jalali import YEARS as SOLAR_HIJRI_YEARS
from .jalali import gregorian_day
from .lifecycle import parse_timestamp
from .month_names import ENGLISH_WORD_NAMES, month_spellings, named_month

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
