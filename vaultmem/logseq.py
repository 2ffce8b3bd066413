"""Logseq's page properties: the ``key:: value`` lines a Logseq page opens with.

Logseq keeps a page's properties in its file's first lines, before the first ``- `` bullet,
instead of YAML frontmatter (``title:: Apache Flink/SQL``, ``alias:: [[Flink SQL]]``,
``tags:: rust, [[async io]]``). A note takes its title, aliases and tags from them where its
YAML frontmatter has none (notes.parse_note), so a Logseq page is named and
found as Logseq names it: ``Apache Flink%2FSQL.md`` is "Apache Flink/SQL" and answers to
"Flink SQL" (adr/0028-logseq-graphs.md). In a graph vaultmem's own fields are page properties
too, read (:func:`field_meta`) and edited (:func:`edit_fields`) here. Pure functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from .errors import InvalidTimestamp
from .fields import case_fold
from .lifecycle import format_as_written, parse_timestamp
from .ordered import unique

# `key:: value` as Logseq writes a property: a word-like key, two colons, a space or the line end.
_PROPERTY_LINE = re.compile(r"([A-Za-z][\w\-.]*)::(?:[ \t]+(.*?))?[ \t]*")
# One item of a list-valued property: `[[a page, with a comma]]` (tagged with # or not), else
# the text up to the next comma.
_ITEM = re.compile(r"[ \t]*#?\[\[(.+?)\]\]|([^,]+)")
# Where an item written without commas holds another tag: the space before its ``#``
# (``#rust #async``; ``C#`` has none).
_BEFORE_TAG = re.compile(r"[ \t]+(?=#[^\s#,])")
# Properties Logseq keeps for itself and never shows: a block's uuid (what `((uuid))` refers
# to), whether it is folded, a query's table settings, a PDF highlight's bookkeeping — and, as its
# graph parser's hidden-built-in-properties lists them, a block's colour, its old timestamps and a
# flashcard's schedule (the srs extension's `card-…`). Without those, `background-color:: yellow`
# was a property of the note (inline_fields.py): "the yellow bike" named every highlighted block.
HIDDEN_PROPERTIES = frozenset({"id", "custom-id", "collapsed", "heading", "query-table", "query-properties",
                               "query-sort-by", "query-sort-desc", "ls-type", "hl-type", "hl-page", "hl-stamp", "hl-color",
                               "background-color", "background_color", "created-at", "updated-at", "last-modified-at",
                               "created_at", "last_modified_at", "card-last-interval", "card-repeats",
                               "card-last-reviewed", "card-next-schedule", "card-last-score", "card-ease-factor"})
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


def page_property_keys(body: str) -> list[str]:
    """The keys of the ``key:: value`` lines the text opens with, as written, in order (those
    :func:`page_properties` reads lower-cased): two lines whose keys differ only in case are
    one property to Logseq, which reads the first."""
    keys = []
    for line in _lines(body):
        matched = _PROPERTY_LINE.fullmatch(line.rstrip("\r"))
        if matched is None:
            break
        keys.append(matched.group(1))
    return keys


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
    return unique(item for _start, _end, item in _item_spans(value) if item)


def _item_spans(value: str) -> list[tuple[int, int, str]]:
    """Where each item of a list-valued property is written in ``value`` (start, end) and the
    item it reads as: what :func:`property_items` reads and :func:`holding_items` rewrites."""
    spans: list[tuple[int, int, str]] = []
    for matched in _ITEM.finditer(value):
        if matched.group(1) is not None:
            written = matched.group(0)
            start = matched.start() + len(written) - len(written.lstrip(" \t"))
            spans.append((start, matched.end(), matched.group(1).strip()))
            continue
        chunk, offset, cut = matched.group(2), matched.start(2), 0
        bounds = []
        for before_tag in _BEFORE_TAG.finditer(chunk):
            bounds.append((cut, before_tag.start()))
            cut = before_tag.end()
        bounds.append((cut, len(chunk)))
        for low, high in bounds:
            part = chunk[low:high]
            if part.strip():
                start = offset + low + len(part) - len(part.lstrip())
                spans.append((start, start + len(part.strip()), _item_text(part.strip())))
    return spans


def _item_text(written: str) -> str:
    text = written.lstrip("#").strip()
    if text.startswith("[[") and text.endswith("]]"):
        text = text[2:-2].strip()  # `#c #[[d e]]`: the second tag is in brackets
    return text


def holding_items(value: str, items: Iterable[str]) -> str:
    """A list-valued property line's value rewritten to hold ``items``, in the line's own form:
    an item no longer there leaves with the separator before it (``a, b, [[c d]]`` without
    ``b`` is ``a, [[c d]]``; ``#rust #async`` without ``rust`` is ``#async``), a new one is
    added as :func:`added_to_line` adds it; the items kept stay as written. Compared in any case."""
    wanted = list(items)
    keep = {case_fold(item) for item in wanted}
    spans = _item_spans(value)
    kept = [index for index, span in enumerate(spans) if span[2] and case_fold(span[2]) in keep]
    if not kept:
        written = ""
    else:
        pieces = [value[spans[kept[0]][0]:spans[kept[0]][1]]]
        for index in kept[1:]:
            pieces.append(value[spans[index - 1][1]:spans[index][1]])  # the separator before it, and it
        written = "".join(pieces)
    on_line = {case_fold(spans[index][2]) for index in kept}
    return added_to_line(written, [item for item in wanted if case_fold(item) not in on_line])


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
    (:data:`HIDDEN_PROPERTIES`, or a ``logseq.…`` one), as ``id:: 621b05d0-…`` under a block, or
    one of vaultmem's fields a hit carries as fields (``layer:: L2``)?"""
    matched = _PROPERTY_LINE.fullmatch(line)
    if matched is None:
        return False
    key = matched.group(1).lower()
    return key in HIDDEN_PROPERTIES or key.startswith("logseq.") or key in _FIELD_KEYS_SHOWN_ELSEWHERE


# vaultmem's own fields written as properties (FIELD_PROPERTIES): a hit says its layer, expiry and
# id as fields already; in its snippet they read `vaultmem-id:: 01M8SW…` before the memory's text.
_FIELD_KEYS_SHOWN_ELSEWHERE = frozenset({"vaultmem-id", "layer", "created", "expires-at", "expires_at", "permanent",
                                         "supersedes", "superseded-by", "merged-from"})


# ---------------------------------------------------------------- vaultmem's fields as page properties
#
# In a Logseq graph vaultmem keeps a memory's fields where Logseq keeps a page's: as `key:: value`
# lines (adr/0028). Logseq's own spelling: keys in lower case with `-` (its queries read
# `expires_at` as `expires-at`), and `id::` is Logseq's block uuid, so vaultmem's id is `vaultmem-id::`.
ID_PROPERTY = "vaultmem-id"
FIELD_PROPERTIES = {"id": ID_PROPERTY, "layer": "layer", "expires_at": "expires-at", "created": "created",
                    "permanent": "permanent", "supersedes": "supersedes", "superseded_by": "superseded-by",
                    "merged_from": "merged-from"}
_PROPERTY_FIELDS = {key: field for field, key in FIELD_PROPERTIES.items()} | {"expires_at": "expires_at"}
_LIST_FIELDS = frozenset({"supersedes", "merged_from", "tags", "aliases"})
_BOOLEANS = {"true": True, "false": False}


def field_meta(body: str) -> dict[str, Any]:
    """vaultmem's fields the page's properties hold (:data:`FIELD_PROPERTIES`), as frontmatter
    would hold them: ``layer:: L2`` is ``layer: L2``, ``permanent:: true`` the boolean,
    ``superseded-by:: 01…`` the successor, ``merged-from:: 01A…, 01B…`` a list of ids. A
    ``created::`` that is no time (``created:: [[May 1st, 2022]]``, a person's own property) is
    the person's and stays text; a vaultmem key holding a bad value is read, so ``check`` says so."""
    meta: dict[str, Any] = {}
    for key, value in page_properties(body).items():
        target = _PROPERTY_FIELDS.get(key)
        if target is None or target in meta or not value:
            continue
        if target == "created" and not _is_time(value):
            continue
        if target in _LIST_FIELDS:
            meta[target] = property_items(value)
        elif target == "permanent":
            meta[target] = _BOOLEANS.get(value.lower(), value)
        else:
            meta[target] = value
    return meta


def _is_time(value: str) -> bool:
    try:
        parse_timestamp(value)
    except InvalidTimestamp:
        return False
    return True


def property_key(field: str) -> str:
    """The page property that holds frontmatter key ``field`` (``expires_at`` → ``expires-at``)."""
    return FIELD_PROPERTIES.get(field, field.replace("_", "-").lower())


def render_value(value: Any) -> str:
    """A value as a property line holds it: a list as Logseq's comma-separated items (an item
    holding a comma in ``[[…]]``), a boolean ``true``/``false``, a time in vaultmem's ISO form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return format_as_written(value)  # in its own zone (noteio.render_scalar); vaultmem's stamps are UTC
    if isinstance(value, (list, tuple)):
        return ", ".join(f"[[{item}]]" if "," in str(item) else str(item) for item in value)
    return str(value)


def render_properties(meta: Mapping[str, Any]) -> str:
    """A new page's property lines, one per key, in ``meta``'s order (for notes vaultmem creates)."""
    lines = []
    for field, value in meta.items():
        if isinstance(value, (list, tuple)) and not value:
            continue  # `tags::` with nothing after it is no property at all to Logseq
        lines.append(f"{property_key(field)}:: {render_value(value)}\n")
    return "".join(lines)


def property_block_end(text: str) -> int:
    """Where the property lines ``text`` opens with end (0 when it opens with none)."""
    offset = 0
    for line in _lines(text):
        if _PROPERTY_LINE.fullmatch(line.rstrip("\r")) is None:
            break
        offset = min(len(text), offset + len(line) + 1)
    return offset


def edit_fields(text: str, set_values: Mapping[str, Any], remove: Iterable[str] = ()) -> str:
    """``text`` with vaultmem's fields (frontmatter keys: ``expires_at``, ``tags``, ``merged_from``…)
    set and removed in its page properties, every other byte kept: each field on the line it is
    read from (:func:`field_meta`, :func:`naming_meta`: ``expires-at::`` or ``expires_at::``,
    ``alias::`` or ``aliases::``), else a new line spelled as Logseq spells it
    (:func:`property_key`; ``alias::`` for aliases). A list set on a line that holds one is
    rewritten in the line's own form (:func:`holding_items`); a list set empty removes the line
    (``tags::`` with nothing after it is no property to Logseq). A field removed loses every
    line it is read from: one left behind would still be read."""
    written = page_properties(text)
    lines: dict[str, str] = {}
    dropped = [key for field in remove for key in _spellings(field) if key in written]
    for field, value in set_values.items():
        key = next((key for key in _spellings(field) if key in written), _new_key(field))
        if isinstance(value, (list, tuple)):
            line = holding_items(written[key], value) if key in written else render_value(value)
            if not line:
                dropped.append(key)
                continue
            lines[key] = line
        else:
            lines[key] = render_value(value)
    return edit_properties(text, lines, dropped)


def _spellings(field: str) -> list[str]:
    """The property keys ``field`` is read from, in the order a page is searched for its line."""
    read_as = [key for key, target in (*_PROPERTY_FIELDS.items(), *_NAMING_KEYS.items()) if target == field]
    return unique([property_key(field), *read_as]) if field not in _NAMING_KEYS.values() else read_as


def _new_key(field: str) -> str:
    return "alias" if field == "aliases" else property_key(field)  # Logseq's alias property is `alias::`


def edit_properties(text: str, set_values: Mapping[str, str], remove: Iterable[str] = ()) -> str:
    """``text`` with its page properties set and removed (keys as property keys, compared in
    lower case), every other byte kept: a key's line is rewritten in place (its key spelled as
    the person wrote it), a new key is added after the last property line. Values are written
    as given (:func:`render_value` them first; :func:`edit_fields` does). A page that opens
    with no property lines gets them at its top, then a blank line when its first line is text:
    Logseq reads a line right under the properties as part of that first block."""
    end = property_block_end(text)
    newline = "\r\n" if "\r\n" in text[: max(end, text.find("\n") + 1)] else "\n"
    lines = _block_lines(text[:end])
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline  # a page of properties only, without a last newline
    dropped = {key.lower() for key in remove} - {key.lower() for key in set_values}
    kept = [line for line in lines if _line_key(line) not in dropped]
    for given, value in set_values.items():
        key = given.lower()
        at = next((index for index, line in enumerate(kept) if _line_key(line) == key), None)
        if at is None:
            kept.append(f"{key}:: {value}{newline}")
        else:
            written = _PROPERTY_LINE.fullmatch(kept[at].rstrip("\r\n"))
            kept[at] = f"{written.group(1) if written else key}:: {value}{newline}"
    rest = text[end:]
    if end == 0 and kept and rest.strip() and not rest.startswith(("\n", "\r\n", "- ", "-\n")):
        kept.append(newline)
    return "".join(kept) + rest


def _block_lines(block: str) -> list[str]:
    """The property block's lines, each with its ``\n``: split where :func:`_lines` splits them,
    not at every break ``str.splitlines`` knows — a value holding a U+2028 or a form feed (pasted
    from the web) was cut in two, and its rewrite left the tail below it as a line of text."""
    return re.findall(r"[^\n]*\n|[^\n]+$", block)


def _line_key(line: str) -> str | None:
    matched = _PROPERTY_LINE.fullmatch(line.rstrip("\r\n"))
    return matched.group(1).lower() if matched else None


def added_to_line(value: str, tags: Iterable[str]) -> str:
    """A ``tags::`` line's value with ``tags`` added in the line's own form: ``#rust #async``
    gains `` #tag`` (``#[[two words]]``), a comma-separated line ``, tag``."""
    hashtags = "," not in value and value.strip().startswith("#")
    written = value.rstrip()
    for tag in tags:
        if hashtags:
            written += f" #[[{tag}]]" if any(char in tag for char in " ,") else f" #{tag}"
        else:
            item = f"[[{tag}]]" if "," in tag else tag
            written = f"{written}, {item}" if written else item
    return written


def page_text(body: str) -> str:
    """The page below its property lines (and the blank line after them): what a memory
    remembered into a graph says, without the fields vaultmem keeps above it."""
    return body[property_block_end(body):].lstrip("\r\n")


def without_field_lines(body: str) -> str:
    """``body`` without the leading property lines that hold what vaultmem carries as the
    note's fields (its names, tags, id, layer, times, lineage) or Logseq hides (``id::``): what
    consolidate compares and carries over of a page. Else two memories remembered into a graph
    hold different numbers (``created:: 2026-…``) and are never merged, and a merged page's
    ``vaultmem-id::`` line would be appended to the kept page as text. A person's other
    properties (``type:: book``) stay: they are what the page says."""
    end = property_block_end(body)
    if end == 0:
        return body
    kept = [line for line in _block_lines(body[:end])
            if not (is_hidden_property(line.rstrip("\r\n")) or _line_key(line) in _NAMING_KEYS)]
    return "".join(kept) + body[end:]
