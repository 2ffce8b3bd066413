"""A note named for a period — a week, a month, a quarter, a year — and the days it covers (pure).

Obsidian's Periodic Notes plugin names a weekly note ``2026-W09`` (``gggg-[W]ww``), a monthly
one ``2026-03``, a quarterly one ``2026-Q1``, a yearly one ``2026``. Such a note is about its
whole period, not one day of it: it is dated as a :class:`Span`, its first day to its last
(days, as daily notes' are: labels, adr/0026 "Periodic notes"). By shape alone, in any folder,
a note whose whole name is ``YYYY-Www``, ``YYYY-MM`` or ``YYYY-Qn`` is one (:func:`iso_span`);
a bare ``YYYY`` only where the plugin's yearly format says so (``1984.md`` is a book more often
than a year). The plugin's own formats (daily_format.PeriodFormat) are read beside these.

Weeks are ISO weeks (Monday to Sunday; week 1 holds 4 January), as ``--since 2026-W09`` means;
a locale week (``ww``) is read as one too (adr/0026).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

WEEK, MONTH, QUARTER, YEAR = "week", "month", "quarter", "year"
KINDS = (WEEK, MONTH, QUARTER, YEAR)
# The longest span a note's date can have, in days (a leap year): the index narrows a range's
# start by it (storage.notes.Eligibility.date_where).
MAX_SPAN_DAYS = 366

# The ISO shapes a note's whole name is read by, with no settings: 2026-W09, 2026-03, 2026-Q1.
_ISO_WEEK = re.compile(r"([0-9]{4})-[Ww]([0-9]{2})")
_ISO_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
_ISO_QUARTER = re.compile(r"([0-9]{4})-[Qq]([0-9])")
# ... and a week or a quarter that opens a name, a title after it: "2026-W09 Weekly review",
# as "2026-11-28 Standup" is a day's. (A month is not read so: "2024-25 Season" is no month, and
# "2026-03 Budget" may be a plan made in March as often as March's note.)
_TITLED = re.compile(r"[ \t]+\S")


@dataclass(frozen=True)
class Span:
    """The days a periodic note covers: its kind, first and last day."""

    kind: str
    first: date
    last: date

    @property
    def name(self) -> str:
        """The period as ISO names it, and as ``--since``/``--until`` read it back: ``2026-W09``,
        ``2026-03``, ``2026-Q1``, ``2026``."""
        if self.kind == WEEK:
            year, week, _ = self.first.isocalendar()
            return f"{year:04d}-W{week:02d}"
        if self.kind == MONTH:
            return f"{self.first.year:04d}-{self.first.month:02d}"
        if self.kind == QUARTER:
            return f"{self.first.year:04d}-Q{(self.first.month - 1) // 3 + 1}"
        return f"{self.first.year:04d}"

    def said(self) -> str:
        """``the week 2026-W09 (23 Feb … 1 Mar 2026)``."""
        first = f"{self.first.day} {self.first:%b}" + ("" if self.first.year == self.last.year else f" {self.first.year}")
        return f"the {self.kind} {self.name} ({first} … {self.last.day} {self.last:%b %Y})"


def span_of(kind: str, year: int, number: int) -> Span:
    """The ``number``th week, month or quarter of ``year`` (``number`` unused for a year);
    ValueError when there is none (``2026-W54``, month 13, quarter 5, year 0)."""
    if not 1 <= year <= 9999:
        raise ValueError("years are 0001 to 9999")
    if kind == WEEK:
        weeks = date(year, 12, 28).isocalendar().week  # the 28th of December is always in the year's last ISO week
        if not 1 <= number <= weeks:
            raise ValueError(f"{year} has {weeks} ISO weeks ({year}-W01 to {year}-W{weeks})")
        monday = date.fromisocalendar(year, number, 1)
        try:
            return Span(WEEK, monday, monday + timedelta(days=6))
        except OverflowError:  # the last week of year 9999 ends past the calendar: cut at its end
            return Span(WEEK, monday, date.max)
    if kind == MONTH:
        if not 1 <= number <= 12:
            raise ValueError(f"months are 01 to 12 ({year}-01 to {year}-12)")
        return Span(MONTH, date(year, number, 1), date(year, number, calendar.monthrange(year, number)[1]))
    if kind == QUARTER:
        if not 1 <= number <= 4:
            raise ValueError(f"quarters are 1 to 4 ({year}-Q1 to {year}-Q4)")
        last_month = 3 * number
        return Span(QUARTER, date(year, last_month - 2, 1), date(year, last_month, calendar.monthrange(year, last_month)[1]))
    return Span(YEAR, date(year, 1, 1), date(year, 12, 31))


def iso_span(stem: str) -> Span | str | None:
    """The period a note's whole name (``stem``, without folders or ``.md``) is in an ISO shape,
    or a week or quarter that opens it before a title (``2026-W09 Weekly review``):
    a Span; or why a name shaped as a week or a quarter is none (``2026-W54``: a ``check``
    problem); None for any other name. A ``YYYY-MM`` whose month is no month (``2024-25``, a
    school year) is any other name, not a mistake."""
    for shape, kind in ((_ISO_WEEK, WEEK), (_ISO_QUARTER, QUARTER), (_ISO_MONTH, MONTH)):
        found = shape.fullmatch(stem)
        if found is None and kind != MONTH:
            found = shape.match(stem)
            found = found if found is not None and _TITLED.match(stem, found.end()) else None
        if found is None:
            continue
        try:
            return span_of(kind, int(found[1]), int(found[2]))
        except ValueError as why:
            return None if kind == MONTH else f"{stem!r} is shaped as a {kind} note's name, but {why}"
    return None


def span_between(first: date, last: date) -> Span | None:
    """The period whose first and last days these are (what the index keeps), or None."""
    if first.isoweekday() == 1 and last - first == timedelta(days=6):
        return Span(WEEK, first, last)
    if first.day != 1 or last.day != calendar.monthrange(last.year, last.month)[1] or first.year != last.year:
        return None
    months = last.month - first.month + 1
    kinds = {1: MONTH, 3: QUARTER, 12: YEAR}
    if months not in kinds or (months == 3 and first.month % 3 != 1):
        return None
    return Span(kinds[months], first, last)


def is_period_name(text: str) -> bool:
    """Is ``text`` a period as :attr:`Span.name` writes one (a hit's ``date`` for a periodic note)?"""
    return bool(_ISO_WEEK.fullmatch(text) or _ISO_MONTH.fullmatch(text) or _ISO_QUARTER.fullmatch(text)
                or re.fullmatch(r"[0-9]{4}", text))
