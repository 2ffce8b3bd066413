"""Marks a person may or may not type, folded away where the full text holds a word and where a
query asks for it (pure). See adr/0027, "Marks people may not type".

SQLite FTS5's ``unicode61`` tokenizer reads a letter's combining marks as the end of a word
unless they are Latin accents (which ``remove_diacritics`` drops), and it keeps Latin letters
with a stroke as letters of their own. So the same word written with and without its marks was
two words, and the one typed without them found nothing (a trial on Thai, Hebrew, Hindi and
Vietnamese notes):

- Hebrew points and cantillation (niqqud: ``בָּרוּךְ``), written in prayers, poetry and children's
  books, never in a question (``ברוך``): the pointed word was the pieces ``ב``, ``רו``, ``ך``;
- Thai and Lao vowel and tone marks written above or below a letter (``หมู``): a run of Thai
  is written without spaces, and is read as Chinese is (cjk.py: a letter a token, a query's
  neighbouring pairs of letters), its marks dropped on both sides, as the tokenizer would part
  a pair at them; Thai and Lao digits are ASCII ones;
- the nukta of Indic scripts (``क़िला``, ``दफ़्तर``), which many leave out when they type, and
  which is one letter (``क़``, U+0958) or a letter and the sign (``क`` + U+093C) as the
  keyboard wrote it: the letter alone either way;
- Latin letters with a stroke or a bar that no accent removal folds: Vietnamese ``đ``
  (``Đồng Xuân`` typed ``Dong Xuan`` without a Vietnamese keyboard), Polish ``ł``, Danish and
  Norwegian ``ø``, Icelandic ``ð``, Maltese ``ħ``, as Lucene's ASCII folding reads them; and
  the letters that were ligatures or runes, typed as two letters: ``þ`` is ``th``, ``æ`` ``ae``,
  ``œ`` ``oe`` (``Thingvellir`` finds ``Þingvellir``).

Files and snippets keep every mark: a snippet looks for the folded word with its marks allowed
(:func:`marks_either`).
"""

from __future__ import annotations

import re
import unicodedata

from .combining import JOINERS, VIRAMAS

# Hebrew cantillation (U+0591-05AF), points (U+05B0-05BD), rafe, shin and sin dots, upper and
# lower dots, qamats qatan: dropped. The maqaf (U+05BE), paseq and sof pasuq are punctuation, kept.
_HEBREW_MARKS = "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
_HEBREW_LETTER = re.compile("[\u05d0-\u05ea]")
HEBREW_PREFIXES = "והבכלמש"  # and, the, in, as, to, from, that: written as one letter before a word (stems.py)
# Hebrew presentation forms (שׁ U+FB2A, בּ U+FB31, …): their letter and marks (NFKD), then folded.
_HEBREW_PRESENTATION = re.compile("[\ufb1d-\ufb4f]")
# Thai: mai han-akat, the vowels above and below, phinthu; maitaikhu, the tone marks, thanthakhat,
# nikhahit, yamakkan. Lao: the same signs at their places in its block.
_THAI_MARKS = "\u0e31\u0e34-\u0e3a\u0e47-\u0e4e"
_LAO_MARKS = "\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ece"
SOUTHEAST_MARKS = _THAI_MARKS + _LAO_MARKS
# The nukta signs of Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Kannada.
_NUKTAS = "\u093c\u09bc\u0a3c\u0abc\u0b3c\u0cbc"
# The letters written with a nukta in one character (composition exclusions: NFC writes them as
# the letter and the sign): each is its letter.
_NUKTA_LETTERS = [*range(0x0958, 0x0960), 0x09DC, 0x09DD, 0x09DF, 0x0A33, 0x0A36, *range(0x0A59, 0x0A5C), 0x0A5E,
                  0x0B5C, 0x0B5D]
# Letters Latin alphabets took from ligatures and runes, typed as two letters without the key (as
# Lucene's ASCII folding reads them): Icelandic and Old English þ (thorn), Danish, Norwegian,
# Icelandic and Old English æ, French œ. ``remove_diacritics`` keeps them: ``Thingvellir`` missed
# ``Þingvellir``, ``Aesir`` ``Æsir``, ``oeuvre`` ``œuvre``. (ß is ss in cjk.fts_form; ð is d below.)
_LIGATURES = {"þ": "th", "Þ": "Th", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe"}
_STROKED = {"đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ð": "d", "Ð": "D", "ħ": "h", "Ħ": "H",
            "ŧ": "t", "Ŧ": "T"}


def _dropped(ranges: str) -> list[int]:
    """The code points of a character class's ranges (``"\\u0591-\\u05bd\\u05bf"``)."""
    codes: list[int] = []
    for found in re.finditer(r"(.)-(.)|(.)", ranges, re.DOTALL):
        if found.group(3):
            codes.append(ord(found.group(3)))
        else:
            codes.extend(range(ord(found.group(1)), ord(found.group(2)) + 1))
    return codes


_TABLE: dict[int, int | str | None] = {
    **dict.fromkeys(_dropped(_HEBREW_MARKS + SOUTHEAST_MARKS + _NUKTAS)),
    **{code: unicodedata.normalize("NFD", chr(code))[0] for code in _NUKTA_LETTERS},
    **{ord(letter): plain for letter, plain in _STROKED.items()},
    **{ord(letter): letters for letter, letters in _LIGATURES.items()},
    **{0x0E50 + digit: str(digit) for digit in range(10)},  # Thai ๐-๙
    **{0x0ED0 + digit: str(digit) for digit in range(10)},  # Lao ໐-໙
}
# Characters the table changes, and the presentation forms: a text holding none is left as it is.
# A joiner after a virama (combining.VIRAMAS) draws ``दर्‍या`` and ``दर्या``, ``ශ්‍රී`` and ``ශ්රී``
# differently, one word either way; the tokenizer parts a word at a joiner, so the note that
# wrote it and the query that did not (or the other way round) held different words.
_JOINER_AFTER_VIRAMA = re.compile(f"(?<=[{VIRAMAS}])[{JOINERS}]")
_FOLDED = re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(_TABLE)) + "\ufb1d-\ufb4f]")


def marks_folded(text: str) -> str:
    """``text`` without Hebrew points and cantillation, Thai and Lao vowel and tone marks, and
    Indic nukta signs (a letter written with its nukta in one character is the letter), with
    Latin letters with a stroke as their plain letters (``đ`` is ``d``, ``ł`` is ``l``, ``ø`` is
    ``o``) and Thai and Lao digits as ASCII ones, and without a joiner after a virama (``दर्‍या`` is
    ``दर्या``); any other text unchanged (an ASCII text at the cost of one test)."""
    if text.isascii():
        return text
    if _JOINER_AFTER_VIRAMA.search(text) is not None:
        text = _JOINER_AFTER_VIRAMA.sub("", text)
    if _FOLDED.search(text) is None:
        return text
    if _HEBREW_PRESENTATION.search(text):
        text = _HEBREW_PRESENTATION.sub(lambda form: unicodedata.normalize("NFKD", form.group()), text)
    return text.translate(_TABLE)


# A plain letter's stroked forms (the table's others): where a snippet finds a word the folded full
# text matched, its d may be written đ or ð, its o ø (``Soren`` and ``Søren`` find ``Søren``).
STROKED_FORMS = {plain: "".join(letter for letter, folded in _STROKED.items() if folded == plain and letter.islower())
                 for plain in set(_STROKED.values()) if plain.islower()}
_STROKED_PLAIN = re.compile(f"[{''.join(STROKED_FORMS)}]", re.IGNORECASE)


_LIGATURE_OR_LETTERS = re.compile("th|þ|ae|æ|oe|œ", re.IGNORECASE)


def ligatures_either(pattern: str) -> str:
    """A regular expression (of a folded word, escaped, matched case-insensitive) whose ``th``,
    ``ae``, ``oe`` and ``þ``, ``æ``, ``œ`` each match the other spelling too (``(?:th|þ)``), as the
    full text holds both alike: where a snippet finds ``þorn`` asked ``thorn``, ``Aesir`` asked
    ``Æsir``. Run it before adding any other alternatives (their ``ae`` is an umlaut's)."""
    return _LIGATURE_OR_LETTERS.sub(lambda found: _EITHER_LIGATURE[found.group().lower()], pattern)


_EITHER_LIGATURE = {spelled: f"(?:{letters}|{letter})" for letter, letters in _LIGATURES.items() if letter.islower()
                    for spelled in (letter, letters)}


def strokes_either(pattern: str) -> str:
    """A regular expression (of a folded word, escaped, matched case-insensitive) whose ``d``,
    ``l``, ``o``, ``h``, ``t`` each match their stroked letters too (``[oø]``): the letters are
    no syntax in an escaped word (re.escape escapes none)."""
    return _STROKED_PLAIN.sub(lambda plain: _either_stroke(plain.group()), pattern)


def _either_stroke(plain: str) -> str:
    """``plain`` or one of its stroked letters, as a pattern matched case-insensitive: ``[oø]``,
    and ``(?:[dđ]|(?i:ð))`` for the ``d`` of ``[dđð]``, which matches the same six letters. A class
    whose lower-case letters make three runs of code points is compiled by ``re`` as a 64K-entry
    bitmap, in Python: 0.15 ms a ``d``, paid by every new query's snippet pattern (its "decide"
    twice); a branch ``re`` does not merge into the class (a flag group) keeps each class small."""
    forms = STROKED_FORMS[plain.lower()]
    if len(forms) == 1:
        return f"[{plain}{forms}]"
    return f"(?:[{plain}{forms[0]}]|" + "|".join(f"(?i:{other})" for other in forms[1:]) + ")"


_MAY_FOLLOW = {"hebrew": f"[{_HEBREW_MARKS}]*", "southeast": f"[{SOUTHEAST_MARKS}]*", "indic": f"[{_NUKTAS}]?"}
_SOUTHEAST_LETTER = re.compile("[\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46\u0e81-\u0eb0\u0eb2\u0eb3\u0ebd\u0ec0-\u0ec6]")
# An Indic consonant (Devanagari to Kannada blocks' consonants, by their place in each block).
_VIRAMA = re.compile(f"[{VIRAMAS}]")
_INDIC_CONSONANT = re.compile("[\u0915-\u0939\u0995-\u09b9\u0a15-\u0a39\u0a95-\u0ab9\u0b15-\u0b39\u0c95-\u0cb9]")


def marks_either(pattern: str) -> str:
    """A regular expression (of a folded word, escaped) whose Hebrew letters may carry their
    points, Thai and Lao letters their marks, Indic consonants a nukta, a virama a joiner: where a snippet finds the
    word the folded full text matched (``ברוך`` finds ``בָּרוּךְ``, ``หมู`` finds ``หมู``); a Hebrew
    word may have the letters that say and, the, in … before it (``ים`` finds ``וְהַיָּם``)."""
    if pattern.isascii():
        return pattern
    # First, while the pattern holds no character class: a virama may have a joiner after it.
    pattern = _VIRAMA.sub(lambda virama: virama.group() + f"[{JOINERS}]?", pattern)
    # A Hebrew word may follow the letters that say and, the, in … (stems.hebrew_forms: ים finds וְהַיָּם)
    before = f"(?:[{HEBREW_PREFIXES}]{_MAY_FOLLOW['hebrew']}){{0,3}}" if _HEBREW_LETTER.match(pattern) else ""
    pattern = before + _HEBREW_LETTER.sub(lambda letter: letter.group() + _MAY_FOLLOW["hebrew"], pattern)
    pattern = _SOUTHEAST_LETTER.sub(lambda letter: letter.group() + _MAY_FOLLOW["southeast"], pattern)
    return _INDIC_CONSONANT.sub(lambda letter: letter.group() + _MAY_FOLLOW["indic"], pattern)
