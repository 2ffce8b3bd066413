"""Periods said in words relative to today, in the languages month_names.py reads (pure).

An agent passes on what the person said: ``--since hier``, ``since: "la semana pasada"``,
``tareas para mañana``. Each table below is one language's words for the periods a bound reads
in English (dating._DAY_WORDS, ``this``/``last``/``next`` ``week``/``month``/``year``), mapped to
those English words: the same calendar, the same week start. A phrase is compared as
:func:`phrase_key` writes it: case folded, without accents, ``-``, ``_`` and spaces as one
space (``Avant-hier``, ``la semaine derniere``, ``Nächste Woche``, ``proximo mes``). Only phrases
that name one period and nothing else are here: ``récemment``, ``neulich`` ("lately") are no
period, and stay refused. No phrase means two periods in two languages (:data:`PERIOD_WORDS` is
checked at import), so every table is read at once, as month names are (adr/0026).
"""

from __future__ import annotations

import re
import unicodedata

_FRENCH = {
    "aujourd'hui": "today", "hier": "yesterday", "avant-hier": "day before yesterday", "demain": "tomorrow",
    "après-demain": "day after tomorrow",
    "cette semaine": "this week", "la semaine dernière": "last week", "semaine dernière": "last week",
    "la semaine passée": "last week", "la semaine prochaine": "next week", "semaine prochaine": "next week",
    "ce mois-ci": "this month", "ce mois": "this month", "le mois dernier": "last month", "mois dernier": "last month",
    "le mois passé": "last month", "le mois prochain": "next month", "mois prochain": "next month",
    "cette année": "this year", "l'année dernière": "last year", "l'an dernier": "last year",
    "l'année passée": "last year", "l'année prochaine": "next year", "l'an prochain": "next year",
}
_SPANISH = {
    "hoy": "today", "ayer": "yesterday", "anteayer": "day before yesterday", "antier": "day before yesterday",
    "antes de ayer": "day before yesterday", "mañana": "tomorrow", "pasado mañana": "day after tomorrow",
    "esta semana": "this week", "la semana pasada": "last week", "semana pasada": "last week",
    "la próxima semana": "next week", "próxima semana": "next week", "la semana que viene": "next week",
    "la semana próxima": "next week",
    "este mes": "this month", "el mes pasado": "last month", "mes pasado": "last month",
    "el próximo mes": "next month", "próximo mes": "next month", "el mes que viene": "next month",
    "este año": "this year", "el año pasado": "last year", "año pasado": "last year",
    "el próximo año": "next year", "el año que viene": "next year",
}
_GERMAN = {
    "heute": "today", "gestern": "yesterday", "vorgestern": "day before yesterday", "morgen": "tomorrow",
    "übermorgen": "day after tomorrow",
    "diese woche": "this week", "letzte woche": "last week", "vorige woche": "last week",
    "vergangene woche": "last week", "nächste woche": "next week", "kommende woche": "next week",
    "diesen monat": "this month", "dieser monat": "this month", "letzten monat": "last month",
    "letzter monat": "last month", "vorigen monat": "last month", "nächsten monat": "next month",
    "nächster monat": "next month",
    "dieses jahr": "this year", "letztes jahr": "last year", "voriges jahr": "last year",
    "nächstes jahr": "next year",
}
_PORTUGUESE = {
    "hoje": "today", "ontem": "yesterday", "anteontem": "day before yesterday", "amanhã": "tomorrow",
    "depois de amanhã": "day after tomorrow",
    "esta semana": "this week", "semana passada": "last week", "a semana passada": "last week",
    "na semana passada": "last week", "próxima semana": "next week", "a próxima semana": "next week",
    "na próxima semana": "next week",
    "este mês": "this month", "mês passado": "last month", "o mês passado": "last month",
    "no mês passado": "last month", "próximo mês": "next month", "o próximo mês": "next month",
    "este ano": "this year", "ano passado": "last year", "o ano passado": "last year",
    "no ano passado": "last year", "próximo ano": "next year", "o próximo ano": "next year",
}
LANGUAGES = {"fr": _FRENCH, "es": _SPANISH, "de": _GERMAN, "pt": _PORTUGUESE}
_GAP = re.compile(r"[\s_-]+")


def phrase_key(text: str) -> str:
    """``text`` as phrases are compared: case folded, accents off, ``-``/``_``/spaces as one space,
    a typographic apostrophe as ``'``."""
    decomposed = unicodedata.normalize("NFD", text.casefold().replace("’", "'"))
    return _GAP.sub(" ", "".join(char for char in decomposed if not unicodedata.combining(char))).strip()


def _merged() -> dict[str, str]:
    merged: dict[str, str] = {}
    for language, table in LANGUAGES.items():
        for phrase, period in table.items():
            key = phrase_key(phrase)
            if merged.setdefault(key, period) != period:  # este ano (pt) and este año (es) agree; none may not
                raise AssertionError(f"{phrase!r} ({language}) names {period!r} and {merged[key]!r}")
    return merged


PERIOD_WORDS = _merged()  # "la semaine derniere" → "last week", "vorgestern" → "day before yesterday"


def period_in_english(text: str) -> str | None:
    """The English words of the period ``text`` says in one of :data:`LANGUAGES`, or None."""
    return PERIOD_WORDS.get(phrase_key(text))
