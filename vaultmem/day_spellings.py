"""A day a query names, asked for as notes write it: ISO, CJK, English words, numbers (pure).

A query's day is one word of it (search._query_words): ``18 March 2025`` is not 18, march and
2025 apart. It used to be asked for as written and by its ISO spelling only, so the same day
written another way in a note was not found: "what happened on March 18" missed the heading
``## 2025年3月18日``, "2025-03-18" missed a journal's ``March 18th, 2025`` and a German
``18.03.2025``, and ``2025年3月18日`` missed ``18 March 2025`` (stop 39's leftovers).

:func:`day_term` asks for the day in each spelling below, as the full text holds it
(cjk.fts_form: ``2025 年 3 月 18 日``, ``march 18th 2025``); a note holding any one holds the
word. Spellings, for a day with its year:

- ISO, ``2025-03-18`` (also ``2025/03/18``, ``2025.03.18``);
- Chinese and Japanese ``2025年3月18日``, Korean ``2025년 3월 18일``;
- English, ``18 March 2025``, ``March 18, 2025``, ``March 18th, 2025``, ``18th March 2025``;
- in numbers with the year last, ``18.03.2025``, ``18/3/2025``, ``03/18/2025`` — only when
  one order alone is a day (18 is no month) or both orders give it (``05.05.2025``): for
  ``05.09.2025`` a note could mean 5 September or 9 May, and is asked for neither way, as a
  ``--since`` bound refuses it (dating._UNORDERED_BOUND).

A day without its year (``March 18``, ``3月18日``) is asked for as ``03-18`` (which every
year's ISO day holds), the CJK and English spellings without the year; not in bare numbers
(``18.03`` is as often a price or a version).

:func:`numbered_days_said` reads a day a query writes in numbers (ISO, or with the year last
when only one order is a day), as cjk.days_said and dating.worded_days_said read the others.
"""

from __future__ import annotations

import re
from datetime import date

from .cjk import fts_form

ENGLISH_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                  "October", "November", "December")

# 2025-03-18, 2025/03/18, 2025.03.18; 18.03.2025, 18/03/2025, 03-18-2025. A whole word: not the day
# inside a file name (2025-03-18.md), a time (2025-03-18T10:00) or a version (1.2.2025.4).
_NUMBERED_DAY = re.compile(
    r"(?<![\w./-])(?:(?P<year>\d{4})(?P<mark>[-/.])(?P<month>\d{1,2})(?P=mark)(?P<day>\d{1,2})"
    r"|(?P<first>\d{1,2})(?P<mark2>[-/.])(?P<second>\d{1,2})(?P=mark2)(?P<year2>\d{4}))(?![\w/-]|\.\w)")


def ordinal(day: int) -> str:
    """18th, 1st, 22nd, 13th: as English writes a day after its month."""
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def day_spellings(year: int | None, month: int, day: int) -> list[str]:
    """The ways a note writes the day, as the text the full text is made from; ``year`` None:
    a day of every year (see the module's docstring)."""
    name, nth = ENGLISH_MONTHS[month - 1], ordinal(day)
    if year is None:
        return [f"{month:02d}-{day:02d}", f"{month}月{day}日", f"{month}월 {day}일",
                f"{day} {name}", f"{name} {day}", f"{name} {nth}", f"{nth} {name}"]
    spelled = [f"{year}-{month:02d}-{day:02d}", f"{year}年{month}月{day}日", f"{year}년 {month}월 {day}일",
               f"{day} {name} {year}", f"{name} {day} {year}", f"{name} {nth} {year}", f"{nth} {name} {year}"]
    if day > 12 or day == month:  # one order alone is this day (module docstring)
        spelled += [f"{day:02d}.{month:02d}.{year}", f"{day}.{month}.{year}", f"{month:02d}.{day:02d}.{year}",
                    f"{month}.{day}.{year}"]
    return spelled


def day_term(shown: str, year: int | None, month: int, day: int) -> str:
    """The FTS5 term of a day the query says as ``shown``: the phrase of ``shown`` as typed, or
    of any of :func:`day_spellings`."""
    phrases = dict.fromkeys(" ".join(fts_form(spelled).split()) for spelled in (shown, *day_spellings(year, month, day)))
    return "(" + " OR ".join(f'"{phrase}"' for phrase in phrases if phrase) + ")"


def numbered_days_said(text: str) -> tuple[str, list[tuple[str, int, int, int]]]:
    """``text`` with each day written in numbers taken out (ISO; with the year last when only one
    order of the other two is a day), and each as it was written with its year, month and day. A
    day no calendar has (``2025-02-30``), or one whose order is not known (``05.09.2025``), is
    left as it is: asked for as the numbers it holds, as before."""
    days: list[tuple[str, int, int, int]] = []

    def taken(found: re.Match[str]) -> str:
        if found["year"] is not None:
            orders = [(int(found["year"]), int(found["month"]), int(found["day"]))]
        else:
            first, second, year = int(found["first"]), int(found["second"]), int(found["year2"])
            orders = list(dict.fromkeys((year, month, day) for month, day in ((second, first), (first, second))
                                        if _is_day(year, month, day)))
        if len(orders) != 1 or not _is_day(*orders[0]):
            return found.group()
        days.append((found.group(), *orders[0]))
        return " "

    return _NUMBERED_DAY.sub(taken, text), days


def _is_day(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True
