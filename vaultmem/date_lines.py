"""The line at a note's top that says its date: ``Date de création : 2026-04-23`` (pure).

Notes made from a template often carry their date as a line of text under the title, not as a
property: ``Created: 2024-01-05``, ``**Date:** 5 January 2024``, ``- Date: [[2024-01-05]]``,
``_Date : 14 novembre 2025_``, ``Fecha: 05/01/2024``, ``Erstellt am: 05.01.2024``,
``Создано: 2024-01-05``, Dataview's ``created:: 2024-01-05``. Such a line is read only in the
note's **opening block**: its first lines before any prose, where only blank lines, one title
(a ``# Title``, or a heading of any level the note opens with: ``## Día 39``), tag lines
(``#finance #épargne``) and lines shaped ``<label> : <value>`` stand, a label perhaps after a
symbol (``📆 Fecha: 2025-07-12``). The first other line (prose, a ``---`` rule, a list of words,
a task, a subheading) ends it, so
"the date: we agreed on 5 May" in a paragraph never dates a note. At most
:data:`OPENING_LINES` lines are looked at: a note without such a block costs a line or two.

A line's label is a word that means the note's date or when it was created, in the languages
month_names.py reads (:data:`ABOUT_LABELS`, :data:`CREATED_LABELS`, compared in any case and
with or without accents), or a property name the vault's ``[dates]`` lists. Its value is read
by dating.py with the day parser of date properties. A label of a language that writes days
before months (every one here but English) reads ``05.01.2024`` day first; an English label
(``Date``, ``Created``) reads a day and month in numbers only when one order is a day.
(adr/0026, "A date line at the note's top".) The same words name a frontmatter property that
dates a note (:func:`label_meaning`; dating.py rule 6: ``fecha: 2024-01-05``, ``Datum: 05.01.2024``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

OPENING_LINES = 16  # lines of a body looked at, at most, blank ones included
CLOSING_LINES = 8  # of its last lines, at most (YARLE writes two to six)
_LINE_CHARS = 200  # a longer line is prose, not a label and a value
# A symbol a template puts before a label (`📆 Fecha:`, `🗓️ Date:`, `⏰ Created:`): pictographs, dingbats,
# arrows and technical symbols with their variation selectors, joiners and keycaps. Letters, digits,
# `[` and `#` are none of them, so a task line (`- [ ] pay rent 📅 2026-12-05`) is never a label.
_SYMBOLS = "(?:[\u2190-\u2bff\u3030\u303d\U0001f000-\U0001faff\ufe0e\ufe0f\u200d\u20e3]{1,8}[ \t]*)?"
# A label and its value: an optional list dash, a symbol, bold or italics around the label (or the
# whole line), one or two colons (Dataview's inline field), bold closed after the colon (`**Date:**`).
# The label is a few words (letters first; digits, spaces, ' . - / inside), bounded so matching
# a line costs its length.
_FIELD_LINE = re.compile(
    r"(?:[-*+][ \t]+)?" + _SYMBOLS + r"[*_]{0,3}" + _SYMBOLS
    + r"(?P<label>[^\W\d_](?:[^\W_]|[ '’./-]){0,39}?)[ \t]*[*_]{0,3}[ \t]*::?"
    r"(?:[ \t]+|(?=[*_])|$)[*_]{0,3}[ \t]*(?P<value>.*)")
_TITLE_LINE = re.compile(r"#[ \t]+\S.*")  # the note's `# Title`
_HEADING_LINE = re.compile(r"#{1,6}[ \t]+\S.*")  # any heading: the title when it opens the note
_TAG_LINE = re.compile(r"(?:#[^\s#][^\s]*[ \t]*)+")  # `#finance #bitcoin`: tags, no words
_NON_BLANK = re.compile(r"\S")
_RULE_LINE = re.compile(r"(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}")  # a thematic break: ---, ***, ___
_EMPHASIS = "*_ \t"

# What day the note is about (read before a created line, as a `date` property is read first).
# (Japanese 日付, Chinese 日期 and Korean 날짜 too: those languages' days in numbers are read, _CJK_DATE.)
ABOUT_LABELS = frozenset({"date", "fecha", "datum", "data", "дата", "tarih", "日付", "日期", "날짜"})
# When it was written: English, French, Spanish, German, Portuguese, Italian, Russian, Ukrainian, Turkish,
# Japanese, Chinese, Korean.
CREATED_LABELS = frozenset({
    "created", "created on", "created at", "date created", "created date", "creation date",
    "date de création", "créé le", "créée le", "créé", "créée", "création",
    "fecha de creación", "creado", "creado el", "creada", "creada el", "creación",
    "erstellt", "erstellt am", "erstellungsdatum", "erstelldatum", "angelegt", "angelegt am",
    "data de criação", "criado", "criado em", "criada", "criada em", "criação",
    "data di creazione", "creato", "creato il", "creata", "creata il", "creazione",
    "создано", "создан", "создана", "дата создания",
    "створено", "створений", "дата створення",
    "oluşturulma", "oluşturulma tarihi", "oluşturma tarihi", "oluşturuldu",
    "作成日", "作成日時", "创建日期", "创建时间", "創建日期", "建立日期", "작성일", "생성일"})
# English writes a day in numbers month first (01/05/2024 is January 5th) as often as day first.
_ENGLISH_LABELS = frozenset({"date", "created", "created on", "created at", "date created", "created date",
                             "creation date"})


@dataclass(frozen=True)
class DateLine:
    """A line of a note's opening block whose label says a date: the label as written (without
    its markup), its value (without bold or italics around it), whether it says when the note
    was created rather than what day it is about, whether its language writes a day before its
    month, and its line in the body (1 is the first)."""

    label: str
    value: str
    written: bool
    day_first: bool
    line: int
    closing: bool = False  # a line of the closing block (_closing_created_lines), not the opening one


@functools.lru_cache(maxsize=4096)
def label_key(label: str) -> str:
    """A label as labels are compared: case folded, without accents, spaces as one. Cached: the
    same few property names and line labels are asked of every note (twice each by a reconcile's
    note_date and date_problems), 0.4 s of a cold index of 10,000 notes uncached."""
    decomposed = unicodedata.normalize("NFD", label.casefold())
    unaccented = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(unicodedata.normalize("NFC", unaccented).split())


_ABOUT_KEYS = frozenset(label_key(label) for label in ABOUT_LABELS)
_CREATED_KEYS = frozenset(label_key(label) for label in CREATED_LABELS)
_ENGLISH_KEYS = frozenset(label_key(label) for label in _ENGLISH_LABELS)


@dataclass(frozen=True)
class LabelMeaning:
    """What a built-in label says: when the note was created (``written``) rather than what day it
    is about, and whether its language writes a day before its month (every one here but English)."""

    written: bool
    day_first: bool


def label_meaning(label: str) -> LabelMeaning | None:
    """What ``label`` means when it is one of :data:`ABOUT_LABELS` or :data:`CREATED_LABELS` (in any
    case, accents typed or not: ``Fecha``, ``Datum``, ``fecha de creacion``); None for any other.
    A label that means both (none does) is read as the note's day."""
    key = label_key(label)
    if key not in _ABOUT_KEYS and key not in _CREATED_KEYS:
        return None
    return LabelMeaning(written=key not in _ABOUT_KEYS, day_first=key not in _ENGLISH_KEYS)


def date_lines(body: str, about: tuple[str, ...] = (), created: tuple[str, ...] = ()) -> list[DateLine]:
    """The lines of the body's opening block whose label says a date, in order: the built-in
    labels, and ``about`` and ``created`` (the property names the vault's ``[dates]`` lists); then
    the created lines of its closing block (:func:`_closing_created_lines`)."""
    about_keys = _ABOUT_KEYS | {label_key(name) for name in about}
    created_keys = _CREATED_KEYS | {label_key(name) for name in created}
    found = []
    # The common note has no label anywhere near its top: its opening block is not read.
    opening = _opening_fields(body) if ":" in body[:_LINE_CHARS * OPENING_LINES] else iter(())
    for number, label, value in opening:
        key = label_key(label)
        if key in about_keys or key in created_keys:
            meaning = label_meaning(label)
            day_first = meaning is not None and meaning.day_first
            found.append(DateLine(label, value, key not in about_keys, day_first, number))
    return found + _closing_created_lines(body, created_keys)


def _closing_created_lines(body: str, created_keys: frozenset[str]) -> list[DateLine]:
    """The lines of the body's **closing block** that say when it was created: Evernote notes
    exported by YARLE with its default template end with ``    Created at: 2018-10-06T09:43:49+01:00``
    and ``    Updated at: …`` under the text, and were undated (a trial on an Evernote export).
    The block is the note's last lines, each ``<label>: <value>`` (indented or not), under a blank
    line or under a rule that ends the text (``---`` / ``Created: 2026-03-01``, an Obsidian footer:
    :func:`_closing_rule`); only a created label counts there: a closing ``Date:`` may be a letter's or a form's
    (a day the note is about is said at its top), a ``Created at:`` says only when it was written."""
    tail = body[-_LINE_CHARS * CLOSING_LINES:]
    if ":" not in tail:
        return []
    trimmed = body.rstrip()
    start = trimmed.rfind("\n", 0, max(len(trimmed) - _LINE_CHARS * (CLOSING_LINES + 1), 0)) + 1
    lines = trimmed[start:].split("\n")  # whole lines only: a long note is not split for its tail
    above = trimmed.count("\n", 0, start)  # lines before the tail, for each line's number in the body
    fields: list[DateLine] = []
    for index in range(len(lines) - 1, max(len(lines) - 1 - CLOSING_LINES, -1), -1):
        text = lines[index].strip()
        field = _FIELD_LINE.fullmatch(text) if text and len(text) <= _LINE_CHARS else None
        if field is None:
            # A block under a blank line: a label line in the last paragraph of prose is prose's.
            # Or under a rule that closes the text (an Obsidian footer: `---` / `Created: …`).
            closed = not text or _closing_rule(lines, index, trimmed, start)
            return fields if closed and index < len(lines) - 1 else []
        label = field["label"].strip()
        if label_key(label) in created_keys:
            meaning = label_meaning(label)
            fields.insert(0, DateLine(label, field["value"].strip(_EMPHASIS), True,
                                      meaning is not None and meaning.day_first, above + index + 1, closing=True))
    return []  # only label lines, or more than CLOSING_LINES of them: no closing block


def _closing_rule(lines: list[str], index: int, body: str, start: int) -> bool:
    """Is ``lines[index]`` a thematic break (``---``, ``***``, ``___``) that ends the note's text,
    a footer of labels under it (``---`` / ``Created: 2026-03-01``, as Obsidian users end notes)?
    Only under a blank line, with text above that: ``---`` right under a line of text is that
    line's heading (Markdown's setext underline), and a ``---`` with nothing but blank lines above
    it opens what reads as frontmatter (one that did not load, or a second block), whose
    ``Created:`` is a property's, never a footer's."""
    if not _RULE_LINE.fullmatch(lines[index].strip()):
        return False
    if index == 0 and start == 0:
        return False  # the body's first line
    # The line above the rule, in the tail or just before it (body[start - 1] ends that line).
    line_above = lines[index - 1] if index else body[body.rfind("\n", 0, start - 1) + 1:start - 1]
    text_above = any(line.strip() for line in lines[:index]) or _NON_BLANK.search(body, 0, start) is not None
    return text_above and not line_above.strip()


def _opening_fields(body: str) -> Iterator[tuple[int, str, str]]:
    """Each ``label: value`` line of the opening block: its number, label and value."""
    titled = opened = False
    for number, line in enumerate(_first_lines(body, OPENING_LINES), start=1):
        text = line.strip()
        if not text or _TAG_LINE.fullmatch(text):
            continue
        # The title: a `# Title`, or any heading the note opens with (a journal's `## Día 39` over
        # its `📆 Fecha:` line). A heading after another, or after a label, is a section's and ends
        # the block: a `Date:` under `# Offsite` then `## Details` is that section's.
        if not titled and (_TITLE_LINE.fullmatch(text) or (not opened and _HEADING_LINE.fullmatch(text))):
            titled = opened = True
            continue
        opened = True
        field = _FIELD_LINE.fullmatch(text) if len(text) <= _LINE_CHARS else None
        if field is None:
            return  # prose, a rule, a subheading: the opening block ends here
        yield number, field["label"].strip(), field["value"].strip(_EMPHASIS)


def _first_lines(text: str, count: int) -> Iterator[str]:
    """The first ``count`` lines of ``text``, without splitting the whole of a long note."""
    start = 0
    for _ in range(count):
        end = text.find("\n", start)
        if end == -1:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1
