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
    """A readable, file-system-safe name: lowercase words joined by hyphens, each word without
    the underscores around it (``__init__.py`` is ``init-py``; ``snake_case`` keeps its own)."""
    words = [word.strip("_") for word in _slug_words(title)]
    return _device_safe(_joined([word for word in words if word]))


def _legacy_slug(title: str) -> str:
    """The slug remember made before 2026-12-02: the words as found, underscores around them
    kept but at the ends of the whole (``__init__.py`` was ``init__-py``). Still recognised
    (:func:`named_from_title`), so a note written then keeps being read as named from its title."""
    return _device_safe("-".join(_slug_words(title)[:SLUG_WORDS]).strip("-_")[:SLUG_CHARS].rstrip("-_") or "note")


def _slug_words(title: str) -> list[str]:
    return re.findall(r"\w+", unicodedata.normalize("NFKC", title).lower())


def _joined(words: list[str]) -> str:
    return "-".join(words[:SLUG_WORDS])[:SLUG_CHARS].rstrip("-_") or "note"


def _device_safe(slug: str) -> str:
    # Without this a title "Aux" made aux.md, which Git for Windows refuses to check out: the
    # person's clone of the whole vault failed on the agent's note.
    return slug + DEVICE_SUFFIX if is_device_name(slug) else slug


def named_from_title(stem: str, title: object) -> bool:
    """Whether a file's ``stem`` is the slug ``remember`` makes of ``title``, as it names a new
    note (after a Dendron hierarchy's ``memories.``, with ``-2``, ``-3`` … when it was taken),
    or the slug it made before the words lost their outer underscores (:func:`_legacy_slug`)."""
    if not isinstance(title, str) or not title.strip():
        return False
    slugs = {slugify(title), _legacy_slug(title)}
    return any(name == slug or name.endswith(f".{slug}") for name in (stem, _TAKEN_SUFFIX.sub("", stem)) for slug in slugs)


def same_slug(name: str, other: str) -> bool:
    """Whether two names are one as file names spell them: their words, case folded, the
    rest dropped (``Matt Ober`` is ``matt-ober`` and ``Matt_Ober``), uncut (unlike :func:`slugify`)."""
    return _words(name) == _words(other)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold())
