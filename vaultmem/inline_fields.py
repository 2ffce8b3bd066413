"""Properties written in a note's text (pure): Logseq's ``key:: value`` lines and Dataview's
inline fields, read as properties for search (adr/0004, "Properties written in the text").

A Logseq graph keeps a page's properties in the ``key:: value`` lines it opens with and a
block's under the block (``- We should plant the tomatoes`` then ``  speaker:: Caroline``);
Dataview reads the same ``Key:: Value`` on a line of its own, and ``[key:: value]`` or
``(key:: value)`` inside a sentence. Only ``title``, ``alias`` and ``tags`` (and vaultmem's
own fields) became fields of the note (logseq.naming_meta, adr/0028): "what did Caroline say
about the tomatoes" did not name a value of the journal whose block carries ``speaker::
Caroline``, and the property bonus of adr/0004 went to no note. These are that note's
properties now, beside its frontmatter's, in the full text's ``props`` column.

What is not a property, though it holds ``::``: anything in code (a fence or a code span),
``std::vector`` and ``Vec::new()`` (no space after the ``::``), Haskell's ``map :: a -> b``
(a space before it), a "key" that does not start with a letter or is longer than
:data:`MAX_KEY_CHARACTERS`. A property Logseq hides (``id::``, ``collapsed::``), vaultmem's
own fields and the keys of its bookkeeping (``title``, ``tags``: columns of their own) are
left out, as are Dataview's task dates (``[due:: 2024-03-16]``: task_dates.py reads them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from .fields import BOOKKEEPING_KEYS, is_plugin_setting, string_values
from .logseq import HIDDEN_PROPERTIES, property_items
from .markdown import blanked, code_ranges, hidden_ranges, merged_ranges

MAX_KEY_CHARACTERS = 40  # Dataview allows any key; a longer "key" is a sentence that holds "::"
MAX_FIELDS = 200  # a note's fields read at most (adr/0018: a page of 100,000 "a:: b" lines is no note's properties)
# The props column is a note's and is stored in each of its full-text rows: a Logseq page of 400 blocks
# each with a `source::` sentence made every row 35 KB, its index 12 times the size it was (0.8 → 9.7 MB).
# A value longer than this is a sentence no question names whole (the bonus asks the whole value), its
# words already in its passage; and a note's properties written in its text stop at the second bound.
MAX_VALUE_CHARACTERS = 100
MAX_TEXT_CHARACTERS = 4_000
# A key: a letter, then letters, digits, spaces, `.`, `-`, `_`, `/`, apostrophes; no space before the `::`.
_KEY = rf"[^\W\d_](?:[\w .'’/-]{{0,{MAX_KEY_CHARACTERS - 2}}}[\w.'’/-])?"
# `key:: value` on a line of its own: indented under a block (Logseq), after a list mark or a
# callout's `>`, the key in bold (`**Author**:: …`) or not; a space after the `::` and a value.
_LINE_FIELD = re.compile(
    rf"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{{1,9}}[.)])[ \t]+)?(?:\*\*|__)?(?P<key>{_KEY})(?:\*\*|__)?::(?:\*\*|__)?"
    r"[ \t]+(?P<value>\S[^\n]*?)[ \t]*\r?")
# Dataview's fields inside a sentence: `[key:: value]`, `(key:: value)`; a value may hold links.
_BRACKETED_FIELD = re.compile(
    rf"\[(?P<key>{_KEY})::[ \t]+(?P<value>(?:\[\[[^\]\n]*\]\]|[^\[\]\n])*?)[ \t]*\]"
    rf"|\((?P<pkey>{_KEY})::[ \t]+(?P<pvalue>(?:\[\[[^\]\n]*\]\]|[^()\n])*?)[ \t]*\)")
# Dataview's task fields: days and recurrences of a task, read as such (task_dates.py).
_TASK_KEYS = frozenset({"due", "scheduled", "start", "completion", "cancelled", "repeat", "oncompletion", "dependson"})
# vaultmem's own fields as remember writes them into a graph (logseq.FIELD_PROPERTIES).
_MARKDOWN_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\n]*\)")  # its text is the value
_NOT_A_FIELD = "\x00"  # what code is read as: no key, value or line start holds it
_VAULTMEM_KEYS = frozenset({"vaultmem_id", "expires_at", "superseded_by", "merged_from"})


def inline_fields(body: str) -> tuple[tuple[str, str], ...]:
    """(key, text) of each property written in ``body`` (its ``key:: value`` lines, its
    ``[key:: value]`` and ``(key:: value)`` fields), in the order of the text, each once; a
    list value's items joined by ", " as frontmatter lists are (fields.property_texts)."""
    if "::" not in body or not any(True for _ in _written(body)):
        return ()  # finding the code is most of the cost: a manual's `Sort::Naturally` is no field anyway
    read = (_read(key, value) for key, value in _written(_outside_code(body)) if _is_property(key))
    # Stops at the bound rather than cutting after: a note of 100,000 field lines took 2.2 s read whole.
    return tuple(_within_bound(islice(_first_of_each(field for field in read if field[1]), MAX_FIELDS)))


def _within_bound(fields: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """``fields`` while their ``key: value`` lines come to at most :data:`MAX_TEXT_CHARACTERS`."""
    total = 0
    for key, text in fields:
        total += len(key) + len(text) + 3
        if total > MAX_TEXT_CHARACTERS:
            return
        yield key, text


def _first_of_each(fields: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """``fields`` without repeats, lazily (ordered.unique reads them all first)."""
    seen: set[tuple[str, str]] = set()
    for field in fields:
        if field not in seen:
            seen.add(field)
            yield field


def _outside_code(body: str) -> str:
    """``body`` with code and what reading view hides (comments) each replaced by a character
    no field is read across: a code span blanked to a space would leave ``  Note:: x`` of
    a code span, then ``Note:: x``, a line of its own, which it is not."""
    code = code_ranges(body)
    return blanked(body, merged_ranges([*code, *hidden_ranges(body, code)]), _NOT_A_FIELD)


def _written(text: str) -> Iterator[tuple[str, str]]:
    """The (key, value) of each field of ``text``, line by line: only a line holding ``::`` is
    read (a pattern tried at every offset of a 300 KB manual took 37 ms)."""
    for line in text.split("\n"):
        if "::" not in line:
            continue
        whole = _LINE_FIELD.fullmatch(line)
        if whole is not None:
            yield whole["key"], whole["value"]
            continue
        for found in _BRACKETED_FIELD.finditer(line):
            yield (found["key"], found["value"]) if found["key"] is not None else (found["pkey"], found["pvalue"])


def _is_property(key: str) -> bool:
    """Whether a field of this key says what the note is about (not Logseq's block settings,
    vaultmem's fields, a task's dates or a plugin's settings)."""
    folded = key.casefold()
    snake = folded.replace("-", "_")
    return not (folded in HIDDEN_PROPERTIES or folded.startswith("logseq.") or snake in BOOKKEEPING_KEYS
                or snake in _VAULTMEM_KEYS or folded in _TASK_KEYS or is_plugin_setting(key))


def _read(key: str, value: str) -> tuple[str, str]:
    """The key as written and the value's text: ``[[Caroline]], [[Mel]]`` is "Caroline, Mel",
    ``[Miyazaki](https://…)`` is "Miyazaki"; an item over :data:`MAX_VALUE_CHARACTERS` is left
    out; code and comments in it are left out
    (``author:: `x` Miyazaki`` is "Miyazaki"; all code, ``""``: no field). Was: the character code
    is read as stood in the value, a control character in the props column in place of the code."""
    value = " ".join(_MARKDOWN_LINK.sub(r"\1", value).replace(_NOT_A_FIELD, " ").split())
    items = [text for item in property_items(value) for text in string_values(item)] or string_values(value)
    return key.strip(), ", ".join(text for text in items if len(text) <= MAX_VALUE_CHARACTERS)
