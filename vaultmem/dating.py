"""What day a note is about, and the bounds of a search by date (pure).

A note's **date** is the first of:

1. its ``date`` property (a journal entry's, a meeting's: the day the note is about);
2. its name as the vault's daily-note format writes it, in the daily notes' folder
   (``Journal/28-11-2026.md`` under ``DD-MM-YYYY``: daily_format.py, passed in);
3. a day in its file name (a daily note, ``Daily/2026-11-28.md``, ``2026-11-28 Standup.md``,
   Logseq's ``journals/2026_11_28.md``, ``20261128.md``, a Zettelkasten id ``202611281030 Idea.md``,
   ``November 28, 2026.md``) or in its folders (``Daily/2026/11/28.md``);
4. its ``created`` property (what ``remember`` stamps: the day the memory was written).

A value that does not parse as a date is passed over for the next (a ``date: {{date}}`` left
by a template is not a day); a note with none has no date. Dates without a time are midnight
UTC, as everywhere in vaultmem (lifecycle.parse_timestamp).

``search --since X --until Y`` keeps the notes whose date is in [X, Y]: each bound is an ISO
date or time, or a duration counted back from now (``7d``: seven days ago). A date alone as
``until`` means the end of that day, so ``--since 2026-11-23 --until 2026-11-29`` is those
seven days. A note without a date has no place in such a range and is left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .errors import Argument, InvalidDuration, InvalidTimestamp, UsageError
from .lifecycle import parse_duration, parse_timestamp
from .notes import timestamp_or_none

if TYPE_CHECKING:
    from .daily_format import DailyFormat

# A day in a file name, as daily-note tools write it: 2026-11-30 (Obsidian), 2026_11_30
# (Logseq's journals), 2026.11.30, 20261130 and a Zettelkasten id 202611301200(00).
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})([-_.]?)(\d{2})\2(\d{2})(?:(?<=\d{8})([0-2]\d)([0-5]\d)(?:[0-5]\d)?)?(?!\d)")
# ... or in its folders: Daily/2026/11/30.md.
_PATH_DATE = re.compile(r"(?:^|/)(\d{4})/(\d{2})/(\d{2})$")
# The months in English, as moment.js writes them (MMMM; MMM is the first three letters): daily_format.py
# reads the vault's daily-note format with the same names. "sept" is how people shorten September too.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_MONTHS = {name: number for number, month in enumerate(MONTHS, start=1)
           for name in (month.lower(), month[:3].lower())} | {"sept": 9}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
# November 30, 2026 · Nov 30th 2026 · 30 November 2026 · 30th Nov, 2026 (a month in words is no one's guess)
_WORDED_DATE = re.compile(
    rf"(?<![^\W\d])(?:(?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?|(?<!\d)(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+"
    rf"(?P<m2>{_MONTH})\.?,?)\s+(?P<y>\d{{4}})(?!\d)", re.IGNORECASE)
# [[2026-11-20]], [[Daily/2026-11-20|Friday]]: a link to a daily note (its folder and label aside)
_LINKED_DATE = re.compile(r"\[\[\s*(?:[^\[\]|#]*/)?(\d{4}-\d{2}-\d{2})\s*(?:[|#][^\]]*)?\]\]")
_LINK_CHARS = 300
DAILY_SOURCE = "daily-note format"  # a NoteDate's source when the vault's daily-note format gave it
_DURATION_SHAPE = re.compile(r"(?:\d+[smhdw])+", re.IGNORECASE)
_DAYS_ONLY = re.compile(r"(?:\d+[dw])+", re.IGNORECASE)  # 7d, 2w, 1w3d: whole days, said as days
# A bound that names a period: 2026 (a year), 2026-11 (a month), 2026-W48 or 2026W48 (an ISO week).
_PERIOD = re.compile(r"(?P<year>[0-9]{4})(?:-(?P<month>[0-9]{2})|-?[Ww](?P<week>[0-9]{2}))?")
_DAY_WORDS = {"today": 0, "yesterday": 1}
_END_OF_TIME = datetime.max.replace(tzinfo=UTC)


@dataclass(frozen=True)
class NoteDate:
    """A note's date and where it was read from (``date``, ``daily-note format``, ``file name`` or ``created``)."""

    moment: datetime
    source: str


def note_date(meta: Mapping[str, Any], path: str, daily: DailyFormat | None = None) -> NoteDate | None:
    """The note's date (see the module's docstring), or None. ``daily``: the vault's daily-note
    format (read once per command from its settings); without it, names are read by shape alone."""
    found = _property_date(meta.get("date"))
    if found is not None:
        return NoteDate(found, "date")
    day = daily.day(path) if daily is not None else None
    if day is not None:
        return NoteDate(parse_timestamp(day), DAILY_SOURCE)
    named = _name_date(path)
    if named is not None:
        return NoteDate(named, "file name")
    found = _property_date(meta.get("created"))
    return NoteDate(found, "created") if found is not None else None


def _property_date(value: object) -> datetime | None:
    """A property's date: a timestamp, or a link to a daily note (``[[2026-11-20]]``), alone or
    as the one item of a list (Obsidian's list properties; YAML reads an unquoted
    ``[[2026-11-20]]`` as a list in a list)."""
    if isinstance(value, list):
        return _property_date(value[0]) if len(value) == 1 else None
    if isinstance(value, str) and len(stripped := value.strip()) <= _LINK_CHARS:  # a longer link is no daily note's: not scanned
        linked = _LINKED_DATE.fullmatch(stripped)
        if linked:
            value = linked[1]
    return timestamp_or_none(value)


def _name_date(path: str) -> datetime | None:
    """The first day the file's name (or its last three folders and name) spells."""
    stem = PurePosixPath(path).stem
    candidates = [(match[1], match[3], match[4]) for match in _NAME_DATE.finditer(stem) if not match[5] or int(match[5]) < 24]
    candidates += [(match[1], match[2], match[3]) for match in _PATH_DATE.finditer(str(PurePosixPath(path).with_suffix("")))]
    candidates += [(match["y"], str(_MONTHS[(match["m1"] or match["m2"]).lower()]), match["d1"] or match["d2"])
                   for match in _WORDED_DATE.finditer(stem)]
    for year, month, day in candidates:
        try:
            return parse_timestamp(date(int(year), int(month), int(day)))
        except ValueError:  # 2026-13-45, 20261345: not a day
            continue
    return None


def since_bound(value: str, now: datetime) -> datetime:
    """``--since``: the first instant a note's date may have. A duration in days or
    weeks reaches back to the start of that day (UTC): at noon, ``1d`` keeps yesterday's
    daily note, dated midnight; a duration with hours or minutes is exact."""
    return _bound(value, now, "since", end_of_day=False)


def until_bound(value: str, now: datetime) -> datetime:
    """``--until``: the last instant a note's date may have (a date alone: the end of that day)."""
    return _bound(value, now, "until", end_of_day=True)


def _bound(value: str, now: datetime, name: str, end_of_day: bool) -> datetime:
    text = str(value).strip()
    period = _period(text, now)
    if period is not None:  # a calendar year, month, ISO week or day named in words: all of it
        start, after = period
        if not end_of_day:
            return start
        return after if after == _END_OF_TIME else after - timedelta(microseconds=1)
    try:
        moment = parse_timestamp(text)
    except InvalidTimestamp:
        return _back_from(now, text, value, name, whole_days=not end_of_day)
    if end_of_day and _is_date_alone(text):
        try:
            return moment + timedelta(days=1) - timedelta(microseconds=1)
        except OverflowError:  # 9999-12-31: its end is the last instant there is
            return datetime.max.replace(tzinfo=moment.tzinfo)
    return moment


def _period(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """A calendar period ``text`` names — ``2026`` (a year), ``2026-11`` (a month), ``2026-W48``
    (an ISO week, Monday to Sunday), ``today``, ``yesterday`` (UTC days) — as its first instant
    and the first instant after it; None for anything else (a date, a time, a duration)."""
    word = text.casefold()
    if word in _DAY_WORDS:
        day = datetime.combine(now.astimezone(UTC).date(), time(), UTC) - timedelta(days=_DAY_WORDS[word])
        return day, day + timedelta(days=1)
    shape = _PERIOD.fullmatch(text)
    if shape is None:
        return None
    year = int(shape["year"])
    try:
        if shape["week"]:
            start = datetime.fromisocalendar(year, int(shape["week"]), 1).replace(tzinfo=UTC)
            return start, _plus(start, timedelta(days=7))
        if shape["month"]:
            month = int(shape["month"])
            start = datetime(year, month, 1, tzinfo=UTC)
            after = (year + 1, 1) if month == 12 else (year, month + 1)
            return start, _first_of(*after)
        return datetime(year, 1, 1, tzinfo=UTC), _first_of(year + 1, 1)
    except ValueError:  # month 13, week 54, year 0: not a period; said as not a date below
        return None


def _first_of(year: int, month: int) -> datetime:
    """The first instant of that month; past year 9999, the end of time."""
    return datetime(year, month, 1, tzinfo=UTC) if year <= datetime.max.year else _END_OF_TIME


def _plus(moment: datetime, length: timedelta) -> datetime:
    try:
        return moment + length
    except OverflowError:  # the last week of year 9999
        return _END_OF_TIME


def _is_date_alone(text: str) -> bool:
    """Is ``text`` a day without a time (``2026-11-28``, ``20261128``, ``2026-W48-6``)?"""
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _back_from(now: datetime, text: str, value: object, name: str, whole_days: bool) -> datetime:
    """``now`` minus the duration ``text`` (see :func:`since_bound` for whole days)."""
    try:
        length = parse_duration(text)
    except InvalidDuration as error:
        if _DURATION_SHAPE.fullmatch(text.replace(" ", "")):
            raise UsageError(Argument(name, repr(value)), f": {error}") from None
        raise UsageError(Argument(name, repr(value)), " is neither a date nor a duration: give an ISO date or time "
                         "such as 2026-11-23 or 2026-11-23T09:00:00+00:00, a period (2026, 2026-11, 2026-W48, today, "
                         "yesterday) or a duration back from now such as 7d or 2w") from None
    try:
        moment = now - length
    except OverflowError:
        raise UsageError(Argument(name, repr(value)), f" reaches back before year 1 from {now.date().isoformat()}: "
                         "give a shorter duration or a date") from None
    if whole_days and _DAYS_ONLY.fullmatch(text.replace(" ", "")):
        return moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return moment
