"""What day a note is about, and the bounds of a search by date (pure).

A note's **date** is the first of:

1. its ``date`` property (a journal entry's, a meeting's: the day the note is about); one that
   holds a period (``date: 2011``, a paper's year as Zotero imports write it; ``2026-03``,
   ``2026-W09``, ``2026-Q1``) dates the note as that span, as a periodic note's name does;
2. its name as the vault's daily-note format writes it, in the daily notes' folder
   (``Journal/28-11-2026.md`` under ``DD-MM-YYYY``: daily_format.py, passed in);
3. a period its name is (a weekly, monthly, quarterly or yearly note: ``2026-W09``, ``2026-03``,
   ``2026-Q1``, or as the Periodic Notes plugin's formats name them, in their folders): a span of
   days, its first to its last (periods.py);
4. a day in its file name (a daily note, ``Daily/2026-11-28.md``, ``2026-11-28 Standup.md``,
   Logseq's ``journals/2026_11_28.md``, ``20261128.md``, a Zettelkasten id ``202611281030 Idea.md``,
   ``November 28, 2026.md``, ``28. November 2026.md``, ``lundi 4 mars 2024.md``, ``2026年11月28日.md``) or in its folders (``Daily/2026/11/28.md``)
   — rules 2 to 4 read no memory (a note with a layer) whose name ``remember`` made from its title,
   when it has a ``created``: that name is its text's first words (slugs.py), not its day;
5. its ``created`` property (what ``remember`` stamps: the day the memory was written); then an
   ``id`` property that is a Zettelkasten timestamp id (``id: 202403141205``, as Zettlr's and the
   Zettelkasten templates write it), the day the zettel was made;
6. a property named in the note's language with the words of rule 7's labels (date_lines.py:
   ``fecha``, ``Datum``, ``data``, ``дата``, ``tarih``; ``date de création``, ``erstellt``,
   ``criado em`` …, in any case, accents typed or not): only for a note nothing above dates, a
   property saying what day the note is about before one saying when it was made, as ``date``
   and ``created`` are read. Only a day or a time (as text or as YAML writes a date) or a year is
   read there: ``data: 42`` or ``data: [1, 2]`` is no date, and passed over without a word;
7. a line at the top of its text that says its date (date_lines.py: ``Date de création : 2026-04-23``,
   ``**Date:** 5 January 2024``, ``Fecha: 05/01/2024``): only for a note nothing above dates, as
   ``date`` when its label says the day the note is about, as ``created`` when it says when it was made;
   then a created line of the block of labels that ends it (YARLE's ``Created at: …``), when its
   value is a day and its time alone (:func:`_only_a_moment`);
8. with ``[dates] from_git = true`` only: the author date of the commit that added its file, following
   renames (git_dates.py), an instant marked as when the note was written; a file not committed yet has none.

A vault may name the properties of rules 1 and 5 itself (:class:`DateProperties`, read from
``.vaultmem.toml`` ``[dates]``: ``date = ["date", "fecha"]``), each list read in its order;
unset, they are ``date`` and ``created`` alone (adr/0026). Rule 7 reads those names as labels too. A name with dots reaches into a
property that is a mapping, when the note has no property of that whole name
(``kindle-sync.lastAnnotatedDate``: the Kindle Highlights plugin keeps a book's dates inside its
``kindle-sync:`` block, the only date such a note holds: :func:`property_value`).

A value that does not parse as a date is passed over for the next (a ``date: {{date}}`` left
by a template is not a day); a note with none has no date.

A date is of one of two kinds (``NoteDate.day``). A **day** is a calendar day's label, with no
zone: a name's date (a Zettelkasten id's time is part of a name: still a day), a linked date, a
``date`` or ``created`` without a time. It is kept as that day's midnight UTC, as everywhere in
vaultmem (lifecycle.parse_timestamp), which is only its label. An **instant** is a moment: a
value with a time (what ``remember`` stamps), a Unix time.

A date **says when the note was made** (``NoteDate.made``) when a ``created`` stamp (or a property
or line saying so, or git) gave it, or a Zettelkasten timestamp id (at the start of the file's name,
or its ``id``): ``stale`` counts a note never used from it, as from ``created`` (indexer.note_row's
``created_us``). A daily note's name or a ``date`` says what day the note is about, not when it was
written, and is not read so.

``search --since X --until Y`` keeps the notes whose date is in [X, Y]. Each bound is a
:class:`Bound`: one for days, one for instants. A bound that names days — a date alone, a
period (``2026``, ``2026-11``, ``2026-W48``, ``today``, ``yesterday``, ``tomorrow``, ``this week``,
``last month``, ``last year`` …), a duration in whole days
back from now (``7d``: from the start of that day) — names calendar days of this machine's
zone: a day passes when its label is one of those days, an instant when it falls between the
first day's local midnight and the last day's end. As ``until`` such a bound runs through the end of its last day, so
``--since 2026-11-23 --until 2026-11-29`` is those seven days. A bound with a time
(``2026-11-23T09:00:00+01:00``) or a duration with hours or minutes (``36h``) is one instant,
for both kinds. A note dated by a period is kept when its span overlaps the range. A note
without a date has no place in such a range and is left out (adr/0026).

A note's **own day** (:func:`own_day`) is its date when that comes from ``date`` or its name:
consolidation never merges two of a person's notes (no layer) whose own days differ (adr/0010).
"""

from __future__ import annotations

import calendar
import contextlib
import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .date_lines import DateLine, LabelMeaning, date_lines, label_key, label_meaning
from .errors import Argument, InvalidDuration, InvalidTimestamp, Spelled, UsageError, short_repr
from .fields import name_form
from .jalali import YEARS as SOLAR_HIJRI_YEARS
from .jalali import said_day, solar_hijri_parts, solar_hijri_said
from .lifecycle import (
    PERMANENT_LAYER,
    format_as_written,
    format_timestamp,
    is_absent,
    is_permanent,
    parse_as_written,
    parse_duration,
    parse_timestamp,
)
from .look_alikes import look_alike_fix
from .month_names import (
    accented_month,
    full_weekday,
    named_month,
    only_calendar_words,
    weekday_days,
)
from .note_numbers import TIMESTAMP_ID, leading_number
from .notes import TEMPLATE_COMMAND, Note, Problem, layer_of, template_exclusion, timestamp_or_none
from .notion import path_without_page_ids
from .period_words import period_in_english
from .periods import Span, is_period_name, iso_span, span_between
from .slugs import named_from_title
from .spelled_days import (
    MONTH,
    MONTHS,
    NAME_DATE,
    WORDED_DATE,
    cjk_days,
    first_day,
    numbered_days,
    property_span,
    solar_hijri_timed,
    value_date,
    worded_days,
)
from .sync_copies import tool_named_original

if TYPE_CHECKING:
    from .daily_format import DailyFormat
    from .git_dates import Added

# ... or in its folders: Daily/2026/11/30.md.
_PATH_DATE = re.compile(r"(?:^|/)(\d{4})/(\d{2})/(\d{2})$")
# 13 August · August 13th · Aug 13 · 13th of August · 1er décembre: a day of a month with no
# year (a birthday, a due date), asked for as a day of the month any year ("08-13"); not a time
# (Aug 13:30) nor the start of a longer number. Read after WORDED_DATE, which takes those with one.
_WORDED_MONTH_DAY = re.compile(
    rf"(?<![^\W\d])(?:(?P<m1>{MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?|(?<!\d)(?P<d2>\d{{1,2}})"
    rf"(?:st|nd|rd|th|(?<=(?<!\d)1)er|º|\.)?\s+(?:de\s+|of\s+)?(?P<m2>{MONTH})\.?)(?![^\W\d])(?![.:,]?\d)",
    re.IGNORECASE)
# 16-02-2021, 05.12.2023: a day and a month in an order no shape tells, never a date by itself
# (adr/0026); explain says which days such a name could be, so that a date property can say which.
_UNORDERED_DAY = re.compile(r"(?<!\d)(\d{1,2})([-_.])(\d{1,2})\2(\d{4})(?!\d)")
# ... and as a bound, with slashes too (14/09/2026: how French, British and American people write a
# day, and how the French vault of a trial wrote its own, "déposée le 19/01/2026"), which no file
# name holds: 14.09.2026 was read and 14/09/2026 refused as "neither a date nor a duration".
_UNORDERED_BOUND = re.compile(r"(?<!\d)(\d{1,2})([-_./])(\d{1,2})\2(\d{4})(?!\d)")
DAILY_SOURCE = "daily-note format"  # a NoteDate's source when the vault's daily-note format gave it
NAME_SOURCE = "file name"  # ... when a day in its file name or folders gave it (or a period's ISO name)
PERIODIC_SOURCE = "periodic-note format"  # ... when a name in one of Periodic Notes' formats gave it
GIT_SOURCE = "git history"  # ... when the commit that added its file gave it (rule 8, git_dates.py)
_DURATION_SHAPE = re.compile(r"(?:\d+[smhdw])+", re.IGNORECASE)
_DAYS_ONLY = re.compile(r"(?:\d+[dw])+", re.IGNORECASE)  # 7d, 2w, 1w3d: whole days, said as days
# A bound that names a period: 2026 (a year), 2026-11 (a month), 2026-W48 or 2026W48 (an ISO week).
_DAY_SHAPE = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")  # a day, as ISO writes one
_PERIOD = re.compile(r"(?P<year>[0-9]{4})(?:-(?P<month>[0-9]{2})|-?[Ww](?P<week>[0-9]{2}))?")
# A period said in words, relative to today on this machine's calendar: a day, or the ISO week,
# calendar month or year holding today ("this"), the one before it ("last") or after it ("next":
# what a task is due in). Spaces, "-" and "_" between the words are one: last week, last-week, Last_Week.
_DAY_WORDS = {"today": 0, "yesterday": -1, "tomorrow": 1, "day before yesterday": -2, "day after tomorrow": 2}
_PERIOD_UNITS = ("week", "month", "year")
# A weekday after this, last or next (`last friday`, `next tuesday`, `this monday`): one day. Was
# (s35) "neither a date nor a duration". `last`: the nearest before today; `next`: the nearest
# after it; `this`: the one in this week (the vault's week, as `this week`).
_WEEKDAY_WORDS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WHICH_PERIOD = {"this": 0, "last": 1, "next": -1}
_WORD_GAP = re.compile(r"[\s_-]+")
# The same periods as Chinese (simplified and traditional), Japanese and Korean say them, spaces
# aside: an agent passes on what the person said, and `--since 上周` was "neither a date nor a
# duration" while `--since 2025年3月` was read (a trial on a Chinese vault). Each word names one of
# the periods above and nothing else; `最近` ("lately") names no period and stays refused.
_CJK_PERIOD_WORDS = {
    **dict.fromkeys(("今天", "今日", "오늘"), "today"),
    **dict.fromkeys(("昨天", "昨日", "어제"), "yesterday"),
    **dict.fromkeys(("明天", "明日", "내일"), "tomorrow"),
    **dict.fromkeys(("本周", "本週", "这周", "這週", "这个星期", "這個星期", "今週", "이번주"), "this week"),
    **dict.fromkeys(("上周", "上週", "上个星期", "上個星期", "上星期", "先週", "지난주", "저번주"), "last week"),
    **dict.fromkeys(("下周", "下週", "下个星期", "下個星期", "下星期", "来週", "來週", "다음주"), "next week"),
    **dict.fromkeys(("本月", "这个月", "這個月", "今月", "이번달"), "this month"),
    **dict.fromkeys(("上个月", "上個月", "上月", "先月", "지난달", "저번달"), "last month"),
    **dict.fromkeys(("下个月", "下個月", "下月", "来月", "來月", "다음달"), "next month"),
    **dict.fromkeys(("今年", "올해", "금년"), "this year"),
    **dict.fromkeys(("去年", "昨年", "작년", "지난해"), "last year"),
    **dict.fromkeys(("明年", "来年", "來年", "내년"), "next year"),
}
CJK_PERIOD_WORDS = _CJK_PERIOD_WORDS  # read by query_periods.py too: a period named in a query
# A weekday as Chinese (周五, 星期五, 上周五: last week's Friday), Japanese (金曜日, 先週の金曜日) and
# Korean (금요일, 지난주 금요일, spaces gone) say it: its week (None alone) and its day (Monday 0).
# Was (s35 review): refused, while 上周, 先週, 지난주 and vendredi were taken.
_CJK_WEEKDAY = re.compile(
    "(?:(?P<zh_which>上个|上個|上|下个|下個|下|本|这个|這個|这|這)?(?:周|週|星期|礼拜|禮拜)(?P<zh_day>[一二三四五六日天])"
    "|(?P<ja_which>先週|今週|来週|來週)?の?(?P<ja_day>[月火水木金土日])曜日?"
    "|(?P<ko_which>지난주|저번주|이번주|다음주)?(?P<ko_day>[월화수목금토일])요일)")
_CJK_WEEKDAY_DAYS = {**{day: number for number, day in enumerate("一二三四五六日")}, "天": 6,
                     **{day: number for number, day in enumerate("月火水木金土日")},
                     **{day: number for number, day in enumerate("월화수목금토일")}}
_CJK_WEEK_WHICH = {**dict.fromkeys(("上个", "上個", "上", "先週", "지난주", "저번주"), "last"),
                   **dict.fromkeys(("下个", "下個", "下", "来週", "來週", "다음주"), "next"),
                   **dict.fromkeys(("本", "这个", "這個", "这", "這", "今週", "이번주"), "this")}
# What a bound may be, as its refusal and the shells' help list it.
PERIOD_FORMS = ("2026, 2026-11, 2026-W48, today, yesterday, tomorrow, this week, last week, next week, this month, "
                "last month, next month, this year, last year, next year, last friday, next tuesday, this monday "
                "(the nearest one before today, the nearest after it, the one of this week: on a Saturday, this "
                "friday is yesterday), friday (a weekday alone: the last one, today included, for a since bound or a "
                "done day; the next one for an until bound or a due day)")
_START_OF_TIME = datetime.min.replace(tzinfo=UTC)
_END_OF_TIME = datetime.max.replace(tzinfo=UTC)
_ONE_DAY = timedelta(days=1)
_LAST_INSTANT = timedelta(microseconds=1)  # an until bound is the instant before the next day starts


@dataclass(frozen=True)
class NoteDate:
    """A note's date, where it was read from (the property's name, ``date`` or ``fecha``;
    ``daily-note format``; ``file name``), whether it is a day's label (kept as that day's
    midnight UTC) or an instant, and whether a property of when the note was written
    (``created``) gave it rather than one of what day it is about."""

    moment: datetime
    source: str
    day: bool
    written: bool = False
    span: Span | None = None  # a periodic note's period: ``moment`` is its first day's label
    # The time as the note writes it, when that is not how shown_date would give it: in a zone
    # other than UTC (``2026-12-09T10:00:00-08:00``: given in UTC, an agent read 18:00 for a 10:00
    # appointment) or a wall clock's (``2026-12-09T10:00``: given as its day, the hour was lost).
    said: str | None = None
    timestamp_id: bool = False  # a Zettelkasten timestamp id gave it: when the zettel was made, still a day
    # The time that id names (202403141300: 13:00), naive as UTC: what `stale` counts from. Was
    # (stop 38's leftover): the day's midnight, so `stale` said "since created 2024-03-14 00:00:00".
    made_at: datetime | None = None

    @property
    def made(self) -> bool:
        """Does the date say when the note was made (see the module's docstring)? Not ``written``:
        a zettel's id is its name too, and stays its own day (own_day) for consolidation."""
        return self.written or self.timestamp_id

    @property
    def last(self) -> datetime | None:
        """A period's last day's label (midnight UTC, as ``moment`` is its first's); None for one date."""
        return None if self.span is None else parse_timestamp(self.span.last)


@dataclass(frozen=True)
class DateProperties:
    """The properties that date a vault's notes, each list in the order they are read: ``date``,
    what day a note is about (read first), and ``created``, when it was written (read last).
    The default is vaultmem's own names; a vault names its own in ``.vaultmem.toml`` ``[dates]``
    (config.py checks them: names, none in both lists, ``created`` kept)."""

    date: tuple[str, ...] = ("date",)
    created: tuple[str, ...] = ("created",)
    # ``from_git = true``: a note nothing else dates is dated by the commit that added its file
    # (git_dates.py, the last rule); off by default, since it asks git at every command.
    from_git: bool = False

    @property
    def named(self) -> bool:
        """Does the vault name properties of its own (not only ``date`` and ``created``)?"""
        return (self.date, self.created) != (DateProperties.date, DateProperties.created)

    @property
    def fingerprint(self) -> str:
        """What the index keeps to tell that the names (or ``from_git``) changed (``""``: the
        default, as an index made before they could be named was dated by)."""
        if not self.named and not self.from_git:
            return ""
        said: dict[str, object] = {"date": list(self.date), "created": list(self.created)}
        if self.from_git:  # only when on: an index dated under names alone keeps its fingerprint
            said["from_git"] = True
        return json.dumps(said, ensure_ascii=False)

    @property
    def date_said(self) -> str:
        """``a `date:` property``, or as the vault names them: ``a `date:` or `fecha:` property``."""
        return f"a {_listed(self.date)} property"

    @property
    def created_said(self) -> str:
        """``a `created:` stamp``, or ``a `created:` or `creado:` stamp``."""
        return f"a {_listed(self.created)} stamp"


def _listed(names: tuple[str, ...]) -> str:
    return " or ".join(f"`{name}:`" for name in names)


DEFAULT_DATE_PROPERTIES = DateProperties()


@dataclass(frozen=True)
class Bound:
    """One end of a search by date, for each kind of note date: ``day`` is compared with a day's
    label (its midnight UTC), ``instant`` with an instant. A bound with a time is both."""

    day: datetime
    instant: datetime

    @classmethod
    def exact(cls, moment: datetime) -> Bound:
        return cls(day=moment, instant=moment)


def note_date(meta: Mapping[str, Any], path: str, daily: DailyFormat | None = None,
              properties: DateProperties = DEFAULT_DATE_PROPERTIES, body: str = "",
              git: Mapping[str, Added] | None = None) -> NoteDate | None:
    """The note's date (see the module's docstring), or None. ``daily``: the vault's daily-note
    format (read once per command from its settings); without it, names are read by shape alone.
    ``properties``: the vault's date properties (its settings); without them, ``date`` and ``created``.
    ``body``: the note's text, whose opening block may say its date (rule 6); without it, not read.
    A sync tool's conflict copy is dated as its original would be: the day in
    ``(conflicted copy 2026-12-01)`` or ``.sync-conflict-20261201-…`` is when two devices
    clashed, not what the note is about (a trial: a copy of a memory written on the 2nd was listed
    under the 1st, and its own name no longer read as made from its title).
    ``git``: when git added each file (git_dates.GitDates.moments), read last; without it, not read."""
    found = _dated_by_note(meta, tool_named_original(path) or path, daily, properties, body)
    if found is not None or not git or not properties.from_git:
        return found
    added = git.get(path)  # the file's own path: a conflict copy was added by its own commit
    if added is None:
        return None
    return NoteDate(added.moment, GIT_SOURCE, day=False, written=True, said=_git_said(added))


def _git_said(added: Added) -> str | None:
    """The author's time as git wrote it, in the author's zone (``2024-03-05T09:12:00+01:00``);
    None for UTC, which shown_date gives alike."""
    moment = datetime.fromisoformat(added.said)
    return None if moment.utcoffset() == timedelta(0) else added.said


def _dated_by_note(meta: Mapping[str, Any], path: str, daily: DailyFormat | None, properties: DateProperties,
                   body: str) -> NoteDate | None:
    """Rules 1 to 7: what the note itself (its properties, name and opening lines) says."""
    solar_hijri = daily is not None and daily.solar_hijri
    found = _first_property_date(meta, properties.date, solar_hijri)
    if found is not None:
        return found
    if _memory_named_from_title(meta, path):
        # A memory's name is its text's first words (slugs.py): "Ben's birthday is 1988-03-14"
        # would date it in 1988, and `list --since 7d` would leave out what was just remembered.
        written = _first_property_date(meta, properties.created, solar_hijri)
        if written is not None:
            return replace(written, written=True)
    day = daily.day(path) if daily is not None else None
    if day is not None:  # a format with a time (YYYY-MM-DD HH:mm) still names a day: its time is matched, not read
        return NoteDate(parse_timestamp(day), DAILY_SOURCE, day=True)
    period = _period_date(path, daily)
    if period is not None:
        return period
    named = _name_date(path, solar_hijri)
    made = _unix_id_made(meta, path, properties.created, solar_hijri) if daily is not None and daily.unix_ids else None
    # A Unix-time name spells the note's own time: a day only its folders spell does not win over it.
    # Was (review, s42): `2024-09-02 Clase/1732193684 - Apuntes.md` was dated by its folder's day.
    if named is not None and (made is None or _name_date(PurePosixPath(path).name, solar_hijri) is not None):
        number = leading_number(path)
        zettel = _timestamp_id_day(number) == named
        return NoteDate(named, NAME_SOURCE, day=True, timestamp_id=zettel,
                        made_at=_timestamp_id_moment(number) if zettel else None)
    if made is not None:
        return NoteDate(made.replace(hour=0, minute=0, second=0), NAME_SOURCE, day=True, timestamp_id=True, made_at=made)
    found = _first_property_date(meta, properties.created, solar_hijri)
    if found is not None:
        return replace(found, written=True)
    found = _id_date(meta)
    if found is not None:
        return found
    found = language_property_date(meta, properties)
    if found is not None:
        return found
    return line_date(body, properties) if body else None


# A name opening with a Unix time in seconds, as the Unique note creator writes it under its format X: ten
# digits (2001-09-09 to 2286), then anything but another digit.
_UNIX_ID = re.compile(r"([1-9]\d{9})(?!\d)")
# The times the plugin can have written: none before Obsidian (2020-01-01), and none a North American phone
# number spells (its area code opens with 2 to 9: 2,000,000,000 or more, 2033-05-18 on). A name's ten
# digits outside them are a phone number, an order's or a receipt's (review42b, s43). To widen by 2033.
UNIX_IDS_FROM = 1_577_836_800
UNIX_IDS_UNTIL = 2_000_000_000
# How far a note's `created` may be from the time its name spells and still be the same moment (a day
# written without its time or zone is midnight UTC).
_UNIX_ID_AGREES = timedelta(days=2)


def _unix_id_made(meta: Mapping[str, Any], path: str, created: tuple[str, ...], solar_hijri: bool) -> datetime | None:
    """When a note whose name opens with a Unix time was made (:func:`_unix_id_moment`), unless its
    own ``created`` says another time: then the ten digits are no time of its making (``1900000000
    Idea.md`` written on 2021-03-01 is no note of 2030)."""
    made = _unix_id_moment(path)
    if made is None:
        return None
    written = _first_property_date(meta, created, solar_hijri)
    return made if written is None or abs(written.moment - made) < _UNIX_ID_AGREES else None


def _unix_id_moment(path: str) -> datetime | None:
    """The time (UTC) a note's name opens with, in a vault whose Unique note creator names notes by
    their Unix time (daily_format.DailyFormat.unix_ids): ``1732193684 - Algoritmos.md`` was made
    2024-11-21 12:54:44. None for ten digits no such plugin can have written (:data:`UNIX_IDS_FROM`)."""
    found = _UNIX_ID.match(PurePosixPath(path).stem)
    if found is None or not UNIX_IDS_FROM <= int(found[1]) < UNIX_IDS_UNTIL:
        return None
    return datetime.fromtimestamp(int(found[1]), tz=UTC)


def _timestamp_id_day(text: str | None) -> datetime | None:
    """The day a Zettelkasten timestamp id (note_numbers.py: 12 or 14 digits, a real day and
    time) was made, or None."""
    if text is None or TIMESTAMP_ID.fullmatch(text) is None:
        return None
    return first_day(numbered_days(text))


def _timestamp_id_moment(text: str | None) -> datetime | None:
    """The time a Zettelkasten timestamp id names (``202403141300``: 2024-03-14 13:00, read as
    UTC as a naive time is), or None: no such id, or no real day and time."""
    day = _timestamp_id_day(text)
    if text is None or day is None:
        return None
    hour, minute, second = int(text[8:10]), int(text[10:12]), int(text[12:14] or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return day.replace(hour=hour, minute=minute, second=second)


def _id_date(meta: Mapping[str, Any]) -> NoteDate | None:
    """Rule 5's ``id: 202403141205``: a zettel whose id is in its properties, not its name (YAML
    reads the digits as a number). Was: such a note was undated, and ``stale`` judged it by its
    file's modification time, which a copy or a checkout resets (a trial)."""
    value = meta.get("id")
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    day = _timestamp_id_day(str(value).strip())
    return None if day is None else NoteDate(day, "id", day=True, timestamp_id=True,
                                             made_at=_timestamp_id_moment(str(value).strip()))


def _language_properties(meta: Mapping[str, Any], properties: DateProperties) -> list[tuple[str, Any, LabelMeaning]]:
    """The note's properties named with a date line's words (date_lines.label_meaning: ``fecha``,
    ``Datum``, ``date de création``) that the vault's date properties do not already name: those
    saying what day the note is about first, then those saying when it was made, each in the
    note's order."""
    named = {label_key(name) for name in (*properties.date, *properties.created)}
    found = [(key, value, meaning) for key, value in meta.items() if isinstance(key, str)
             and (meaning := label_meaning(key)) is not None and label_key(key) not in named]
    return sorted(found, key=lambda item: item[2].written)  # stable: each kind in the note's order


def language_property_date(meta: Mapping[str, Any], properties: DateProperties = DEFAULT_DATE_PROPERTIES) -> NoteDate | None:
    """Rule 6: the date of the first property named in the note's language whose value reads as a
    day (``fecha: 2024-01-05``, ``Datum: 05.01.2024``, ``Fecha de creación: 6 de febrero de 2024``),
    as a date line with that label is read (its language's order of a day and a month in numbers);
    ``written`` when its name says when the note was made. Was: a `Fecha:` line under the title
    dated a note and a `Fecha:` property did not, without a `[dates]` setting."""
    for key, value, meaning in _language_properties(meta, properties):
        found = _language_value_date(key, value, meaning)
        if found is not None:
            return replace(found, written=meaning.written)
    return None


def _language_value_date(key: str, value: object, meaning: LabelMeaning) -> NoteDate | None:
    """A day, a time or a year such a property holds; None for any other value (a number is no
    Unix time here: ``data: 42`` is a number, not a day of 1970)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        span = property_span(value)
        return None if span is None else NoteDate(parse_timestamp(span.first), key, day=True, span=span)
    if isinstance(value, date):  # a YAML date or time (datetime is a date)
        return _property_date(value, key)
    if not isinstance(value, str):
        return None
    return _property_date(_day_in_numbers(DateLine(key, value.strip(), meaning.written, meaning.day_first, 0)), key)


def _language_property_problems(meta: Mapping[str, Any], path: str, properties: DateProperties) -> list[Problem]:
    """A property named in the note's language as its date (rule 6) whose text reads as no day
    but was meant as one: digits with no word but a month's or a weekday's name (``fecha:
    31/02/2024``, ``Datum: 31. Februar``) or a template's command that never ran (``fecha: <%
    tp.date.now() %>``). A word (``Datum: unbekannt``), text with words of its own (``data: sensor
    v2 readings``: `data` is an English word too, a review found every such note flagged) or a
    number is passed over without a word, as something the property was never meant to date."""
    problems = []
    for key, value, meaning in _language_properties(meta, properties):
        if not isinstance(value, str) or _language_value_date(key, value, meaning) is not None:
            continue
        meant_as_day = any(char.isdigit() for char in value) and only_calendar_words(value)
        if meant_as_day or TEMPLATE_COMMAND.search(value) is not None:
            problems.append(_not_a_date(key, value, path, DEFAULT_DATE_PROPERTIES))
    return problems


def line_date(body: str, properties: DateProperties = DEFAULT_DATE_PROPERTIES) -> NoteDate | None:
    """The date a line of the body's opening block says (date_lines.py: ``Date de création :
    2026-04-23``): the first whose label says what day the note is about and whose value reads as
    a day, as a ``date`` property is read; else the first such line saying when it was created.
    Read last, for a note no property and no name dates: a line is text a person wrote for
    people, a property is the vault's own field for it."""
    lines = date_lines(body, properties.date, properties.created)
    for line in sorted(lines, key=lambda line: line.written):  # stable: each kind in the body's order
        if line.closing and not _only_a_moment(line.value):
            continue
        # A range's first day; else the line as written, read as before ranges were: `Date: TBD →
        # 2022-05-10` and `Date: May 3 → May 10, 2022` (no year before the arrow) were dated by
        # their day, and reading the first end alone left them undated (review).
        for value in dict.fromkeys((range_start(line.value), line.value)):
            found = _property_date(_day_in_numbers(replace(line, value=value)), f"`{line.label}` line")
            if found is not None:
                return replace(found, written=line.written)
    return None


# A time of day and its zone as a closing line writes them (`09:43:49+01:00`, `8:15 PM`, `at 10:00 UTC`).
_TIME_OF_DAY = re.compile(r"(?<=\d)T(?=\d)|(?<=\d-)[WQ](?=\d)|\b(?:at|um|à|a las|alle)\b|\b(?:UTC|GMT)\b|Z\b|"
                          r"\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[ \t]*[AaPp]\.?[Mm]\.?)?")


def _only_a_moment(value: str) -> bool:
    """Whether a closing block's created line says a day (and its time) alone, as a template or an
    exporter writes it there (YARLE's `2018-10-06T09:43:49+01:00`, `Sunday, January 5, 2026 at 8:15
    PM`, `[[2025-10-04]]`), not a sentence naming a day: a meeting note's last paragraph `Created: a
    new repo for the 2024-01-01 release` dated it by that release (review). The opening block's
    lines are read as before: a template's own block of labels under a title."""
    return only_calendar_words(_TIME_OF_DAY.sub(" ", value))


def range_start(value: str) -> str:
    """The first day of a range written with an arrow, as Notion writes a date property's
    (``May 3, 2022 → May 5, 2022``): the day the note is about begins it. A Notion meeting
    database's page dated so was undated (a trial on a Notion export); the value unchanged
    when it is no such range."""
    start, arrow, end = value.partition(" \u2192 ")
    return start.strip() if arrow and start.strip() and end.strip() else value


def _day_in_numbers(line: DateLine) -> str:
    """A line's value with a day and a month in numbers (``05.01.2024``, ``05/01/2024``) in ISO
    when its label's language says their order (every one but English writes the day first), or
    when only one order is a day (``14/09/2026``); else as written: ``Date: 05/01/2024`` is the
    5th of January or the 1st of May, and a date line is no more guessed than a file name."""
    found = _UNORDERED_BOUND.fullmatch(line.value)
    if found is None:
        return line.value
    if line.day_first:
        with contextlib.suppress(ValueError):  # 31.02.2024: no day
            return date(int(found[4]), int(found[3]), int(found[1])).isoformat()
        return line.value
    orders = _numbered_orders(line.value)
    return orders[0].isoformat() if len(orders) == 1 else line.value


def _memory_named_from_title(meta: Mapping[str, Any], path: str) -> bool:
    """Whether the note is a memory (it has a layer) whose file name ``remember`` made from its title."""
    if is_absent(meta.get("layer")) or not isinstance(meta.get("title"), str):
        return False
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return named_from_title(name[:dot] if dot > 0 else name, meta["title"])  # PurePosixPath(path).stem, without its cost


def file_stem(path: str) -> str:
    """``PurePosixPath(path).stem`` without building the path (asked of every note's path twice
    while a reconcile dates it: 0.1 s of a cold index of 10,000 notes). A name pathlib reads
    otherwise (none, ``.``, ``..``: a path ending in a slash or a dot folder) is left to pathlib."""
    name = path.rpartition("/")[2]
    if name in ("", ".", ".."):
        return PurePosixPath(path).stem
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


def _period_date(path: str, daily: DailyFormat | None) -> NoteDate | None:
    """The period a note's name is (periods.py): by one of Periodic Notes' formats, in its folder,
    else by an ISO shape (``2026-W09``, ``2026-03``, ``2026-Q1``) in any folder."""
    named = daily.period(path) if daily is not None else None
    found: Span | str | None = iso_span(file_stem(path_without_page_ids(path))) if named is None else named[0]
    source = NAME_SOURCE if named is None else PERIODIC_SOURCE
    return NoteDate(parse_timestamp(found.first), source, day=True, span=found) if isinstance(found, Span) else None


def _period_name_problem(path: str, daily: DailyFormat | None) -> list[Problem]:
    """A name shaped as a periodic note's that is no period (``2026-W54.md``, a ``Weekly/``
    note past the year's last week): search by date passes it over without a word."""
    named = daily.period(path) if daily is not None else None
    found = named[0] if named is not None else iso_span(file_stem(path))
    if not isinstance(found, str):
        return []
    return [Problem(path, "file name", f"{found}: --since/--until (since/until) do not date it",
                    "rename it to the period it is about (as Obsidian's Periodic Notes would name it), "
                    "or give it a date property")]


def property_value(meta: Mapping[str, Any], key: str) -> Any:
    """The value of the property ``key`` names, or None: the property of that whole name, else,
    for a dotted name, the value at that path through nested mappings (``kindle-sync.lastAnnotatedDate``).
    A name is matched in any case when the note holds it in one case only, as Obsidian's property
    names are: Obsidian's Importer writes a Notion page's ``Created: 2022-01-26T09:12``."""
    if key in meta:
        return meta[key]
    spelled = [name for name in meta if isinstance(name, str) and name.casefold() == key.casefold()]
    if len(spelled) == 1:
        return meta[spelled[0]]
    if "." not in key:
        return None
    value: Any = meta
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _first_property_date(meta: Mapping[str, Any], keys: tuple[str, ...], solar_hijri: bool = False) -> NoteDate | None:
    """The date of the first of ``keys`` whose value reads as one (``solar_hijri``: see :func:`_property_date`)."""
    for key in keys:
        found = _property_date(property_value(meta, key), key, solar_hijri)
        if found is not None:
            return found
    return None


def made_moment(meta: Mapping[str, Any], properties: DateProperties = DEFAULT_DATE_PROPERTIES,
                solar_hijri: bool = False) -> datetime | None:
    """When the note says it was made: the first of the vault's ``[dates] created`` names whose
    value reads as a date (as notes.created_moment reads ``created``), or None. What the index
    keeps as ``created_us`` (``stale`` counts from it): a vault that names ``creado`` a created
    stamp had every such note judged by its file's time, which a copy or a checkout resets."""
    found = _first_property_date(meta, properties.created, solar_hijri)
    return None if found is None else found.moment


def property_day(meta: Mapping[str, Any], keys: tuple[str, ...], solar_hijri: bool = False) -> date | datetime | None:
    """The day (or the time) the first of ``keys`` that holds a date says a note is about: a
    day's label as its calendar day, a period as its first day, an instant as itself; None
    when none holds one (``solar_hijri``: see :func:`_property_date`). What a memory's layer
    TTL counts from when it is later than now (writer.ttl_start, adr/0003)."""
    found = _first_property_date(meta, keys, solar_hijri)
    if found is None:
        return None
    return found.moment.date() if found.day else found.moment


def own_day(meta: Mapping[str, Any], path: str, daily: DailyFormat | None = None,
            properties: DateProperties = DEFAULT_DATE_PROPERTIES, body: str = "") -> str | None:
    """The calendar day the note says it records (``2026-11-28``) — its date when that comes
    from its ``date`` property, its name or a ``Date:`` line at its top — or None: a date from ``created`` only says when it
    was written, not what day it is about. Consolidation never merges two layer-less notes whose own days
    differ (adr/0010): two weekly reports of one template record two weeks, however alike."""
    found = note_date(meta, path, daily, properties, body)
    if found is None or found.written:
        return None
    if found.span is not None:  # a week's note records the week, not its Monday: never one with a daily note
        return found.span.name
    return calendar_day(shown_date(found.moment, found.day))


def note_problems(note: Note, daily: DailyFormat | None = None,
                  properties: DateProperties = DEFAULT_DATE_PROPERTIES) -> list[Problem]:
    """Every problem of one note, as the index keeps them and ``get`` shows them."""
    return [*read_problems(note, daily), *date_problems(note.meta, note.path, daily, properties)]


def solar_hijri_shaped(value: object) -> bool:
    """A day, or a day and a time, whose year is a Solar Hijri year (jalali.YEARS): read in that
    calendar when the Persian Calendar plugin is on (spelled_days.value_date)."""
    return solar_hijri_parts(value) is not None or solar_hijri_timed(value) is not None


def read_problems(note: Note, daily: DailyFormat | None = None) -> list[Problem]:
    """The problems found as the note was read (``note.problems``), but ``created`` told "no day
    or time" when the vault's calendar reads it as a day: notes.py reads it in the Gregorian
    calendar alone (it is not told the vault's), where ``1403-02-31`` is no day, yet with the
    Persian Calendar plugin on it is 2024-05-20 to ``get``, ``stale``, search and ``check --fix``.
    Was (review, s38): ``check`` called it "no day or time" and told the person to write an ISO
    date, beside ``list`` dating the note 2024-05-20. A day no calendar of the vault holds is
    still a problem (here or in :func:`date_problems`)."""
    if daily is None or not daily.solar_hijri:
        return list(note.problems)
    created = property_value(note.meta, "created")
    if not solar_hijri_shaped(created) or value_date(created, True) is None:
        return list(note.problems)
    return [problem for problem in note.problems if problem.field != "created"]


def date_problems(meta: Mapping[str, Any], path: str, daily: DailyFormat | None = None,
                  properties: DateProperties = DEFAULT_DATE_PROPERTIES) -> list[Problem]:
    """A date property (``date``, or one the vault names) that reads as no date (``2023-02-30``,
    ``last friday``): search by date would pass over it without a word, and date the note by
    the next rule. Or the one that dates the note being another day than the daily note's name
    says (:func:`_other_day_problem`). Or a name shaped as a periodic note's that is no period
    (``2026-W54``: :func:`_period_name_problem`). (``created`` itself is vaultmem's field: notes.py checks it.)"""
    keys = [*properties.date, *(key for key in properties.created if key != "created")]
    solar_hijri = daily is not None and daily.solar_hijri
    if solar_hijri and solar_hijri_shaped(property_value(meta, "created")):
        # `created: 1402-12-30` is a Gregorian day, so notes.py passes it, and no day of the vault's
        # calendar: every reader of created reads none (stale falls back to the file's time), unsaid.
        keys.append("created")
    problems = [_not_a_date(key, property_value(meta, key), path, properties, solar_hijri) for key in keys
                if not is_absent(property_value(meta, key)) and _property_date(property_value(meta, key), key, solar_hijri) is None]
    found = _first_property_date(meta, properties.date, solar_hijri)
    if found is not None:
        problems += _other_day_problem(property_value(meta, found.source), found, path, daily)
        problems += _outside_period_problem(property_value(meta, found.source), found, path, daily)
        problems += _expires_before_its_day(meta, found, path)
    return problems + _language_property_problems(meta, path, properties) + _period_name_problem(path, daily)


def _expires_before_its_day(meta: Mapping[str, Any], found: NoteDate, path: str) -> list[Problem]:
    """A note that expires before the day its date property says it is about: hidden from
    recall on that very day. ``remember`` counts a memory's TTL from its day (adr/0003), but a
    person who moves the day by hand in Obsidian (the dentist moved from the 9th to the 23rd)
    leaves the expiry vaultmem stamped from the old one: the memory then vanished a week before
    the appointment without a word (a three-week agent trial). A permanent or L4 note's
    expires_at is ignored (its own problem), so it never counts here; nor does a superseded
    note's, retired on purpose the moment another replaced it."""
    expires = timestamp_or_none(meta.get("expires_at"))
    if (expires is None or is_permanent(meta) or not is_absent(meta.get("superseded_by"))
            or layer_of(meta) == PERMANENT_LAYER):
        return []
    day = found.moment.date() if found.day else found.moment
    starts = day if isinstance(day, datetime) else local_day_start(day)
    if expires > starts:
        return []
    said = calendar_day(shown_date(found.moment, found.day))
    return [Problem(path, "expires_at",
                    f"expires_at {format_timestamp(expires)} is before the day the note is about ({found.source} {said}): "
                    "it is hidden from recall (expired) before that day comes",
                    f"if it should be recalled until then, give it a later expires_at (revise it, or edit the line: "
                    f"moving the {found.source} by hand does not move the expiry); if it is meant to leave first, "
                    "this can be ignored")]


# A date's format written where the date goes (`date: YYYY-MM-DD`, `created: DD/MM/YYYY HH:mm`): a
# template's placeholder that a person fills in by hand. Was (s40, a Spanish vault's
# `decisions/_template.md`): told to "write it as 2026-11-30", as if the template were a note.
_DATE_FORMAT_PLACEHOLDER = re.compile(r"(?=.*(?:YY|yy|AAAA))(?=.*MM)(?=.*(?:DD|dd))[YyMDdAHhms]+(?:[-/._ :T][YyMDdAHhms]+)*")


def _not_a_date(key: str, value: object, path: str, properties: DateProperties, solar_hijri: bool = False) -> Problem:
    named = (f", or leave {key} out of [dates] in .vaultmem.toml" if properties.named else "")
    if isinstance(value, str) and _DATE_FORMAT_PLACEHOLDER.fullmatch(value.strip()):
        return Problem(path, key, f"{key} is {short_repr(value)}, a date's format where the date goes (a template's "
                       "placeholder?): --since/--until (since/until) do not read it",
                       f"{template_exclusion(path)}; else write the day, as 2026-11-30")
    command = isinstance(value, str) and TEMPLATE_COMMAND.search(value) is not None
    # Told only "write it as 2026-11-30", a person with many such notes (a trial: a GTD note
    # with `Date-creation: <% tp.file.creation_date() %>`) does not learn why they hold it.
    hijri = solar_hijri_said(value)  # ۱۴۰۳/۰۵/۱۲: say which Gregorian day it is (jalali.py)
    shamsi = solar_hijri and solar_hijri_shaped(value)  # read in that calendar, and no day of it
    if shamsi:
        hijri = ("the Persian Calendar plugin is on, so a day with a year of 1300 to 1499 is read as a Solar Hijri "
                 "day, and this is no day of that calendar")
    why = (" (a template's command that never ran: the note was made from the template without "
           "Templater or the Templates plugin filling it in)" if command else f" ({hijri})" if hijri else "")
    return Problem(path, key, f"{key} is {short_repr(value)}, which is not a date{why}: --since/--until (since/until) do not read it",
                   ("write the day it was made, as 2026-11-30 or 2026-11-30T09:00 (Templater's \"Replace templates in the "
                    "active file\" fills in the time you run it, not the day the note was made)" if command else
                    "write a day the Solar Hijri calendar has (its months 7 to 11 have 30 days, the 12th 29, or 30 in a "
                    "leap year), or the Gregorian day, as 2024-08-02" if shamsi else
                    f"write it as {said_day(hijri)}" if said_day(hijri) else
                    look_alike_fix(value, lambda typed: _property_date(typed, key, solar_hijri) is not None) or
                   "write it as 2026-11-30, 2026-11-30T09:00 or [[2026-11-30]]")
                   + f"; a property that is not the note's date can take another name{named}")


def _other_day_problem(value: object, found: NoteDate, path: str, daily: DailyFormat | None) -> list[Problem]:
    """A daily note whose ``date`` is another day than its name in the vault's daily-note format
    (a real German journal: ``2023-10-12-Donnerstag.md`` with ``date: 2024-02-04T16:13``, the
    day Templater's ``tp.file.creation_date()`` filled it in). The property wins, so a search for
    that day's note leaves it out without a word; an instant (a time with a zone) is a moment,
    not a day, and is not compared."""
    named = daily.day(path) if daily is not None else None
    if named is None or not found.day or found.moment.date() == named or _holds(found, named, named):
        return []
    key = found.source
    return [Problem(path, key, f"{key} is {short_repr(value)}, the day {found.moment.date().isoformat()}, but the note's "
                    f"name is {named.isoformat()} in the daily-note format {daily.describe() if daily else ''}: "
                    "--since/--until (since/until) date it by the property",
                    f"if the note is about the day its name says, set {key}: {named.isoformat()} or remove it; "
                    "a day it was written on can take another name, such as created")]


def _outside_period_problem(value: object, found: NoteDate, path: str, daily: DailyFormat | None) -> list[Problem]:
    """A periodic note whose ``date`` is a day outside the period its name is (``2026-W10.md``
    with ``date: 2026-02-25``, a day of the week before): the property wins, so a search for that
    week leaves out its own weekly note without a word, as :func:`_other_day_problem` says of a
    daily note. A day inside the period (a template's stamp of the day it was made) is the
    person's choice (adr/0026); an instant is a moment, not compared."""
    named = _period_date(path, daily)
    span = named.span if named is not None else None
    if span is None or not found.day or span.first <= found.moment.date() <= span.last or _holds(found, span.first, span.last):
        return []
    key = found.source
    return [Problem(path, key, f"{key} is {short_repr(value)}, the day {found.moment.date().isoformat()}, outside "
                    f"{span.said()} the note's name is: --since/--until (since/until) date it by the property",
                    f"if the note is about the {span.kind} its name says, remove {key} or set it to a day of that "
                    f"{span.kind}; a day it was written on can take another name, such as created")]


def _holds(found: NoteDate, first: date, last: date) -> bool:
    """Is ``found`` a period (``date: 2026``) holding the days ``first`` to ``last``? A daily or
    weekly note whose date property is its year is not dated otherwise than its name says."""
    return found.span is not None and found.span.first <= first and last <= found.span.last


def _property_date(value: object, key: str, solar_hijri: bool = False) -> NoteDate | None:
    """A property's date, as spelled_days.value_date reads its value (the one reader: notes.created_moment
    reads ``created`` with it too): a timestamp, a link to a daily note (``[[2026-11-20]]``), alone or
    as the one item of a list (Obsidian's list properties; YAML reads an unquoted
    ``[[2026-11-20]]`` as a list in a list), a day in words. A day when it has no time (a YAML date, a date-only
    text, a linked date, words), else an instant (a time, a Unix time). A period (spelled_days.property_span)
    is its span of days. ``solar_hijri`` (the Persian Calendar plugin is on:
    daily_format.DailyFormat.solar_hijri): a day with a year of jalali.YEARS is that calendar's
    (``date: 1403-05-12`` is 2024-08-02), as the vault's file names are read; one that calendar
    lacks (``1402-12-30``) is no date, and check says why."""
    found = value_date(value, solar_hijri)
    if found is None:
        return None
    if not found.timestamp:
        return NoteDate(found.moment, key, day=True, span=found.span)
    return NoteDate(found.moment, key, day=_without_time(found.value), said=_time_as_written(found.value, found.moment))


def _time_as_written(value: object, found: datetime) -> str | None:
    """A property's time as the note writes it (lifecycle.format_as_written), when a hit should
    show it so rather than as :func:`shown_date` does: a time in another zone than UTC, or one
    without a zone (a wall clock's). None for a day, a UTC time, a Unix time. A day written as
    text (`date: "2024-02-16"` quoted, a `fecha: 05/02/2024` read day first) is a day, not a wall
    clock at 00:00 (the merge of two changes showed it so)."""
    if isinstance(value, str):
        if _is_date_alone(value.strip()):
            return None
        try:
            written = parse_as_written(value)
        except InvalidTimestamp:
            return None
    elif isinstance(value, datetime):
        written = value
    else:
        return None
    if written.tzinfo is None:
        return format_as_written(written)
    return None if format_as_written(written) == format_timestamp(found) else format_as_written(written)



def _without_time(value: object) -> bool:
    """Is a property value that parsed as a timestamp a day (``2026-11-30`` unquoted, as YAML
    reads it, or quoted) rather than an instant? A time without a zone (``2026-11-30T21:30``, as
    Obsidian's Date & time property writes it) is a wall clock's: it counts on the day it
    names, in every zone — kept as that time read as UTC, inside that day's label. A time with
    a zone and a Unix time are instants."""
    if isinstance(value, datetime):
        return value.tzinfo is None
    if isinstance(value, date):
        return True
    if not isinstance(value, str):
        return False
    text = value.strip()
    if _is_date_alone(text):
        return True
    try:
        written = datetime.fromisoformat(text)
    except ValueError:
        return False
    return written.tzinfo is None


@functools.lru_cache(maxsize=1024)
def _name_date(path: str, solar_hijri: bool = False) -> datetime | None:
    """The first day the file's name (or its last three folders and name) spells; ``solar_hijri``
    (the vault names notes in that calendar: daily_format.DailyFormat.solar_hijri), one whose
    year is a Solar Hijri year (jalali.YEARS) is that calendar's day (``1403-05-12`` is 2024-08-02).
    Cached (a pure function of its arguments): a reconcile asks it of each note twice in a row,
    for the note's searched name (name_with_iso_day) and for its date (note_date)."""
    path = path_without_page_ids(path)  # a Notion page id's digits are no day: `…16th Mar 4000a420….md`
    stem = PurePosixPath(path).stem
    folders = [(match[1], match[2], match[3]) for match in _PATH_DATE.finditer(str(PurePosixPath(path).with_suffix("")))]
    return first_day(numbered_days(stem) + folders + worded_days(stem) + cjk_days(stem) + _folder_days(path), solar_hijri)


def _folder_days(path: str) -> list[tuple[str, str, str]]:
    """The day the name of the note's folder starts with, for a note whose own name spells none:
    ``Android-SIG/2025-09-16/summary.md``, ``Meetings/2025-09-16 Planning/notes.md``, Hugo's
    ``posts/2024-01-05-trip/index.md``. Was (s42, a trial of a meeting-notes vault, each meeting
    a folder named by its day holding ``meeting-notes.md`` and ``summary.md``): every note was
    undated, and ``list --since 2025-09`` answered "no notes", though the docs said a day in a
    note's folders dates it. Only the nearest folder, and only a day it starts with: a
    ``backup-2023-05-01/`` copy, or the notes in folders below a dated one, are not that day's."""
    folder = PurePosixPath(path).parent.name
    return [(match[1], match[3], match[4]) for match in NAME_DATE.finditer(folder)
            if match.start() == 0 and (not match[5] or int(match[5]) < 24)]


def name_day(path: str, solar_hijri: bool = False) -> date | None:
    """The day the file's name spells (as it dates a note by shape, whatever the daily-note
    format), or None; ``solar_hijri``: as :func:`_name_date` reads it."""
    named = _name_date(path, solar_hijri)
    return None if named is None else named.date()


def name_with_iso_day(name: str, path: str) -> str:
    """A note's searched name (fields.SearchFields.name), then the ISO spelling of the day its
    file name spells when the name does not already hold it: ``August 16th, 2020`` is searched as
    ``August 16th, 2020 2020-08-16``. A question names a day by its ISO spelling (search asks for
    ``"2020 08 16"`` whether it says 2020-08-16, 16 August 2020 or 2020年8月16日: worded_days_said,
    cjk.days_said), which only a daily note named in numbers held: "what did I do on 2020-08-16"
    missed Roam's `August 16th, 2020.md`, dated that day, and ranked other days first (a trial on
    a Roam export)."""
    day = name_day(path)
    if day is None or day.isoformat() in name:
        return name
    return f"{name} {day.isoformat()}"


def unordered_name_days(path: str) -> tuple[str, list[date]]:
    """A file name's day written with its day and month in either order (``16-02-2021``), as
    written, and the days it can be, in order: one when only one order is a calendar day (16 is
    no month) or both orders give the same day (``07-07-2023``), two when either could be
    (``12-05-2023``); ``("", [])`` when the name has no such day."""
    match = _UNORDERED_DAY.search(PurePosixPath(path_without_page_ids(path)).stem)
    if match is None:
        return "", []
    first, second, year = int(match[1]), int(match[3]), int(match[4])
    days: set[date] = set()
    for month, day in ((second, first), (first, second)):
        with contextlib.suppress(ValueError):  # 31-02-2021, 13-13-2021: that order is no day
            days.add(date(year, month, day))
    return match[0], sorted(days)


def worded_days_said(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with each day written with its month in words and a year (``23 February 2023``,
    ``February 23rd, 2023``, ``15 de marzo de 2024``, ``14. September 2026``) taken out, and each
    as it was written with its ISO spelling (``2023-02-23``): a question naming a day asks for it
    as one word, as a day in CJK numbers is (cjk.days_said). Was (a trial on a journal): "what did
    I write on 23 February 2023" ranked 2023-01-24 first, a note holding "23" and "2023" apart. A
    day no calendar has (``30 February 2023``) is left as it is. A day said without a year
    (``13 August``, ``Aug 13th``) is its month and day (``08-13``), which every year's
    ``2026-08-13`` holds: was (a household trial), "what's due on 13 August" asked for 13 and
    august apart, and a bills list's other dates outranked the task due ``📅 2026-08-13``."""
    days: list[tuple[str, str]] = []

    def taken(found: re.Match[str]) -> str:
        number = named_month(found["m1"] or found["m2"] or found["m3"], MONTHS)
        try:
            day = date(int(found["y"]), number or 0, int(found["d1"] or found["d2"]))
        except ValueError:
            return found.group()
        days.append((found.group(), day.isoformat()))
        return " "

    def taken_without_year(found: re.Match[str]) -> str:
        number = named_month(found["m1"] or found["m2"], MONTHS)
        try:
            day = date(2000, number or 0, int(found["d1"] or found["d2"]))  # a leap year: 29 February is a day
        except ValueError:
            return found.group()
        days.append((found.group(), day.isoformat()[5:]))
        return " "

    return _WORDED_MONTH_DAY.sub(taken_without_year, WORDED_DATE.sub(taken, name_form(text))), days


def day_as_written(found: NoteDate) -> date:
    """The calendar day of a note's date on the clock it is written in: ``created:
    2026-12-04T23:30:00-08:00`` is Friday the 4th, though it is Saturday the 5th in UTC. What a
    task's ``by Friday`` or ``by tomorrow`` is read against (plain_due.py): the day the person wrote
    it. Was (review, s42): that memo's ``call mum by Friday`` was due on the 11th, a week late,
    and ``send the deck by tomorrow`` on the 6th."""
    if found.said is not None and not found.day:
        try:
            return parse_as_written(found.said).date()
        except InvalidTimestamp:  # not a time as written: the day its instant is in UTC
            return found.moment.date()
    return found.moment.date()


def shown_date(moment: datetime, day: bool) -> str:
    """A note's date as a hit gives it: a day as the day it names (``2026-11-30``: a label, not
    an instant at midnight UTC, which a reader in another zone would move to another day), an
    instant as an ISO time in UTC (``2026-12-01T04:00:00+00:00``)."""
    return moment.date().isoformat() if day else format_timestamp(moment)


def shown_span(first: datetime, last: datetime) -> str:
    """A periodic note's date as a hit gives it (its first and last days' labels): its period as
    ISO names it (``2026-W09``, ``2026-03``, ``2026-Q1``, ``2026``), which ``--since`` and
    ``--until`` read back as the same days; ``2026-02-23/2026-03-01`` for a span no period is."""
    span = span_between(first.date(), last.date())
    return span.name if span is not None else f"{first.date().isoformat()}/{last.date().isoformat()}"


def calendar_day(shown: str) -> str:
    """The calendar day a hit's date (:func:`shown_date`) falls on, as this machine's clock
    reads it: a day (or a period: ``2026-W09``) as written, an instant in the local zone (a
    memory written at 8 pm in Los Angeles is that day's, not UTC's next)."""
    if len(shown) == len("2026-11-30") or is_period_name(shown):
        return shown
    return _on_local_clock(datetime.fromisoformat(shown)).date().isoformat()


def _on_local_clock(moment: datetime) -> datetime:
    """``moment`` in this machine's zone; as it is (UTC) where that zone's reading lies past
    year 9999 (23:30Z on 31 December 9999, east of UTC): Python cannot write that day, and a
    search with such a bound, or naming such a note's day, crashed with OverflowError."""
    try:
        return moment.astimezone()
    except OverflowError:
        return moment


def shown_range(since: datetime | None, until: datetime | None) -> str:
    """A search's date range as this machine's calendar reads its instant bounds (None: open):
    ``2026-11-23 … 2026-11-29``, ``2026-11-23`` (one day), ``2026-11-23 or later``, ``2026-11-29
    or earlier``; a bound inside a day with its time (``2026-11-30 14:03``)."""
    first = None if since is None or since == _START_OF_TIME else _shown_bound(since, end=False)
    last = None if until is None or until == _END_OF_TIME else _shown_bound(until, end=True)
    if first is not None and last is not None:
        return first if first == last else f"{first} … {last}"
    if first is not None:
        return f"{first} or later"
    return f"{last} or earlier" if last is not None else "any day"


def _shown_bound(moment: datetime, end: bool) -> str:
    """A bound as its local day when it is where that day starts (or, as ``until``, ends), else with its time."""
    local = _on_local_clock(moment)
    day = local.date()
    whole = _end_of(day).instant if end else _local_midnight(day)
    return day.isoformat() if moment == whole else f"{day.isoformat()} {local:%H:%M}"


def since_bound(value: str, now: datetime, week_start: int = 0, *, name: str = "since") -> Bound:
    """``--since``: the first date a note may have, for each kind (see the module's docstring).
    A duration in days or weeks reaches back to the start of that local day: at noon, ``1d``
    keeps yesterday's daily note; a duration with hours or minutes is exact. ``week_start``:
    the day ``this week`` and ``last week`` start on (Monday 0 … Sunday 6: the vault's).
    ``name``: the argument a refusal names (``due_since`` for a task's: tasks.py)."""
    return _bound(value, now, name, end=False, week_start=week_start)


def until_bound(value: str, now: datetime, week_start: int = 0, *, name: str = "until",
                since: Bound | None = None) -> Bound:
    """``--until``: the last date a note may have, for each kind (days named: through the last one's end).
    ``since``: the pair's since bound, when a weekday named it (:func:`weekday_bound`): a weekday
    alone here is then the first one on or after it — ``--since monday --until wednesday`` on a
    Friday is this Monday to Wednesday. Was (s35 review): placed alone, "the next one", it ran to
    next week's Wednesday and kept Thursday's and Friday's notes; a done day's pair (``--done-since
    monday --done-until friday`` on a Wednesday) was refused as since after until, while the task
    question "done between monday and friday" read it."""
    after = None if since is None else since.day.date()
    return _bound(value, now, name, end=True, week_start=week_start, after=after)


def weekday_bound(value: str) -> bool:
    """Does the bound ``value`` name a weekday (``monday``, ``vendredi``, ``last friday``, ``this
    monday``)? Its pair's until bound, a weekday alone, is placed after it (:func:`until_bound`)."""
    text = iso_spelling(str(value).strip())
    words = _period_words(text)
    return _weekday_alone(text) is not None or (words is not None and words.rpartition(" ")[2] in _WEEKDAY_WORDS)


def weekday_said(value: str, bound: Bound, now: datetime, week_start: int = 0, *, name: str = "since",
                 after: date | None = None) -> Spelled | None:
    """What a bound that names a weekday was read as, for the answer to say (``since 'friday' is
    Friday 2026-11-27: a weekday alone is the last one, today included, as a since bound``): which of the
    Fridays a person may mean is a choice, and a search that only shows notes cannot tell it.
    ``bound``: the bound read from ``value``; ``after``: the pair's since day when a weekday named
    it (:func:`until_bound`). None for a bound that names no weekday."""
    text = iso_spelling(str(value).strip())
    end = name.endswith("until")
    day = bound.day.date()  # as until, the last instant of that day's label: still that day
    shown = f"{day:%A} {day.isoformat()}"
    if _weekday_alone(text) is not None:
        ahead = after is not None or name.startswith("due") or (end and not name.startswith("done"))
        how = (f"the first {day:%A} on or after {after.isoformat()}, the pair's since day" if after is not None else
               f"a weekday alone is the {'next' if ahead else 'last'} one, today included, as {'an' if end else 'a'} "
               f"{name.replace('_', ' ')} bound")
        return Spelled(Argument(name, repr(value)), f" is {shown}: {how}")
    words = _period_words(text)
    if words is None or words.rpartition(" ")[2] not in _WEEKDAY_WORDS:
        return None
    which = words.partition(" ")[0]
    if " week " in words:  # 上周五: the Friday of last week
        how = f"the {day:%A} of {which} week"
    elif which == "this":
        first = _WEEKDAY_WORDS[week_start].capitalize()
        how = f"the {day:%A} of this week ({first} to {_WEEKDAY_WORDS[(week_start + 6) % 7].capitalize()})"
    else:
        how = f"the nearest {day:%A} {'before' if which == 'last' else 'after'} today ({local_date(now).isoformat()})"
    return Spelled(Argument(name, repr(value)), f" is {shown}: {how}")


def _bound(value: str, now: datetime, name: str, end: bool, week_start: int = 0, after: date | None = None) -> Bound:
    text = _without_weekday(str(value).strip(), name, value)
    eastern = _EASTERN_YEAR.match(text)
    if eastern is not None and int(eastern[1]) in SOLAR_HIJRI_YEARS:  # ۱۴۰۳, ۱۴۰۳/۰۵/۱۲: no day of 1403 AD
        said = solar_hijri_said(text)
        raise UsageError(Argument(name, repr(value)), f" is {said or 'a Solar Hijri or Hijri year, which vaultmem does not convert'}"
                         f": give the Gregorian {'day, ' + said_day(said) if said_day(said) else 'days, such as 2026-11-23'}")
    text = text.translate(_EASTERN_DIGITS)  # ۲۰۲۴-۰۸, as a Persian or Arabic keyboard types it: 2024-08
    orders = _numbered_orders(text)
    if len(orders) > 1:  # 05.09.2026: the 5th of September or the 9th of May
        raise UsageError(Argument(name, repr(value)), " is a day and a month in an order no shape tells: give "
                         f"{' or '.join(day.isoformat() for day in orders)}")
    if not orders and _UNORDERED_BOUND.fullmatch(text):  # 31.02.2026
        raise UsageError(Argument(name, repr(value)), " names no day in either order (day.month.year or "
                         "month.day.year): give an ISO date such as 2026-11-23")
    yearless = _YEARLESS_CJK_DAY.fullmatch(text)
    if yearless is not None:  # 4월 15일: which year is not guessed, but the person is told how to say it
        said = f"{now.year}년 {text}" if "월" in text else f"{now.year}年{text}"
        raise UsageError(Argument(name, repr(value)), f" is a day without its year: give the year too, such as "
                         f"{said!r} or {now.year}-{int(yearless[1]):02d}-{int(yearless[2]):02d}")
    text = orders[0].isoformat() if orders else iso_spelling(text)
    ahead = after is not None or name.startswith("due") or (end and not name.startswith("done"))
    _refuse_lone_month(text, value, name, local_date(now), ahead)
    lone = _lone_weekday(text, local_date(now) if after is None else after, ahead)
    if lone is not None:
        return _end_of(lone) if end else _start_of(lone)
    try:
        days = _days_named(text, now, week_start)
    except (OverflowError, ValueError):  # a period in words beyond the calendar: yesterday on 1 January of year 1
        raise UsageError(Argument(name, repr(value)), f" lies outside the years 1 to 9999 on {now.date().isoformat()}: "
                         "give a date") from None
    if days is not None:  # a date alone, a year, a month, an ISO week, today, yesterday: all of it
        first, last = days
        return _end_of(last) if end else _start_of(first)
    shape = _PERIOD.fullmatch(text)
    if shape is not None:  # the shape of a period, yet no period (2025-W53, 2026-13): say which part is wrong
        raise UsageError(Argument(name, repr(value)), f" names no period: {_period_problem(shape)}")
    day = _DAY_SHAPE.fullmatch(text)
    if day is not None:  # the shape of a day, yet no day (2025-02-30)
        raise UsageError(Argument(name, repr(value)), f" names no day: {_day_problem(day)}")
    try:
        return _at(parse_timestamp(text), end)
    except InvalidTimestamp:
        return _back_from(now, text, value, name, end)


# A year in Persian or Arabic-Indic digits opening a bound, and those digits as ASCII ones.
_EASTERN_YEAR = re.compile("([\u06f0-\u06f9\u0660-\u0669]{4})(?![0-9\u06f0-\u06f9\u0660-\u0669])")
_EASTERN_DIGITS = str.maketrans({**{0x06F0 + digit: str(digit) for digit in range(10)},
                                 **{0x0660 + digit: str(digit) for digit in range(10)}})
# A word of a bound beside its day in words, and what else may stand there: a comma, a dot.
_BOUND_WORD = re.compile(r"[^\W\d_]+(?:[-’'][^\W\d_]+)*")
_WEEKDAY_GAP = re.compile(r"[\s,.]*")


def _without_weekday(text: str, name: str, value: object) -> str:
    """``text`` without the weekday its day in words is named with, as a daily note's name writes
    it (``lundi 4 mai 2026``, ``Monday, May 4th 2026``, ``Freitag, 15. März 2024``, ``15 Mart 2024
    Cuma``): that day. Was (a trial on a French vault): the refusal told to give a day "as a daily
    note's name writes it", and refused the name of the daily note itself. A weekday that is not
    the day's (``mardi 4 mai 2026``: 4 May 2026 is a Monday) is refused, naming both: which of the
    two was meant is not guessed. Any other text is returned as it is."""
    worded = name_form(text)
    found = WORDED_DATE.search(worded)
    if found is None or (found.start() == 0 and found.end() == len(worded)):
        return text
    rest = worded[:found.start()] + " " + worded[found.end():]
    words = _BOUND_WORD.findall(rest)
    days = [weekday_days(word) for word in words]
    if len(words) != 1 or days[0] is None or not _WEEKDAY_GAP.fullmatch(_BOUND_WORD.sub("", rest)):
        return text
    [(year, month, day_of_month)] = worded_days(found.group())
    try:
        day = date(int(year), int(month), int(day_of_month))
    except ValueError:  # 31 février 2026: said below, as the day alone is
        return found.group()
    if day.weekday() not in days[0]:
        raise UsageError(Argument(name, repr(value)), f" names {words[0]!r}, but {day.isoformat()} is a "
                         f"{day:%A}: give the day alone ({found.group()!r} or {day.isoformat()}) or its own weekday")
    return found.group()


def _at(moment: datetime, end: bool) -> Bound:
    """A bound that is one instant: exact for instants; for days, the local day that holds it,
    whole — a day's note is about all of its day, so `--since 24h` at 8 pm keeps yesterday's
    daily note and `--until` a time keeps that day's, never the next day's by its UTC midnight."""
    if moment in (_START_OF_TIME, _END_OF_TIME):
        return Bound.exact(moment)
    day = local_date(moment)
    label = (_end_of(day) if end else _start_of(day)).day
    return Bound(day=label, instant=moment)


# A day, month or year as Chinese, Japanese and Korean write it (2025年4月20日, 2025年4月, 2025年),
# whole: a bound a person says so, and an agent passes on, as notes are dated by it (CJK_DATE).
_CJK_PERIOD = re.compile(r"(\d{4})\s*[年년](?:\s*(\d{1,2})\s*[月월](?:\s*(\d{1,2})\s*[日일号號])?)?")


# How a refused bound is told the days and months in words it may be (the forms WORDED_DATE and
# _WORDED_MONTH read): "в марте 2024" and "in March 2024" were refused without a word on them.
WORDED_FORMS = "14 September 2026, September 2026, 15 марта 2024, март 2024"
# A month in words and a year: September 2026, Sept. 2026, März 2026, mars 2026 (MONTHS' languages),
# and marzo de 2026 (or "del 2026"), as Spanish says it and moment's es.js writes MMMM [de] YYYY:
# "marzo de 2024" was refused though "15 de marzo de 2024" and "marzo 2024" were read (a trial).
_WORDED_MONTH = re.compile(rf"(?P<m>{MONTH})\.?,?\s+(?:del?\s+)?(?P<y>\d{{4}})", re.IGNORECASE)


# A day in CJK numbers without its year (4월 15일, 4月15日): refused, saying how to give the year.
_YEARLESS_CJK_DAY = re.compile(r"(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일号號]")
# A day written year first with dots or slashes, as Korean (2026.04.15, 2026. 4. 15.), Chinese
# and Japanese (2026/4/15) write it: year, month, day in that order, whatever the separator.
_YEAR_FIRST_DAY = re.compile(r"(\d{4})\s*([./])\s*(\d{1,2})\s*\2\s*(\d{1,2})\.?")


def iso_spelling(text: str) -> str:
    """``text`` in ISO when it is a day, month or year written in CJK numbers (``2025年4月20日``
    → ``2025-04-20``, ``2025년 4월`` → ``2025-04``), a day written year first with dots or
    slashes (``2026.04.15``, ``2026. 4. 15.``, ``2026/4/15`` → ``2026-04-15``), or a day or month
    with the month in words (``14. September 2026`` → ``2026-09-14``, ``März 2026`` →
    ``2026-03``); else as it is. Each was refused as "neither a date nor a duration" (trials on
    a Japanese, a German and a Korean vault), though a note named so is dated by it."""
    year_first = _YEAR_FIRST_DAY.fullmatch(text)
    if year_first is not None:
        return f"{int(year_first[1]):04d}-{int(year_first[3]):02d}-{int(year_first[4]):02d}"
    found = _CJK_PERIOD.fullmatch(text)
    if found is not None:
        return "-".join(f"{int(part):0{width}d}" for part, width in zip(found.groups(), (4, 2, 2), strict=True) if part is not None)
    worded = name_form(text)
    if WORDED_DATE.fullmatch(worded) is not None:
        [(year, month, day)] = worded_days(worded)
        return f"{int(year):04d}-{int(month):02d}-{int(day):02d}"
    named = _WORDED_MONTH.fullmatch(worded)
    number = named_month(named["m"], MONTHS) if named is not None else None
    return f"{int(named['y']):04d}-{number:02d}" if named is not None and number is not None else text


def _numbered_orders(text: str) -> list[date]:
    """The days a day, a month and a year in numbers (``14.09.2026``, ``14/09/2026``, ``16-02-2021``: day or month
    first, no shape tells) can be, when ``text`` is one: both orders read as a calendar has them.
    ``14.09.2026`` is only the 14th of September; ``05.09.2026`` is the 5th of September or the 9th
    of May, and a bound must not guess (adr/0026). Empty for any other text."""
    found = _UNORDERED_BOUND.fullmatch(text)
    if found is None:
        return []
    first, second, year = int(found[1]), int(found[3]), int(found[4])
    days = []
    for day, month in dict.fromkeys(((first, second), (second, first))):
        try:
            days.append(date(year, month, day))
        except ValueError:  # the 14th month
            continue
    return days


def _days_named(text: str, now: datetime, week_start: int = 0) -> tuple[date, date] | None:
    """The calendar days ``text`` names, first and last: a date alone (any ISO spelling), ``2026``
    (a year), ``2026-11`` (a month), ``2026-W48`` (an ISO week, Monday to Sunday), a period in
    words (``today``, ``last week``: :func:`_relative_period`, on this machine's calendar at
    ``now``); None for anything else (a time, a duration)."""
    words = _period_words(text)
    if words is not None:
        return _relative_period(words, local_date(now), week_start)
    period = _period(text)
    if period is None and _is_date_alone(text):  # a period first: date.fromisoformat reads 2026-W48 as its Monday
        day = date.fromisoformat(text)
        return day, day
    return period


def days_said(text: str, now: datetime, week_start: int = 0) -> tuple[date, date] | None:
    """The first and last calendar day ``text`` names as a bound would (:func:`_days_named`
    after :func:`iso_spelling`: ``this week``, ``tomorrow``, ``2026-12``, ``2026-W48``,
    ``4 December 2026``, ``December 2026``), or None: a time, a duration or any other text is
    no days here. For words read from a question (task_query.py), which no refusal may meet."""
    try:
        return _days_named(iso_spelling(text), now, week_start)
    except (OverflowError, ValueError):  # a day outside the calendar: not days
        return None


# What a memory's `date` reads besides an ISO day or time (writer.memory_day): said in refusals.
DAY_WORDS_READ = ("a day in words as since/until read it: today, yesterday, tomorrow, last friday, next tuesday, "
                  "this monday, or a weekday alone (the next one, today included)")


def memory_day_word(value: object, now: datetime, week_start: int = 0, *, name: str = "date") -> tuple[date, str] | None:
    """The one day a word names for ``remember``'s and ``revise``'s ``date`` (``yesterday``, ``last
    friday``, ``next tuesday``, ``vendredi dernier``, ``上周五``), read as ``since``/``until`` read it
    (:func:`_period_words`, :func:`_relative_period`: the same reader) on this machine's calendar at
    ``now``, and what it was read as, for the answer to say. A weekday alone is the next one, today
    included (a memory's day is more often one to come: an appointment), as a due day reads it.
    None: no such words (an ISO day or time, a day in numbers: writer.memory_day reads those).
    A word for a range (``last week``, ``this month``) is refused, naming the forms read: a memory's
    date is one day, and its first day is a guess. Was (s38 trial): ISO only, so an agent that did
    not know today's date had to guess it, while ``list_notes(since="last week")`` read words."""
    if not isinstance(value, str):
        return None
    text = iso_spelling(value.strip())
    today = local_date(now)
    weekday = _weekday_alone(text)
    if weekday is not None:
        day = today + timedelta(days=(weekday - today.weekday()) % 7)
        return day, f"{value!r} is {day:%A} {day.isoformat()}: a weekday alone is the next one, today included " \
                    f"(today is {today:%A} {today.isoformat()})"
    words = _period_words(text)
    if words is None:
        return None
    try:
        first, last = _relative_period(words, today, week_start)
    except (OverflowError, ValueError):  # yesterday on 1 January of year 1
        raise InvalidTimestamp(value, f"outside the years 1 to 9999 on {today.isoformat()}", Argument(name),
                               "give an ISO day such as 2026-12-01") from None
    if first != last:
        raise InvalidTimestamp(value, f"{words} is {first.isoformat()} to {last.isoformat()}, not one day", Argument(name),
                               f"give one day: an ISO day such as {first.isoformat()}, or {DAY_WORDS_READ}")
    return first, f"{value!r} is {first:%A} {first.isoformat()} (today is {today:%A} {today.isoformat()})"


def yearless_day(text: str) -> tuple[int, int] | None:
    """The month and day ``text`` is when it is a day of a month in words without a year
    (``December 4``, ``4th of December``, ``1er décembre``: :data:`_WORDED_MONTH_DAY`, whole),
    else None; a day no month has (``30 February``) is None too."""
    found = _WORDED_MONTH_DAY.fullmatch(name_form(text))
    if found is None:
        return None
    month = named_month(found["m1"] or found["m2"], MONTHS)
    day = int(found["d1"] or found["d2"])
    if month is None or day > calendar.monthrange(2000, month)[1] or day < 1:  # 2000: a leap year
        return None
    return month, day


def local_day_start(day: date) -> datetime:
    """The first instant of ``day`` on this machine's clock (:func:`_local_midnight`)."""
    return _local_midnight(day)


def _period_words(text: str) -> str | None:
    """``text`` as the words of a period it says (``Last-Week``, ``上周``, ``先週``, ``지난 주``, ``la
    semaine dernière``, ``la semana pasada``, ``letzte Woche``, ``semana passada`` → ``last week``:
    period_words.py), or None."""
    words = _WORD_GAP.sub(" ", text.casefold()).strip()
    said = _CJK_PERIOD_WORDS.get(words.replace(" ", "")) or period_in_english(text)
    if said is not None:
        return said
    cjk = _cjk_weekday(words)
    if cjk is not None and cjk[0] is not None:
        return f"{cjk[0]} week {_WEEKDAY_WORDS[cjk[1]]}"  # 上周五: the Friday of last week
    which, _, unit = words.partition(" ")
    return words if words in _DAY_WORDS or (which in _WHICH_PERIOD and unit in (*_PERIOD_UNITS, *_WEEKDAY_WORDS)) else None


def _relative_period(words: str, today: date, week_start: int = 0) -> tuple[date, date]:
    """The first and last day of a period said in words (:func:`_period_words`) when ``today``
    is today: ``tomorrow`` is one day; ``next week`` the week after this one; ``last week`` the week before this one, its seven days
    from ``week_start`` (Monday 0, the ISO week, unless the vault's Calendar plugin starts weeks
    on another day: a Sunday-first week's `this week`, asked on a Sunday, is today on), ``last month`` the calendar month before this one (in January: last December),
    ``last year`` the year before this one."""
    if words in _DAY_WORDS:
        day = today + timedelta(days=_DAY_WORDS[words])
        return day, day
    which, _, unit = words.partition(" ")
    back = _WHICH_PERIOD[which]
    if unit in _WEEKDAY_WORDS:
        day = _weekday_said(_WEEKDAY_WORDS.index(unit), back, today, week_start)
        return day, day
    if unit.startswith("week "):  # a weekday of a week, as Chinese, Japanese, Korean say it (_cjk_weekday)
        first = today - timedelta(days=(today.weekday() - week_start) % 7 + 7 * back)
        day = first + timedelta(days=(_WEEKDAY_WORDS.index(unit.removeprefix("week ")) - week_start) % 7)
        return day, day
    if unit == "week":
        first = today - timedelta(days=(today.weekday() - week_start) % 7 + 7 * back)
        return first, _days_after(first, 6)
    if unit == "month":
        first = today.replace(day=1)
        if back < 0:  # next month: a day past this month's last is in it
            return _month((first + timedelta(days=31)).replace(day=1))
        return _month((first - timedelta(days=1)).replace(day=1) if back else first)
    return date(today.year - back, 1, 1), date(today.year - back, 12, 31)


def _weekday_said(weekday: int, back: int, today: date, week_start: int) -> date:
    """The day ``last``/``this``/``next`` (``back`` 1, 0, -1) and a weekday (Monday 0) name:
    the nearest such day before today, the one in this week, the nearest after today."""
    if back > 0:
        return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    if back < 0:
        return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    first = today - timedelta(days=(today.weekday() - week_start) % 7)
    return first + timedelta(days=(weekday - week_start) % 7)


def _cjk_weekday(words: str) -> tuple[str | None, int] | None:
    """The week (``last``, ``this``, ``next``; None: a weekday alone) and the day (Monday 0) a
    weekday as Chinese, Japanese or Korean say it names (:data:`_CJK_WEEKDAY`); None for other text."""
    found = _CJK_WEEKDAY.fullmatch(words.replace(" ", ""))
    if found is None:
        return None
    which = found["zh_which"] or found["ja_which"] or found["ko_which"]
    return (None if which is None else _CJK_WEEK_WHICH[which]), _CJK_WEEKDAY_DAYS[found["zh_day"] or found["ja_day"] or found["ko_day"]]


def _weekday_alone(text: str) -> int | None:
    """The day (Monday 0) of a weekday named alone, in any language here (``friday``, ``vendredi``, ``周五``, ``金曜日``)."""
    weekday = full_weekday(text)
    if weekday is not None:
        return weekday
    cjk = _cjk_weekday(_WORD_GAP.sub(" ", text).strip())
    return cjk[1] if cjk is not None and cjk[0] is None else None


def _lone_weekday(text: str, today: date, ahead: bool) -> date | None:
    """The day a weekday named alone (``friday``, ``vendredi``) is as a bound: the last one, today
    included, for a since bound or a done day (what was); the next one, today included, for an
    until bound or a due day (what is to come) — as a question's weekday is placed for a done or a
    due day (task_query.py) —, or for an until bound after a weekday since bound, the first one on
    or after that day (``today`` is then that day: :func:`until_bound`). None: no weekday."""
    weekday = _weekday_alone(text)
    if weekday is None:
        return None
    if ahead:
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    return today - timedelta(days=(today.weekday() - weekday) % 7)


def _refuse_lone_month(text: str, value: object, name: str, today: date, ahead: bool) -> None:
    """A month named alone (``march``, ``mars``, ``März``) is refused with the forms that are read:
    which year is not guessed (as for a day without its year), but the one the person most likely
    means is offered — the last such month begun for a since bound, the next not yet ended for an
    until bound. Was (a trial): ``--since march`` got the refusal of "neither a date nor a duration",
    with no word on months, while ``--since 'march 2026'`` was read."""
    month = named_month(text.strip().rstrip("."), MONTHS) if _BOUND_WORD.fullmatch(text.strip().rstrip(".")) else None
    if month is None:
        return
    year = today.year + (1 if ahead and month < today.month else 0) - (1 if not ahead and month > today.month else 0)
    raise UsageError(Argument(name, repr(value)), f" is a month without its year, and which year is not guessed: give "
                     f"the year too, such as {f'{text.strip()} {year}'!r} or {year}-{month:02d} (the whole month), or a "
                     f"day such as {year}-{month:02d}-01")


def _month(first: date) -> tuple[date, date]:
    """The first and last day of the month that starts on ``first``."""
    return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])


def _period(text: str) -> tuple[date, date] | None:
    """The first and last day of the year, month or ISO week ``text`` names; None for anything else."""
    shape = _PERIOD.fullmatch(text)
    if shape is None:
        return None
    year = int(shape["year"])
    try:
        if shape["week"]:
            monday = date.fromisocalendar(year, int(shape["week"]), 1)
            return monday, _days_after(monday, 6)
        if shape["month"]:
            return _month(date(year, int(shape["month"]), 1))
        return date(year, 1, 1), date(year, 12, 31)
    except ValueError:  # month 13, week 54, year 0: not a period; said as not a date below
        return None


def _day_problem(shape: re.Match[str]) -> str:
    """Why a date spelled YYYY-MM-DD is none (its period's reason, or its month's length)."""
    year, month = int(shape["year"]), int(shape["month"])
    if year < 1 or not 1 <= month <= 12:
        return _period_problem(_PERIOD.fullmatch(f"{shape['year']}-{shape['month']}") or shape)
    last = calendar.monthrange(year, month)[1]
    return f"{date(year, month, 1):%B %Y} has {last} days ({year}-{month:02d}-01 to {year}-{month:02d}-{last})"


def _period_problem(shape: re.Match[str]) -> str:
    """Why a year, month or week spelled as :data:`_PERIOD` spells one is none."""
    year = int(shape["year"])
    if year < 1:
        return "years start at 0001"
    if shape["week"]:
        weeks = date(year, 12, 28).isocalendar().week  # the 28th of December is always in the year's last ISO week
        return f"{year} has {weeks} ISO weeks ({year}-W01 to {year}-W{weeks})"
    return f"months are 01 to 12 ({year}-01 to {year}-12)"


def _days_after(day: date, days: int) -> date:
    try:
        return day + timedelta(days=days)
    except OverflowError:  # the last week of year 9999
        return date.max


def local_date(now: datetime) -> date:
    """The calendar date on this machine's clock at ``now`` (its zone as the OS says it now)."""
    return _on_local_clock(now).date()


def _start_of(day: date) -> Bound:
    """The first moment of ``day``: its label (midnight UTC) and its local midnight."""
    return Bound(day=datetime.combine(day, time(), UTC), instant=_local_midnight(day))


def _end_of(day: date) -> Bound:
    """The last moment of ``day``: the instant before the next day's label and local midnight."""
    if day == date.max:
        return Bound.exact(_END_OF_TIME)
    after = _start_of(day + _ONE_DAY)
    return Bound(day=after.day - _LAST_INSTANT, instant=after.instant - _LAST_INSTANT)


def local_day_end(day: date) -> datetime:
    """The last instant of ``day`` on this machine's clock, at that day's own offset (summer
    time included, as the OS's zone says it): what a day's note stands for in a listing by date.
    A day whose end the OS cannot place (9999-12-30 in any zone) ends as it does in UTC: the edge
    of time :func:`_local_midnight` puts there instead listed that day above the next one's notes."""
    if day == date.max:
        return _END_OF_TIME
    midnight = _local_midnight(day + _ONE_DAY)
    if midnight in (_START_OF_TIME, _END_OF_TIME):
        return datetime.combine(day + _ONE_DAY, time(), UTC) - _LAST_INSTANT
    return midnight - _LAST_INSTANT


def _local_midnight(day: date) -> datetime:
    """The instant ``day`` starts on this machine's clock (the OS's zone, summer time included):
    its first instant whose local date is ``day`` — a midnight a clock change repeats counts
    the first time, and where a change skips midnight (Santiago, Havana) the day starts at the
    instant after the gap, not an hour before it, on the previous day."""
    try:
        starts = [datetime.combine(day, time()).replace(fold=fold).astimezone().astimezone(UTC) for fold in (0, 1)]
    except (OverflowError, ValueError, OSError):  # year 1 (Python cannot look before it), 9999 in a far zone
        return _START_OF_TIME if day.year < date.max.year // 2 else _END_OF_TIME
    inside = [start for start in starts if start.astimezone().date() == day]
    return min(inside or starts)


def _is_date_alone(text: str) -> bool:
    """Is ``text`` a day without a time (``2026-11-28``, ``20261128``, ``2026-W48-6``)?"""
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _with_month_accents(text: str, now: datetime, name: str, end: bool) -> str | None:
    """``text`` with a month name typed without its accents written as moment writes it
    (``fevrier 2026`` → ``février 2026``), when that is a bound; else None. Was (a trial on a
    French vault): `--since "aout 2026"`, typed on a keyboard without accents, got the refusal
    every unreadable bound gets, with no word on the month."""
    accented = _BOUND_WORD.sub(lambda word: accented_month(word.group()) or word.group(), text)
    if accented == text:
        return None
    try:
        _bound(accented, now, name, end)
    except UsageError:
        return None
    return accented


def _back_from(now: datetime, text: str, value: object, name: str, end: bool) -> Bound:
    """``now`` minus the duration ``text``: as a since bound in whole days, the start of that
    local day (see :func:`since_bound`); else that instant (:func:`_at`). A duration with its
    sign, as ``--as-of`` takes one, reads the same way: ``-7d`` is ``7d``, and ``+7d`` is that
    far ahead of now (``--until +7d``: the notes dated up to a week from now). Was: ``-7d``,
    typed as ``--as-of`` asks for it, got the refusal of a value that is "neither a date nor a
    duration", naming neither form."""
    signed = text[:1] in ("+", "-") and _DURATION_SHAPE.fullmatch(text[1:].replace(" ", "")) is not None
    ahead = signed and text[0] == "+"
    if signed:
        text = text[1:].strip()
    try:
        length = parse_duration(text)
    except InvalidDuration as error:
        if _DURATION_SHAPE.fullmatch(text.replace(" ", "")):
            raise UsageError(Argument(name, repr(value)), f": {error}") from None
        accented = _with_month_accents(text, now, name, end)
        if accented is not None:
            raise UsageError(Argument(name, repr(value)), " is no date: month names are read as written, accents "
                             f"too: give {accented!r}") from None
        raise UsageError(Argument(name, repr(value)), " is neither a date nor a duration: give an ISO date or time "
                         f"such as 2026-11-23 or 2026-11-23T09:00:00+00:00, a period ({PERIOD_FORMS}; or as Chinese, "
                         "Japanese or Korean say them: 上周, 先週, 지난주; as French, Spanish, German, Portuguese, "
                         "Italian, Turkish, Russian, Ukrainian or Polish do: hier, la semaine dernière, vendredi dernier, ayer, el mes pasado, gestern, "
                         "letzte Woche, letzten Freitag, ontem, ieri, dün, geçen cuma, вчера, в прошлую пятницу, минулої п'ятниці, wczoraj, w zeszłym tygodniu), "
                         f"a day or month in words with its year, as a daily note's name writes it ({WORDED_FORMS}), "
                         "or a duration back from now such as 7d or 2w (+7d: ahead)") from None
    try:
        moment = now + length if ahead else now - length
        if not end and _DAYS_ONLY.fullmatch(text.replace(" ", "")):  # 7d: from the start of the local day 7 days back
            days = timedelta(days=length.days)
            return _start_of(local_date(now) + days if ahead else local_date(now) - days)
    except OverflowError:
        raise UsageError(Argument(name, repr(value)), f" reaches {'past year 9999' if ahead else 'back before year 1'} "
                         f"from {now.date().isoformat()}: give a shorter duration or a date") from None
    return _at(moment, end)
