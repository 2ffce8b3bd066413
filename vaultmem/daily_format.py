"""The vault's daily-note format: which notes are daily notes, and the day each one is.

Obsidian's Daily notes plugin names each day's note by a moment.js format, in a folder
(``.obsidian/daily-notes.json``: ``{"folder": "Journal", "format": "DD-MM-YYYY"}``; a
missing or empty ``format`` is ``YYYY-MM-DD``, a missing ``folder`` the vault's root). The
Periodic Notes plugin keeps its own (``.obsidian/plugins/periodic-notes/data.json``
``daily``), which is the one in use when its daily notes are enabled. With that format a
name no fixed shape can settle is one day: ``Journal/28-11-2026.md`` is 28 November under
``DD-MM-YYYY`` (dating.py, adr/0026).

The format is read as moment.js reads it: ``YYYY`` (and ``Y``), ``YY`` (20YY), ``M``, ``MM``,
``Mo``, ``MMM``, ``MMMM``, ``D``, ``DD``, ``Do``, weekdays (``d``, ``do``, ``dd``, ``ddd``,
``dddd``, ``e``, ``E``: matched, not used), ``[literal text]``, ``\\x`` and any other
character as itself; ``/`` puts notes in subfolders (``YYYY/MM/YYYY-MM-DD``). Month and
weekday names are English, which is what moment writes unless told another locale. A note's
path below the folder, without ``.md``, must match the format whole. A format whose tokens
do not name one day (a week, a quarter, an hour, Unix time …) dates no note and is a problem
(``vaultmem check``), as is a settings file that does not parse: every command then dates
notes by the other rules, and says so.

Parsing the format and matching names is pure; :func:`load_daily_format` reads the settings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any

from .exclusions import read_settings
from .notes import Problem

DAILY_NOTES_SETTINGS = ".obsidian/daily-notes.json"
PERIODIC_NOTES_SETTINGS = ".obsidian/plugins/periodic-notes/data.json"
DAILY_SETTINGS = (DAILY_NOTES_SETTINGS, PERIODIC_NOTES_SETTINGS)
DEFAULT_FORMAT = "YYYY-MM-DD"  # Obsidian's, and Periodic Notes', when none is set

# moment.js's own tokenizer (its ``formattingTokens``): a [literal], an escaped token, a token, one character.
_TOKENS = re.compile(
    r"(\[[^\[]*\])|(\\)?([Hh]mm(?:ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|N{1,5}|YYYYYY|YYYYY"
    r"|YYYY|YY|y{2,4}|yo?|gg(?:ggg?)?|GG(?:GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|.)", re.DOTALL)
# The one-character matches moment formats (any longer match is a token): the others are text.
_ONE_LETTER_TOKENS = frozenset("MDdeEwWQHhkmsSaAXxYzZNy")

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_MONTH_NUMBERS = {name.lower(): number for number, month in enumerate(MONTHS, start=1) for name in (month, month[:3])}
_ORDINAL = "(?:st|nd|rd|th)"
_MONTH = "1[0-2]|[1-9]"
_DAY = "3[01]|[12][0-9]|[1-9]"


def _names(names: Sequence[str]) -> str:
    return "(?i:" + "|".join(names) + ")"  # Monday or monday: a name in another case is still that name


# What each token moment writes looks like, what it tells (a year, a month, a day, or nothing:
# a weekday must be there, but the others tell the day) and what follows it (an ordinal's suffix).
_READ: dict[str, tuple[str, str | None, str]] = {
    "YYYY": ("[0-9]{4}", "year", ""), "Y": ("[0-9]{4}", "year", ""), "YY": ("[0-9]{2}", "year2", ""),
    "M": (_MONTH, "month", ""), "MM": ("0[1-9]|1[0-2]", "month", ""), "Mo": (_MONTH, "month", _ORDINAL),
    "MMM": (_names([month[:3] for month in MONTHS]), "month", ""), "MMMM": (_names(MONTHS), "month", ""),
    "D": (_DAY, "day", ""), "DD": ("0[1-9]|[12][0-9]|3[01]", "day", ""), "Do": (_DAY, "day", _ORDINAL),
    "d": ("[0-6]", None, ""), "do": ("[0-6]", None, _ORDINAL), "e": ("[0-6]", None, ""), "E": ("[1-7]", None, ""),
    "dd": (_names([weekday[:2] for weekday in WEEKDAYS]), None, ""),
    "ddd": (_names([weekday[:3] for weekday in WEEKDAYS]), None, ""), "dddd": (_names(WEEKDAYS), None, ""),
}
# Why a token names no day vaultmem can read, by its first letter (DDD… is the day of the year).
_UNREAD = {"g": "a week-based year", "G": "an ISO week-based year", "w": "a week", "W": "an ISO week", "Q": "a quarter",
           "X": "Unix time", "x": "Unix time", "N": "an era", "y": "an era's year", "D": "the day of the year"}
_TIME = "a time of day"


@dataclass(frozen=True)
class MomentFormat:
    """A moment.js daily-note format as a matcher of names (see the module's docstring)."""

    text: str
    pattern: re.Pattern[str] | None  # None: the format names no day vaultmem can read
    roles: tuple[tuple[str, str], ...]  # (group name, year | month | day | year2)
    unread: str = ""  # why the format names no day it can read ("" when it does)

    @property
    def supported(self) -> bool:
        return self.pattern is not None

    def day(self, name: str) -> date | None:
        """The day ``name`` (a note's path below the daily folder, without ``.md``) is, if it
        matches the format whole and is a day the calendar holds."""
        found = self.pattern.fullmatch(name) if self.pattern is not None else None
        if found is None:
            return None
        told: dict[str, set[int]] = {}
        for group, role in self.roles:
            told.setdefault("year" if role == "year2" else role, set()).add(_number(found[group], role))
        if any(len(values) != 1 for values in told.values()):
            return None  # YYYY/MM/YYYY-MM-DD with two different years: which one?
        try:
            return date(*(next(iter(told[role])) for role in ("year", "month", "day")))
        except ValueError:  # 31-02-2026: not a day
            return None


def _number(text: str, role: str) -> int:
    if role == "year2":
        return 2000 + int(text)
    if role == "month" and not text.isdigit():
        return _MONTH_NUMBERS[text.lower()]
    return int(text)


def parse_moment_format(text: str) -> MomentFormat:
    """``text`` (a moment.js format) as a matcher of names; one that names no single day
    (``gggg-[W]ww``, ``YYYY-MM``, ``YYYY-MM-DD HH:mm``) matches nothing and says why."""
    pieces: list[str] = []
    roles: list[tuple[str, str]] = []
    unread: list[str] = []
    for match in _TOKENS.finditer(text):
        bracketed, escaped, token = match[1], match[2], match[3]
        if bracketed is not None:
            pieces.append(re.escape(bracketed[1:-1]))
        elif escaped is not None or (len(token) == 1 and token not in _ONE_LETTER_TOKENS):
            pieces.append(re.escape(match[0].replace("\\", "")))  # as moment writes it: backslashes dropped
        elif token in _READ:
            shape, role, suffix = _READ[token]
            if role is None:
                pieces.append(f"(?:{shape}){suffix}")
            else:
                group = f"g{len(roles)}"
                roles.append((group, role))
                pieces.append(f"(?P<{group}>{shape}){suffix}")
        else:
            unread.append(token)
    return _format(text, "".join(pieces), tuple(roles), unread)


def _format(text: str, pattern: str, roles: tuple[tuple[str, str], ...], unread: list[str]) -> MomentFormat:
    if unread:
        meanings = list(dict.fromkeys(_UNREAD.get(token[0], _TIME) for token in unread))
        why = f"its tokens {', '.join(dict.fromkeys(unread))} ({', '.join(meanings)}) do not name one day"
        return MomentFormat(text, None, (), why)
    missing = [role for role in ("year", "month", "day") if role not in {"year" if told == "year2" else told for _, told in roles}]
    if missing:
        return MomentFormat(text, None, (), f"it names no {' and no '.join(missing)}, so not one day")
    return MomentFormat(text, re.compile(pattern), roles)


@dataclass(frozen=True)
class DailyFormat:
    """Where the vault's daily notes are, how they are named and where that was read; with
    no ``moment`` (no settings, or settings vaultmem cannot use: ``problems``) it dates nothing."""

    folder: str = ""  # vault-relative; "" is the vault's root
    moment: MomentFormat | None = None
    settings: str = ""  # the settings file it was read from
    problems: tuple[Problem, ...] = ()

    def day(self, path: str) -> date | None:
        """The day the note at ``path`` (vault-relative) is by the daily-note format, if any."""
        if self.moment is None or self.moment.pattern is None:
            return None
        name = path.removesuffix(".md")
        if self.folder:
            if not name.startswith(self.folder + "/"):
                return None  # the same name elsewhere is not a daily note
            name = name[len(self.folder) + 1:]
        return self.moment.day(name)

    @property
    def in_use(self) -> bool:
        return self.moment is not None and self.moment.supported

    @property
    def fingerprint(self) -> str:
        """What the index keeps to tell that the format changed (``""``: none in use); it
        names the folder, so the notes the old format dated can be dated again."""
        if not self.in_use or self.moment is None:
            return ""
        return json.dumps({"folder": self.folder, "format": self.moment.text}, ensure_ascii=False, sort_keys=True)

    def describe(self) -> str:
        """``DD-MM-YYYY in Journal/ (.obsidian/daily-notes.json)``."""
        where = f"{self.folder}/" if self.folder else "the vault's root"
        return f"{self.moment.text if self.moment else ''} in {where} ({self.settings})"


def dated_folder(fingerprint: str) -> str | None:
    """The folder whose notes the format of ``fingerprint`` dated (``None``: no format)."""
    if not fingerprint:
        return None
    try:
        folder = json.loads(fingerprint).get("folder")
    except (ValueError, AttributeError):
        return ""  # not one this version wrote: every note may have been dated by it
    return folder if isinstance(folder, str) else ""


# ------------------------------------------------------------------ Obsidian's settings

_UNUSED = "its daily-note format is not used: daily notes are dated by the other rules meanwhile"


def load_daily_format(root: Path) -> DailyFormat:
    """The daily-note format of the vault at ``root``: Periodic Notes' when its daily notes are
    enabled, else the Daily notes plugin's, else none. Mistakes are problems, never raised."""
    problems: list[Problem] = []
    periodic = read_settings(root, PERIODIC_NOTES_SETTINGS, problems, _UNUSED)
    if problems:
        # Whether it overrides the core plugin's format cannot be told; the core's, perhaps
        # stale, could read 03-04 as 3 April where the person meant 4 March: no date is better.
        return DailyFormat(problems=tuple(problems))
    daily = periodic.get("daily") if isinstance(periodic, dict) else None
    if isinstance(daily, dict) and daily.get("enabled") is True:
        return _from_settings(daily, PERIODIC_NOTES_SETTINGS, "daily.", "Settings → Periodic Notes → Daily Notes")
    core = read_settings(root, DAILY_NOTES_SETTINGS, problems, _UNUSED)
    if core is None or problems:
        return DailyFormat(problems=tuple(problems))
    if not isinstance(core, dict):
        return DailyFormat(problems=(Problem(DAILY_NOTES_SETTINGS, "file", f"is a JSON {type(core).__name__}, not an object; {_UNUSED}",
                                             "set the daily notes' settings again in Obsidian (Settings → Daily notes)"),))
    return _from_settings(core, DAILY_NOTES_SETTINGS, "", "Settings → Daily notes")


def _from_settings(settings: dict[str, Any], name: str, prefix: str, where: str) -> DailyFormat:
    """The format and folder of one settings object (``prefix``: its keys' path in the file)."""
    fix = f"set it again in Obsidian ({where})"
    text, folder = settings.get("format"), settings.get("folder")
    for key, value in (("format", text), ("folder", folder)):
        if value is not None and not isinstance(value, str):
            return DailyFormat(problems=(Problem(name, prefix + key, f"is a {type(value).__name__}, not text; {_UNUSED}", fix),))
    moment = parse_moment_format(text or DEFAULT_FORMAT)
    parts = [part for part in PurePosixPath((folder or "").strip().replace("\\", "/")).parts if part not in ("/", ".")]
    if ".." in parts:
        return DailyFormat(problems=(Problem(name, prefix + "folder", f"{folder!r} is outside the vault; {_UNUSED}", fix),))
    problems: tuple[Problem, ...] = ()
    if not moment.supported:
        problems = (Problem(name, prefix + "format", f"{moment.text!r}: {moment.unread}; {_UNUSED}",
                            "give these notes a date property, or choose a format of days (such as YYYY-MM-DD, "
                            f"DD.MM.YYYY or dddd, MMMM Do YYYY) in Obsidian ({where})"),)
    return DailyFormat("/".join(parts), moment, name, problems)
