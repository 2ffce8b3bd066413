"""Links between notes: the grammar Obsidian resolves, and rewriting links to moved notes.

Three forms link one note to another: ``[[wikilinks]]`` (and ``![[embeds]]``), Markdown
links ``[text](note.md)`` and reference-style definitions ``[label]: note.md``; an Obsidian
canvas (``.canvas``, JSON) links through its file cards and the Markdown of its text
cards. A target resolves as Obsidian resolves it (see :class:`LinkRedirects`); code
blocks and spans are not links (``markdown.code_ranges``).

Pure functions over text: consolidation asks :func:`rewrite_links` and
:func:`rewrite_canvas` for a file's new text and writes it itself. What is and is not
rewritten is listed in adr/0010-consolidation.md.
"""

from __future__ import annotations

import bisect
import json
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from .exclusions import is_dendron_vault
from .fields import name_fold
from .markdown import code_ranges
from .note_numbers import leading_number, number_kind
from .notes import path_without_suffix

_WIKILINK = re.compile(r"\[\[([^\[\]\r\n]+?)\]\]")
# [text](destination "title"), the destination in <…> when it has spaces; not \[escaped].
_MARKDOWN_LINK = re.compile(
    r"(?<!\\)!?\[(?:[^\[\]\r\n]|\[[^\[\]\r\n]*\])*\]\([ \t]*(<[^<>\r\n]+>|(?:[^\s()<>]|\([^\s()<>]*\))+)"
    r"(?:[ \t]+(?:\"[^\"\r\n]*\"|'[^'\r\n]*'|\([^()\r\n]*\)))?[ \t]*\)"
)
# A reference-style link's definition, on a line of its own: [label]: destination "title"
# ([^1]: … is a footnote, not a link).
_LINK_DEFINITION = re.compile(
    r"^[ ]{0,3}\[(?!\^)[^\[\]\r\n]+\]:[ \t]*(<[^<>\r\n]+>|[^\s<>]+)"
    r"(?:[ \t]+(?:\"[^\"\r\n]*\"|'[^'\r\n]*'|\([^()\r\n]*\)))?[ \t]*\r?$"
)
_LINK = re.compile(f"{_WIKILINK.pattern}|{_MARKDOWN_LINK.pattern}|{_LINK_DEFINITION.pattern}", re.MULTILINE)
# A canvas card's "file" (a vault path) or "text" (Markdown) as a JSON string literal.
_CANVAS_STRING = re.compile(r'"(file|text)"(\s*:\s*)("(?:[^"\\\r\n]|\\.)*")')
_SURROGATE = re.compile("[\ud800-\udfff]")
_UNDECODED = re.compile("[\udc80-\udcff]")  # what surrogateescape makes of bytes that are not UTF-8
_ESCAPED_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")  # every surrogate but those
_URL_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


class LinkRedirects:
    """Which link targets point at a merged note, and the target to write instead.

    A target resolves as Obsidian resolves it: ``name`` by file name (case-insensitive:
    ``fields.name_fold``, as resolution's file-name step compares names),
    ``folder/name`` by the end of the path; ``.md`` is optional in a wikilink. A Markdown
    link's path is tried relative to its note, then from the vault root, then as a name. A
    name that several notes share is ambiguous and is left alone (and reported). A target that
    no note is named but that is a Zettelkasten timestamp id or a Johnny.Decimal id
    (``[[202403141205]]``, ``[[11.01]]``: note_numbers.py) is the note whose file name begins with
    it, as Zettlr and The Archive resolve it and as ``get`` does (resolution's step 7).
    """

    def __init__(self, note_paths: Iterable[str], redirects: Mapping[str, str], label_first: bool = False) -> None:
        self.redirects = dict(redirects)  # merged path → canonical path
        self.label_first = label_first  # a Dendron vault: [[label|target]] (see labels_first)
        self.by_name: dict[str, list[str]] = {}
        self.linked: set[str] = set()  # the merged notes a rewrite found a link to (linked_notes)
        self.by_path: dict[str, list[str]] = {}
        self.by_number: dict[str, list[str]] = {}  # a Zettelkasten or Johnny.Decimal id → the notes named with it
        for path in note_paths:
            self.by_name.setdefault(name_fold(_stem(path)), []).append(path)
            self.by_path.setdefault(name_fold(path), []).append(path)
            if (number := leading_number(path)) is not None:
                self.by_number.setdefault(number, []).append(path)

    def candidates(self, target: str) -> list[str]:
        key = target.strip().replace("\\", "/").lstrip("/")
        key = name_fold(key[:-3] if key.lower().endswith(".md") else key)
        if not key:
            return []
        paths = self.by_name.get(key.rsplit("/", 1)[-1], [])
        if "/" not in key:
            # Was: only a note named `202403141205.md` answered, so consolidate left Zettlr's
            # `[[202403141205]]` pointing at the archived zettel while `[[… Title]]` was rewritten.
            return paths or (self.by_number.get(key, []) if number_kind(key) is not None else [])
        return [path for path in paths if (bare := name_fold(path_without_suffix(path))) == key or bare.endswith("/" + key)]

    def resolve_path(self, target: str, source: str) -> tuple[list[str], str]:
        """The notes a Markdown link's ``target`` (a ``.md`` path) from ``source`` can mean, and how
        it was written: ``relative`` to the linking note, from the vault ``root``, or a bare ``name``.
        Obsidian's order: relative first, then from the root, then by name."""
        if target.startswith("/"):
            return self.by_path.get(name_fold(posixpath.normpath(target.lstrip("/"))), []), "root"
        relative = posixpath.normpath(posixpath.join(posixpath.dirname(source), target))
        if target.startswith(("./", "../")) or name_fold(relative) in self.by_path:
            return self.by_path.get(name_fold(relative), []), "relative"
        if found := self.by_path.get(name_fold(posixpath.normpath(target))):
            return found, "root"
        return self.candidates(target), "name"

    def new_path(self, canonical: str, target: str, source: str, style: str) -> str:
        """The canonical as a Markdown link from ``source``, written the way ``target`` was —
        unless that would resolve to another note; then relative with ``./`` or ``../``,
        which resolves only one way."""
        relative = posixpath.relpath(canonical, posixpath.dirname(source) or ".")
        if style == "relative":
            written = "./" + relative if target.startswith("./") and not relative.startswith("../") else relative
        elif style == "root":
            written = "/" + canonical if target.startswith("/") else canonical
        else:
            written = self.new_target(canonical, target) + ".md"
        found, _style = self.resolve_path(written, source)
        if [path for path in found if path not in self.redirects] == [canonical]:
            return written
        return relative if relative.startswith("../") else "./" + relative

    def new_target(self, canonical: str, target: str) -> str:
        """The canonical as a link target, written as ``target`` (the merged note's) was: its
        name if ``target`` had no folder and the name is unique once the merged notes are gone,
        else its path — with Windows' backslashes when ``target`` wrote its folders so
        (``[[work\\Old]]`` → ``[[work\\Kept]]``, as Obsidian on Windows resolves it). Was: the
        link lost its folder (``[[Kept]]``), a link the person had written with one."""
        windows = "\\" in target and "/" not in target
        number = self._number_for(canonical, target.strip())
        if number is not None:
            return number
        alive = [path for path in self.by_name.get(name_fold(_stem(canonical)), []) if path not in self.redirects]
        if not (windows or "/" in target) and alive == [canonical]:
            return _stem(canonical)
        written = path_without_suffix(canonical)
        return written.replace("/", "\\") if windows else written


    def _number_for(self, canonical: str, target: str) -> str | None:
        """The canonical's own number, for a link that named the merged note by its number
        (``[[202403141300]]`` → ``[[202403141205]]``), when that number names it alone; else None."""
        number = leading_number(canonical)
        if number is None or number_kind(target) is None or number_kind(number) != number_kind(target):
            return None
        alive = [path for path in self.candidates(number) if path not in self.redirects]
        return number if alive == [canonical] else None


def labels_first(root: Path) -> bool:
    """Whether the vault at ``root`` is Dendron's: its wikilinks then read ``[[label|target]]``.

    Without this, consolidating a Dendron vault left ``[[Variant|lang.cpp.std.variant]]``
    pointing at the archived note (it read "Variant" as the target). Dendron writes a labelled
    wikilink label first, where Obsidian writes ``[[target|label]]``."""
    return is_dendron_vault(root)


def labels_last(text: str) -> str:
    """Dendron's labelled wikilinks in ``text`` written Obsidian's way, ``[[label|name]]`` →
    ``[[name|label]]``, code left alone. Each link keeps its length, so every offset and line
    of ``text`` still holds: a snippet reads the result as it reads an Obsidian note, and
    shows a link by its label, as Dendron does (it showed the link's target)."""
    if "[[" not in text:
        return text
    code = code_ranges(text)
    starts = [start for start, _ in code]

    def swap(match: re.Match[str]) -> str:
        at = bisect.bisect_right(starts, match.start()) - 1
        label, bar, link = match.group(1).rpartition("|")
        if not bar or label.endswith("\\") or (at >= 0 and match.start() < code[at][1]):
            return match.group(0)
        return f"[[{link}|{label}]]"

    return _WIKILINK.sub(swap, text)


def _stem(path: str) -> str:
    return PurePosixPath(path).stem  # note paths always end in .md


def split_link(inner: str) -> tuple[str, str]:
    """``name#heading|label`` → (``name``, ``#heading|label``); ``name\\|label`` (in a table) too."""
    cut = min((position for position in (inner.find("#"), inner.find("|")) if position != -1), default=len(inner))
    target, rest = inner[:cut], inner[cut:]
    if target.endswith("\\") and rest.startswith("|"):
        target, rest = target[:-1], "\\" + rest
    return target, rest


def _wikilink_parts(inner: str, label_first: bool) -> tuple[str, str, str]:
    """A wikilink's inside as (what comes before its target, target, what follows it):
    Obsidian's ``name#heading|label`` → ("", name, "#heading|label"); Dendron's
    ``label|name#heading`` → ("label|", name, "#heading")."""
    if not label_first:
        return ("", *split_link(inner))
    label, bar, link = inner.rpartition("|")
    return (label + bar, *split_link(link))


def rewrite_links(text: str, redirects: LinkRedirects, source: str = "") -> tuple[str, list[str]]:
    """``text`` (of the note at ``source``) with every wikilink, embed and Markdown link to a
    merged note aimed at its canonical, keeping heading and label; also the ambiguous targets
    that were left alone. Code spans are not links."""
    if "[[" not in text and "](" not in text and "]:" not in text:
        return text, []  # no link of any kind: the common case, skipped cheaply
    code = code_ranges(text)
    starts = [start for start, _ in code]
    ambiguous: list[str] = []

    def replace(match: re.Match[str]) -> str:
        at = bisect.bisect_right(starts, match.start()) - 1
        if at >= 0 and match.start() < code[at][1]:
            return match.group(0)
        if match.group(2) is not None:
            return _rewrite_markdown_link(match, 2, redirects, source, ambiguous)
        if match.group(3) is not None:
            if not _may_start_definition(text, match.start()):
                return match.group(0)  # inside a paragraph: prose that looks like a definition
            return _rewrite_markdown_link(match, 3, redirects, source, ambiguous)
        label, target, rest = _wikilink_parts(match.group(1), redirects.label_first)
        found = redirects.candidates(target)
        if len(found) > 1 and any(path in redirects.redirects for path in found):
            ambiguous.append(target)
        if len(found) != 1 or found[0] not in redirects.redirects:
            return match.group(0)
        redirects.linked.add(found[0])
        canonical = redirects.redirects[found[0]]
        new_target = redirects.new_target(canonical, target)
        if canonical == source and not _labelled(label, rest):
            # The canonical's own link to a note merged into it would read as its own name
            # ("Supersedes part of: [[<this note>]]"): the name it named stays, as the label.
            return _self_link(new_target, target, rest, redirects.label_first, _in_table_row(text, match.start()))
        return f"[[{label}{new_target}{rest}]]"

    return _LINK.sub(replace, text), ambiguous


def linked_notes(text: str, redirects: LinkRedirects, source: str) -> set[str]:
    """The notes of ``redirects.redirects`` that ``text`` (of the note at ``source``) links to,
    each link resolved as :func:`rewrite_links` resolves it (an ambiguous one links to none)."""
    redirects.linked = set()
    rewrite_links(text, redirects, source)
    return redirects.linked


def _labelled(label: str, rest: str) -> bool:
    """Whether a wikilink shows a label (Dendron's before its target, Obsidian's after ``|``)."""
    return bool(label) or "|" in rest


def _in_table_row(text: str, at: int) -> bool:
    """Whether the line holding ``at`` is a Markdown table's row: a label's ``|`` is ``\\|`` there."""
    return text[text.rfind("\n", 0, at) + 1:at].lstrip().startswith("|")


def _self_link(new_target: str, old_target: str, rest: str, label_first: bool, in_table: bool) -> str:
    """A link to the note it is written in, showing ``old_target`` (the merged note's name)."""
    bar = "\\|" if in_table else "|"
    if label_first:
        return f"[[{old_target.strip()}{bar}{new_target}{rest}]]"
    return f"[[{new_target}{rest}{bar}{old_target.strip()}]]"


def rewrite_canvas(text: str, redirects: LinkRedirects, source: str) -> tuple[str, list[str]]:
    """An Obsidian canvas (JSON) with its file cards that show a merged note, and the links in
    its text cards, aimed at the canonical. Only those string values change; the rest of the
    JSON (order, spacing, escapes) stays as written."""
    ambiguous: list[str] = []

    def replace(match: re.Match[str]) -> str:
        key, separator, literal = match.groups()
        raw_bytes = _UNDECODED.search(literal) is not None  # bytes that are not UTF-8, as read
        try:
            value = json.loads(literal)
        except ValueError:
            return match.group(0)  # not a JSON string after all: leave it to Obsidian
        if key == "file":
            new = redirects.redirects.get(value, value)
        else:
            new, found = rewrite_links(value, redirects, source)
            ambiguous.extend(found)
        if new == value:
            return match.group(0)
        # A lone surrogate (half an emoji, which JSON.stringify writes as "\ud83d") cannot be
        # written as UTF-8: keep it escaped. Bytes that were not UTF-8 in the file come back
        # as they were (surrogateescape), so those stay raw.
        surrogates = _ESCAPED_SURROGATE if raw_bytes else _SURROGATE
        literal = surrogates.sub(lambda half: f"\\u{ord(half.group()):04x}", json.dumps(new, ensure_ascii=False))
        return f'"{key}"{separator}{literal}'

    return _CANVAS_STRING.sub(replace, text), ambiguous


Rewrite = Callable[[str, LinkRedirects, str], tuple[str, list[str]]]


def _may_start_definition(text: str, start: int) -> bool:
    """A link definition cannot interrupt a paragraph: the line before must be blank, a
    heading, another definition, a fence, or the start of the note (CommonMark)."""
    if start == 0:
        return True
    line_start = text.rfind("\n", 0, start - 1) + 1
    previous = text[line_start : start - 1].strip()
    return not previous or previous.startswith(("#", "```", "~~~", "---")) or _LINK_DEFINITION.match(previous) is not None


def _rewrite_markdown_link(match: re.Match[str], group: int, redirects: LinkRedirects, source: str, ambiguous: list[str]) -> str:
    """``[text](merged.md#heading "title")`` → the same link to the canonical; anything else as it is."""
    destination = match.group(group)
    angled = destination.startswith("<")
    path, hash_sign, fragment = (destination[1:-1] if angled else destination).partition("#")
    target = unquote(path)
    if not target or _URL_SCHEME.match(target):
        return match.group(0)  # a heading in this note, a web address, another app's link
    # Obsidian also resolves a note without its extension: [x](Note) is Note.md.
    with_suffix = target.lower().endswith(".md")
    note_target = target if with_suffix else target + ".md"
    found, style = redirects.resolve_path(note_target, source)
    if len(found) > 1 and any(found_path in redirects.redirects for found_path in found):
        ambiguous.append(target)
    if len(found) != 1 or found[0] not in redirects.redirects:
        return match.group(0)  # not a merged note (an attachment such as x.png lands here)
    redirects.linked.add(found[0])
    new_path = redirects.new_path(redirects.redirects[found[0]], note_target, source, style)
    new_path = new_path if with_suffix else new_path[: -len(".md")]
    written = f"<{_link_escape(new_path, angled)}{hash_sign}{fragment}>" if angled else f"{_link_escape(new_path, angled)}{hash_sign}{fragment}"
    start, end = match.start(group) - match.start(), match.end(group) - match.start()
    return match.group(0)[:start] + written + match.group(0)[end:]


_ESCAPE_ANGLED = {ord("%"): "%25", ord("#"): "%23", ord("<"): "%3C", ord(">"): "%3E"}
_ESCAPE_BARE = {**_ESCAPE_ANGLED, ord(" "): "%20", ord("("): "%28", ord(")"): "%29"}


def _link_escape(path: str, angled: bool) -> str:
    """What a link destination cannot hold, percent-encoded as Obsidian writes it: ``#``
    would start a heading, and a bare destination also ends at a space or parenthesis."""
    return path.translate(_ESCAPE_ANGLED if angled else _ESCAPE_BARE)
