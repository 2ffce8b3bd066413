"""A task's due day written in words, without the Tasks plugin's 📅 or Dataview's field (pure).

``- [ ] pay rent due 2026-12-05``, ``- [ ] renew passport (due: 5 Dec)``, ``- [ ] call mum by
Friday``: most people write a task's deadline as they would say it. After ``due`` (``due on``,
``due by``, ``due:``), ``by`` or ``deadline``, one of: an ISO day; a day in words with its year
(``5 December 2026``, ``Dec 5, 2026``, ``5 de diciembre de 2026``: spelled_days.WORDED_DATE); a day
in words without one (``5 Dec``, ``December 5th``), a weekday's English name (``Friday``), ``today`` or
``tomorrow`` — these say a day only beside the day they were written, so they are read against the note's own date
(its ``date``, its name, its ``created``: the ``anchor``), the first such day on or after it, and
not at all in a note with no date: a file's modification time moves with every edit, and "by
Friday" would move a week with it (adr/0026 "Task dates", addendum s42). The Tasks plugin's and
Dataview's days win over these (task_dates._days). The words stay in the task's text: they are
the person's, not a field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from .dating import yearless_day
from .month_names import named_month
from .periods import Span
from .spelled_days import MONTHS, WORDED_DATE

_KEYWORD = re.compile(r"(?<![\w-])(?:due(?:[ \t]+(?:on|by))?|by|deadline)[ \t]*:?[ \t]*", re.IGNORECASE)
_ISO_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})(?![\w-])")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = re.compile(rf"({'|'.join(_WEEKDAYS)}|today|tomorrow)(?!\w)", re.IGNORECASE)
# What a weekday or a day without its year is read against, asked only for such a day: the note's own
# day, the period a periodic note is of (a week's, a month's), or None (a note with no date).
Anchor = Callable[[], date | Span | None]
# After a day: an owner's 's (Monday's standards), or the next word (Friday Night Lights).
_POSSESSIVE = re.compile(r"['\u2019]s(?!\w)")
_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)")
# A time of the day a deadline names after its day, capitalised or not (``by Monday Morning``): a name
# only when another capitalised word follows (``Friday Night Lights``).
_TIMES_OF_DAY = frozenset({"morning", "afternoon", "evening", "night", "noon", "midday", "midnight", "lunch", "lunchtime"})
_LONG_WORD = re.compile(r"[^\W\d_]{4,}")
# A day of a month in words without a year, then no more of a date: "5 Dec", "December 5th".
_MONTH_DAY = re.compile(r"(?:[^\W\d_]+\.?[ \t]+[0-9]{1,2}(?:st|nd|rd|th)?|[0-9]{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?[^\W\d_]+\.?)"
                        r"(?![ \t]*,?[ \t]*[0-9])")


def _in_a_name(after: str, title_cased: bool) -> bool:
    """Do the words after a day say it is owned or part of a name, no deadline: ``by Monday's
    standards``, ``by today's date``, ``by Friday Night Lights``, ``by Tuesday Lobsang Rampa``? A
    capitalised word after it that is no month's or weekday's name, nor all capitals (``Dec 4``,
    ``EOD``, ``I``), nor a time of the day no capitalised word follows (``by Monday Morning``),
    opens a name, unless the task capitalises every word (``Finish Slides By Friday For The
    Board``). Was (review42b, s43): each such task was due on that day."""
    if _POSSESSIVE.match(after):
        return True
    word = None if title_cased else _NEXT_WORD.match(after)
    if word is None or not word[1][0].isupper() or word[1].isupper():
        return False
    named = word[1].casefold()
    if named in _TIMES_OF_DAY:  # was (review43b, s43): `send the report by Monday Morning` had no due day
        return _in_a_name(after[word.end():], title_cased)
    return named not in _WEEKDAYS and named not in MONTHS and named.rstrip(".") not in MONTHS


def _written_on(written: date | Span | None, weekday: str | None) -> date | None:
    """The day a due day is read against: the note's own day; a periodic note's first day for a
    day without its year, and for a weekday in a week's note; None when the period does not
    place the words: ``by tomorrow`` in a week's note, ``by Friday`` in a month's (was, review42b
    s43: the month's first Friday, as if written on the 1st)."""
    if not isinstance(written, Span):
        return written
    if weekday in ("today", "tomorrow") or (weekday is not None and (written.last - written.first).days >= 7):
        return None
    return written.first


def _title_cased(rest: str) -> bool:
    """Does every word of four letters or more in ``rest`` (two at least) start with a capital?"""
    words = _LONG_WORD.findall(rest)
    return len(words) >= 2 and all(word[0].isupper() for word in words)


def plain_due(rest: str, anchor: Anchor) -> date | None:
    """The first due day ``rest`` (a task's words after its box) says in words, or None;
    ``anchor()``: the note's own day, or the period a periodic note is of, asked only for a day
    without a year or a weekday."""
    for keyword in _KEYWORD.finditer(rest):
        said = rest[keyword.end():]
        found = _absolute(said)
        if found is None:
            found = _relative(said, anchor, _title_cased(rest))
        if found is not None:
            return found
    return None


def undated_due_words(rest: str) -> str | None:
    """The words of ``rest`` that say a due day only the day they were written can place (``by
    Friday``, ``due: 5 Dec``), when no day in full follows a due word; else None. What a task list
    names when such a task has no due day (its note has no date): it is not left silently undated."""
    for keyword in _KEYWORD.finditer(rest):
        said = rest[keyword.end():]
        if _absolute(said) is not None:
            return None
        if _relative(said, lambda: date.min, _title_cased(rest)) is not None:
            weekday = _WEEKDAY.match(said)
            found = weekday if weekday is not None else _MONTH_DAY.match(said)
            return (keyword.group() + (found.group() if found is not None else "")).strip()
    return None


def _absolute(said: str) -> date | None:
    """A day ``said`` opens with that needs no other: ISO, or in words with its year."""
    iso = _ISO_DAY.match(said)
    if iso is not None:
        try:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        except ValueError:  # 2026-02-30: no day
            return None
    worded = WORDED_DATE.match(said)
    if worded is None:
        return None
    month = named_month(worded["m1"] or worded["m2"] or worded["m3"], MONTHS)
    try:
        return date(int(worded["y"]), month or 0, int(worded["d1"] or worded["d2"]))
    except ValueError:
        return None


def _relative(said: str, anchor: Anchor, title_cased: bool = False) -> date | None:
    """A weekday or a day without its year ``said`` opens with: the first on or after ``anchor()``;
    ``title_cased``: the task capitalises its every word, so a capital after the day opens no name."""
    weekday = _WEEKDAY.match(said)
    month_day = None if weekday is not None else _MONTH_DAY.match(said)
    parts = None if month_day is None else yearless_day(month_day.group().rstrip("."))
    if weekday is None and parts is None:
        return None
    day_end = weekday.end() if weekday is not None else month_day.end() if month_day is not None else 0
    if _in_a_name(said[day_end:], title_cased):
        return None
    written = _written_on(anchor(), None if weekday is None else weekday[1].casefold())
    if written is None:
        return None
    if weekday is not None:
        named = weekday[1].casefold()
        if named in ("today", "tomorrow"):
            return written + timedelta(days=named == "tomorrow")
        return written + timedelta(days=(_WEEKDAYS.index(named) - written.weekday()) % 7)
    month, day = parts or (1, 1)
    for year in range(written.year, written.year + 9):  # 29 February: the next leap year
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found >= written:
            return found
    return None
