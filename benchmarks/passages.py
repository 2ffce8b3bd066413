"""What the passage prototype indexes: a note's searchable fields and its passages (pure).

This is the part of ``proto_passages`` the product would port, kept apart from the
experiment so it reads as a specification:

- :func:`load_docs` reads a set's vault the way vaultmem scans it (hidden folders and the
  archive ignored; Obsidian's templates folder left out, as the brief says it is not a
  note) and turns each note into a :class:`Doc`: file name, title, aliases, headings,
  string properties (``[[links]]`` become their text), tags and body;
- :func:`split_passages` cuts a body into heading sections, then cuts a section longer
  than ``max_chars`` into groups of paragraphs of at most ``max_chars``; a body of at
  most ``max_chars`` stays one passage;
- :func:`embed_text` is what a passage's vector is made from (the passage alone, or the
  title and heading path before it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from vaultmem.config import load_config
from vaultmem.errors import InvalidTimestamp
from vaultmem.lifecycle import is_expired
from vaultmem.markdown import code_ranges
from vaultmem.notes import parse_note
from vaultmem.paths import VaultPaths

# Frontmatter keys vaultmem or Obsidian use for bookkeeping: not text a person searches.
# (tags, aliases and title have columns of their own.)
LIFECYCLE_KEYS = frozenset({
    "layer", "expires_at", "created", "updated", "modified", "id", "permanent", "tags", "tag",
    "aliases", "alias", "title", "superseded_by", "supersedes", "merged_from", "version",
    "cssclasses", "cssclass", "publish",
})
_HEADING_LINE = re.compile(r"^(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_LINK = re.compile(r"!?\[\[([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://\S+$", re.IGNORECASE)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Doc:
    path: str
    name: str  # file name without .md
    folder: str  # vault-relative folder ("" at the root)
    title: str  # vaultmem's title: `title` property, else first # heading, else the file name
    aliases: tuple[str, ...]
    props: tuple[tuple[str, str], ...]  # (key, text) of string properties, links as text
    tags: tuple[str, ...]
    body: str
    expired: bool

    @property
    def note_embed_text(self) -> str:
        """What vaultmem embeds today for the whole note (and keeps for consolidation)."""
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
    """How notes become passages. ``max_chars=None``: one passage per note (today)."""

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


def string_values(value: Any) -> list[str]:
    """A property's text: strings, and strings inside lists; links become their text."""
    if isinstance(value, str):
        text = link_text(value).strip()
        return [text] if text and not _URL.match(text) else []
    if isinstance(value, list):
        return [text for item in value for text in string_values(item)]
    return []


def link_text(value: str) -> str:
    """``[[Target|Alias]]`` → ``Alias``; ``[[Folder/Target#Part]]`` → ``Target``."""
    return _LINK.sub(lambda match: match.group(2) or PurePosixPath(match.group(1)).name, value)


def property_texts(meta: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    for key, value in meta.items():
        if key.lower() in LIFECYCLE_KEYS or isinstance(value, (bool, datetime, date)):
            continue
        texts = string_values(value)
        if texts:
            yield key, ", ".join(texts)


# ------------------------------------------------------------------ passages


@dataclass(frozen=True)
class Section:
    headings: tuple[str, ...]
    text: str
    start_line: int


def sections(body: str) -> list[Section]:
    """Heading sections in order (text before the first heading has no heading path).

    Headings inside code blocks are not headings. A section's text starts with its own
    heading line.
    """
    code = code_ranges(body)
    lines = body.split("\n")
    found: list[Section] = []
    path: list[tuple[int, str]] = []
    current: list[str] = []
    current_path: tuple[str, ...] = ()
    start_line = 1
    offset = 0
    code_index = 0
    for number, line in enumerate(lines, start=1):
        while code_index < len(code) and code[code_index][1] <= offset:
            code_index += 1
        in_code = code_index < len(code) and code[code_index][0] <= offset < code[code_index][1]
        heading = None if in_code or not line.startswith("#") else _HEADING_LINE.match(line)
        if heading:
            if "".join(current).strip():
                found.append(Section(current_path, "\n".join(current).strip("\n"), start_line))
            level = len(heading.group(1))
            path = [(lvl, text) for lvl, text in path if lvl < level] + [(level, heading.group(2).strip())]
            current_path = tuple(text for _, text in path)
            current = [line]
            start_line = number
        else:
            current.append(line)
        offset += len(line) + 1
    if "".join(current).strip():
        found.append(Section(current_path, "\n".join(current).strip("\n"), start_line))
    return found


def split_passages(doc_index: int, body: str, split: Split) -> list[Passage]:
    """The note's passages: the whole body when short, else sections cut to ``max_chars``."""
    limit = split.max_chars
    lines_total = body.count("\n") + 1
    if limit is None or len(body) <= limit:
        return [Passage(doc_index, (), body, 0, 1, lines_total)]
    chunks: list[tuple[tuple[str, ...], str, int]] = []
    for section in sections(body):
        for piece, line in _cut(section.text, limit, section.start_line):
            chunks.append((section.headings, piece, line))
    if split.merge:
        chunks = _packed(chunks, limit)
    if not chunks:
        return [Passage(doc_index, (), body, 0, 1, lines_total)]
    passages = []
    for number, (headings, text, line) in enumerate(chunks):
        passages.append(Passage(doc_index, headings, text, number, line, line + text.count("\n")))
    return passages


def _cut(text: str, limit: int, first_line: int) -> list[tuple[str, int]]:
    """Paragraph groups of at most ``limit`` characters (a longer paragraph by sentences,
    then by words); each with the body line it starts on."""
    if len(text) <= limit:
        return [(text, first_line)]
    pieces: list[tuple[str, int]] = []
    group: list[str] = []
    group_line = first_line
    line = first_line
    position = 0
    for match in [*_PARAGRAPH_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        paragraph = text[position:end]
        for part in _small_parts(paragraph, limit):
            if group and len("\n\n".join(group)) + 2 + len(part) > limit:
                pieces.append(("\n\n".join(group), group_line))
                group = []
            if not group:
                group_line = line
            group.append(part)
        line += paragraph.count("\n") + (match.group(0).count("\n") if match else 0)
        position = match.end() if match else len(text)
    if group:
        pieces.append(("\n\n".join(group), group_line))
    return [(piece.strip("\n"), start) for piece, start in pieces if piece.strip()]


def _small_parts(paragraph: str, limit: int) -> list[str]:
    if len(paragraph) <= limit:
        return [paragraph]
    parts: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        for word_group in _by_words(sentence, limit):
            if current and len(current) + 1 + len(word_group) > limit:
                parts.append(current)
                current = ""
            current = f"{current} {word_group}" if current else word_group
    if current:
        parts.append(current)
    return parts


def _by_words(sentence: str, limit: int) -> list[str]:
    if len(sentence) <= limit:
        return [sentence]
    parts, current = [], ""
    for word in sentence.split():
        if current and len(current) + 1 + len(word) > limit:
            parts.append(current)
            current = ""
        current = f"{current} {word}" if current else word
    return [*parts, current] if current else parts


def _packed(chunks: list[tuple[tuple[str, ...], str, int]], limit: int) -> list[tuple[tuple[str, ...], str, int]]:
    """Consecutive chunks joined while they fit in ``limit``; the first one's headings stay."""
    packed: list[tuple[tuple[str, ...], str, int]] = []
    for headings, text, line in chunks:
        if packed and len(packed[-1][1]) + 2 + len(text) <= limit:
            first_headings, first_text, first_line = packed[-1]
            packed[-1] = (first_headings, f"{first_text}\n\n{text}", first_line)
        else:
            packed.append((headings, text, line))
    return packed


# ------------------------------------------------------------------ what is embedded

EMBED_VARIANTS = ("passage", "context", "context+props")


def embed_text(doc: Doc, passage: Passage, variant: str) -> str:
    """``passage``: the text alone; ``context``: title and heading path, then the text
    (a one-passage note: exactly what vaultmem embeds today); ``context+props``: also the
    note's string properties, in its first passage."""
    if variant == "passage":
        return passage.text
    path = [heading for heading in passage.headings if heading != doc.title]
    head = " > ".join([doc.title, *path])
    if variant == "context+props" and passage.number == 0 and doc.props:
        head = f"{head}\n{doc.props_text()}"
    return f"{head}\n\n{passage.text}"
