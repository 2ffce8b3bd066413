"""A note's language, and the Snowball stems of its words (pure). See adr/0027, "Stems".

The full text stems English only (FTS5's ``porter``): a Russian vault asked ``системы`` did not
find the note saying ``система``, nor German ``Kondensatoren`` the note saying ``Kondensator``.
A note written in one of :data:`STEMMED` (told by :func:`note_language`) also gets the Snowball
stems of its words (:func:`stemmed`) in a full-text column of their own, and a query that is
not English asks for its words' stems in the languages the vault's notes are written in
(search.query_words). English notes get no stems and cost one scan of their opening words.

Snowball (``snowballstemmer``, pure Python, Sphinx's stemmer) stems a word in about 20 µs; a
word is stemmed once per process and language (:func:`stem`), so a vault costs its vocabulary.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter
from typing import TYPE_CHECKING

from .cjk import fts_form
from .marks import HEBREW_PREFIXES

if TYPE_CHECKING:
    from snowballstemmer.basestemmer import BaseStemmer  # type: ignore[import-untyped]

# The languages a note's words are stemmed in (Snowball's names), each told by its commonest
# words below (Russian and Hebrew by their script). Not Ukrainian (no Snowball stemmer), nor
# Turkish (its endings are asked for by their first letters: endings.prefix_of). Hebrew has no
# Snowball stemmer either: its "stems" are a word without the letters before it (hebrew_forms).
STEMMED = ("russian", "german", "french", "spanish", "portuguese", "italian", "dutch", "hebrew")
# The commonest words of each language written in Latin letters, English's too: a note is in
# the language whose words it holds most of. A word several of them write (de, la, en, e) counts
# for each; the others tell them apart.
_COMMON = {
    "english": "the and is of to in that it for on with as are was this be by not or from have you",
    "german": "der die das und ist nicht ich sie es ein eine zu mit auf für den dem des von sich auch wird sind bei oder wenn wir",
    "french": "le la les et est des une un du dans pour que qui pas sur avec ce il sont au aux par ne se nous",
    "spanish": "el la los las y es del en que un una por con para se no lo su al como más pero está son",
    "portuguese": "o a os as e é do da dos das em um uma para com não que se na no por mais são você",
    "italian": "il la lo gli le e è di del della che un una per con non si in sono anche nel alla",
    "dutch": "de het een en is van dat die niet op te zijn met voor er maar ook als aan wordt",
}


@functools.cache
def _languages_of_words() -> dict[str, tuple[str, ...]]:
    """Each common word → the languages it is common in; English's with its stopwords
    (fields.ENGLISH_STOPWORDS). A word that is also English's ("a", "do", "no", "in") tells no
    other language: "I really need a holiday. Even a long weekend would do." was read as
    Portuguese by its "a", "a" and "do". One look-up a word of a note: most are none of these."""
    from .fields import ENGLISH_STOPWORDS  # fields reads a note's language from here

    english = frozenset(_COMMON["english"].split()) | ENGLISH_STOPWORDS
    found: dict[str, list[str]] = {word: ["english"] for word in english}
    for language, words in _COMMON.items():
        for word in frozenset(words.split()) - english if language != "english" else ():
            found.setdefault(word, []).append(language)
    return {word: tuple(languages) for word, languages in found.items()}


_WORD = re.compile(r"[^\W\d_]+")
_ENGLISH_MARKS = (" the ", " and ", " of ", " to ", " is ")
_SIGNS_TO_SPACES = str.maketrans(dict.fromkeys("!\"#$%&()*+,-./0123456789:;<=>?@[\\]^_`{|}~«»„“”–—…’'", " "))
_CYRILLIC = re.compile("[а-яё]")
_UKRAINIAN = re.compile("[іїєґ]")
_HEBREW_LETTER = re.compile("[\u05d0-\u05ea]")
# Hebrew writes and, that, the, in, as, to, from as one letter before the word (והים, "and the
# sea"; הקידוש, "the kiddush"), up to three of them: no Snowball stemmer takes them off. A note's
# Hebrew word is held without them too (``ים``, ``קידוש``), as long as two letters are left; a
# query's word is asked for as typed (:func:`stem`), so only the note's side guesses.
_HEBREW_PREFIXES_AT_MOST = 3
LANGUAGE_SAMPLE = 1000  # characters of a note read to tell its language: its opening says it (and each costs)
MIN_COMMON = 3  # different common words a note must hold to be told apart from a list of names or numbers


def note_language(text: str) -> str | None:
    """The language of :data:`STEMMED` ``text`` is written in, or None: English, another
    language, or too few words to tell (a title, a list of links). Russian by its letters
    (not Ukrainian, whose own letters say it); a language of Latin letters by its common words,
    when it holds more of them than of English's, and at least :data:`MIN_COMMON` different ones."""
    sample = text[:LANGUAGE_SAMPLE].lower()
    marks = 0
    for word in _ENGLISH_MARKS:
        marks += sample.count(word)
        if marks >= MIN_COMMON:
            return None  # English, told in a few µs: most notes of most vaults are, and each is asked
    # Split at spaces and ASCII signs, not by a regular expression: this runs for every note of
    # every vault, and a regular expression's words cost an English note 70 µs of its 110.
    words = sample.translate(_SIGNS_TO_SPACES).split()
    if not words:
        return None
    if not sample.isascii():
        cyrillic = len(_CYRILLIC.findall(sample))
        if cyrillic * 2 > sum(len(word) for word in words):
            return None if len(_UKRAINIAN.findall(sample)) * 50 > cyrillic else "russian"
        if len(_HEBREW_LETTER.findall(sample)) * 2 > sum(len(word) for word in words):
            return "hebrew"
    table = _languages_of_words()
    common = [word for word in words if word in table]
    counts = Counter(language for word in common for language in table[word])
    if not counts:
        return None
    language, _ = max(counts.items(), key=lambda item: (item[1], item[0] == "english"))
    distinct = {word for word in common if language in table[word]}
    return None if language == "english" or len(distinct) < MIN_COMMON else language


_THREADS = threading.local()


def _stemmer(language: str) -> BaseStemmer:
    """This thread's stemmer for ``language``. A Snowball stemmer holds the word it is stemming
    (``set_current``, ``_stem``, ``get_current``): one shared by an MCP server's search threads
    and its watcher's reconcile (or the index's worker thread) could hand one thread the stem of
    another's word, and the full text would hold it (a review)."""
    import snowballstemmer  # type: ignore[import-untyped]

    made: dict[str, BaseStemmer] = _THREADS.__dict__.setdefault("stemmers", {})
    if language not in made:
        made[language] = snowballstemmer.stemmer(language)
    return made[language]


# Written before every stem in the full text: a query's words as typed then never match a stem
# (``transistor`` of an English question is not the German stem of ``Transistoren``), so a query
# the vault holds whole is scored as it was without stems, to the digit. No one types it.
STEM_MARK = "0s"


@functools.lru_cache(maxsize=200_000)
def stem(word: str, language: str) -> str:
    """A lower-case word's Snowball stem in ``language``, as the full text holds it (fts_form,
    after :data:`STEM_MARK`): ``системы`` and ``система`` are ``0sсистем``, ``Kondensatoren``
    ``0skondensator``."""
    if language == "hebrew":  # the word as typed, which the note's word without its prefix letters is
        return f"{STEM_MARK}{fts_form(word)}"
    found = str(_stemmer(language).stemWord(word))
    return f"{STEM_MARK}{fts_form(found)}" if found else ""


def stemmed(text: str, language: str) -> str:
    """The stems of ``text``'s words, in order, one space apart (numbers left out: they have
    no endings, and the other columns hold them); in Hebrew, each word and the word without the
    letters before it that say and, the, in, to … (:func:`hebrew_forms`)."""
    if language == "hebrew":
        return " ".join(f"{STEM_MARK}{form}" for word in _WORD.findall(fts_form(text)) for form in hebrew_forms(word))
    return " ".join(stem(word, language) for word in _WORD.findall(text.lower()))


def hebrew_forms(word: str) -> list[str]:
    """A Hebrew word (without its points) and the word without one, two or three of the letters
    that say and, that, the, in, as, to, from before it, each leaving two letters or more:
    ``והים`` → ``והים``, ``הים``, ``ים``."""
    forms = [word]
    for cut in range(1, _HEBREW_PREFIXES_AT_MOST + 1):
        if len(word) - cut < 2 or word[cut - 1] not in HEBREW_PREFIXES:
            break
        forms.append(word[cut:])
    return forms
