"""What day a note is about, and the bounds of a search by date (pure).

A note's **date** is the first of:

1. its ``date`` property (a journal entry's, a meeting's: the day the note is about);
2. a ``YYYY-MM-DD`` in its file name (a daily note, ``Daily/2026-11-28.md``, or
   ``2026-11-28 Standup.md``);
3. its ``created`` property (what ``remember`` stamps: the day the memory was written).

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
from datetime import date, datetime, timedelta
from pathlib import PurePosixPath
from typing import Any

from .errors import Argument, InvalidDuration, InvalidTimestamp, UsageError
from .lifecycle import parse_duration, parse_timestamp
from .notes import timestamp_or_none

_NAME_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_DATE_ONLY = re.compile(r"\s*\d{4}-\d{2}-\d{2}\s*")


@dataclass(frozen=True)
class NoteDate:
    """A note's date and where it was read from (``date``, ``file name`` or ``created``)."""

    moment: datetime
    source: str


def note_date(meta: Mapping[str, Any], path: str) -> NoteDate | None:
    """The note's date (see the module's docstring), or None."""
    found = timestamp_or_none(meta.get("date"))
    if found is not None:
        return NoteDate(found, "date")
    named = _name_date(PurePosixPath(path).stem)
    if named is not None:
        return NoteDate(named, "file name")
    found = timestamp_or_none(meta.get("created"))
    return NoteDate(found, "created") if found is not None else None


def _name_date(stem: str) -> datetime | None:
    for match in _NAME_DATE.finditer(stem):
        try:
            return parse_timestamp(date(int(match[1]), int(match[2]), int(match[3])))
        except ValueError:  # 2026-13-45: not a day
            continue
    return None


def since_bound(value: str, now: datetime) -> datetime:
    """``--since``: the first instant a note's date may have (a duration: that long before now)."""
    return _bound(value, now, "since", end_of_day=False)


def until_bound(value: str, now: datetime) -> datetime:
    """``--until``: the last instant a note's date may have (a date alone: the end of that day)."""
    return _bound(value, now, "until", end_of_day=True)


def _bound(value: str, now: datetime, name: str, end_of_day: bool) -> datetime:
    text = str(value).strip()
    try:
        moment = parse_timestamp(text)
    except InvalidTimestamp:
        try:
            return now - parse_duration(text)
        except (InvalidDuration, OverflowError):
            raise UsageError(Argument(name, repr(value)), " is neither a date nor a duration: give an ISO date or time "
                             "such as 2026-11-23 or 2026-11-23T09:00:00+00:00, or a duration back from now such as 7d or 2w") from None
    if end_of_day and _DATE_ONLY.fullmatch(text):
        return moment + timedelta(days=1) - timedelta(microseconds=1)
    return moment
