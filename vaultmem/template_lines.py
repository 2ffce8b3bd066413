"""The lines a note shares with the vault's templates, which are the template's, not the note's.

A person's notes made from one template (Templater's folder or the core Templates plugin's,
exclusions.py) all carry its headings, prompts and placeholders. Two such notes that say
little of their own stand close to each other for a vector of their whole text: in a trial,
seven notes of one "My Notes" template on seven topics (a book's idea, a quote, an empty
stub) clustered at 0.89–0.96 and ``consolidate --any-note`` would have merged six into the
seventh. Consolidation measures such notes again on their own lines (consolidate.py); a
line is compared as :func:`line_key` gives it, so ``> prompt`` in a note written from an older
``* prompt`` of the template is still the template's.

Reading the templates is the only effect here (:func:`read_template_lines`); the rest is pure.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from .exclusions import TEMPLATER_SOURCE, TEMPLATES_SOURCE, Exclusions

log = logging.getLogger(__name__)
MAX_TEMPLATES = 500  # template files read: a templates folder is a few dozen
MAX_TEMPLATE_BYTES = 256 * 1024  # a template larger than this is read no further
MAX_FILLED_LINE_CHARS = 1000  # a note's line longer than this is never a template's line with placeholders filled
# What opens a line and is markup, not words: quote, list and task markers, heading marks.
_MARKERS = re.compile(r"^(?:[>#*+\-]+[ \t]*|\d{1,9}[.)][ \t]+|\[[ xX]\][ \t]*)+")
_WORD = re.compile(r"\w")


def line_key(line: str) -> str:
    """``line`` as it is compared with a template's: markers and spaces at its ends dropped;
    ``""`` for a line without a word (a rule, a bare marker, a blank line)."""
    key = _MARKERS.sub("", line.strip()).strip()
    return key if _WORD.search(key) else ""


def template_keys(texts: Collection[str]) -> frozenset[str]:
    """The :func:`line_key` of every line of the templates' ``texts`` that has a word."""
    return frozenset(key for text in texts for line in text.splitlines() if (key := line_key(line)))


def own_text(body: str, keys: frozenset[str]) -> str:
    """``body`` without the lines a template holds (:func:`template_keys`)."""
    return "\n".join(line for line in body.splitlines() if line_key(line) not in keys)


def holds_template_lines(body: str, keys: frozenset[str]) -> bool:
    return bool(keys) and any(line_key(line) in keys for line in body.splitlines())


def read_template_lines(root: Path, exclusions: Exclusions, named_notes: Sequence[str] = ()) -> frozenset[str]:
    """:func:`template_keys` of the Markdown files in the vault's templates folders (as
    Obsidian's Templates and Templater settings name them), and of ``named_notes``: notes in a
    folder named for templates (notes.in_templates_folder) that no setting names — a trial's
    NPC notes, made from ``[assets]/templates/NPC.md`` while the Templates plugin pointed at a
    newer folder, stood at 0.81 by its prompts, and one of them clustered with the template
    itself. A file that cannot be read adds nothing, and a warning names it: notes alike only by
    its lines are then measured whole, as before templates were read (no merge is decided on a
    template alone)."""
    return template_keys(read_template_texts(root, exclusions, named_notes))


def read_template_texts(root: Path, exclusions: Exclusions, named_notes: Sequence[str] = ()) -> list[str]:
    """The text of each Markdown file in the vault's templates folders and of ``named_notes``
    (:func:`read_template_lines`); a file that cannot be read is left out, and a warning names it."""
    found: list[Path] = []
    folders = [rule.pattern for rule in exclusions.template_folders if rule.source in (TEMPLATES_SOURCE, TEMPLATER_SOURCE)]
    for folder in folders:
        base = root / folder
        if base.is_dir():
            found += sorted(path for path in base.rglob("*.md") if path.is_file())
    found += [root / relative for relative in sorted(named_notes)]
    texts: list[str] = []
    for path in found[:MAX_TEMPLATES]:
        try:
            with path.open("rb") as handle:
                texts.append(handle.read(MAX_TEMPLATE_BYTES).decode("utf-8", errors="replace"))
        except OSError as error:
            log.warning("template %s could not be read (%s): notes made from it are compared with its lines "
                        "counted as theirs", path.relative_to(root).as_posix(), error.strerror or error)
    return texts


# What a template fills in when a note is made from it: Templater's <% … %> (<%* … %> too) and
# the core Templates plugin's {{date}}, {{title}}, {{date:YYYY-MM-DD}}.
_PLACEHOLDER = re.compile(r"<%.*?%>|\{\{[^{}\n]*\}\}")


@dataclass(frozen=True)
class TemplateLines:
    """The lines of the vault's templates, as a note made from one holds them: a line is the
    template's when its :func:`line_key` is one of theirs, or reads as one of theirs with each
    placeholder filled in — a journal's ``[[Journal/<% tp.date.now(…) %>|Yesterday]] <== …``
    navigation line is ``[[Journal/2023-03-09|Yesterday]] <== …`` in every day's note."""

    keys: frozenset[str]
    filled: tuple[re.Pattern[str], ...]

    @classmethod
    def of(cls, texts: Collection[str]) -> TemplateLines:
        keys = template_keys(texts)
        # A line that is all placeholder (`{{title}}`, `<% tp.file.title %>`) would be every line.
        filled = {_filled_pattern(key) for key in keys
                  if _PLACEHOLDER.search(key) and _WORD.search(_PLACEHOLDER.sub("", key))}
        return cls(keys, tuple(re.compile(pattern) for pattern in sorted(filled)))

    def holds(self, line: str) -> bool:
        """Whether ``line`` is a template's (False for a line without a word: a blank line is no one's)."""
        key = line_key(line)
        if not key or key in self.keys:
            return bool(key)
        # A template's line is short; a longer one is the note's own, and is not read against
        # the patterns (each placeholder's .*? backtracks over the line).
        return len(key) <= MAX_FILLED_LINE_CHARS and any(pattern.fullmatch(key) for pattern in self.filled)


def _filled_pattern(key: str) -> str:
    """``key`` as a pattern its placeholders match anything on the line in (what they were filled
    with, or themselves left unfilled); the rest as written."""
    parts = _PLACEHOLDER.split(key)
    return ".*?".join(re.escape(part) for part in parts)
