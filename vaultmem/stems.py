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
from collections import Counter
from typing import TYPE_CHECKING

from .cjk import fts_form

if TYPE_CHECKING:
    from snowballstemmer.basestemmer import BaseStemmer  # type: ignore[import-untyped]

# The languages a note's words are stemmed in (Snowball's names), each told by its commonest
# words below (Russian by its script). Not Ukrainian (no Snowball stemmer), nor Turkish (its
# endings are asked for by their first letters: endings.prefix_of).
STEMMED = ("russian", "german", "french", "spanish", "portuguese", "italian", "dutch")
# The commonest words of each language written in Latin letters, English's too: a note is in
# the language whose words it holds most of. A word several languages write (de, la, en, a, e)
# counts for each of them; the others tell them apart.
_COMMON = {
    "english": "the and is of to in that it for on with as are was this be by not or from have you",
    "german": "der die das und ist nicht ich sie es ein eine zu mit auf für den dem des von sich auch wird sind bei oder wenn wir",
    "french": "le la les et est des une un du dans pour que qui pas sur avec ce il sont au aux par ne se nous",
    "spanish": "el la los las y es del en que un una por con para se no lo su al como más pero está son",
    "portuguese": "o a os as e é do da dos das em um uma para com não que se na no por mais são você",
    "italian": "il la lo gli le e è di del della che un una per con non si in sono anche nel alla",
    "dutch": "de het een en is van dat die niet op te zijn met voor er maar ook als aan wordt",
}
_COMMON_WORDS = {language: frozenset(words.split()) for language, words in _COMMON.items()}
_WORD = re.compile(r"[^\W\d_]+")
_CYRILLIC = re.compile("[а-яё]")
_UKRAINIAN = re.compile("[іїєґ]")
LANGUAGE_SAMPLE = 3000  # characters of a note read to tell its language: its opening says it
MIN_COMMON = 3  # common words a note must hold to be told apart from a list of names or numbers


def note_language(text: str) -> str | None:
    """The language of :data:`STEMMED` ``text`` is written in, or None: English, another
    language, or too few words to tell (a title, a list of links). Russian by its letters
    (not Ukrainian, whose own letters say it); a language of Latin letters by its common words,
    when it holds more of them than of English's and at least :data:`MIN_COMMON`."""
    sample = text[:LANGUAGE_SAMPLE].lower()
    words = _WORD.findall(sample)
    if not words:
        return None
    cyrillic = len(_CYRILLIC.findall(sample))
    if cyrillic * 2 > sum(len(word) for word in words):
        return None if len(_UKRAINIAN.findall(sample)) * 50 > cyrillic else "russian"
    counts = Counter(language for word in words for language, common in _COMMON_WORDS.items() if word in common)
    if not counts:
        return None
    language, held = max(counts.items(), key=lambda item: (item[1], item[0] == "english"))
    if language == "english" or held < MIN_COMMON:
        return None
    return language


@functools.cache
def _stemmer(language: str) -> BaseStemmer:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer(language)


# Written before every stem in the full text: a query's words as typed then never match a stem
# (``transistor`` of an English question is not the German stem of ``Transistoren``), so a query
# the vault holds whole is scored as it was without stems, to the digit. No one types it.
STEM_MARK = "0s"


@functools.lru_cache(maxsize=200_000)
def stem(word: str, language: str) -> str:
    """A lower-case word's Snowball stem in ``language``, as the full text holds it (fts_form,
    after :data:`STEM_MARK`): ``системы`` and ``система`` are ``0sсистем``, ``Kondensatoren``
    ``0skondensator``."""
    found = str(_stemmer(language).stemWord(word))
    return f"{STEM_MARK}{fts_form(found)}" if found else ""


def stemmed(text: str, language: str) -> str:
    """The stems of ``text``'s words, in order, one space apart (numbers left out: they have
    no endings, and the other columns hold them)."""
    return " ".join(stem(word, language) for word in _WORD.findall(text.lower()))
