"""The file names ``remember`` makes from a note's title (pure).

A memory is written as ``<title's slug>.md`` (``slug-2.md``, ``slug-3.md`` … when the name is
taken; Dendron's ``memories.<slug>.md``: writer.py). Such a name is words of the text cut to a
length, not a name the person chose: a day in it (``ben-s-birthday-is-1988-03-14.md``) is a day
the text mentions, not the day the memory is about (dating.py, adr/0026). A slug is a name
Windows can hold (windows_names.py): words only, and never a device name (``con`` is
``con-note``), since the person may open on Windows a vault the agent writes on Linux.
"""

from __future__ import annotations

import re
import unicodedata

from .windows_names import is_device_name

SLUG_WORDS = 8
SLUG_CHARS = 60
DEVICE_SUFFIX = "-note"  # after a slug that is a Windows device name: ``nul.md`` cannot be made there
_TAKEN_SUFFIX = re.compile(r"-[0-9]+$")  # slug-2, slug-3 …: the slug was taken


def slugify(title: str) -> str:
    r"""A readable, file-system-safe name: lowercase words joined by hyphens, each word without
    the underscores around it (``__init__.py`` is ``init-py``; ``snake_case`` keeps its own). A
    word keeps its combining marks: Thai, Hindi and pointed Hebrew write vowels and tone marks as
    marks, and ``\w`` parted a word at each (``นัดตัดผม`` was ``น-ดต-ดผม``, a trial on a Thai vault)."""
    return _slug(_marked_words(_ENGLISH_CLITIC.sub("", _lowered(title))))


def _lowered(title: str) -> str:
    # Turkish İ is i and a dot above in lower case: the dot would stay in the name (i̇stanbul.md)
    return unicodedata.normalize("NFKC", title).lower().replace("i\u0307", "i")


def _marked_words(lowered: str) -> list[str]:
    words = [word.strip("_") for word in _WORD_WITH_MARKS.sub(" ", lowered).split()]
    return [word for word in words if word]


def _apart_slug(title: str) -> str:
    """The slug remember made before 2026-12-02 (later): an English clitic apart (``sam-s-phone``).
    Still recognised (:func:`named_from_title`)."""
    return _slug(_marked_words(_lowered(title)))


def _legacy_slug(title: str) -> str:
    r"""The slug remember made before 2026-12-02: ``\w`` words (a word parted at each mark), the
    underscores around them kept but at the ends of the whole (``__init__.py`` was ``init__-py``).
    Still recognised (:func:`named_from_title`), so a note written then keeps being read as named
    from its title."""
    return _slug(re.findall(r"\w+", unicodedata.normalize("NFKC", title).lower()))


def _slug(words: list[str]) -> str:
    """``words`` (the first SLUG_WORDS) joined by hyphens and cut to SLUG_CHARS, never between a
    letter and its marks."""
    joined = "-".join(words[:SLUG_WORDS]).strip("-_")
    cut = SLUG_CHARS
    while 0 < cut < len(joined) and unicodedata.category(joined[cut]).startswith("M"):
        cut -= 1  # the letter goes with its marks
    slug = joined[:cut].rstrip("-_") or "note"
    # Without this a title "Aux" made aux.md, which Git for Windows refuses to check out: the
    # person's clone of the whole vault failed on the agent's note.
    return slug + DEVICE_SUFFIX if is_device_name(slug) else slug


# An English possessive or contraction's apostrophe (Sam's, don't, we're): the file name keeps the
# word whole, sams-phone-number.md, as a person names it; it was sam-s-phone-number.md (a three-day
# agent trial: user-s-name.md, maya-s-birthday.md). French and Italian elisions (l'été, dell'anno)
# and names (O'Brien) stay two words. In any case: same_slug reads a title as written (SAM'S PHONE).
_ENGLISH_CLITIC = re.compile(r"(?<=[^\W\d_])['\u2019](?=(?:s|t|re|ve|ll|d|m)\b)", re.IGNORECASE)
# What is not part of a word: a character neither a word character nor a combining mark.
_WORD_WITH_MARKS = re.compile(r"(?:(?!\w)[^\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670"
                              r"\u06d6-\u06ed\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963\u0981-\u0983\u09bc-\u09d7"
                              r"\u0a01-\u0a03\u0a3c-\u0a51\u0a81-\u0a83\u0abc-\u0acd\u0b01-\u0b03\u0b3c-\u0b57\u0bbe-\u0bcd"
                              r"\u0c00-\u0c04\u0c3e-\u0c56\u0c81-\u0c83\u0cbc-\u0cd6\u0d00-\u0d03\u0d3b-\u0d57\u0e31\u0e34-\u0e3a"
                              r"\u0e47-\u0e4e\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ece\u1000-\u109f\u1780-\u17d3])+")


def named_from_title(stem: str, title: object) -> bool:
    """Whether a file's ``stem`` is the slug ``remember`` makes of ``title``, as it names a new
    note (after a Dendron hierarchy's ``memories.``, with ``-2``, ``-3`` … when it was taken),
    or made before (:func:`_legacy_slug`: before a word kept its marks, ``น-ดต-ดผม``, and lost the
    underscores around it, ``init__-py``; :func:`_apart_slug`: before an English clitic stayed
    with its word, ``sam-s-phone``)."""
    if not isinstance(title, str) or not title.strip():
        return False
    slugs = {slugify(title), _apart_slug(title), _legacy_slug(title)}
    return any(name == slug or name.endswith(f".{slug}") for name in (stem, _TAKEN_SUFFIX.sub("", stem)) for slug in slugs)


def same_slug(name: str, other: str) -> bool:
    """Whether two names are one as file names spell them: their words, case folded, the
    rest dropped (``Matt Ober`` is ``matt-ober`` and ``Matt_Ober``), uncut (unlike :func:`slugify`); an
    English clitic with its word or apart (``Sam's`` is ``sams`` and ``sam-s``)."""
    return _words(name) == _words(other) or _words(_ENGLISH_CLITIC.sub("", name)) == _words(_ENGLISH_CLITIC.sub("", other))


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold())
