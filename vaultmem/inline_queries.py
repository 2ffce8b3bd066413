"""Dataview's inline queries: code spans the plugin renders as a value, which are no words of the note.

With the Dataview plugin on (``.obsidian/community-plugins.json`` lists ``dataview``), a code
span whose text, trimmed, starts with its inline-query prefix (``inlineQueryPrefix`` in
``.obsidian/plugins/dataview/data.json``, ``=`` by default) or its JavaScript one
(``inlineJsQueryPrefix``, ``$=``) and has an expression after it shows the query's value in
reading view, not the code: `` `= this.file.name` ``, `` `$= dv.pages('#x').length` ``. Its
words are the query's ("this file name", "dv pages length") and made a note a hit for them
(a trial). They are left out of passages, vectors and snippets the way a query block is
(markdown.query_block_ranges, adr/0004); the file is not touched. A JavaScript span is hidden
whether or not JavaScript queries are enabled: Dataview then shows "(disabled; enable in
settings)" in its place, never the code. ``enableInlineDataview: false`` turns inline queries
off, and with the plugin off a span is code, shown and searched as written.

The settings are read where the other Obsidian settings are (paths.VaultPaths, adr/0026): a
change applies at the next command, or under ``watch`` at the next reconcile; the index keeps
the :attr:`InlineQueries.fingerprint` it was made under and reads every note again when it
changes. Settings that cannot be read are a problem (``vaultmem check``), and no span is hidden
meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .daily_format import COMMUNITY_PLUGINS
from .exclusions import read_settings
from .markdown import code_ranges, fenced_blocks
from .notes import Problem

DATAVIEW_ID = "dataview"
DATAVIEW_SETTINGS = ".obsidian/plugins/dataview/data.json"
DEFAULT_PREFIXES = {"inlineQueryPrefix": "=", "inlineJsQueryPrefix": "$="}  # Dataview's own defaults
_UNUSED = "Dataview's inline queries are searched as written meanwhile"


@dataclass(frozen=True)
class InlineQueries:
    """The prefixes of the vault's inline queries (none: Dataview is off, or shows none)."""

    prefixes: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def fingerprint(self) -> str:
        """What the index keeps to tell that the prefixes changed (``""``: none hidden)."""
        return json.dumps(list(self.prefixes), ensure_ascii=False) if self.prefixes else ""


NO_INLINE_QUERIES = InlineQueries()


def load_inline_queries(root: Path) -> InlineQueries:
    """The inline-query prefixes of the vault at ``root``. Mistakes are problems, never raised."""
    problems: list[Problem] = []
    plugins = read_settings(root, COMMUNITY_PLUGINS, problems, _UNUSED)
    if not isinstance(plugins, list) or DATAVIEW_ID not in plugins:
        # A list that cannot be read matters here only where Dataview's settings are.
        return InlineQueries(problems=tuple(problems) if (root / DATAVIEW_SETTINGS).exists() else ())
    settings = read_settings(root, DATAVIEW_SETTINGS, problems, _UNUSED)
    if settings is None and not problems:
        settings = {}  # never changed in Obsidian: the defaults
    if not isinstance(settings, dict):
        if settings is not None:
            problems.append(Problem(DATAVIEW_SETTINGS, "file", f"not a JSON object; {_UNUSED}",
                                    "let Obsidian write Dataview's settings again"))
        return InlineQueries(problems=tuple(problems))
    if settings.get("enableInlineDataview", True) is False:
        return InlineQueries()
    prefixes = [_prefix(settings, key, problems) for key in DEFAULT_PREFIXES]
    if problems:
        return InlineQueries(problems=tuple(problems))
    return InlineQueries(tuple(sorted({prefix for prefix in prefixes if prefix}, key=len, reverse=True)))


def _prefix(settings: dict[str, object], key: str, problems: list[Problem]) -> str:
    value = settings.get(key, DEFAULT_PREFIXES[key])
    if isinstance(value, str):
        return value
    problems.append(Problem(DATAVIEW_SETTINGS, key, f"{value!r:.40} is no text; {_UNUSED}",
                            "set the prefix again in Settings → Dataview"))
    return ""


def inline_query_ranges(text: str, prefixes: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each inline query of ``text`` — a code span, backticks included, whose
    text trimmed starts with one of ``prefixes`` and goes on past it — in order (none when
    ``prefixes`` is empty). A fenced block is no inline query."""
    if not prefixes or "`" not in text:
        return []
    blocks = set(fenced_blocks(text))
    return [(start, end) for start, end in code_ranges(text)
            if (start, end) not in blocks and _is_query(text[start:end].strip("`").strip(), prefixes)]


def _is_query(code: str, prefixes: Sequence[str]) -> bool:
    # As Dataview reads a span: the first prefix it starts with, and something after it
    # (a span of "=" alone stays code).
    prefix = next((prefix for prefix in prefixes if code.startswith(prefix)), None)
    return prefix is not None and bool(code[len(prefix):].strip())


def without_inline_queries(text: str, prefixes: Sequence[str], start: int = 0) -> str:
    """``text`` with each inline query from ``start`` on blanked, character for character (its
    line breaks kept): the same length, so every offset and line number past it holds."""
    ranges = inline_query_ranges(text[start:], prefixes)
    if not ranges:
        return text
    pieces = [text[:start]]
    position = start
    for first, last in ranges:
        pieces += [text[position:start + first], _blank(text[start + first:start + last])]
        position = start + last
    return "".join(pieces) + text[position:]


def _blank(span: str) -> str:
    return "".join(character if character in "\r\n" else " " for character in span)
