"""The vault's daily-note format: which notes are daily notes, and the day each one is.

Obsidian's Daily notes plugin names each day's note by a moment.js format, in a folder
(``.obsidian/daily-notes.json``: ``{"folder": "Journal", "format": "DD-MM-YYYY"}``; a
missing or empty ``format`` is ``YYYY-MM-DD``, a missing ``folder`` the vault's root). The
Periodic Notes plugin keeps its own (``.obsidian/plugins/periodic-notes/data.json``: ``daily``,
or in 1.x the ``day`` of the active calendar set), which is the one in use when the plugin is
turned on (``.obsidian/community-plugins.json`` lists it, or there is no such list; a list
that cannot be read leaves no format in use) and its daily notes are enabled. With that format a name no fixed shape can settle is one day:
``Journal/28-11-2026.md`` is 28 November under ``DD-MM-YYYY`` (dating.py, adr/0026).
Without Obsidian's settings, a Logseq graph's journals are its daily notes, and a Foam workspace's
are where its daily-note template's ``foam_template.filepath`` or ``foam.openDailyNote`` puts them,
translated into a moment.js format (foam_settings.py, adr/0034).

The format is read as moment.js writes it: the year (``YYYY``, ``Y``, ``YY`` as 20YY,
``YYYYY``, ``YYYYYY``), the month (``M``, ``MM``, ``Mo``, ``MMM``, ``MMMM``) and the day of
the month (``D``, ``DD``, ``Do``) are read; every other token (a weekday, a time of day, a
week, the day of the year, a quarter, a time zone …) is matched by what moment writes for it
and not read. ``[literal text]``, ``\\x`` and any other character stand for themselves; ``/``
puts notes in subfolders (``YYYY/MM/YYYY-MM-DD``), doubled and leading or trailing slashes
dropped, as Obsidian does with the path it makes. moment's locale formats (``L``, ``LL``,
``LLL``, ``LLLL``, ``l`` …) are read in English, moment's default. Month and weekday names
are read in English, German, French, Spanish, Russian, Ukrainian, Turkish (and the others month_names.py reads) at once (month_names.py: the language Obsidian
writes them in is kept outside the vault), so ``dddd, D. MMMM YYYY`` dates ``Freitag, 15. März
2024``; an ordinal day (``Do``) as moment writes it in those languages (``4th``, French ``1er``
and ``4``, German ``15.``, Spanish ``15º``). A note's path below the folder, without ``.md``,
must match the format whole; names and folder are compared in NFC (fields.name_form).

A format dates no note, and is a problem (``vaultmem check``), when it does not name a year,
a month and a day of the month (``gggg-[W]ww``, ``YYYY-MM``, ``X``); when two of its numbers
of varying width have nothing but digits between them (``MD``: is ``111`` 1 November or 11
January?); or when it is longer than :data:`MAX_FORMAT_CHARS` — the last two also bound
the time a hostile format costs. So are settings files that do not parse or hold a value of
the wrong shape. Every command then dates notes by the other rules, and says so.

Parsing the format and matching names is pure; :func:`load_daily_format` reads the settings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from .config import FOAM_DIR, LOGSEQ_SETTINGS, is_logseq_graph
from .errors import short_repr
from .exclusions import DAILY_NOTES_SETTINGS, PERIODIC_NOTES_SETTINGS, UNIQUE_NOTE_SETTINGS, read_settings, vault_folder
from .fields import name_form
from .foam_settings import FOAM_DAILY_TEMPLATE, load_foam_daily, read_vscode_settings
from .jalali import YEARS as SOLAR_HIJRI_YEARS
from .jalali import gregorian_day
from .logseq_journals import (
    DEFAULT_FILE_NAME_FORMAT,
    DEFAULT_JOURNALS,
    DEFAULT_TITLE_FORMAT,
    journal_title,
    moment_pattern,
    read_config,
    read_setting,
)
from .logseq_pages import name_format, page_name
from .month_names import (
    MONTH_NAMES,
    SHORT_MONTH_NAMES,
    SHORT_WEEKDAY_NAMES,
    SHORTEST_WEEKDAY_NAMES,
    WEEKDAY_NAMES,
    month_number,
)
from .notes import Note, Problem, file_stem
from .periods import MONTH, QUARTER, WEEK, YEAR, Span, span_of

COMMUNITY_PLUGINS = ".obsidian/community-plugins.json"  # the ids of the community plugins turned on
PERIODIC_NOTES_ID = "periodic-notes"
CALENDAR_ID = "calendar"
PERSIAN_CALENDAR_ID = "persian-calendar"  # maleknejad/obsidian-persian-calendar: Solar Hijri daily notes
CALENDAR_SETTINGS = ".obsidian/plugins/calendar/data.json"  # the Calendar plugin's: its weekStart
DAILY_SETTINGS = (DAILY_NOTES_SETTINGS, PERIODIC_NOTES_SETTINGS, COMMUNITY_PLUGINS, CALENDAR_SETTINGS, FOAM_DAILY_TEMPLATE)
# The Calendar plugin's weekStart values that name a day, as Python numbers weekdays (Monday 0).
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DEFAULT_FORMAT = "YYYY-MM-DD"  # Obsidian's, and Periodic Notes', when none is set
# Obsidian's formats are a few dozen characters; a longer one is refused before it is compiled
# ("dddd" 50,000 times took 8 s to compile, on every command).
MAX_FORMAT_CHARS = 100

# moment.js's own tokenizer (its ``formattingTokens``): a [literal], an escaped token, a token, one character.
_TOKENS = re.compile(
    r"(\[[^\[]*\])|(\\)?([Hh]mm(?:ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|N{1,5}|YYYYYY|YYYYY"
    r"|YYYY|YY|y{2,4}|yo?|gg(?:ggg?)?|GG(?:GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|.)", re.DOTALL)
# ... and its locale formats (``localFormattingTokens``), which it expands before formatting: in English (its default).
_LOCALE_TOKENS = re.compile(r"(\[[^\[]*\])|(\\)?(LTS|LT|LL?L?L?|l{1,4})")
_ENGLISH = {"LT": "h:mm A", "LTS": "h:mm:ss A", "L": "MM/DD/YYYY", "LL": "MMMM D, YYYY", "LLL": "MMMM D, YYYY h:mm A",
            "LLLL": "dddd, MMMM D, YYYY h:mm A", "l": "M/D/YYYY", "ll": "MMM D, YYYY", "lll": "MMM D, YYYY h:mm A",
            "llll": "ddd, MMM D, YYYY h:mm A"}

_ORDINAL = "(?:st|nd|rd|th)"
# What moment writes after a day of the month for Do in the languages month_names.py reads: English
# st/nd/rd/th, French "er" after the first alone (fr.js: 1er, 2, 3 …), German ".", Spanish,
# Portuguese and Italian "º", Russian and Ukrainian "-го", Turkish nothing. Was (a trial on a French
# vault): under "dddd Do MMMM YYYY", `lundi 4 mai 2026.md` and `vendredi 1er mai 2026.md` were no
# daily notes, and `get 2026-05-04` said no note for that day was in the vault. Optional, so Do
# is a number of varying width ("v"): a format running it into another number is refused.
_DAY_ORDINAL = "(?:st|nd|rd|th|(?<=(?<![0-9])1)er|º|\\.|-го)?"
_LEADING_DIGITS = re.compile("[0-9]+")
_ONE_OR_TWO = "[0-9]{1,2}"


def _names(names: Sequence[str]) -> str:
    """Any of ``names`` (escaped: ``Okt.``), longest first; Monday or monday: a name in another case is still that name."""
    return "(?i:" + "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)) + ")"


@dataclass(frozen=True)
class _Token:
    """What moment writes for a token: its shape, what it tells (``year``, ``year2``, ``month``,
    ``day``, or None: matched, not read), and its outline — ``v`` digits of varying width, ``f``
    digits of one width, ``o`` anything else, in the order written — to find numbers that run
    together. ``meaning`` says what a token not read stands for."""

    shape: str
    role: str | None
    outline: str
    meaning: str = ""
    suffix: str = ""  # what follows the number read (an ordinal's st, nd, rd, th)


def _read(shape: str, role: str, outline: str, suffix: str = "") -> _Token:
    return _Token(shape, role, outline, suffix=suffix)


def _ignored(meaning: str, tokens: dict[str, tuple[str, str]]) -> dict[str, _Token]:
    return {token: _Token(shape, None, outline, meaning) for token, (shape, outline) in tokens.items()}


_WEEK = {"": (_ONE_OR_TWO, "v"), "o": (_ONE_OR_TWO + _ORDINAL, "vo")}
_TIME = dict.fromkeys("Hhkms", (_ONE_OR_TWO, "v")) | {token * 2: ("[0-9]{2}", "f") for token in "Hhkms"}
_NUMBERS = {"y": ("[0-9]+", "v"), "yy": ("[0-9]{2,}", "v"), "yyy": ("[0-9]{3,}", "v"), "yyyy": ("[0-9]{4,}", "v"),
            "yo": ("[0-9]+" + _ORDINAL, "vo")}
_MOMENT: dict[str, _Token] = {
    "YYYY": _read("[0-9]{4}", "year", "f"), "Y": _read("[0-9]{4}", "year", "f"), "YY": _read("[0-9]{2}", "year2", "f"),
    "YYYYY": _read("[0-9]{5}", "year", "f"), "YYYYYY": _read("[+-][0-9]{6}", "year", "of"),
    "M": _read("1[0-2]|[1-9]", "month", "v"), "MM": _read("0[1-9]|1[0-2]", "month", "f"),
    "Mo": _read("1[0-2]|[1-9]", "month", "vo", _ORDINAL),
    "MMM": _read(_names(list(SHORT_MONTH_NAMES)), "month", "o"), "MMMM": _read(_names(list(MONTH_NAMES)), "month", "o"),
    "D": _read("3[01]|[12][0-9]|[1-9]", "day", "v"), "DD": _read("0[1-9]|[12][0-9]|3[01]", "day", "f"),
    "Do": _read("3[01]|[12][0-9]|[1-9]", "day", "v", _DAY_ORDINAL),
    **_ignored("a weekday", {"d": ("[0-6]", "f"), "do": ("[0-6]" + _ORDINAL, "fo"), "e": ("[0-6]", "f"), "E": ("[1-7]", "f"),
                             "dd": (_names(SHORTEST_WEEKDAY_NAMES), "o"),
                             "ddd": (_names(SHORT_WEEKDAY_NAMES), "o"), "dddd": (_names(WEEKDAY_NAMES), "o")}),
    **_ignored("the day of the year", {"DDD": ("[0-9]{1,3}", "v"), "DDDD": ("[0-9]{3}", "f"),
                                       "DDDo": ("[0-9]{1,3}" + _ORDINAL, "vo")}),
    **_ignored("a week", {"w" + end: shape for end, shape in _WEEK.items()} | {"ww": ("[0-9]{2}", "f")}),
    **_ignored("an ISO week", {"W" + end: shape for end, shape in _WEEK.items()} | {"WW": ("[0-9]{2}", "f")}),
    **_ignored("a week-based year", {"gg": ("[0-9]{2}", "f"), "gggg": ("[0-9]{4}", "f"), "ggggg": ("[0-9]{5}", "f")}),
    **_ignored("an ISO week-based year", {"GG": ("[0-9]{2}", "f"), "GGGG": ("[0-9]{4}", "f"), "GGGGG": ("[0-9]{5}", "f")}),
    **_ignored("a quarter", {"Q": ("[1-4]", "f"), "Qo": ("[1-4]" + _ORDINAL, "fo")}),
    **_ignored("a time of day", _TIME | {"a": ("(?i:[ap]m)", "o"), "A": ("(?i:[ap]m)", "o"),
                                         **{"S" * width: (f"[0-9]{{{width}}}", "f") for width in range(1, 10)},
                                         **{compound: (_ONE_OR_TWO + "[0-9]{2}" * (len(compound) // 2), "vf")
                                            for compound in ("Hmm", "Hmmss", "hmm", "hmmss")}}),
    # z is the zone's abbreviation, which moment writes only for UTC dates ("UTC"); Obsidian's are local: "".
    **_ignored("a time zone", {"Z": ("[+-][0-9]{2}:[0-9]{2}", "ofof"), "ZZ": ("[+-][0-9]{4}", "of"), "z": ("", ""), "zz": ("", "")}),
    **_ignored("an era", {"N" * width: ("(?i:AD|BC)", "o") for width in (1, 2, 3, 5)} | {"NNNN": ("(?i:Anno Domini|Before Christ)", "o")}),
    **_ignored("an era's year", _NUMBERS),
    **_ignored("Unix time", {"X": ("-?[0-9]+", "v"), "x": ("-?[0-9]+", "v")}),
}


@dataclass(frozen=True)
class _Piece:
    """One piece of a format: a token of moment's (``token``) or literal text."""

    text: str
    token: _Token | None = None

    @property
    def outline(self) -> str:
        if self.token is not None:
            return self.token.outline
        return "".join("f" if character.isdigit() else "o" for character in self.text)


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

    def values(self, name: str) -> dict[str, int] | None:
        """What ``name`` says of each part the format reads (``year``, ``month``, ``day``,
        ``week``, ``quarter``), if it matches the format whole and says each part once."""
        found = self.pattern.fullmatch(name) if self.pattern is not None else None
        if found is None:
            return None
        told: dict[str, set[int]] = {}
        for group, role in self.roles:
            told.setdefault("year" if role == "year2" else role, set()).add(_number(found[group], role))
        if any(len(values) != 1 for values in told.values()):
            return None  # YYYY/MM/YYYY-MM-DD with two different years: which one?
        return {role: next(iter(values)) for role, values in told.items()}

    def day(self, name: str) -> date | None:
        """The day ``name`` (a note's path below the daily folder, without ``.md``) is, if it
        matches the format whole and is a day the calendar holds."""
        told = self.values(name)
        if told is None:
            return None
        try:
            return date(told["year"], told["month"], told["day"])
        except ValueError:  # 31-02-2026: not a day
            return None


def _number(text: str, role: str) -> int:
    if role == "year2":
        return 2000 + int(text)
    if role in ("week", "quarter"):  # 9th, 1st: the number before its ordinal
        return int(_LEADING_DIGITS.match(text)[0])  # type: ignore[index]  # every shape of these starts with digits
    if role == "month" and not text[0].isdigit():  # January, jan, März, okt.
        number = month_number(text)
        if number is None:  # the pattern matched a name the table does not hold: the two disagree
            raise ValueError(f"{text!r} matched a month name vaultmem does not know")
        return number
    return int(text)


def parse_moment_format(text: str) -> MomentFormat:
    """``text`` (a moment.js format) as a matcher of names; one vaultmem cannot read whole
    (``gggg-[W]ww``, ``YYYY-MM``, ``MDYYYY``, a format of hundreds of characters) matches
    nothing and says why."""
    if len(text) > MAX_FORMAT_CHARS:  # checked before it is expanded (which only lengthens it) or compiled
        return _refused(text, _too_long(text))
    expanded = name_form(_expand_locale_formats(text))
    if len(expanded) > MAX_FORMAT_CHARS:
        return _refused(text, _too_long(expanded) + " once moment's L… formats are written out")
    pieces = _normalized_slashes(_pieces(expanded))
    why = _run_together(pieces) or _no_single_day(pieces)
    if why:
        return _refused(text, why)
    return _compiled(text, pieces, lambda piece: piece.token.role if piece.token is not None else None)


def _compiled(text: str, pieces: list[_Piece], role_of: Callable[[_Piece], str | None]) -> MomentFormat:
    """The matcher of ``pieces``: a token whose role ``role_of`` gives is read, every other matched."""
    source: list[str] = []
    roles: list[tuple[str, str]] = []
    for piece in pieces:
        role = role_of(piece)
        if piece.token is None:
            source.append(re.escape(piece.text))
        elif role is None:
            source.append(f"(?:{piece.token.shape})")
        else:
            group = f"g{len(roles)}"
            roles.append((group, role))
            source.append(f"(?P<{group}>{piece.token.shape}){piece.token.suffix}")
    return MomentFormat(text, re.compile("".join(source)), tuple(roles))


# What a periodic note's format reads, by the kind of note (periods.py): a week's week-based
# year (gggg, GGGG) and week (ww, WW: both read as ISO weeks, adr/0026), else a calendar year;
# a month, a quarter (Q). Every other token is matched, not read.
_PERIOD_ROLES = {**dict.fromkeys(("w", "ww", "wo", "W", "WW", "Wo"), "week"), "Q": "quarter", "Qo": "quarter",
                 **dict.fromkeys(("gggg", "GGGG", "ggggg", "GGGGG"), "week year"), "gg": "week year2", "GG": "week year2"}
_PERIOD_NEEDS = {WEEK: ("year", "week"), MONTH: ("year", "month"), QUARTER: ("year", "quarter"), YEAR: ("year",)}


def parse_period_format(text: str, kind: str) -> MomentFormat:
    """``text`` (a moment.js format of Periodic Notes' ``kind`` of note: ``gggg-[W]ww``,
    ``YYYY-MM``, ``YYYY-[Q]Q``, ``YYYY``) as a matcher of names whose :meth:`MomentFormat.values`
    hold what the kind needs (a year, and its week, month or quarter); one that lacks them, or
    whose numbers run together, matches nothing and says why."""
    if len(text) > MAX_FORMAT_CHARS:
        return _refused(text, _too_long(text))
    expanded = name_form(_expand_locale_formats(text))
    if len(expanded) > MAX_FORMAT_CHARS:
        return _refused(text, _too_long(expanded) + " once moment's L… formats are written out")
    pieces = _normalized_slashes(_pieces(expanded))
    week_years = kind == WEEK and any(_PERIOD_ROLES.get(piece.text, "").startswith("week year")
                                      for piece in pieces if piece.token is not None)
    needs = _PERIOD_NEEDS[kind]

    def role_of(piece: _Piece) -> str | None:
        if piece.token is None:
            return None
        role = _PERIOD_ROLES.get(piece.text, piece.token.role or "")
        if role.startswith("week year"):  # the year of a week: read for a week note only
            role = role.removeprefix("week ") if kind == WEEK else ""
        elif week_years and role in ("year", "year2"):  # YYYY beside gggg: the week's year is gggg's
            role = ""
        return role if (role == "year2" and "year" in needs) or role in needs else None

    read = {"year" if role == "year2" else role for role in map(role_of, pieces)}
    missing = [role for role in needs if role not in read]
    why = _run_together(pieces) or (f"it names no {' and no '.join(missing)}, so no {kind}" if missing else "")
    if why:
        return _refused(text, why)
    return _compiled(text, pieces, role_of)


def _refused(text: str, why: str) -> MomentFormat:
    return MomentFormat(text, None, (), why)


def _too_long(text: str) -> str:
    return f"it is {len(text):,} characters long, and vaultmem reads formats of at most {MAX_FORMAT_CHARS} (Obsidian's are a few dozen)"


def _expand_locale_formats(text: str) -> str:
    """``LL`` as moment writes it in English, ``MMMM D, YYYY`` (``[LL]`` and ``\\LL`` stay as they are)."""
    return _LOCALE_TOKENS.sub(lambda match: _ENGLISH.get(match[0], match[0]), text)


def _pieces(text: str) -> list[_Piece]:
    """``text`` cut as moment cuts it: its tokens, and literal text as moment writes it (brackets
    and escaping backslashes dropped; a character that is no token of moment's is itself)."""
    pieces: list[_Piece] = []
    for match in _TOKENS.finditer(text):
        bracketed, escaped, token = match[1], match[2], match[3]
        if bracketed is not None:
            pieces.append(_Piece(bracketed[1:-1]))
        elif escaped is None and token in _MOMENT:
            pieces.append(_Piece(token, _MOMENT[token]))
        else:
            pieces.append(_Piece(match[0].replace("\\", "")))
    return pieces


def _normalized_slashes(pieces: list[_Piece]) -> list[_Piece]:
    """Literal text joined, ``//`` as ``/`` and no ``/`` at either end: the path Obsidian makes
    of the name the format writes (its normalizePath), so a format typed ``/YYYY//MM-DD/`` still
    matches the notes it made."""
    joined: list[_Piece] = []
    for piece in pieces:
        if piece.token is None and joined and joined[-1].token is None:
            joined[-1] = _Piece(joined[-1].text + piece.text)
        else:
            joined.append(piece)
    cleaned = [piece if piece.token is not None else _Piece(re.sub("/+", "/", piece.text)) for piece in joined]
    if cleaned and cleaned[0].token is None:
        cleaned[0] = _Piece(cleaned[0].text.lstrip("/"))
    if cleaned and cleaned[-1].token is None:
        cleaned[-1] = _Piece(cleaned[-1].text.rstrip("/"))
    return [piece for piece in cleaned if piece.token is not None or piece.text]


def _run_together(pieces: list[_Piece]) -> str:
    """Why the format's names cannot be read back one way, if two of its numbers of varying width
    have nothing but digits between them (``MD``: 111 is 1/11 or 11/1; ``M[1]D``; ``MYYYYD``).
    Without this rule a name would also cost time exponential in such numbers to match
    (``MD`` 20 times took 52 s a name); with it, a run of digits holds at most one number of
    varying width, whose width the run's length then settles."""
    varying: str | None = None  # the number of varying width in the run of digits so far
    for piece in pieces:
        for mark in piece.outline:
            if mark == "o":
                varying = None
            elif mark == "v":
                if varying is not None:
                    return (f"{varying} and {piece.text} write numbers of varying width with nothing but digits "
                            "between them, so one name can be read as more than one day")
                varying = piece.text
    return ""


def _no_single_day(pieces: list[_Piece]) -> str:
    """Why the format names no one day, if it lacks a year, a month or a day of the month."""
    told = {"year" if piece.token.role == "year2" else piece.token.role for piece in pieces if piece.token is not None}
    missing = [role for role in ("year", "month", "day") if role not in told]
    if not missing:
        return ""
    ignored = {piece.text: piece.token.meaning for piece in pieces if piece.token is not None and piece.token.role is None}
    others = (f" ({', '.join(ignored)}: {', '.join(dict.fromkeys(ignored.values()))}, which vaultmem does not read as a day)"
              if ignored else "")
    named = " and ".join(filter(None, [", ".join(f"no {role}" for role in missing[:-1]), f"no {missing[-1]}"]))
    return f"it names {named}, so not one day{others}"


def _name_below(folder: str, path: str) -> str | None:
    """``path`` (vault-relative) below ``folder``, without ``.md``, in NFC; ``None`` when the
    note is not in that folder."""
    name = name_form(path.removesuffix(".md"))
    if not folder:
        return name
    return name[len(folder) + 1:] if name.startswith(folder + "/") else None


@dataclass(frozen=True)
class PeriodFormat:
    """Where Periodic Notes keeps one kind of periodic note (``week``, ``month``, ``quarter``,
    ``year``: periods.py) and how it names them (a format vaultmem reads: parse_period_format)."""

    kind: str
    folder: str  # vault-relative, in NFC; "" is the vault's root
    moment: MomentFormat
    settings: str  # the settings file and its key: .obsidian/plugins/periodic-notes/data.json weekly

    def span(self, path: str) -> Span | str | None:
        """The period the note at ``path`` is named for in this format; or why a name the format
        matches is none (``2026-W54``: a ``check`` problem); None when it does not match."""
        name = _name_below(self.folder, path)
        told = None if name is None else self.moment.values(name)
        if told is None:
            return None
        try:
            return span_of(self.kind, told["year"], told.get(self.kind, 1))
        except ValueError as why:
            return f"{name!r} matches the {self.kind}ly-note format {self.describe()}, but {why}"

    def describe(self) -> str:
        """``gggg-[W]ww in Weekly/ (.obsidian/plugins/periodic-notes/data.json weekly)``."""
        where = f"{self.folder}/" if self.folder else "the vault's root"
        return f"{self.moment.text} in {where} ({self.settings})"


@dataclass(frozen=True)
class DailyFormat:
    """Where the vault's daily notes are, how they are named and where that was read; with
    no ``moment`` (no settings, or settings vaultmem cannot use: ``problems``) it dates nothing.
    ``periods``: Periodic Notes' weekly, monthly, quarterly and yearly formats in use (read from
    the same settings: adr/0026 "Periodic notes")."""

    folder: str = ""  # vault-relative, in NFC; "" is the vault's root
    moment: MomentFormat | None = None
    settings: str = ""  # the settings file it was read from
    problems: tuple[Problem, ...] = ()
    periods: tuple[PeriodFormat, ...] = ()
    title_format: str = ""  # a Logseq graph's :journal/page-title-format (date-fns): the title a journal shows
    # A Logseq graph's :file/name-format (logseq_pages.py: "triple-lowbar" or "legacy"), how a page's
    # file name reads as its title; "" in a vault that is no graph.
    page_names: str = ""
    # The day weeks start on for `this week` / `last week` (Monday 0 … Sunday 6): the Calendar
    # plugin's weekStart when it names a day, else Monday, the ISO week (adr/0026 "Week start").
    week_start: int = 0
    maker: str = "Obsidian"  # the app that makes the day's note: Obsidian, Logseq or Foam (its error says which)
    # The Persian Calendar plugin is turned on: a day in a note's name whose year is a Solar Hijri
    # year (jalali.YEARS: 1403-05-12) is that calendar's day, as the plugin names notes (adr/0026).
    solar_hijri: bool = False
    # The Unique note creator (once Zettelkasten prefixer) names new notes by the Unix time they
    # were made (its format `X`, seconds): `1732193684 - Algoritmos.md` was made on 2024-11-21.
    unix_ids: bool = False

    def title(self, path: str) -> str | None:
        """The title Logseq shows for the journal at ``path`` ("May 16th, 2022"), if it is one."""
        day = self.day(path) if self.title_format else None
        return None if day is None else journal_title(day, self.title_format)

    def name_below(self, path: str) -> str | None:
        """``path`` (vault-relative) below the daily notes' folder, without ``.md``, in NFC;
        ``None`` when the note is not in that folder (the same name elsewhere is no daily note)."""
        return _name_below(self.folder, path)

    def period(self, path: str) -> tuple[Span | str, PeriodFormat] | None:
        """The period the note at ``path`` is named for by one of Periodic Notes' formats (or why
        its name, matching one, is none), with that format; None when no format names it."""
        for period in self.periods:
            found = period.span(path)
            if found is not None:
                return found, period
        return None

    def day(self, path: str) -> date | None:
        """The day the note at ``path`` (vault-relative) is by the daily-note format, if any."""
        if self.moment is None or not self.moment.supported:
            return None
        name = self.name_below(path)
        if name is None:
            return None
        told = self.moment.values(name) if self.solar_hijri else None
        if told is not None and told["year"] in SOLAR_HIJRI_YEARS:
            try:
                return gregorian_day(told["year"], told["month"], told["day"])
            except ValueError:  # 1402-12-30: no day of that year
                return None
        return self.moment.day(name)

    @property
    def in_use(self) -> bool:
        return self.moment is not None and self.moment.supported

    @property
    def fingerprint(self) -> str:
        """What the index keeps to tell that the formats changed (``""``: none in use); it
        names the folders, so the notes the old formats dated can be dated again."""
        parts: dict[str, Any] = {}
        if self.in_use and self.moment is not None:
            parts = {"folder": self.folder, "format": self.moment.text}
            if self.title_format:
                parts["title"] = self.title_format  # a new one titles the journals anew
        if self.page_names:
            parts["pages"] = self.page_names  # a new one titles every page anew: every note is read again
        if self.periods:
            parts["periods"] = [[period.kind, period.folder, period.moment.text] for period in self.periods]
        if self.solar_hijri:
            parts["solar_hijri"] = True  # names anywhere are read in that calendar: every note is dated anew
        if self.unix_ids:
            parts["unix_ids"] = True  # a name anywhere may start with one: every note is dated anew
        return json.dumps(parts, ensure_ascii=False, sort_keys=True) if parts else ""

    def describe(self) -> str:
        """``DD-MM-YYYY in Journal/ (.obsidian/daily-notes.json)``."""
        where = f"{self.folder}/" if self.folder else "the vault's root"
        return f"{self.moment.text if self.moment else ''} in {where} ({self.settings})"


def titled_as_in_logseq(note: Note, daily: DailyFormat) -> Note:
    """``note`` titled as Logseq shows it when it is a note of a graph without a title of its
    own: a journal by its day ("May 16th, 2022" for ``journals/2022_05_16.md``), a page by its
    file name read in the graph's ``:file/name-format`` ("Academic/Learning Roadmap" for
    ``pages/Academic___Learning Roadmap.md``: logseq_pages.py); else as it is. Its file name
    stays a name of it."""
    if "title" in note.meta:
        return note
    title = daily.title(note.path) if daily.title_format else None
    if title is None and daily.page_names and note.path.endswith(".md") and note.title == file_stem(note.path):
        title = page_name(note.title, daily.page_names)  # one a `name:` property titles keeps it (notes.naming_key)
    return note if title is None or title == note.title else replace(note, title=title)


def dated_folders(fingerprint: str) -> list[str]:
    """The folders whose notes the formats of ``fingerprint`` dated (none: no format; ``""``:
    the vault's root, every note)."""
    if not fingerprint:
        return []
    try:
        parts = json.loads(fingerprint)
        folders = [parts["folder"]] if "folder" in parts else []
        folders += [period[1] for period in parts.get("periods", [])]
        folders += [""] if parts.get("solar_hijri") or parts.get("pages") or parts.get("unix_ids") else []
    except (ValueError, AttributeError, TypeError, KeyError, IndexError):
        return [""]  # not one this version wrote: every note may have been dated by it
    return [folder if isinstance(folder, str) else "" for folder in folders]


# ------------------------------------------------------------------ Obsidian's settings

_UNUSED = "its daily-note format is not used: daily notes are dated by the other rules meanwhile"
_CORE_WHERE = "Settings → Daily notes"
_PERIODIC_WHERE = "Settings → Periodic Notes"


def load_daily_format(root: Path) -> DailyFormat:
    """The daily-note format of the vault at ``root``: Periodic Notes' when the plugin is on and
    its daily notes are enabled, else the Daily notes plugin's, else none; and Periodic Notes'
    weekly, monthly, quarterly and yearly formats in use. Mistakes are problems, never raised."""
    daily = _load_daily(root)
    if _persian_calendar_on(root):
        daily = replace(daily, solar_hijri=True)
    if _unix_time_ids(root):
        daily = replace(daily, unix_ids=True)
    periods, period_problems = _load_periods(root)
    problems = list(period_problems)
    week_start = _load_week_start(root, problems)
    if periods or problems or week_start:
        return replace(daily, periods=periods, problems=(*daily.problems, *problems), week_start=week_start)
    return daily


def _persian_calendar_on(root: Path) -> bool:
    """Is the Persian Calendar plugin turned on (``.obsidian/community-plugins.json`` lists it)?
    It names a day's note by its Solar Hijri day (``1403-05-12.md``) unless set to Gregorian
    names, which have no year of jalali.YEARS; its settings differ between its versions and are
    not read. An unreadable list is said for Periodic Notes already."""
    plugins = read_settings(root, COMMUNITY_PLUGINS, [], _UNUSED)
    return isinstance(plugins, list) and PERSIAN_CALENDAR_ID in plugins


def _unix_time_ids(root: Path) -> bool:
    """Does the Unique note creator (``.obsidian/zk-prefixer.json``) name new notes by the Unix
    time they were made (its ``format`` ``X``, seconds)? Was (s42, a trial of a student's
    Zettelkasten whose 300 zettels are named so, `1732193684 - Algoritmos de busqueda.md`):
    every zettel was undated, and `list --since 2024-11` left all of them out. A settings file
    that does not parse is said by exclusions.py, for the plugin's template."""
    settings = read_settings(root, UNIQUE_NOTE_SETTINGS, [], _UNUSED)
    return isinstance(settings, dict) and settings.get("format") == "X"


def _load_week_start(root: Path, problems: list[Problem]) -> int:
    """The first day of the vault's weeks (Monday 0 … Sunday 6): the Calendar plugin's
    ``weekStart`` when the plugin is on and it names a day. ``locale`` (its default) is the
    language Obsidian runs in, which the vault does not record: Monday, the ISO week, then."""
    ignored: list[Problem] = []  # an unreadable list of plugins is said for Periodic Notes already
    plugins = read_settings(root, COMMUNITY_PLUGINS, ignored, _UNUSED)
    if isinstance(plugins, list) and CALENDAR_ID not in plugins:
        return 0  # turned off: its old setting no longer starts the weeks Obsidian shows
    unused = "weeks start on Monday (ISO weeks) meanwhile"
    settings = read_settings(root, CALENDAR_SETTINGS, problems, unused)
    value = settings.get("weekStart", "locale") if isinstance(settings, dict) else "locale"
    if isinstance(value, str) and value.casefold() in _WEEKDAYS:
        return _WEEKDAYS.index(value.casefold())
    if value != "locale" or (settings is not None and not isinstance(settings, dict)):
        shown = short_repr(value) if isinstance(settings, dict) else f"the file is {_kind(settings)}"
        problems.append(Problem(CALENDAR_SETTINGS, "weekStart", f"{shown} is no day of the week; {unused}",
                                "choose the first day of the week again in Settings → Calendar"))
    return 0


def _load_daily(root: Path) -> DailyFormat:
    problems: list[Problem] = []
    periodic_on = _periodic_notes_on(root, problems)
    if problems and (root / PERIODIC_NOTES_SETTINGS).exists():
        # Whether Periodic Notes is on cannot be told, and its settings are there: either format
        # may be the one in use, and the wrong one dates notes wrongly where no date is said.
        return DailyFormat(problems=tuple(problems))
    problems.clear()  # a list of plugins nobody needs (no Periodic Notes settings) is no problem of ours
    if periodic_on:
        periodic = read_settings(root, PERIODIC_NOTES_SETTINGS, problems, _UNUSED)
        # Whether it overrides the core plugin's format cannot be told from a file that does not
        # parse or has a shape the plugin never writes; the core's, perhaps stale, could read 03-04
        # as 3 April where the person meant 4 March: no date is better.
        if problems:
            return DailyFormat(problems=tuple(problems))
        daily = _periodic_daily(periodic) if periodic is not None else None
        if isinstance(daily, Problem):
            return DailyFormat(problems=(daily,))
        if daily is not None:
            return _from_settings(daily[0], PERIODIC_NOTES_SETTINGS, daily[1], _PERIODIC_WHERE)
    core = read_settings(root, DAILY_NOTES_SETTINGS, problems, _UNUSED)
    if core is None and not problems and is_logseq_graph(root):
        return replace(_logseq_journals(root), maker="Logseq")
    if core is None and not problems and (foam := _foam_daily(root)) is not None:
        return foam
    if core is None or problems:
        return DailyFormat(problems=tuple(problems))
    if not isinstance(core, dict):
        return DailyFormat(problems=(Problem(DAILY_NOTES_SETTINGS, "file", f"is {_kind(core)}, not an object; {_UNUSED}",
                                             f"set the daily notes' settings again in Obsidian ({_CORE_WHERE})"),))
    # Used even when core-plugins.json turns Daily notes off: the notes it named still carry its format.
    return _from_settings(core, DAILY_NOTES_SETTINGS, "", _CORE_WHERE)


def _foam_daily(root: Path) -> DailyFormat | None:
    """A Foam workspace's daily notes (foam_settings.py): where its daily-note template's
    ``foam_template.filepath`` puts them, else ``foam.openDailyNote`` in ``.vscode/settings.json``;
    with neither, none — but a Foam workspace (``.foam/``) still names Foam as their maker."""
    unreported: list[Problem] = []  # a settings file that does not parse is said once, by exclusions.py
    found = load_foam_daily(root, read_vscode_settings(root, unreported, ""))
    if found is None:
        return DailyFormat(maker="Foam") if (root / FOAM_DIR).is_dir() else None
    if isinstance(found, Problem):
        return DailyFormat(problems=(found,), maker="Foam")
    moment = parse_moment_format(found.moment)
    problems: tuple[Problem, ...] = ()
    if not moment.supported:
        name, _, key = found.settings.partition(" ")
        problems = (Problem(name, key, f"names daily notes {short_repr(moment.text)} (as moment.js writes it): {moment.unread}; "
                            f"{_UNUSED}", "name them by the year, the month and the day, such as "
                            "journal/$FOAM_DATE_YEAR-$FOAM_DATE_MONTH-$FOAM_DATE_DATE.md in the daily-note template"),)
    return DailyFormat(name_form(found.folder), moment, found.settings, problems, maker="Foam")


def _logseq_journals(root: Path) -> DailyFormat:
    """A Logseq graph's journals as its daily notes (logseq_journals.py): ``:journals-directory``,
    ``:journal/file-name-format`` read as the daily-note format, ``:journal/page-title-format`` as
    their title; Logseq's defaults where config.edn sets none."""
    edn = read_config(root) or ""
    folder = vault_folder(read_setting(edn, ":journals-directory") or DEFAULT_JOURNALS) or DEFAULT_JOURNALS
    file_name = read_setting(edn, ":journal/file-name-format") or DEFAULT_FILE_NAME_FORMAT
    pattern = moment_pattern(file_name)
    if pattern is None:
        return DailyFormat(problems=(Problem(LOGSEQ_SETTINGS, ":journal/file-name-format",
                                             f"{short_repr(file_name)} holds a letter vaultmem does not read; journals are dated "
                                             "by the other rules meanwhile", "use yyyy, MM, dd (Logseq's default is yyyy_MM_dd)"),),
                           page_names=name_format(edn))
    title = read_setting(edn, ":journal/page-title-format") or DEFAULT_TITLE_FORMAT
    return replace(_from_moment(folder, pattern), title_format=title, page_names=name_format(edn))


def _from_moment(folder: str, pattern: str) -> DailyFormat:
    moment = parse_moment_format(pattern)
    problems: tuple[Problem, ...] = ()
    if not moment.supported:
        problems = (Problem(LOGSEQ_SETTINGS, ":journal/file-name-format", f"{short_repr(moment.text)}: {moment.unread}; "
                            "journals are dated by the other rules meanwhile", "use Logseq's default, yyyy_MM_dd"),)
    return DailyFormat(name_form(folder), moment, LOGSEQ_SETTINGS, problems)


def _periodic_notes_on(root: Path, problems: list[Problem]) -> bool:
    """Is Periodic Notes turned on (Settings → Community plugins)? Its settings stay in the vault
    after it is turned off; read them then and its old format would date notes it no longer names.
    With no list of plugins it counts as on, as before lists were read; a list that cannot be read
    (or is not a list) is a problem added to ``problems``."""
    unused = "whether Periodic Notes is on cannot be told, so no daily-note format is used"
    plugins = read_settings(root, COMMUNITY_PLUGINS, problems, unused)
    if plugins is not None and not isinstance(plugins, list):
        problems.append(Problem(COMMUNITY_PLUGINS, "file", f"is {_kind(plugins)}, not a list of plugin ids; {unused}",
                                "turn the community plugins on again in Obsidian (Settings → Community plugins), or fix the JSON"))
    return plugins is None or (isinstance(plugins, list) and PERIODIC_NOTES_ID in plugins)


def _periodic_daily(settings: object) -> tuple[dict[str, Any], str] | Problem | None:
    """Periodic Notes' daily-note settings and their keys' path in its file (``daily.``, or in
    1.x ``calendarSets[0].day.``) when its daily notes are enabled; ``None`` when they are not;
    a problem when the file holds what the plugin never writes."""
    if not isinstance(settings, dict):
        return _periodic_problem("file", f"is {_kind(settings)}, not an object")
    sets = settings.get("calendarSets")
    if sets is not None and sets != []:  # 1.x; an empty list: 1.x moves 0.x's daily into a set when it loads
        chosen = _active_calendar_set(settings, sets)
        if isinstance(chosen, Problem):
            return chosen
        daily, key = chosen
    else:
        daily, key = settings.get("daily"), "daily"
    if daily is None:
        return None  # the plugin's default: daily notes not enabled
    if not isinstance(daily, dict):
        return _periodic_problem(key, f"is {_kind(daily)}, not an object")
    enabled = daily.get("enabled", False)
    if not isinstance(enabled, bool):
        return _periodic_problem(f"{key}.enabled", f"is {_kind(enabled)} ({short_repr(enabled)}), not true or false")
    return (daily, f"{key}.") if enabled else None


def _active_calendar_set(settings: dict[str, Any], sets: object) -> tuple[object, str] | Problem:
    """The ``day`` of Periodic Notes 1.x's active calendar set (else its first) and its key."""
    if not isinstance(sets, list):
        return _periodic_problem("calendarSets", f"is {_kind(sets)}, not a list")
    active = settings.get("activeCalendarSet")
    if active is not None and not isinstance(active, str):
        return _periodic_problem("activeCalendarSet", f"is {_kind(active)}, not text")
    if active is None:
        index = 0  # no active set named: the plugin starts on its first
    else:
        found = [number for number, one in enumerate(sets) if isinstance(one, dict) and one.get("id") == active]
        if not found:  # the plugin itself stops here ("No active calendar set found")
            return _periodic_problem("activeCalendarSet", f"names {short_repr(active)}, which no calendar set has as its id")
        index = found[0]
    if not isinstance(sets[index], dict):
        return _periodic_problem(f"calendarSets[{index}]", f"is {_kind(sets[index])}, not an object")
    return sets[index].get("day"), f"calendarSets[{index}].day"


# Periodic Notes' keys for each kind of periodic note (0.x, and 1.x's calendar set) and its
# default format for each, as the plugin writes them.
_PERIOD_KEYS = {WEEK: ("weekly", "week"), MONTH: ("monthly", "month"), QUARTER: ("quarterly", "quarter"),
                YEAR: ("yearly", "year")}
DEFAULT_PERIOD_FORMATS = {WEEK: "gggg-[W]ww", MONTH: "YYYY-MM", QUARTER: "YYYY-[Q]Q", YEAR: "YYYY"}


def _load_periods(root: Path) -> tuple[tuple[PeriodFormat, ...], tuple[Problem, ...]]:
    """Periodic Notes' weekly, monthly, quarterly and yearly formats in use, and the problems of
    their entries. Lenient: a settings file that cannot be read, or is no object, dates nothing
    here and is said once, by the daily-note format's problems (:func:`_load_daily`); an entry
    of a shape the plugin never writes is a problem, and the other kinds are still read."""
    unreadable: list[Problem] = []
    if not _periodic_notes_on(root, unreadable) or unreadable:
        return (), ()
    settings = read_settings(root, PERIODIC_NOTES_SETTINGS, unreadable)
    if unreadable or not isinstance(settings, dict):
        return (), ()
    sets = settings.get("calendarSets")
    if sets is not None and sets != []:  # 1.x: the active calendar set's week, month, quarter, year
        chosen = _active_calendar_set(settings, sets)
        if isinstance(chosen, Problem):
            return (), ()  # said by the daily-note format's problems
        prefix = chosen[1].removesuffix(".day")
        container, keys = _calendar_set(settings, sets, prefix), {kind: f"{prefix}.{key[1]}" for kind, key in _PERIOD_KEYS.items()}
    else:
        container, keys = settings, {kind: key[0] for kind, key in _PERIOD_KEYS.items()}
    periods: list[PeriodFormat] = []
    problems: list[Problem] = []
    for kind, key in keys.items():
        found = _period_format(kind, container.get(key.rpartition(".")[2]), key)
        if isinstance(found, Problem):
            problems.append(found)
        elif found is not None:
            periods.append(found)
    return tuple(periods), tuple(problems)


def _calendar_set(settings: dict[str, Any], sets: list[Any], prefix: str) -> dict[str, Any]:
    """The calendar set ``calendarSets[N]`` (``prefix``) names, checked by :func:`_active_calendar_set`."""
    chosen = sets[int(prefix.removeprefix("calendarSets[").removesuffix("]"))]
    return chosen if isinstance(chosen, dict) else {}


def _period_format(kind: str, entry: object, key: str) -> PeriodFormat | Problem | None:
    """One kind's entry (``weekly``: ``{"enabled": true, "format": "gggg-[W]ww", "folder": "Weekly"}``)
    as the format in use; None when the entry is absent or not enabled."""
    unused = f"its {kind}ly notes are dated by the other rules meanwhile"
    fix = f"set the {kind}ly notes again in Obsidian ({_PERIODIC_WHERE}), or fix the JSON"
    if entry is None:
        return None
    if not isinstance(entry, dict):
        return Problem(PERIODIC_NOTES_SETTINGS, key, f"is {_kind(entry)}, not an object; {unused}", fix)
    enabled = entry.get("enabled", False)
    if not isinstance(enabled, bool):
        return Problem(PERIODIC_NOTES_SETTINGS, f"{key}.enabled", f"is {_kind(enabled)} ({short_repr(enabled)}), "
                       f"not true or false; {unused}", fix)
    if not enabled:
        return None
    text, folder = entry.get("format"), entry.get("folder")
    for field, value in (("format", text), ("folder", folder)):
        if value is not None and not isinstance(value, str):
            return Problem(PERIODIC_NOTES_SETTINGS, f"{key}.{field}", f"is {_kind(value)}, not text; {unused}", fix)
    where = vault_folder(folder or "")
    if where is None:
        return Problem(PERIODIC_NOTES_SETTINGS, f"{key}.folder", f"{short_repr(folder)} is outside the vault; {unused}", fix)
    moment = parse_period_format(text or DEFAULT_PERIOD_FORMATS[kind], kind)
    if not moment.supported:
        return Problem(PERIODIC_NOTES_SETTINGS, f"{key}.format", f"{short_repr(moment.text)}: {moment.unread}; {unused}",
                       f"choose a format that names the {kind} (such as {DEFAULT_PERIOD_FORMATS[kind]}) in Obsidian "
                       f"({_PERIODIC_WHERE}), or give these notes a date property")
    return PeriodFormat(kind, name_form(where), moment, f"{PERIODIC_NOTES_SETTINGS} {key}")


def _periodic_problem(field: str, message: str) -> Problem:
    return Problem(PERIODIC_NOTES_SETTINGS, field, f"{message}; {_UNUSED}",
                   f"set the daily notes again in Obsidian ({_PERIODIC_WHERE}), or fix the JSON")


def _kind(value: object) -> str:
    """What a JSON value is, in words: ``a list``, ``text``, ``a number``."""
    if isinstance(value, bool):
        return "a boolean"
    kinds = {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


def _from_settings(settings: dict[str, Any], name: str, prefix: str, where: str) -> DailyFormat:
    """The format and folder of one settings object (``prefix``: its keys' path in the file)."""
    fix = f"set it again in Obsidian ({where})"
    text, folder = settings.get("format"), settings.get("folder")
    for key, value in (("format", text), ("folder", folder)):
        if value is not None and not isinstance(value, str):
            return DailyFormat(problems=(Problem(name, prefix + key, f"is {_kind(value)}, not text; {_UNUSED}", fix),))
    where_notes = vault_folder(folder or "")
    if where_notes is None:
        return DailyFormat(problems=(Problem(name, prefix + "folder", f"{short_repr(folder)} is outside the vault; {_UNUSED}", fix),))
    moment = parse_moment_format(text or DEFAULT_FORMAT)
    problems: tuple[Problem, ...] = ()
    if not moment.supported:
        problems = (Problem(name, prefix + "format", f"{short_repr(moment.text)}: {moment.unread}; {_UNUSED}",
                            "give these notes a date property, or choose a format that names the year, the month "
                            f"and the day, its numbers apart (such as YYYY-MM-DD, DD.MM.YYYY or dddd, MMMM Do YYYY) in Obsidian ({where})"),)
    return DailyFormat(name_form(where_notes), moment, name, problems)
