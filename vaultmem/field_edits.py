"""Edit a note's fields where its app keeps them: every writer that changes a note's fields
(revise, ``remember --supersedes``, ``check --fix``, ``consolidate --apply``) goes through here.

- A page of a Logseq graph (``logseq/config.edn``) without YAML frontmatter: its ``key:: value``
  page-property lines (logseq.edit_fields). YAML written above them would be a second block,
  shown by Logseq as the text of the page's first block (adr/0028-logseq-graphs.md).
- Every other note, and a graph's page that has YAML frontmatter: its YAML frontmatter
  (noteio.edit_frontmatter), as before.

Every other byte of the file stays as it was, either way. (A property written only in the note's
text, ``speaker:: Caroline``, is no field of these: revise changes it on its line, adr/0019.) Which way is decided by the file's
shape and the vault, once, here: a writer that decides it for itself is one that forgets the graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .config import is_logseq_graph
from .logseq import edit_fields as edit_page_properties
from .noteio import edit_frontmatter, split_bom
from .notes import BOM, Note


def writes_properties(root: Path, note: Note) -> bool:
    """Are ``note``'s fields written as page-property lines in the vault at ``root``
    (:func:`in_graph_properties`)?"""
    return in_graph_properties(is_logseq_graph(root), note)


def in_graph_properties(graph: bool, note: Note) -> bool:
    """Are ``note``'s fields written as page-property lines: a page of a Logseq graph (``graph``)
    with no frontmatter block. A page with YAML keeps its fields there: Logseq reads that block
    too, and a second block is what this avoids."""
    return graph and not note.has_frontmatter


def edit_fields(raw: bytes, set_values: Mapping[str, Any], remove: Iterable[str] = (), *,
                in_properties: bool) -> bytes:
    """``raw`` with frontmatter keys ``set_values`` set and ``remove`` removed, in its page
    properties when ``in_properties`` (:func:`writes_properties`), else in its YAML frontmatter.
    :class:`FrontmatterError` (not naming the file: the caller does) when it cannot be edited."""
    if not in_properties:
        return edit_frontmatter(raw, set_values, remove)
    bom, text = split_bom(raw)  # FrontmatterError for a file that is not UTF-8
    return ((BOM if bom else "") + edit_page_properties(text, set_values, remove)).encode("utf-8")
