"""A Logseq graph's journals: where they are, how their files are named and how Logseq titles
them, read from ``logseq/config.edn`` (adr/0028-logseq-graphs.md).

Logseq names ``journals/2022_05_16.md`` by ``:journal/file-name-format`` (``yyyy_MM_dd``) and
shows it as ``:journal/page-title-format`` spells that day (``MMM do, yyyy``: "May 16th, 2022").
Both are date-fns patterns. The file-name pattern becomes the vault's daily-note format
(daily_format.py: ``get 2022-05-16`` names the journal, as in an Obsidian vault); the title
pattern gives a journal without a ``title::`` the title Logseq shows, a name ``get`` finds.
Logseq's defaults apply when config.edn does not set them, as in Logseq. Formatting is pure.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from .config import LOGSEQ_SETTINGS

DEFAULT_JOURNALS = "journals"
DEFAULT_FILE_NAME_FORMAT = "yyyy_MM_dd"
DEFAULT_TITLE_FORMAT = "MMM do, yyyy"
MAX_SETTINGS_BYTES = 1_000_000
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# A date-fns pattern's pieces: quoted text, `do` (the day with its ordinal), a run of one letter,
# anything else as written.
_PIECE = re.compile(r"'(?:[^']|'')*'|do|([A-Za-z])\1*|[^A-Za-z']+")
# date-fns letters → moment.js letters, for the file-name pattern daily_format reads.
_TO_MOMENT = {"yyyy": "YYYY", "yy": "YY", "MMMM": "MMMM", "MMM": "MMM", "MM": "MM", "M": "M", "dd": "DD", "d": "D",
              "do": "Do", "EEEE": "dddd", "EEE": "ddd", "EE": "ddd", "E": "ddd"}


def read_setting(edn: str, key: str) -> str | None:
    """The string ``key`` is set to in config.edn's text (``:journal/page-title-format "…"``),
    leaving out commented lines (``;; :journal/page-title-format "EEE do, MMM yyyy"``)."""
    pattern = re.compile(rf'(?:^|[\s{{,]){re.escape(key)}\s+"((?:[^"\\]|\\.)*)"')
    for line in edn.splitlines():
        if line.lstrip().startswith(";"):
            continue
        matched = pattern.search(line)
        if matched:
            return matched.group(1)
    return None


def read_config(root: Path) -> str | None:
    """config.edn's text (``None`` when the vault is no graph or it cannot be read: Logseq's
    defaults then, as Logseq uses them)."""
    try:
        with open(root / LOGSEQ_SETTINGS, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES)
    except OSError:
        return None
    return raw.decode("utf-8", errors="replace")


def moment_pattern(date_fns: str) -> str | None:
    """A date-fns file-name pattern as the moment.js pattern daily_format reads (``yyyy_MM_dd`` →
    ``YYYY_MM_DD``); ``None`` when it holds a letter this does not know."""
    parts = []
    for piece in _PIECE.finditer(date_fns):
        text = piece.group(0)
        if text.startswith("'"):
            parts.append("[" + text[1:-1].replace("''", "'") + "]")
        elif text[0].isalpha():
            if text not in _TO_MOMENT:
                return None
            parts.append(_TO_MOMENT[text])
        else:
            parts.append(text)
    return "".join(parts)


def journal_title(day: date, date_fns: str) -> str | None:
    """``day`` as the date-fns pattern spells it in English, as Logseq shows a journal's title
    (``MMM do, yyyy`` → "May 16th, 2022"); ``None`` when it holds a letter this does not know
    (then the journal keeps its file name as title)."""
    parts = []
    for piece in _PIECE.finditer(date_fns):
        text = piece.group(0)
        if text.startswith("'"):
            parts.append(text[1:-1].replace("''", "'"))
        elif text[0].isalpha():
            spelled = _spelled(day, text)
            if spelled is None:
                return None
            parts.append(spelled)
        else:
            parts.append(text)
    return "".join(parts)


def _spelled(day: date, token: str) -> str | None:
    month, weekday = _MONTHS[day.month - 1], _WEEKDAYS[day.weekday()]
    spelled = {"yyyy": f"{day.year:04d}", "yy": f"{day.year % 100:02d}", "y": str(day.year),
               "MMMM": month, "MMM": month[:3], "MM": f"{day.month:02d}", "M": str(day.month),
               "dd": f"{day.day:02d}", "d": str(day.day), "do": _ordinal(day.day),
               "EEEE": weekday, "EEE": weekday[:3], "EE": weekday[:3], "E": weekday[:3], "EEEEEE": weekday[:2]}
    return spelled.get(token)


def _ordinal(number: int) -> str:
    suffix = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
