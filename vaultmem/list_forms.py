"""A list value written back in the form the person wrote it (adr/0006).

``tags: [a, b]`` stays a flow list, a block list keeps its indentation and dash, and
``tags: a, b`` (or ``a b``) stays a string separated the same way — tags are read from
such a string (notes.tags_of), so it holds a list. Items that stay keep their text as
written (their quotes, a ``#``, a number unquoted) and load as they did: a tag is matched
as tags_of reads it (``"#rezept"`` is the tag ``rezept``), any other item by its value.
New items are written as noteio writes a value — a tag added where every tag is written
``#tag`` (``tags: "#a #b"``, ``["#a", "#b"]``) is written so too, and in a list whose items
are all double-quoted a new item that needs quotes gets double quotes.

A block list keeps its comments: comment lines stay where they are, an item that stays
keeps the comment after it, a removed item's own comment goes with it; emptied, it is
``key: []`` with its comment lines after it.

Pure: :func:`in_same_form` takes the key's lines and what they load as, and returns the
new lines and what they will load as — or ``None`` when the form cannot hold the new
value (a multi-line flow list, a tag with a space for a string, a block list whose items
span lines or change order around a comment line); noteio then writes the key anew, in
Obsidian's style, or refuses when a comment would be lost.
Every result is loaded back here and must read as intended, so a form that parses
differently than it looks falls back instead of writing something else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .notes import YAML_LOAD_ERRORS, load_yaml_mapping

# Keys whose text value vaultmem reads as items separated by commas or spaces (notes.tags_of).
SEPARATED_KEYS = frozenset({"tags"})

_REST = re.compile(r"[ \t]*(?:#.*)?")  # what may follow a value on its line: space, a comment
_FLOW_ITEM = re.compile(r"""[ \t]*("(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|[^,\[\]{}"'\s#][^,\[\]{}\n]*?)[ \t]*([,\]])""")
_BLOCK_ITEM = re.compile(r"([ \t]*)-(?:([ \t]+)(\S.*?))?[ \t]*")  # `  - item`, or an empty `  -`
_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^']|'')*'""")
_PLAIN_WITH_COMMENT = re.compile(r"(.*?)([ \t]+#.*)?")
_SEPARATOR = re.compile(r"[,\s]+")
_FLOW_INDICATORS = frozenset(",[]{}#")
_MISSING = object()  # an item text that does not load


@dataclass(frozen=True)
class Rewritten:
    text: str  # the key's new lines, each ending in a newline
    loads_as: Any  # what YAML reads from them: the new list, or the string that holds it


def in_same_form(key: str, lines: Sequence[str], value_start: int, old: Any, new: Any,
                 render_item: Callable[[Any], str]) -> Rewritten | None:
    """``key``'s entry (``lines``; its value starts at ``value_start`` of the first line),
    which loads as ``old``, rewritten to hold the list ``new`` in the same form."""
    if not isinstance(new, list) or not lines:
        return None
    head, value = lines[0][:value_start], lines[0][value_start:].rstrip("\n")
    same = _same_tag if key in SEPARATED_KEYS else _same
    if key in SEPARATED_KEYS:
        new = _in_tag_style(old, new)
    if len(lines) == 1 and isinstance(old, list):
        rewritten = _flow(head, value, old, new, render_item, same)
    elif len(lines) == 1 and isinstance(old, str) and key in SEPARATED_KEYS:
        rewritten = _separated(head, value, old, new)
    elif len(lines) > 1 and isinstance(old, list) and _REST.fullmatch(value):
        rewritten = _block(head, value, lines, old, new, render_item, same)
    else:
        return None
    return rewritten if rewritten is not None and _reads_as(rewritten) else None


def _reads_as(rewritten: Rewritten) -> bool:
    try:
        loaded = load_yaml_mapping(rewritten.text)
    except YAML_LOAD_ERRORS:
        return False
    return isinstance(loaded, dict) and len(loaded) == 1 and _same(next(iter(loaded.values())), rewritten.loads_as)


def _same(left: Any, right: Any) -> bool:
    """Equal and of the same type (``1 == True`` in Python; not in a note)."""
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(_same(a, b) for a, b in zip(left, right, strict=True))
    return type(left) is type(right) and left == right


def _same_tag(written: Any, wanted: Any) -> bool:
    """The same tag as notes.tags_of reads it: ``"#rezept"`` and ``2024`` are the tags
    ``rezept`` and ``2024`` that the new list names, and stay as the person wrote them."""
    return _tag(written) == _tag(wanted)


def _tag(item: Any) -> str:
    return str(item).strip().lstrip("#").strip()


def _in_tag_style(old: Any, new: list[Any]) -> list[Any]:
    """``new`` with each added tag written ``#tag`` when every tag there was is written so
    (``tags: "#a #b"``): a trial's ``revise --tag x`` wrote ``"#a #b x"``, a style the
    person never used. Tags that stay are matched without their ``#`` (_same_tag)."""
    written = _SEPARATOR.split(old.strip()) if isinstance(old, str) else old if isinstance(old, list) else []
    items = [item for item in written if item not in ("", None)]
    if not items or not all(isinstance(item, str) and item.strip().startswith("#") for item in items):
        return new
    return [item if not isinstance(item, str) or item.startswith("#") or any(_same_tag(known, item) for known in items)
            else f"#{item}" for item in new]


def _rendered_like(texts: Sequence[str], render_item: Callable[[Any], str]) -> Callable[[Any], str]:
    """``render_item``, but with double quotes where it would single-quote a new item, when
    every item written there is double-quoted (``["#a", "#b"]`` gains ``"#c"``, not ``'#c'``)."""
    if not texts or any(not text.startswith('"') for text in texts):
        return render_item

    def render(item: Any) -> str:
        text = render_item(item)
        return json.dumps(item, ensure_ascii=False) if isinstance(item, str) and text.startswith("'") else text
    return render


def _in_new_order(kept: Sequence[tuple[str, Any]], new: Sequence[Any], fresh: Callable[[Any], str],
                  same: Callable[[Any, Any], bool] = _same) -> list[tuple[str, Any]]:
    """The texts of ``new`` and what each loads as: an item that was there (``kept``: its
    text, what it loads as; ``same`` as the item of ``new``) keeps its text as written, and
    loads as it did; another is written by ``fresh``."""
    unused = list(kept)
    chosen: list[tuple[str, Any]] = []
    for item in new:
        match = next((pair for pair in unused if same(pair[1], item)), None)
        if match is None:
            chosen.append((fresh(item), item))
        else:
            unused.remove(match)
            chosen.append(match)
    return chosen


def _loaded(key: str, wrapped: str) -> Any:
    """What one item's text loads as, given in the context it stands in (``[text]``, ``- text``)
    under its own ``key`` (``tags:``): a name's items are text as written (notes.TEXT_KEYS), so
    under another key ``- 2024`` loaded as a number where the note holds the tag "2024", and a
    revise wrote the person's ``2024`` anew as ``'2024'``."""
    try:
        loaded = load_yaml_mapping(f"{key} {wrapped}")
    except YAML_LOAD_ERRORS:
        return _MISSING
    items = next(iter(loaded.values())) if isinstance(loaded, dict) and len(loaded) == 1 else None
    return items[0] if isinstance(items, list) and len(items) == 1 else _MISSING


def _kept(head: str, texts: Sequence[str], values: Sequence[Any], wrapper: str) -> list[tuple[str, Any]] | None:
    """Each text with its value, if the texts load as exactly ``values`` (else the parse was wrong)."""
    key = head.rstrip(" \t")  # `tags:`, as the person wrote it
    if len(texts) != len(values) or not all(_same(_loaded(key, wrapper.format(text)), value)
                                            for text, value in zip(texts, values, strict=True)):
        return None
    return list(zip(texts, values, strict=True))


# ---------------------------------------------------------------- key: [a, b]


def _flow(head: str, value: str, old: list[Any], new: list[Any], render_item: Callable[[Any], str],
          same: Callable[[Any, Any], bool]) -> Rewritten | None:
    parsed = _flow_parts(value)
    kept = _kept(head, parsed.texts, old, "[{}]") if parsed is not None else None
    if parsed is None or kept is None:
        return None
    render = _rendered_like(parsed.texts, render_item)
    chosen = _in_new_order(kept, new, lambda item: _flow_item(item, render), same)
    texts = [text for text, _value in chosen]
    inside = f"{parsed.pad}{parsed.separator.join(texts)}{parsed.pad}" if texts else ""
    return Rewritten(f"{head}{parsed.lead}[{inside}]{parsed.rest}\n", [value for _text, value in chosen])


@dataclass(frozen=True)
class _FlowList:
    lead: str  # the space between the key and `[`
    texts: list[str]  # each item as written
    separator: str  # between items, as written (", " when there were fewer than two)
    pad: str  # the space inside the brackets: `[ a, b ]`
    rest: str  # after `]`: space, a comment


def _flow_parts(value: str) -> _FlowList | None:
    """A flow list on one line, or ``None`` for anything else (nested, over several lines,
    an empty item: the fallback writes those anew)."""
    stripped = value.lstrip(" \t")
    if not stripped.startswith("["):
        return None
    lead = value[: len(value) - len(stripped)]
    position = len(lead) + 1
    inner = value[position:]
    if inner.lstrip(" \t").startswith("]"):
        rest = inner.lstrip(" \t")[1:]
        return _FlowList(lead, [], ", ", "", rest) if _REST.fullmatch(rest) else None
    pad = inner[: len(inner) - len(inner.lstrip(" \t"))]
    texts: list[str] = []
    separators: list[str] = []
    while (match := _FLOW_ITEM.match(value, position)) is not None:
        if texts:
            separators.append(value[position - 1 : match.start(1)])  # the comma and the space after it
        texts.append(match.group(1))
        position = match.end()
        if match.group(2) == "]":
            rest = value[position:]
            return _FlowList(lead, texts, separators[0] if separators else ", ", pad, rest) if _REST.fullmatch(rest) else None
    return None


def _flow_item(item: Any, render_item: Callable[[Any], str]) -> str:
    """A new item inside `[...]`, where a plain `,` `[` `]` `{` `}` would end or open something."""
    text = render_item(item)
    if not isinstance(item, str) or text[:1] in "'\"" or not (_FLOW_INDICATORS & set(text)):
        return text
    return json.dumps(item, ensure_ascii=False)


# ---------------------------------------------------------------- key:\n  - a\n  - b


def _block(head: str, value: str, lines: Sequence[str], old: list[Any], new: list[Any],
           render_item: Callable[[Any], str], same: Callable[[Any, Any], bool]) -> Rewritten | None:
    """Items that stay keep their lines (a comment after one too), comment lines and blank
    lines stay where they are, a removed item's line goes with its own comment, and new
    items follow the last item. ``None`` when that cannot be done: noteio then writes the
    key anew — or refuses, if a comment would be lost."""
    body = [line.rstrip("\n") for line in lines[1:]]
    items = [(number, _BLOCK_ITEM.fullmatch(line)) for number, line in enumerate(body) if not _blank_or_comment(line)]
    matches = [match for _number, match in items if match is not None]
    if not matches or len(matches) != len(items) or len({match.group(1) for match in matches}) != 1:
        return None  # an item over several lines, uneven indents: not ours to rebuild
    loaded = _kept(head, [match.group(3) or "" for match in matches], old, "\n  - {}")
    if loaded is None:
        return None
    kept = [(match.group(0), item) for match, (_text, item) in zip(matches, loaded, strict=True)]
    others = len(body) > len(items)
    if not new:
        return _emptied(head, value, body)
    gap = next((match.group(2) for match in matches if match.group(2)), " ")
    render = _rendered_like([match.group(3) or "" for match in matches], render_item)
    chosen = _in_new_order(kept, new, lambda item: f"{matches[0].group(1)}-{gap}{render(item)}", same)
    position = {id(pair): index for index, pair in enumerate(kept)}  # chosen holds the kept pairs themselves
    order = [position.get(id(pair)) for pair in chosen]
    staying = [index for index in order if index is not None]
    fresh = chosen[len(staying):]
    if staying != sorted(staying) or any(index is None for index in order[: len(staying)]):
        # Reordered: a comment line's place among the items is lost. Without one, the new order.
        return None if others else Rewritten(lines[0] + "".join(f"{line}\n" for line, _item in chosen), _values(chosen))
    item_lines = {number: index for index, (number, _match) in enumerate(items)}
    last_item = items[-1][0]
    out: list[str] = []
    for number, line in enumerate(body):
        index = item_lines.get(number)
        if index is None or index in staying:
            out.append(line)
        if number == last_item:
            out.extend(text for text, _item in fresh)
    return Rewritten(lines[0] + "".join(f"{line}\n" for line in out), _values(chosen))


def _blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _emptied(head: str, value: str, body: Sequence[str]) -> Rewritten:
    """A block list has no empty form: ``key: []``, its comment lines after it."""
    key = head.rstrip(" \t")
    after = (head[len(key):] + value) if value.strip() else ""  # the key's own comment, spaced as written
    comments = [f"{line}\n" for line in body if line.strip().startswith("#")]
    return Rewritten(f"{key} []{after}\n" + "".join(comments), [])


def _values(chosen: Sequence[tuple[str, Any]]) -> list[Any]:
    return [item for _text, item in chosen]


# ---------------------------------------------------------------- key: a, b


def _separated(head: str, value: str, old: str, new: list[Any]) -> Rewritten | None:
    """A string of tags: the same separator, quotes and comment; kept tags as written."""
    if not all(isinstance(item, str) and item and not _SEPARATOR.search(item) for item in new) or not new:
        return None  # a tag with a space or a comma cannot be one item of the string
    scalar = _scalar_parts(value)
    if scalar is None:
        return None
    lead, quote, rest = scalar
    tokens = [token for token in _SEPARATOR.split(old.strip()) if token]
    found = _SEPARATOR.search(old.strip())
    # One tag: `#a` is joined as hashtags are (`#a #b`), a plain `a` with a comma.
    separator = found.group() if found else " " if tokens and tokens[0].startswith("#") else ", "
    text = separator.join(token for token, _tag in _in_new_order([(token, token) for token in tokens], new, str, _same_tag))
    # Plain as it was, unless the new text reads otherwise plain (then single-quoted).
    candidates = (Rewritten(f"{head}{lead}{_quoted(text, style)}{rest}\n", text) for style in (quote, "'"))
    return next((candidate for candidate in candidates if _reads_as(candidate)), None)


def _scalar_parts(value: str) -> tuple[str, str, str] | None:
    """(space before the value, its quote ('', "'" or '"'), what follows it) of a one-line scalar."""
    stripped = value.lstrip(" \t")
    lead = value[: len(value) - len(stripped)]
    quoted = _QUOTED.match(stripped)
    if quoted is not None:
        rest = stripped[quoted.end():]
        return (lead, stripped[0], rest) if _REST.fullmatch(rest) else None
    plain = _PLAIN_WITH_COMMENT.fullmatch(stripped)
    return (lead, "", plain.group(2) or "") if plain is not None and plain.group(1) else None


def _quoted(text: str, quote: str) -> str:
    if quote == "'":
        return "'" + text.replace("'", "''") + "'"
    if quote == '"':
        return json.dumps(text, ensure_ascii=False)
    return text
