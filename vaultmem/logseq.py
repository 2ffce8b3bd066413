"""Logseq's page properties: the ``key:: value`` lines a Logseq page opens with.

Logseq keeps a page's properties in its file's first lines, before the first ``- `` bullet,
instead of YAML frontmatter (``title:: Apache Flink/SQL``, ``alias:: [[Flink SQL]]``,
``tags:: rust, [[async io]]``). A note takes its title, aliases and tags from them where its
YAML frontmatter has none (notes.parse_note), so a Logseq page is named and
found as Logseq names it: ``Apache Flink%2FSQL.md`` is "Apache Flink/SQL" and answers to
"Flink SQL" (adr/0028-logseq-graphs.md). Pure functions over text; the file is never changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# `key:: value` as Logseq writes a property: a word-like key, two colons, a space or the line end.
_PROPERTY_LINE = re.compile(r"([A-Za-z][\w\-.]*)::(?:[ \t]+(.*?))?[ \t]*")
# One item of a list-valued property: `[[a page, with a comma]]` (tagged with # or not), else
# the text up to the next comma.
_ITEM = re.compile(r"[ \t]*#?\[\[(.+?)\]\]|([^,]+)")
# Where an item written without commas holds another tag: the space before its ``#``
# (``#rust #async``; ``C#`` has none).
_BEFORE_TAG = re.compile(r"[ \t]+(?=#[^\s#,])")
# Properties Logseq keeps for itself and never shows: a block's uuid (what `((uuid))` refers
# to), whether it is folded, a query's table settings, a PDF highlight's bookkeeping.
HIDDEN_PROPERTIES = frozenset({"id", "collapsed", "heading", "query-table", "query-properties", "query-sort-by",
                               "query-sort-desc", "ls-type", "hl-type", "hl-page", "hl-stamp", "hl-color"})
# A reference to a block by its uuid, `((6213…))`, and an embed of one, `{{embed ((6213…))}}`:
# Logseq shows the block referred to in their place, never the uuid.
BLOCK_REFERENCE = re.compile(
    r"\{\{embed[ \t]+\(\([0-9a-fA-F-]{36}\)\)[ \t]*\}\}|\(\([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\)\)")
# The page properties that name a note, and the frontmatter key each stands for.
_NAMING_KEYS = {"title": "title", "alias": "aliases", "aliases": "aliases", "tags": "tags"}


def page_properties(body: str) -> dict[str, str]:
    """The ``key:: value`` lines the text opens with, keys lower-cased as Logseq reads them
    (the first value of a key written twice). ``{}`` when the first line is not one: a
    property written under a bullet (``- text`` then ``  title:: X``) belongs to that block,
    not to the page."""
    found: dict[str, str] = {}
    for line in _lines(body):
        matched = _PROPERTY_LINE.fullmatch(line.rstrip("\r"))
        if matched is None:
            break
        found.setdefault(matched.group(1).lower(), (matched.group(2) or "").strip())
    return found


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, one at a time: a page's properties are its first few lines, and a
    note of megabytes is not split whole to read them."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end == -1:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def property_items(value: str) -> list[str]:
    """A list-valued property's items as Logseq splits them: on commas outside ``[[…]]``, and
    before each ``#tag`` (``tags:: #rust #async`` is two tags, as Logseq reads it), each without
    its brackets and ``#`` (``[[Flink SQL]], #rust`` is ``Flink SQL``, ``rust``)."""
    items: list[str] = []
    for matched in _ITEM.finditer(value):
        parts = [matched.group(1)] if matched.group(1) is not None else _BEFORE_TAG.split(matched.group(2))
        for part in parts:
            text = part.strip().lstrip("#").strip()
            if text.startswith("[[") and text.endswith("]]"):
                text = text[2:-2].strip()  # `#c #[[d e]]`: the second tag is in brackets
            if text and text not in items:
                items.append(text)
    return items


def naming_meta(body: str) -> dict[str, Any]:
    """The frontmatter the page's properties stand for: ``title``, ``aliases`` and ``tags``,
    those it has. Only these: the other properties stay text of the note (searchable as
    such), and a page's ``id::`` (a block uuid) is never taken for the note's id."""
    meta: dict[str, Any] = {}
    for key, value in page_properties(body).items():
        target = _NAMING_KEYS.get(key)
        if target is None or target in meta or not value:
            continue
        meta[target] = value if target == "title" else property_items(value)
    return meta


def is_hidden_property(line: str) -> bool:
    """Is ``line`` (without its indent) one of the properties Logseq never shows
    (:data:`HIDDEN_PROPERTIES`, or a ``logseq.…`` one), as ``id:: 621b05d0-…`` under a block?"""
    matched = _PROPERTY_LINE.fullmatch(line)
    if matched is None:
        return False
    key = matched.group(1).lower()
    return key in HIDDEN_PROPERTIES or key.startswith("logseq.")
