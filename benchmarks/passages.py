"""What the passage prototype indexes: a note's searchable fields and its passages.

The rules themselves are the product's (``vaultmem.passages``: splitting and what a
passage embeds; ``vaultmem.fields``: searchable properties); this module reads a set's
vault for the experiment and keeps its variants (no split, other sizes, no packing, what
is embedded):

- :func:`load_docs` reads a set's vault the way vaultmem scans it (hidden folders and the
  archive ignored; Obsidian's templates folder left out, as the brief says it is not a
  note) and turns each note into a :class:`Doc`: file name, title, aliases, headings,
  string properties (``[[links]]`` become their text), tags and body;
- :func:`split_passages` cuts a body as the product does, at a size of the experiment's;
- :func:`embed_text` is what a passage's vector is made from (the passage alone, or the
  title and heading path before it, with or without the properties).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from vaultmem.config import load_config
from vaultmem.errors import InvalidTimestamp
from vaultmem.fields import BOOKKEEPING_KEYS, property_texts, string_values
from vaultmem.lifecycle import is_expired
from vaultmem.notes import parse_note
from vaultmem.passages import embed_head, sections
from vaultmem.passages import embed_text as product_embed_text
from vaultmem.passages import split_passages as product_split
from vaultmem.paths import VaultPaths

__all__ = ["BOOKKEEPING_KEYS", "EMBED_VARIANTS", "Doc", "Passage", "Split", "embed_text", "load_docs", "make_doc",
           "property_texts", "sections", "split_passages", "template_folders"]


@dataclass(frozen=True)
class Doc:
    path: str
    name: str  # file name without .md
    folder: str  # vault-relative folder ("" at the root)
    title: str  # vaultmem's title
    aliases: tuple[str, ...]
    props: tuple[tuple[str, str], ...]  # (key, text) of string properties, links as text
    tags: tuple[str, ...]
    body: str
    expired: bool

    @property
    def note_embed_text(self) -> str:
        """What vaultmem embeds for the whole note (and keeps for consolidation)."""
        return f"{self.title}\n\n{self.body}"

    def props_text(self, with_keys: bool = True) -> str:
        return "\n".join(f"{key}: {value}" if with_keys else value for key, value in self.props)


@dataclass(frozen=True)
class Passage:
    doc: int  # index into the docs list
    headings: tuple[str, ...]  # heading path: the section's heading and its ancestors
    text: str
    number: int  # 0 for the note's first passage
    start_line: int  # where it is (1-based, in the body)
    end_line: int


@dataclass(frozen=True)
class Split:
    """How notes become passages. ``max_chars=None``: one passage per note."""

    name: str
    max_chars: int | None
    merge: bool = False  # pack consecutive small sections together up to max_chars


# ------------------------------------------------------------------ reading a vault


def load_docs(vault: Path, now: str | None, include_templates: bool = False) -> list[Doc]:
    paths = VaultPaths(vault, load_config(vault).archive_dir)
    found, _issues = paths.scan()
    templates = () if include_templates else template_folders(vault)
    docs = []
    for stat in found:
        if any(stat.path.startswith(folder + "/") for folder in templates):
            continue
        docs.append(make_doc(stat.path, (vault / PurePosixPath(stat.path)).read_bytes(), now))
    return docs


def template_folders(vault: Path) -> tuple[str, ...]:
    """The folders of Obsidian's Templates core plugin and of the Templater plugin."""
    folders = []
    for config, key in ((".obsidian/templates.json", "folder"), (".obsidian/plugins/templater-obsidian/data.json", "templates_folder")):
        file = vault / config
        if file.is_file():
            value = json.loads(file.read_text(encoding="utf-8")).get(key)
            if isinstance(value, str) and value.strip("/"):
                folders.append(value.strip("/"))
    return tuple(folders)


def make_doc(relative: str, raw: bytes, now: str | None) -> Doc:
    note = parse_note(relative, raw)
    folder, _, file_name = relative.rpartition("/")
    return Doc(
        path=relative, name=file_name.removesuffix(".md"), folder=folder,
        title=note.title, aliases=tuple(string_values(note.meta.get("aliases", note.meta.get("alias")))),
        props=tuple(property_texts(note.meta)), tags=tuple(note.tags), body=note.body,
        expired=_expired(note.meta.get("expires_at"), now),
    )


def _expired(expires_at: Any, now: str | None) -> bool:
    try:
        return is_expired(expires_at, now)
    except InvalidTimestamp:
        return False  # vaultmem: an unparseable expiry never expires (and is flagged)


# ------------------------------------------------------------------ passages


def split_passages(doc_index: int, body: str, split: Split) -> list[Passage]:
    """The note's passages as the product cuts them, at the split's size (and packing)."""
    return [Passage(doc_index, passage.headings, passage.text, passage.number, passage.start_line, passage.end_line)
            for passage in product_split(body, split.max_chars, pack=split.merge)]


# ------------------------------------------------------------------ what is embedded

EMBED_VARIANTS = ("passage", "context", "context+props")


def embed_text(doc: Doc, passage: Passage, variant: str) -> str:
    """``passage``: the text alone; ``context``: title and heading path, then the text
    (a one-passage note: exactly what vaultmem embeds for the whole note); ``context+props``
    (the product's): also the note's string properties, in its first passage."""
    if variant == "passage":
        return passage.text
    props = doc.props_text() if variant == "context+props" and passage.number == 0 else ""
    return product_embed_text(embed_head(doc.title, passage.headings, props), passage.text)
