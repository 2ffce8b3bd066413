"""Arabic-script text as the full text holds it and a query asks for it (pure): Arabic, Persian,
Urdu. See adr/0027, "Arabic script".

The same word reaches a vault in several spellings that FTS5's ``unicode61`` keeps apart:

- short vowels and other marks (tashkeel: ``العِلْمُ``), written in quotations, poetry and the
  Qur'an, and never typed in a question (``العلم``);
- the tatweel (``ـ``), a stretch of the line between letters (``الـمـلاحـظـة``);
- letters an Arabic and a Persian keyboard type differently: ``ي`` and ``ی``, ``ك`` and ``ک``,
  ``ى`` (alef maqsura), ``ة`` and ``ۀ`` beside ``ه``, ``أ إ آ ٱ`` beside ``ا``;
- Arabic-Indic and Persian digits (``٢٠٢٤``, ``۱۴۰۲``) beside ``2024`` and ``1402``.

A trial on a Persian vault: ``ظلام`` did not find a note saying ``ظَلامٌ``, ``الکافی`` (typed on a
Persian keyboard) not one saying ``الكافي``, ``الملاحظة`` not ``الـمـلاحـظـة``. Each is folded to
one form (:func:`arabic_folded`), as Lucene's Arabic and Persian normalizers do; snippets look
for a word in any of its spellings (:func:`arabic_either`). The zero-width non-joiner of Persian
(``می‌خورند``) is left to the tokenizer, which parts a word there, as a space would.
"""

from __future__ import annotations

import re

# Marks written over or under a letter (harakat, shadda, sukun, superscript alef, Qur'anic marks)
# and the tatweel: dropped.
_MARKS = "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed"
_TATWEEL = "\u0640"
_DROPPED = [*range(0x0610, 0x061B), *range(0x064B, 0x0660), 0x0670, *range(0x06D6, 0x06DD), *range(0x06DF, 0x06E9),
            *range(0x06EA, 0x06EE), 0x0640]
# One letter for each letter written in several ways.
_LETTERS = {"ي": "ی", "ى": "ی", "ك": "ک", "ة": "ه", "ۀ": "ه", "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا"}
_TABLE: dict[int, int | str | None] = {
    **dict.fromkeys(_DROPPED),
    **{ord(letter): folded for letter, folded in _LETTERS.items()},
    **{0x0660 + digit: str(digit) for digit in range(10)},  # Arabic-Indic ٠-٩
    **{0x06F0 + digit: str(digit) for digit in range(10)},  # Persian ۰-۹
}
_ARABIC = re.compile("[\u0600-\u06ff]")
# The spellings a folded letter or digit stands for, as a snippet looks for them.
_SPELLINGS = {"ی": "[یيى]", "ک": "[کك]", "ه": "[هةۀ]", "ا": "[اأإآٱ]",
              # an alternation, not a class: spellings_either then writes the digit's full-width form into it
              **{str(digit): f"(?:{digit}|{chr(0x0660 + digit)}|{chr(0x06F0 + digit)})" for digit in range(10)}}
_LETTER = re.compile("[\u0621-\u064a\u0671-\u06d3]")
_MAY_FOLLOW = f"[{_MARKS}{_TATWEEL}]*"


def arabic_folded(text: str) -> str:
    """``text`` with Arabic-script marks and tatweel dropped, a letter written in several ways as
    one (``ي ى`` → ``ی``, ``ك`` → ``ک``, ``ة ۀ`` → ``ه``, ``أ إ آ ٱ`` → ``ا``) and Arabic-Indic and
    Persian digits as ASCII ones; any other text unchanged (an ASCII text at the cost of one test)."""
    if text.isascii() or _ARABIC.search(text) is None:
        return text
    return text.translate(_TABLE)


def arabic_either(pattern: str) -> str:
    """A regular expression (of a folded word) whose Arabic letters and digits each match any of
    their spellings, marks and tatweel allowed after each letter (``ظلام`` matches ``ظَلامٌ``,
    ``45`` matches ``۴۵``): where a snippet finds the word the folded full text matched."""
    if pattern.isascii() and not any(character.isdigit() for character in pattern):
        return pattern

    def spelled(found: re.Match[str]) -> str:
        character = found.group()
        either = _SPELLINGS.get(character, character)
        return either + _MAY_FOLLOW if _LETTER.match(character) else either

    return re.sub(f"[0-9]|{_LETTER.pattern}", spelled, pattern)
