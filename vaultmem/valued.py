"""Which notes carry a property value the query names (pure): the property bonus of adr/0004.

A question that names a value of a note's property — "what did Ben plan to do in Mexico
City" of turns that carry ``speaker: Ben``, "the 1957 jazz record" of a reference with
``genre: Jazz``, "people in my notes who are authors" of ``type: authors`` — is asking about
the notes that carry it. Both sides already see the value (it is in every full-text row's
``props`` and in the first passage's vector), but as one word among the question's: a value
every turn of one person carries has a low IDF, and the vector of a short greeting that says
the name stands as near. ranking.fuse lifts such notes by a small fixed amount instead
(ranking.PROPERTY_BONUS; measured: benchmarks/PASSAGES.md §21).

A value is named when its words, folded as names are (fields.name_fold), are a run of the
query's words, both without diacritics. A value of one letter or one stopword names nothing
(``grade: a`` is not asked by "is it a plan"). Each item of a list property is a value
of its own (the props text joins them with ", ").

Chinese, Japanese and Korean are read as the full text reads them (cjk.py): each character a
word of its own, traditional characters in their simplified forms. ``作者: 村上春树`` is named by
"村上春树的小说", though the question writes no space after the name (``村上春樹`` by it too), and
``참석자: 김민수`` by "김민수와의 회의" (a Korean word carries its particles). A value of one such
character names nothing (``类型: 书``), as one letter does not.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping

from .cjk import han_folded, spaced
from .combining import COMBINING, VIRAMAS
from .fields import STOPWORDS, name_fold
from .marks import marks_folded

# A letter, digit or combining mark: a Hindi vowel sign is part of its word (``सीटी`` is not
# ``सिटी``), as the full text reads it since storage m018 (combining.py).
_LETTER = rf"(?:[^\W_]|[{COMBINING}])"
_WORD = re.compile(rf"{_LETTER}+(?:'{_LETTER}+)*")
_POSSESSIVE = re.compile(r"(?<=[^\W_])'s$")  # "Caroline's plans" names Caroline, as search.query_words reads it
_ITEM_SEPARATOR = ", "  # fields.property_texts joins a list's items so
MIN_VALUE_CHARACTERS = 2
FOLDED_PROPERTIES_CACHED = 8192  # distinct props texts kept folded (a few MB at most)


def folded_words(text: str) -> str:
    """``text``'s words, folded as names are and without their diacritics (as the full-text
    tokenizer reads them: "Sao Paulo" finds "São Paulo"), joined by single spaces: a word keeps
    its vowel signs and viramas (Hindi ``सीटी``, not ``स ट``), either apostrophe is ``'``, a
    possessive's ``'s`` is dropped ("Caroline's plans" names ``Caroline``), and each Chinese,
    Japanese or Korean character is a word (``村上春树的`` → ``村 上 春 树 的``, simplified): a
    question runs a name into the words after it."""
    decomposed = unicodedata.normalize("NFKD", marks_folded(name_fold(spaced(han_folded(text)))).replace("’", "'"))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char) or char in VIRAMAS)
    # Composed again: NFKD spells a Hangul syllable as two or three jamo (김 = ᄀ ᅵ ᆷ), which no mark
    # removal joins, and counted so a one-syllable value (`이름: 김`) was long enough to be named —
    # by every question holding the syllable, each syllable being a word of its own.
    return " ".join(_POSSESSIVE.sub("", word.lower()) for word in _WORD.findall(unicodedata.normalize("NFC", bare)))


@functools.lru_cache(maxsize=FOLDED_PROPERTIES_CACHED)
def property_values(props_text: str) -> tuple[str, ...]:
    """The values of a note's ``key: value`` property lines (fields.SearchFields.props_text),
    each list item on its own, folded (:func:`folded_words`). Cached: a search reads ~150
    candidates' properties, and folding them was most of the bonus's cost (0.7 of 0.9 ms on
    the conversations' turns), while many notes share their properties' text."""
    values: list[str] = []
    for line in props_text.splitlines():
        _, separator, value = line.partition(": ")
        if separator:
            values.extend(folded for item in value.split(_ITEM_SEPARATOR) if (folded := folded_words(item)))
    return tuple(values)


def names_a_value(query_words: str, props_text: str) -> bool:
    """Whether the query (its :func:`folded_words`) names one of these property values."""
    return named_value(query_words, props_text) is not None


def named_value(query_words: str, props_text: str) -> str | None:
    """The first of these property values (folded) the query (its :func:`folded_words`) names."""
    padded = f" {query_words} "
    return next((value for value in property_values(props_text)
                 if len(value) >= MIN_VALUE_CHARACTERS and value not in STOPWORDS and f" {value} " in padded), None)


def named_property(query_words: str, props_text: str) -> tuple[str, str] | None:
    """The key and value (folded) of the first property the query names (:func:`named_value`):
    what ``explain`` tells the person to look for."""
    value = named_value(query_words, props_text)
    if value is None:
        return None
    key = next((line.partition(": ")[0] for line in props_text.splitlines() if value in property_values(line)), "")
    return key, value


def valued_notes(query: str, props_by_note: Mapping[int, str]) -> set[int]:
    """The notes (of ``props_by_note``: label → props text) one of whose property values the
    query names."""
    query_words = folded_words(query)
    return {label for label, props_text in props_by_note.items() if names_a_value(query_words, props_text)}
