"""Word forms the full text's stemmer does not know: endings after an apostrophe, and the
endings of languages that add them to a word (pure). See adr/0027.

The full text stems English only (FTS5's ``porter``). Two cases where a query's word then
matches no note although the note holds the word:

- **After an apostrophe.** Turkish writes a proper noun's case ending after one (``S3'e``,
  ``Zeynep'in``, ``Mert'le``: "to S3", "Zeynep's", "with Mert"); French elides a short word
  before one (``l'équipe``, ``d'accord``), and so does Italian (``l'anno``, ``dell'azienda``).
  The tokenizer cuts at the apostrophe, so the query word is the phrase "s3 e", which a note
  saying "S3" or "S3'ten" does not hold. Such a word
  is asked for as its whole form or its stem (:func:`apostrophe_stem`).
- **Endings without one.** ``kira`` (rent) is ``kirayı`` as an object, ``ilacı`` (her
  medicine) ``ilacını``; ``annemin`` (my mother's) is ``annemi`` (my mother, object). A word
  no note holds is asked for by its first letters instead (:func:`prefix_of`); search.py
  decides when. A German word typed without its umlaut (``ueber`` for ``über``) is asked for by
  the umlaut's first letters too (:func:`umlauts_unwritten`).
- **Umlauts written out in the note.** A note typed without the keys, or by a tool that avoids
  them, says ``Haendler`` and ``pruefen``; the full text folds a query's ``Händler`` to
  ``handler``, which such a note does not hold. A word with an umlaut is asked for as written
  out too (:func:`umlauts_written_out`), always: both spellings are German.
"""

from __future__ import annotations

import re
import unicodedata

from .cjk import fts_form, latin_unmarked
from .combining import COMBINING, has_combining

APOSTROPHES = "'’"  # straight and typographic (U+2019); ʼ (U+02BC) is a letter to the tokenizer
ENDING_MAX = 3  # letters of the short side of an apostrophe that is an ending or an elided word
# English contractions' endings: "don't" is not "don", "won't" not "won" (the phrase stays).
_CONTRACTIONS = frozenset({"t", "s", "d", "m", "re", "ve", "ll"})
_APOSTROPHE_WORD = re.compile(rf"(\w+)[{APOSTROPHES}](\w+)")
_COMBINING_CHARACTER = re.compile(f"[{COMBINING}]")
PREFIX_MIN = 4  # letters a word must have to be asked for by its first letters
PREFIX_KEEP = 5  # the fewest letters kept (a shorter word: all of it): four made "comedy" "come"
_UMLAUT_PAIR = re.compile("(?<![aeiouy])([aou])e")  # "ue" for ü, not the "eue" of "neue" or "steuer"
# Italian's articled prepositions and demonstratives, elided before a vowel as l' and un' are but
# longer than an ending: "dell'azienda" (of the company), "nell'ufficio", "sull'argomento",
# "dall'inizio", "quest'anno", "quell'idea". Their word is the other side. Not "bell'" nor
# "sant'", which begin names (Bell'Italia, Sant'Anna).
ITALIAN_ELISIONS = frozenset({"dell", "nell", "sull", "dall", "quell", "quest"})


def apostrophe_stem(word: str) -> str | None:
    """The stem of a word cut by one apostrophe: the longer side when the other has at most
    :data:`ENDING_MAX` letters (``S3'e`` → ``S3``, ``Zeynep'in`` → ``Zeynep``, ``l'équipe`` →
    ``équipe``, ``O'Brien`` → ``Brien``); the left one when both are that short (``AWS'nin``,
    ``TL'ye``: a Turkish ending after an acronym), unless that is one letter (``j'ai``, ``c'est``:
    an elided word before another short one); the right one after an Italian elision longer
    than that (``dell'azienda`` → ``azienda``: :data:`ITALIAN_ELISIONS`). None for an English
    contraction (``don't``), a word without exactly one apostrophe, or two long sides
    (``rock'n'roll``, ``Bell'Italia``)."""
    found = _APOSTROPHE_WORD.fullmatch(word)
    if found is None:
        return None
    left, right = found.groups()
    if right.lower() in _CONTRACTIONS:
        return None
    if left.lower() in ITALIAN_ELISIONS:
        return right
    if len(left) <= ENDING_MAX and len(right) <= ENDING_MAX:
        return left if len(left) > 1 else None
    if min(len(left), len(right)) > ENDING_MAX:
        return None
    return left if len(left) > len(right) else right


def prefix_of(word: str) -> str | None:
    """The first letters a word is asked for by when no note holds it: its last third dropped,
    at least two letters and at most all but :data:`PREFIX_MIN` (``kira`` → ``kira``,
    ``annemin`` → ``annem``, ``projesinin`` → ``projesi``). None for a shorter word or one that
    is not all letters (``s3``, ``2026``). A word written with vowel signs (Hindi ``किताब``,
    ``कमरा``: :func:`signed_prefix`) by its letters before its last signs."""
    if not word.isalpha() and has_combining(word):
        return signed_prefix(word)
    if len(word) < PREFIX_MIN or not word.isalpha():
        return None
    return word[: max(min(len(word), PREFIX_KEEP), len(word) - max(2, len(word) // 3))]


# Indic and other scripts write a word's vowels as signs after its letters, and an ending mostly
# changes the last of them (Hindi कमरा "room", कमरे "rooms", कमरों; किताब "book", किताबें; दवाई,
# दवाइयाँ). While the tokenizer parted a word at its signs, such forms matched by their letters
# (storage m018); whole words, they need their first letters.
SIGNED_PREFIX_LETTERS = 2  # letters (not counting signs) a word's first letters keep at least


def signed_prefix(word: str) -> str | None:
    """The first letters a word written with combining signs is asked for by: the word without
    the signs it ends with (``कमरा`` → ``कमर``, ``தமிழ்`` → ``தமிழ``), the whole word when it
    ends in a letter (``किताब``, finding ``किताबें``); None when fewer than
    :data:`SIGNED_PREFIX_LETTERS` letters are left, or the word holds a sign that is not a
    letter's (``s3``, ``a-b``)."""
    if not all(character.isalpha() or _COMBINING_CHARACTER.match(character) for character in word):
        return None
    stem = word
    while stem and _COMBINING_CHARACTER.match(stem[-1]):
        stem = stem[:-1]
    return stem if sum(character.isalpha() for character in stem) >= SIGNED_PREFIX_LETTERS else None


def umlauts_unwritten(word: str) -> str | None:
    """A word typed with ``ae``, ``oe``, ``ue`` for ä, ö, ü (German on a keyboard without them:
    ``ueber``, ``Muenchen``, ``koennen``) as the full text holds the umlaut's word, which it
    folds to a, o, u (``uber``, ``munchen``, ``konnen``); None for a word without such a pair.
    Only ever asked for beside the word's own first letters, when no note holds the word: the
    pair is often no umlaut (``fuego``, ``poema``)."""
    unwritten = _UMLAUT_PAIR.sub(r"\1", word)
    return unwritten if unwritten != word else None


_UMLAUTS_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def umlauts_written_out(word: str) -> str | None:
    """A word's umlauts as German writes them without the keys (``Händler`` → ``Haendler``,
    ``prüfen`` → ``pruefen``; DIN 5007-2): how a note typed so holds the word a query spells
    with them. None for a word without ä, ö or ü (composed or not: macOS decomposes them)."""
    composed = unicodedata.normalize("NFC", word)
    written = composed.translate(_UMLAUTS_SPELLED)
    return written if written != composed else None


def folded(word: str) -> str:
    """A word as the full text compares it: lower case, Latin letters without accents
    (``İlacı`` → ``ilaci``; FTS5's ``remove_diacritics`` and cjk.fts_form). The marks of other
    scripts stay, as the full text keeps them: a Hindi word's virama is part of its letters."""
    return latin_unmarked(fts_form(word).lower())
