"""Month and weekday names as moment.js writes them, in English and nine other languages (pure).

Obsidian names daily notes with moment.js in the language Obsidian is set to (Settings →
General → Language), which it keeps outside the vault: a German Obsidian writes ``dddd,
D. MMMM YYYY`` as ``Freitag, 15. März 2024``. vaultmem cannot tell which language wrote a
vault, so it reads the names of every language below at once. That is safe because no
name means two different months in two of them (``mar`` is March in English and Spanish,
``mai`` May in German and French), and weekdays are matched, never read as a day.

The names are moment's own locale data (``moment/locale/de.js``, ``fr.js``, ``es.js``,
``ru.js``, ``uk.js``, ``tr.js``, ``pt-br.js`` and ``pt.js``, ``it.js``, ``pl.js``), exactly as written: ``Okt.`` with its dot, French ``sept.``; Spanish writes its short
months without the dot in formats such as ``DD-MMM-YYYY``, so both are listed; Russian writes a
month after a day in the genitive (``15 марта``) and alone in the nominative (``март``), so both
are listed too, and so does Ukrainian (``1 травня``, ``травень``) and Polish (``15 marca``, ``marzec``); Turkish ``Mar`` and ``May`` are
March and May, as in English; Portuguese and Italian ``set`` is September, as Italian ``marzo``
is Spanish's March. Those two languages' short names that are English words (``set``, ``out``,
``gen``, ``mag``, ``sex``, and Polish ``sty``, ``lip``, ``sob``, ``sie``: :data:`ENGLISH_WORD_NAMES`) are read only in the vault's daily-note
format. Only these nine languages besides English, each checked against moment's files:
a language added here is a promise that its names date notes (adr/0026).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

# Each language: (months, short months, weekdays, short weekdays, shortest weekdays), Sunday first.
_LOCALES: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December"),
           ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
           ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
           ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"),
           ("Su", "Mo", "Tu", "We", "Th", "Fr", "Sa")),
    "de": (("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
            "November", "Dezember"),
           ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sep.", "Okt.", "Nov.", "Dez."),
           ("Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"),
           ("So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."),
           ("So", "Mo", "Di", "Mi", "Do", "Fr", "Sa")),
    "fr": (("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre"),
           ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
           ("dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"),
           ("dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."),
           ("di", "lu", "ma", "me", "je", "ve", "sa")),
    "es": (("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
            "noviembre", "diciembre"),
           ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sep.", "oct.", "nov.", "dic.",
            "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"),
           ("domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"),
           ("dom.", "lun.", "mar.", "mié.", "jue.", "vie.", "sáb."),
           ("do", "lu", "ma", "mi", "ju", "vi", "sá")),
    # moment's ru.js writes a month in the genitive after a day ("format": 15 марта 2024) and in the
    # nominative alone ("standalone": март 2024), a weekday in the accusative after "в" (format).
    # Its short months are written with dots (февр., сент.) by the moment Obsidian ships; older
    # releases wrote them without (фев, сен), and vaults keep the notes those named.
    "ru": (("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
            "ноября", "декабря",
            "январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь",
            "ноябрь", "декабрь"),
           ("янв.", "февр.", "мар.", "апр.", "мая", "июня", "июля", "авг.", "сент.", "окт.", "нояб.", "дек.",
            "янв.", "февр.", "март", "апр.", "май", "июнь", "июль", "авг.", "сент.", "окт.", "нояб.", "дек.",
            "янв", "фев", "мар", "апр", "мая", "июня", "июля", "авг", "сен", "окт", "ноя", "дек",
            "янв", "фев", "март", "апр", "май", "июнь", "июль", "авг", "сен", "окт", "ноя", "дек"),
           ("воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота",
            "воскресенье", "понедельник", "вторник", "среду", "четверг", "пятницу", "субботу"),
           ("вс", "пн", "вт", "ср", "чт", "пт", "сб"),
           ("вс", "пн", "вт", "ср", "чт", "пт", "сб")),
    # moment's uk.js, as the ru entry: a month in the genitive after a day (1 травня 2024), in the
    # nominative alone (травень 2024); a weekday in the nominative, accusative or genitive. No
    # name is a Russian month's (листопад is November, not "leaf fall"), so reading both is safe.
    "uk": (("січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня", "вересня", "жовтня",
            "листопада", "грудня",
            "січень", "лютий", "березень", "квітень", "травень", "червень", "липень", "серпень", "вересень",
            "жовтень", "листопад", "грудень"),
           ("січ", "лют", "бер", "квіт", "трав", "черв", "лип", "серп", "вер", "жовт", "лист", "груд"),
           ("неділя", "понеділок", "вівторок", "середа", "четвер", "п’ятниця", "субота",
            "неділю", "понеділок", "вівторок", "середу", "четвер", "п’ятницю", "суботу",
            "неділі", "понеділка", "вівторка", "середи", "четверга", "п’ятниці", "суботи"),
           ("нд", "пн", "вт", "ср", "чт", "пт", "сб"),
           ("нд", "пн", "вт", "ср", "чт", "пт", "сб")),
    # moment's tr.js. Its dotless ı stays as written: a file named KASIM or Kasim is matched by the
    # case-insensitive pattern named_month falls back to (Python pairs ı, I, i and İ there).
    "tr": (("Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım",
            "Aralık"),
           ("Oca", "Şub", "Mar", "Nis", "May", "Haz", "Tem", "Ağu", "Eyl", "Eki", "Kas", "Ara"),
           ("Pazar", "Pazartesi", "Salı", "Çarşamba", "Perşembe", "Cuma", "Cumartesi"),
           ("Paz", "Pts", "Sal", "Çar", "Per", "Cum", "Cts"),
           ("Pz", "Pt", "Sa", "Ça", "Pe", "Cu", "Ct")),
    # moment's pt-br.js and pt.js: the same names, in lower case (pt-br) or capitalised (older pt,
    # which also wrote Dom and Sáb as its shortest weekdays). A weekday's "-feira" is part of its
    # name (only_calendar_words reads "sexta-feira" as one word).
    "pt": (("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
            "novembro", "dezembro"),
           ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"),
           ("domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"),
           ("dom", "seg", "ter", "qua", "qui", "sex", "sáb"),
           ("do", "2ª", "3ª", "4ª", "5ª", "6ª", "sá", "dom", "sáb")),
    # moment's pl.js, as the ru entry: a month in the genitive after a day (15 marca 2024, its
    # "D MMMM" test), in the nominative alone (marzec 2024); weekdays as its current release writes
    # them (ndz, sob: older ones wrote nie, sb). No name is another language's other month: mar is
    # March, maj May, listopad November as in Ukrainian. Its short sty, lip, sob and sie are English
    # and German words (ENGLISH_WORD_NAMES), read only where the daily-note format puts them (s41).
    "pl": (("stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
            "października", "listopada", "grudnia",
            "styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień",
            "październik", "listopad", "grudzień"),
           ("sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"),
           ("niedziela", "poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"),
           ("ndz", "pon", "wt", "śr", "czw", "pt", "sob"),
           ("Nd", "Pn", "Wt", "Śr", "Cz", "Pt", "So")),
    # moment's it.js (weekdays capitalised by older releases).
    "it": (("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
            "novembre", "dicembre"),
           ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
           ("domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"),
           ("dom", "lun", "mar", "mer", "gio", "ven", "sab"),
           ("do", "lu", "ma", "me", "gi", "ve", "sa")),
}
# Short names of those languages that are English words of their own: "Set 3 2024", "Gen 9
# 2024", "Mag 7 2024", "Season 2 out 2025", "2024-03-15 sex". They are read where the vault's
# daily-note format says a month or weekday stands there (daily_format.py's MMM and ddd), never
# in a name, a property or a bound read without it (dating._MONTHS, only_calendar_words): an
# English note must not be dated, nor taken for a day's own note, by a Portuguese or Italian
# word. (English's own Mar and May, and Spanish ago, were read so before these languages came.)
# Polish's sty, lip, sob (English words) and sie (German's "she", "they") are read so too.
ENGLISH_WORD_NAMES = frozenset({"set", "out", "gen", "mag", "sex", "sty", "lip", "sie", "sob"})


def _key(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def month_spellings(part: int) -> list[tuple[str, int]]:
    """Each month name of that part (0: full, 1: short) in every language, with its number."""
    return [(name, index % 12 + 1) for locale in _LOCALES.values() for index, name in enumerate(locale[part])]


def _months(part: int) -> dict[str, int]:
    return {_key(name): number for name, number in month_spellings(part)}


MONTH_NAMES = _months(0)  # "märz" → 3: what MMMM writes, in any case
SHORT_MONTH_NAMES = _months(1)  # "okt." → 10: what MMM writes


def _weekdays(part: int) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for locale in _LOCALES.values() for name in locale[part]))


WEEKDAY_NAMES = _weekdays(2)  # what dddd writes
SHORT_WEEKDAY_NAMES = _weekdays(3)  # ddd
SHORTEST_WEEKDAY_NAMES = _weekdays(4)  # dd


def _weekday_days() -> dict[str, frozenset[int]]:
    """Each full or short weekday name (casefolded, without its dot) → the days of the week it
    is (Monday 0, as ``date.weekday`` counts): a set, as a name could be two languages' days.
    Sunday first in each list, several cases in turn (ru, uk): the place modulo 7 is the day.
    Not the shortest names (``do`` is Thursday in German and Sunday in Spanish; Portuguese's list
    of them is not one per day) nor a short name that is an English word (``sex``)."""
    days: dict[str, set[int]] = {}
    for locale in _LOCALES.values():
        for names in locale[2:4]:
            for index, name in enumerate(names):
                key = _key(name).rstrip(".")
                if key not in ENGLISH_WORD_NAMES:
                    days.setdefault(key, set()).add((index - 1) % 7)
    return {name: frozenset(numbers) for name, numbers in days.items()}


WEEKDAY_DAYS = _weekday_days()  # "lundi" → {0}, "mar" → {1} (Tuesday's short name in French, Spanish, Italian)


def _full_weekdays() -> dict[str, int]:
    """Each full weekday name (dddd, casefolded) → its day (Monday 0); a name two languages give
    two days would be left out (none is: ``domingo`` is Sunday in Spanish and Portuguese)."""
    days: dict[str, set[int]] = {}
    for locale in _LOCALES.values():
        for index, name in enumerate(locale[2]):
            days.setdefault(_key(name), set()).add((index - 1) % 7)
    return {name: next(iter(numbers)) for name, numbers in days.items() if len(numbers) == 1}


FULL_WEEKDAYS = _full_weekdays()  # "vendredi" → 4, "viernes" → 4, "freitag" → 4, "пятницу" → 4


def full_weekday(name: str) -> int | None:
    """The day of the week (Monday 0) a full weekday name is in any language here (``Friday``,
    ``vendredi``, ``viernes``, ``Freitag``, ``sexta-feira``), in any case; None for any other word,
    a short name too (``sat``, ``mar``, ``per`` are words of their own)."""
    return FULL_WEEKDAYS.get(_key(name))


def weekday_names(language: str) -> tuple[str, ...]:
    """A language's full weekday names as moment writes them (``dddd``), Monday first, as
    ``date.weekday`` counts: what period_words.py puts ``last``/``next``/``this`` beside."""
    names = _LOCALES[language][2][:7]
    return (*names[1:], names[0])


def weekday_days(name: str) -> frozenset[int] | None:
    """The days of the week a weekday's name (``lundi``, ``Freitag``, ``lun.``, ``Cuma``) is, in
    any case; None when it names none."""
    return WEEKDAY_DAYS.get(_key(name).rstrip("."))


def _unaccented(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", _key(name)) if not unicodedata.combining(c))


# A month name written without its accents (fevrier, aout, decembre, marz, subat) → as moment writes
# it: a refused bound suggests it (names are read as written, adr/0026). Latin letters only.
_ACCENTED_MONTHS = {_unaccented(name): name for part in (0, 1) for name, _ in month_spellings(part)
                    if _unaccented(name) != _key(name) and _unaccented(name).isascii()
                    and _key(name).rstrip(".") not in ENGLISH_WORD_NAMES}


def accented_month(word: str) -> str | None:
    """The month name ``word`` is once its accents are put back (``fevrier`` → ``février``,
    ``aout`` → ``août``), when it is none as written; else None."""
    return _ACCENTED_MONTHS.get(_key(word)) if _key(word) not in MONTH_NAMES else None


def month_number(name: str) -> int | None:
    """The month a name written by MMMM or MMM is (``Oktober``, ``okt.``, ``mars``), if any."""
    return named_month(name, MONTH_NAMES) or named_month(name, SHORT_MONTH_NAMES)


def named_month(text: str, names: Mapping[str, int]) -> int | None:
    """The month of ``names`` (casefolded name → number) that ``text`` is in any case, as a
    case-insensitive pattern of those names matches it. Python's patterns pair letters that
    casefold does not (a dotless ``ı`` or ``İ`` with ``i``): a file named ``4 Julı 2024.md``
    matched the month pattern, missed the table, and every command that read it stopped
    with a traceback (KeyError)."""
    found = names.get(_key(text))
    if found is None:
        found = next((number for name, number in names.items() if re.fullmatch(re.escape(name), text, re.IGNORECASE)), None)
    return found


_CALENDAR_WORDS = frozenset({*MONTH_NAMES, *(name.rstrip(".") for name in SHORT_MONTH_NAMES),
                             *(_key(name).rstrip(".") for name in (*WEEKDAY_NAMES, *SHORT_WEEKDAY_NAMES)),
                             "st", "nd", "rd", "th", "er", "º", "de", "del", "年", "月", "日", "년", "월", "일"}) - ENGLISH_WORD_NAMES
# A word: a run of letters, or several joined by hyphens (Portuguese "sexta-feira" is one name).
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def only_calendar_words(text: str) -> bool:
    """Are the words of ``text`` (its runs of letters) all names of months or weekdays, a
    day's ordinal ending or the "de" Portuguese and Spanish write between a day, its month and its
    year (``May 16th, 2022``, ``Montag, 16. Mai 2022``, ``sexta-feira, 15 de março de 2024``,
    ``2022年5月16日``)? A name
    such as ``2022-05-16 Budget`` holds a word of its own, and so does ``2022-05-16 out``: a
    short name that is an English word (:data:`ENGLISH_WORD_NAMES`) is no calendar word here."""
    return all(_key(word) in _CALENDAR_WORDS for word in _WORD.findall(text))

