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

A weekday with "last", "next" or "this" as each language says it (``vendredi dernier``, ``letzten
Freitag``, ``el viernes pasado``, ``sexta-feira passada``, ``venerdì scorso``: :data:`_WEEKDAY_SAYINGS`)
is the English ``last friday`` … (dating._weekday_said): the nearest such day before today, the
nearest after today, the one of this week. In Portuguese and Italian the words agree with the
day's gender (``sábado passado``, ``domenica scorsa``); Turkish has none (``geçen cuma``,
``önümüzdeki pazartesi``). Russian and Ukrainian decline the day and its adjective by the
day's gender and the phrase's case (``в прошлую пятницу``, ``в прошлый понедельник``; Ukrainian
``минулої п'ятниці``, ``у минулу п'ятницю``): their sayings are spelled out with each day's forms
(:data:`_SLAVIC_DAYS`). Their single words (``вчера``, ``вчора``) are no word of another language
here, so a query's period hint reads them too (:data:`SINGLE_WORDS`).
"""

from __future__ import annotations

import re
import unicodedata

from .month_names import weekday_names

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
_ITALIAN = {
    "oggi": "today", "ieri": "yesterday", "l'altro ieri": "day before yesterday", "l'altroieri": "day before yesterday",
    "domani": "tomorrow", "dopodomani": "day after tomorrow",
    "questa settimana": "this week", "la settimana scorsa": "last week", "settimana scorsa": "last week",
    "la scorsa settimana": "last week", "la settimana prossima": "next week", "settimana prossima": "next week",
    "la prossima settimana": "next week", "prossima settimana": "next week",
    "questo mese": "this month", "il mese scorso": "last month", "mese scorso": "last month",
    "lo scorso mese": "last month", "il mese prossimo": "next month", "il prossimo mese": "next month",
    "quest'anno": "this year", "l'anno scorso": "last year", "anno scorso": "last year",
    "l'anno prossimo": "next year", "il prossimo anno": "next year",
}
# Turkish takes no article and no gender: ``geçen hafta``, ``geçen cuma``. Not here: ``önceki gün``
# ("the day before", of any day), ``haftaya cuma`` (next week's Friday, not the nearest one).
_TURKISH = {
    "bugün": "today", "dün": "yesterday", "evvelsi gün": "day before yesterday", "evvelki gün": "day before yesterday",
    "yarın": "tomorrow", "öbür gün": "day after tomorrow",
    "bu hafta": "this week", "geçen hafta": "last week", "geçtiğimiz hafta": "last week", "gelecek hafta": "next week",
    "önümüzdeki hafta": "next week",
    "bu ay": "this month", "geçen ay": "last month", "geçtiğimiz ay": "last month", "gelecek ay": "next month",
    "önümüzdeki ay": "next month",
    "bu yıl": "this year", "bu sene": "this year", "geçen yıl": "last year", "geçen sene": "last year",
    "gelecek yıl": "next year", "gelecek sene": "next year", "önümüzdeki yıl": "next year", "önümüzdeki sene": "next year",
}
# Polish declines its adjective by the noun's gender and case: ``w zeszłym tygodniu`` ("in last
# week", how it is said), ``zeszły tydzień`` (its name); ``zeszły``, ``ubiegły``, ``poprzedni`` and
# ``miniony`` all say "last", ``przyszły`` and ``następny`` "next". A ``ł`` typed as ``l`` on a keyboard
# without it reads the same (:func:`phrase_key`).
_POLISH_UNITS = (("week", "tydzień", "tygodniu"), ("month", "miesiąc", "miesiącu"), ("year", "rok", "roku"))
_POLISH_WHICH = {"last": ("zeszły", "ubiegły", "poprzedni", "miniony"), "next": ("przyszły", "następny")}


def _polish_periods() -> dict[str, str]:
    """``w zeszłym tygodniu``, ``zeszły tydzień`` → ``last week`` …, and the days of one word."""
    table = {"dziś": "today", "dzisiaj": "today", "wczoraj": "yesterday", "przedwczoraj": "day before yesterday",
             "jutro": "tomorrow", "pojutrze": "day after tomorrow"}
    for unit, nominative, locative in _POLISH_UNITS:
        table[f"w tym {locative}"] = table[f"ten {nominative}"] = f"this {unit}"
        for which, adjectives in _POLISH_WHICH.items():
            for adjective in adjectives:
                table[f"{adjective} {nominative}"] = f"{which} {unit}"
                # zeszły → w zeszłym, poprzedni → w poprzednim: the locative adds -m (-ym after ł/y).
                table[f"w {adjective.removesuffix('y')}ym {locative}" if adjective.endswith("y")
                      else f"w {adjective}m {locative}"] = f"{which} {unit}"
    return table


def _polish_sayings(*adjectives: str) -> tuple[tuple[str, dict[str, str]], ...]:
    """``w zeszły piątek`` / ``w zeszłą środę`` and ``zeszły piątek`` / ``zeszła środa`` for each
    adjective: its feminine drops ``y`` (``zeszły`` → ``zeszłą``) and keeps ``i`` (``ostatni`` → ``ostatnią``)."""
    def feminine(adjective: str, ending: str) -> str:
        return adjective.removesuffix("y") + ending
    return tuple(saying for adjective in adjectives for saying in (
        ("w {a} {acc}", {"m": adjective, "f": feminine(adjective, "ą")}),
        ("{a} {nom}", {"m": adjective, "f": feminine(adjective, "a")})))


_POLISH = _polish_periods()
# A weekday (``{d}``) with last, next or this, per language. ``{o}``, ``{e}``, ``{lo}``, ``{il}``: the
# endings and articles that agree with the day's gender (:data:`_FEMININE`): Portuguese ``passado`` /
# ``passada``, ``este`` / ``esta``; Italian ``scorso`` / ``scorsa``, ``lo scorso`` / ``la scorsa``.
_WEEKDAY_SAYINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "fr": {"last": ("{d} dernier", "{d} passé"), "next": ("{d} prochain",), "this": ("ce {d}", "ce {d}-ci")},
    "es": {"last": ("el {d} pasado", "{d} pasado", "el pasado {d}"),
           "next": ("el próximo {d}", "próximo {d}", "el {d} próximo", "el {d} que viene", "{d} que viene"),
           "this": ("este {d}",)},
    "de": {"last": ("letzten {d}", "letzter {d}", "am letzten {d}", "vorigen {d}", "am vorigen {d}",
                    "vergangenen {d}", "am vergangenen {d}"),
           "next": ("nächsten {d}", "nächster {d}", "am nächsten {d}", "kommenden {d}", "am kommenden {d}"),
           "this": ("diesen {d}", "dieser {d}", "an diesem {d}")},
    "pt": {"last": ("{d} passad{o}", "n{o} {d} passad{o}", "{o} {d} passad{o}"),
           "next": ("próxim{o} {d}", "n{o} próxim{o} {d}", "{o} próxim{o} {d}", "{d} que vem", "n{o} {d} que vem"),
           "this": ("est{e} {d}", "nest{e} {d}")},
    "it": {"last": ("{d} scors{o}", "{lo} scors{o} {d}"), "next": ("{d} prossim{o}", "{il} prossim{o} {d}", "prossim{o} {d}"),
           "this": ("quest{o} {d}",)},
    "tr": {"last": ("geçen {d}", "geçen {d} günü", "geçtiğimiz {d}", "geçtiğimiz {d} günü"),
           "next": ("gelecek {d}", "gelecek {d} günü", "önümüzdeki {d}", "önümüzdeki {d} günü"),
           "this": ("bu {d}", "bu {d} günü")},
}
_RUSSIAN = {
    "сегодня": "today", "вчера": "yesterday", "позавчера": "day before yesterday", "завтра": "tomorrow",
    "послезавтра": "day after tomorrow",
    "на этой неделе": "this week", "эта неделя": "this week", "на прошлой неделе": "last week",
    "прошлая неделя": "last week", "на следующей неделе": "next week", "следующая неделя": "next week",
    "на будущей неделе": "next week",
    "в этом месяце": "this month", "этот месяц": "this month", "в прошлом месяце": "last month",
    "прошлый месяц": "last month", "в следующем месяце": "next month", "следующий месяц": "next month",
    "в этом году": "this year", "этот год": "this year", "в прошлом году": "last year", "прошлый год": "last year",
    "в следующем году": "next year", "следующий год": "next year",
}
_UKRAINIAN = {
    "сьогодні": "today", "вчора": "yesterday", "учора": "yesterday", "позавчора": "day before yesterday",
    "завтра": "tomorrow", "післязавтра": "day after tomorrow",
    "цього тижня": "this week", "цей тиждень": "this week", "на цьому тижні": "this week",
    "минулого тижня": "last week", "минулий тиждень": "last week", "на минулому тижні": "last week",
    "наступного тижня": "next week", "наступний тиждень": "next week", "на наступному тижні": "next week",
    "цього місяця": "this month", "цей місяць": "this month", "минулого місяця": "last month",
    "минулий місяць": "last month", "наступного місяця": "next month", "наступний місяць": "next month",
    "цього року": "this year", "цей рік": "this year", "минулого року": "last year", "минулий рік": "last year",
    "торік": "last year", "наступного року": "next year", "наступний рік": "next year",
}
# Each day Monday first: its gender (m, f, n) and its forms — nominative, accusative, and for
# Ukrainian the genitive (``минулої п'ятниці``: "of last Friday", how Ukrainian says "last Friday").
_SLAVIC_DAYS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "ru": (("m", "понедельник", "понедельник", ""), ("m", "вторник", "вторник", ""), ("f", "среда", "среду", ""),
           ("m", "четверг", "четверг", ""), ("f", "пятница", "пятницу", ""), ("f", "суббота", "субботу", ""),
           ("n", "воскресенье", "воскресенье", "")),
    "uk": (("m", "понеділок", "понеділок", "понеділка"), ("m", "вівторок", "вівторок", "вівторка"),
           ("f", "середа", "середу", "середи"), ("m", "четвер", "четвер", "четверга"),
           ("f", "п'ятниця", "п'ятницю", "п'ятниці"), ("f", "субота", "суботу", "суботи"),
           ("f", "неділя", "неділю", "неділі")),
    "pl": (("m", "poniedziałek", "poniedziałek", ""), ("m", "wtorek", "wtorek", ""), ("f", "środa", "środę", ""),
           ("m", "czwartek", "czwartek", ""), ("m", "piątek", "piątek", ""), ("f", "sobota", "sobotę", ""),
           ("f", "niedziela", "niedzielę", "")),
}
# The sayings: {nom}, {acc}, {gen} the day's forms; the adjective by gender (m, f, n), each case.
_SLAVIC_SAYINGS: dict[str, dict[str, tuple[tuple[str, dict[str, str]], ...]]] = {
    "ru": {
        "last": (("в {a} {acc}", {"m": "прошлый", "f": "прошлую", "n": "прошлое"}),
                 ("{a} {nom}", {"m": "прошлый", "f": "прошлая", "n": "прошлое"}),
                 ("в {a} {acc}", {"m": "прошедший", "f": "прошедшую", "n": "прошедшее"})),
        "next": (("в {a} {acc}", {"m": "следующий", "f": "следующую", "n": "следующее"}),
                 ("{a} {nom}", {"m": "следующий", "f": "следующая", "n": "следующее"}),
                 ("в {a} {acc}", {"m": "будущий", "f": "будущую", "n": "будущее"})),
        "this": (("в {a} {acc}", {"m": "этот", "f": "эту", "n": "это"}),
                 ("{a} {nom}", {"m": "этот", "f": "эта", "n": "это"})),
    },
    "uk": {
        "last": (("{a} {gen}", {"m": "минулого", "f": "минулої"}), ("в {a} {acc}", {"m": "минулий", "f": "минулу"}),
                 ("у {a} {acc}", {"m": "минулий", "f": "минулу"}), ("{a} {nom}", {"m": "минулий", "f": "минула"})),
        "next": (("{a} {gen}", {"m": "наступного", "f": "наступної"}), ("в {a} {acc}", {"m": "наступний", "f": "наступну"}),
                 ("у {a} {acc}", {"m": "наступний", "f": "наступну"}), ("{a} {nom}", {"m": "наступний", "f": "наступна"})),
        "this": (("{a} {gen}", {"m": "цього", "f": "цієї"}), ("в {a} {acc}", {"m": "цей", "f": "цю"}),
                 ("у {a} {acc}", {"m": "цей", "f": "цю"}), ("{a} {nom}", {"m": "цей", "f": "ця"})),
    },
    # Polish: ``w zeszły piątek``, ``w zeszłą środę`` (the accusative), ``zeszły piątek``; ``w tę środę``
    # and the spoken ``w tą środę``.
    "pl": {
        "last": _polish_sayings("zeszły", "ubiegły", "ostatni", "poprzedni", "miniony"),
        "next": _polish_sayings("przyszły", "następny"),
        "this": (("w {a} {acc}", {"m": "ten", "f": "tę"}), ("w {a} {acc}", {"m": "ten", "f": "tą"}),
                 ("{a} {nom}", {"m": "ten", "f": "ta"})),
    },
}
_MASCULINE = {"o": "o", "e": "e", "lo": "lo", "il": "il"}
_FEMININE = {"o": "a", "e": "a", "lo": "la", "il": "la"}
_ENGLISH_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _day_names(language: str) -> list[tuple[str, int, bool]]:
    """Each weekday's name in ``language`` (Portuguese's without ``-feira`` too: ``sexta passada``),
    its day (Monday 0) and whether it is feminine (Portuguese Monday to Friday, Italian Sunday)."""
    named = []
    for day, name in enumerate(weekday_names(language)):
        feminine = (language == "pt" and day < 5) or (language == "it" and day == 6)
        named.append((name, day, feminine))
        if name.endswith("-feira"):
            named.append((name.removesuffix("-feira"), day, feminine))
    return named


def _weekday_table(language: str) -> dict[str, str]:
    """``vendredi dernier`` → ``last friday``, … for every weekday of ``language``."""
    return {saying.format(d=name, **(_FEMININE if feminine else _MASCULINE)): f"{which} {_ENGLISH_WEEKDAYS[day]}"
            for which, sayings in _WEEKDAY_SAYINGS[language].items() for saying in sayings
            for name, day, feminine in _day_names(language)}


def _slavic_weekday_table(language: str) -> dict[str, str]:
    """``в прошлую пятницу`` → ``last friday``, … for every weekday of Russian or Ukrainian."""
    table = {}
    for which, sayings in _SLAVIC_SAYINGS[language].items():
        for saying, adjectives in sayings:
            for day, (gender, nominative, accusative, genitive) in enumerate(_SLAVIC_DAYS[language]):
                phrase = saying.format(a=adjectives[gender], nom=nominative, acc=accusative, gen=genitive)
                table[phrase] = f"{which} {_ENGLISH_WEEKDAYS[day]}"
    return table


LANGUAGES = {"fr": _FRENCH | _weekday_table("fr"), "es": _SPANISH | _weekday_table("es"),
             "de": _GERMAN | _weekday_table("de"), "pt": _PORTUGUESE | _weekday_table("pt"),
             "it": _ITALIAN | _weekday_table("it"), "tr": _TURKISH | _weekday_table("tr"),
             "ru": _RUSSIAN | _slavic_weekday_table("ru"), "uk": _UKRAINIAN | _slavic_weekday_table("uk"),
             "pl": _POLISH | _slavic_weekday_table("pl")}
_GAP = re.compile(r"[\s_-]+")


def phrase_key(text: str) -> str:
    """``text`` as phrases are compared: case folded, accents off, ``-``/``_``/spaces as one space,
    a typographic apostrophe as ``'``."""
    # Turkish's dotless ı as i: `SALI` folds to `sali`, and a keyboard without ı types `sali` for `salı`.
    # Ukrainian's apostrophe as its keyboards type it (ʼ, U+02BC) too: п'ятниця, пʼятниця, п’ятниця are one word.
    decomposed = unicodedata.normalize("NFD", text.casefold().replace("’", "'").replace("ʼ", "'").replace("ı", "i").replace("ł", "l"))
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
# Single words of a period that are no other language's word here (Cyrillic: ``вчера``, ``вчора``):
# a query's period hint reads them, as it reads phrases (query_periods.py). ``hier`` or ``morgen``
# are not: French yesterday is German here, German tomorrow is morning.
# Polish's ``wczoraj``, ``przedwczoraj``, ``pojutrze`` are no word of another language either; its
# ``jutro`` and ``dziś`` are left out (``jutro`` is a name, a Croatian "morning" in a mixed vault).
SINGLE_WORDS = frozenset(phrase_key(phrase) for table in (_RUSSIAN, _UKRAINIAN) for phrase in table if " " not in phrase) | {
    "wczoraj", "przedwczoraj", "pojutrze"}


def period_in_english(text: str) -> str | None:
    """The English words of the period ``text`` says in one of :data:`LANGUAGES`, or None."""
    return PERIOD_WORDS.get(phrase_key(text))
