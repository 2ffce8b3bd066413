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
from pathlib import Path

from .exclusions import TEMPLATER_SOURCE, TEMPLATES_SOURCE, Exclusions

log = logging.getLogger(__name__)
MAX_TEMPLATES = 500  # template files read: a templates folder is a few dozen
MAX_TEMPLATE_BYTES = 256 * 1024  # a template larger than this is read no further
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
    return template_keys(texts)
