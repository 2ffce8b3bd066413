"""An Obsidian canvas (``*.canvas``, JSON Canvas) read as a note's text (pure; adr/0033 "Canvases").

A canvas is JSON: ``nodes`` (cards: ``text`` with Markdown in ``text``, ``file`` showing a
vault file, ``link`` showing a web page, ``group`` with a ``label``) and ``edges`` (arrows,
with an optional ``label``). What a person wrote on it is the Markdown of its text cards, its
groups' labels and its arrows' labels: :func:`canvas_text` gives them, in the file's order,
one paragraph each, as the text search, ``get`` and ``explain`` read. The JSON itself is
never written by a note's write (resolution.refuse_canvas); consolidation's link rewriting
edits its cards in place (links.rewrite_canvas).

A file that is not a canvas's JSON is read as empty, with a problem naming the file and
where the JSON breaks: searched as nothing, said by ``index`` and ``check``, never a crash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

CANVAS_SUFFIX = ".canvas"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
CANVAS_FIX = "repair its JSON, or restore it from git or a backup; until then vaultmem reads nothing on it"


def is_canvas_path(relative: str) -> bool:
    """A canvas file's vault-relative path (or name)."""
    return relative.endswith(CANVAS_SUFFIX)


def canvas_text(text: str) -> tuple[str, str | None]:
    """The written text of a canvas's JSON ``text``, and why it is none (``None``: it is a
    canvas). An empty file is an empty canvas: Obsidian creates a new one so."""
    if not text.strip():
        return "", None
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as error:
        return "", f"not a canvas's JSON: {error.msg.removesuffix(' at')} at line {error.lineno}, column {error.colno}"
    except RecursionError:
        return "", "not a canvas's JSON: nested too deeply to read"
    except ValueError as error:  # a number of more than 4,300 digits: Python's int limit, not json's syntax
        return "", f"not a canvas's JSON vaultmem can read: {error}"
    if not isinstance(loaded, Mapping):
        return "", f"not a canvas's JSON: {_json_kind(loaded)} where a canvas is an object with nodes and edges"
    parts: list[str] = []
    for key, written in (("nodes", _node_text), ("edges", _edge_text)):
        items = loaded.get(key, [])
        if not isinstance(items, Sequence) or isinstance(items, str):
            return "", f"not a canvas's JSON: its {key} are {_json_kind(items)}, not a list"
        parts += [part for item in items if isinstance(item, Mapping) for part in [written(item)] if part]
    # JSON may escape half an emoji (`"\\ud83d"`, as a cut-off string leaves it): no UTF-8 holds
    # it, and the index's write of the text failed on it. It reads as the replacement character.
    return _LONE_SURROGATE.sub("\ufffd", "\n\n".join(parts)), None


def _node_text(node: Mapping[str, Any]) -> str:
    """A card's written text: a text card's Markdown, a group's label (file and link cards
    show what is elsewhere: the note is searched as itself, the page is not the person's)."""
    kind = node.get("type")
    value = node.get("text") if kind == "text" else node.get("label") if kind == "group" else None
    return value.strip("\n") if isinstance(value, str) and value.strip() else ""


def _edge_text(edge: Mapping[str, Any]) -> str:
    label = edge.get("label")
    return label.strip("\n") if isinstance(label, str) and label.strip() else ""


def _json_kind(value: object) -> str:
    """What a JSON value is, with its article: ``an object``, ``a list``."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return "null" if value is None else "a boolean" if isinstance(value, bool) else "a number"
