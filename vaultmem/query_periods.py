"""A period named in a search's words, said back as the range that would search it (pure).

adr/0026 keeps the query's words words: "last week" in a query is not read as a date range,
since a wrong guess would filter silently. But a person who asks ``vaultmem search "what did
I do last week"`` got a movie list (its "Last seen" heading) and the week's daily notes at
0.02, told nothing of ``--since``/``--until`` (trial s37 on kepano's vault; recall and the API
the same). So a search without a date range whose words name a period says so among its
warnings, with the bounds that would keep that period's notes: a hint, never a filter.

Read: the English periods the bounds take (``today``, ``yesterday``, ``last week``, ``next
month``, ``last friday`` … dating.py), the same phrases of two words or more in the languages
period_words.py reads (``la semaine dernière``, ``letzte Woche``), and Chinese, Japanese and
Korean period words (``上周``), and a month named with its year (``August 2026``, ``agosto de
2026``: the month's bound, ``2026-08``). A single foreign word is not read: ``hier`` is French for
yesterday and German for here, ``morgen`` German for tomorrow and for morning — except Russian's
and Ukrainian's (``вчера``, ``вчора``: period_words.SINGLE_WORDS), which no other language here writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .dating import CJK_PERIOD_WORDS
from .errors import Argument, Spelled
from .fields import name_key
from .month_names import MONTH_NAMES
from .period_words import PERIOD_WORDS, SINGLE_WORDS, phrase_key

_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ENGLISH = (r"day before yesterday|day after tomorrow|today|yesterday|tomorrow"
            rf"|(?:this|last|next) (?:week|month|year|{_WEEKDAYS})")
_FOREIGN = sorted((phrase for phrase in PERIOD_WORDS if " " in phrase or phrase in SINGLE_WORDS), key=len, reverse=True)
# Not before "of": "the last month of 2024", "the last Friday of the month" name a month and a day of
# another period, not one counted from today; the hint's --since 'last month' would keep another month
# (review, s38: an agent passing it on searched November 2026 for December 2024).
_PHRASE = re.compile(r"(?<!\w)(" + "|".join([_ENGLISH, *map(re.escape, _FOREIGN)]) + r")(?!\w)(?! of\b)")
_CJK = re.compile("|".join(map(re.escape, sorted(CJK_PERIOD_WORDS, key=len, reverse=True))))
# A month named with its year, in the languages month_names.py reads: "August 2026", "agosto de
# 2026", "im März 2024", "juin, 2025" — the month's bound (2026-08). Full names only: a short one
# is a word too often ("mar", "sept"). Was (s40, a Spanish vault): "decisiones de agosto de 2026"
# listed September's and May's notes first and said nothing of --since/--until.
_MONTH_KEYS = {phrase_key(name): number for name, number in MONTH_NAMES.items()}
_MONTH_YEAR = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(_MONTH_KEYS, key=len, reverse=True)))
                         + r"),? (?:(?:de|del|of) )?((?:19|20)[0-9]{2})(?!\w)")
# A day's number before the month: "20 October 2025", "the 20th of October 2025", "15 de marzo de
# 2024", "14. September 2026" name a day (search reads it as one: dating.worded_days_said), not the
# month. Was (review, s42): "what did we plan on 20 October 2025" was told to add --since/--until
# '2025-10', which keeps the whole month.
_DAY_BEFORE = re.compile(r"(?<![\w.])[0-9]{1,2}(?:st|nd|rd|th|er|\.)?,? (?:(?:de|of|the) )?$")


@dataclass(frozen=True)
class QueryPeriod:
    """A period a query's words name: as the query wrote it, and as a bound takes it."""

    said: str  # "last week", "la semaine derniere" (compared as period_words.phrase_key writes it)
    bound: str  # "last week": what since/until read as that period


def period_in_query(query: str) -> QueryPeriod | None:
    """The first period ``query`` names in words, or None."""
    key = phrase_key(query)
    found = _PHRASE.search(key)
    if found is not None:
        said = found.group(1)
        return QueryPeriod(said, PERIOD_WORDS.get(said, said))
    month = next((found for found in _MONTH_YEAR.finditer(key) if _DAY_BEFORE.search(key[:found.start()]) is None), None)
    if month is not None:
        return QueryPeriod(month.group(0), f"{month.group(2)}-{_MONTH_KEYS[month.group(1)]:02d}")
    cjk = _CJK.search(query)
    return None if cjk is None else QueryPeriod(cjk.group(0), CJK_PERIOD_WORDS[cjk.group(0)])


def period_hint(query: str, since: str | None, until: str | None, names: Iterable[str] = ()) -> Spelled | None:
    """A search's warning when its words name a period and it has no date range: those words
    match notes that say them, not notes of that period, and the bounds that would keep those
    notes (each shell spells them: ``--since``, ``since``). None when the search has a range,
    or when the query is one of ``names`` (the hits' titles and file names, compared as names
    are: fields.name_key): "Yesterday" (the Beatles' song) or "Last Week Tonight" asked by name
    got the hint, and an agent following it left the very note out (review, s38)."""
    if since is not None or until is not None:
        return None
    period = period_in_query(query)
    if period is None:
        return None
    # The names after the period: most queries name none, and keying the hits' twenty names
    # cost each of them ~0.1 ms at 10,000 notes for a hint it never gave.
    asked = name_key(query)
    if asked and any(name_key(name) == asked for name in names):
        return None
    bound = f"'{period.bound}'"
    return Spelled(f"the query names a period ({period.bound}), searched as words, not as dates: to keep only the notes "
                   f"dated {period.bound}, add ", Argument("since", bound), " and ", Argument("until", bound))
