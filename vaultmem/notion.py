"""Notion's Markdown export: the page id in every name, and the properties under the title.

Notion's "Markdown & CSV" export, opened as an Obsidian vault, names each page file and
folder with the page's 32-hex id after its name (``Agenda wc 13th Dec
dd939924cf624f7d9117a383ae71c81d.md``). The id is no part of the name a person knows: a note
is titled, and dated by its name, without it, so ``get "Agenda wc 13th Dec"`` finds the page
and a name's digits (``…16th Mar 4000a420…``) are no year 4000. A database page opens with its
``# Title`` and then its properties as ``Key: value`` lines, not YAML (``Created: December
13, 2021 7:54 PM``); the time it was created dates the note, as ``created`` would
(adr/0032-notion-exports.md). Pure functions over text.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from .month_names import month_number

# The page id Notion puts after a page's name: a space and 32 lowercase hex digits.
_PAGE_ID = re.compile(r" [0-9a-f]{32}$")
# Anywhere in a path: a name with a page id, before a `/` or the file's suffix (the quick
# question every path is asked: a vault that is no Notion export pays one search a path).
_PAGE_ID_IN_PATH = re.compile(r" [0-9a-f]{32}(?:/|\.[^/]*$|$)")
# One property line of a database page: a name (Notion allows spaces, brackets, `#`), a colon
# and a space, the value; a line with no `: ` is the page's text, not a property.
_PROPERTY_LINE = re.compile(r"([^\s:][^:\n]{0,80}?): (.*)")
# The names Notion gives the property a page was created at (the template's, the default), and
# the names a workspace in French, Spanish, German or Portuguese gives it (Notion exports in the
# workspace's language: `Créé le: 3 mars 2023 16:12`).
_CREATED_NAMES = frozenset({"created", "created time", "created at", "date created",
                            "créé le", "date de création", "fecha de creación", "creado", "creado el",
                            "erstellt am", "erstellt", "erstellungszeit", "criado em", "data de criação"})
# The length Notion cuts a page's name to in the file's name (before the page id).
_NAME_LIMIT = 50
# How Notion writes a time in English (its default): `December 13, 2021 7:54 PM`, `Apr 02, 2021 8:07 AM`.
_TIME_FORMATS = ("%B %d, %Y %I:%M %p", "%b %d, %Y %I:%M %p")
# How Notion writes a time in a workspace's language, the day first and the month by name:
# `21. Juli 2023 15:29` (German), `3 mars 2023 16:12` (French), `3 de marzo de 2023 16:12`
# (Spanish, Portuguese `3 de março de 2023 16:12`); a 12-hour clock's AM/PM too.
_DAY_FIRST_TIME = re.compile(r"(\d{1,2})\.? (?:de )?([^\W\d_]+\.?) (?:de )?(\d{4}),?"
                             r" (?:um |à |a las |a la |às )?(\d{1,2}):(\d\d)(?: ?([AaPp])\.? ?[Mm]\.?)?")


def without_page_id(name: str) -> str:
    """``name`` (a file name's stem or a folder's name) without the page id Notion put after
    it; unchanged when it has none, or is nothing else (a file named by an id alone)."""
    found = _PAGE_ID.search(name)
    return name if found is None or found.start() == 0 else name[: found.start()]


def is_notion_page(relative: str) -> bool:
    """Does the file's name carry a Notion page id (``Meeting notes 6f1e…e1f0.md``)?"""
    if _PAGE_ID_IN_PATH.search(relative) is None:
        return False
    stem = PurePosixPath(relative).stem
    return without_page_id(stem) != stem


def path_without_page_ids(relative: str) -> str:
    """The vault-relative path with the page id taken out of each of its names (the file's
    suffix kept): what a note is dated by its name from."""
    if _PAGE_ID_IN_PATH.search(relative) is None:
        return relative
    path = PurePosixPath(relative)
    folders = [without_page_id(part) for part in path.parent.parts]
    return str(PurePosixPath(*folders, without_page_id(path.stem) + path.suffix))


def page_properties(body: str) -> dict[str, str]:
    """The ``Key: value`` lines under a page's ``# Title`` line and one blank line, keys
    lower-cased, up to the next blank line or the end: ``{}`` when a line of that block is no
    property (it is the page's text) or the body opens otherwise."""
    found: dict[str, str] = {}
    for key, line in property_lines(body).items():
        matched = _PROPERTY_LINE.fullmatch(line.rstrip())
        if matched is not None:  # always: property_lines kept only lines that are properties
            found[key] = matched.group(2).strip()
    return found


def property_lines(body: str) -> dict[str, str]:
    """Each property of :func:`page_properties` (its key lower-cased) with its line as written."""
    lines = body.replace("\r\n", "\n").split("\n", 64)[:64]
    if len(lines) < 3 or not lines[0].startswith("# ") or lines[1].strip():
        return {}
    found: dict[str, str] = {}
    for line in lines[2:]:
        if not line.strip():
            break
        matched = _PROPERTY_LINE.fullmatch(line.rstrip())
        if matched is None:
            return {}
        found.setdefault(matched.group(1).strip().lower(), line.rstrip())
    return found


def held_property_line(relative: str, body: str, key: str) -> str | None:
    """The line a page Notion named holds the property ``key`` on (``Type: Sync with Martin``
    for ``type``, in any case), or None: the page has no such line, or is no Notion page."""
    if not is_notion_page(relative):
        return None
    return property_lines(body).get(key.strip().lower())


def notion_meta(relative: str, body: str) -> dict[str, Any]:
    """The frontmatter an exported page's properties stand for: ``created``, an ISO time, from
    its created-time property when it reads as a time; ``title``, its ``# Title`` line, when
    the file name is that title shortened (:func:`_page_title`). Only a file Notion named (its name
    carries a page id): another note's ``Created: …`` line is its text. The other properties
    stay text of the note, searchable and shown as Notion shows them."""
    if not is_notion_page(relative):
        return {}
    found: dict[str, Any] = {}
    title = _page_title(relative, body)
    if title is not None:
        found["title"] = title
    for key, value in page_properties(body).items():
        if key in _CREATED_NAMES:
            moment = _notion_time(value)
            if moment is not None:
                found["created"] = moment.isoformat()
                break
    return found


def _page_title(relative: str, body: str) -> str | None:
    """The page's name as its ``# Title`` line spells it, when the file name is that name as
    Notion shortens it (``:``, ``.`` and the like left out, cut at 50 characters): a hit titled
    ``Governance setup memberships, council, proposals t`` was ``# Governance setup:
    memberships, council, proposals to hire Content Lead, …``, and ``Weekly Sync 18 04 2022``
    was ``# Weekly Sync 18.04.2022``. None when the name is the heading already, or another name
    (a heading the person wrote that the file name does not spell)."""
    first = body.replace("\r\n", "\n").partition("\n")[0]
    if not first.startswith("# "):
        return None
    heading, name = first[2:].strip(), without_page_id(PurePosixPath(relative).stem)
    spelled, written = _letters(heading), _letters(name)
    if heading == name or not written:
        return None
    shortened = len(heading) > _NAME_LIMIT and spelled.startswith(written)
    return heading if spelled == written or shortened else None


def _letters(text: str) -> str:
    """A name's letters and digits alone, case folded: what Notion keeps of it in a file name."""
    return "".join(character for character in text.casefold() if character.isalnum())


def _notion_time(value: str) -> datetime | None:
    """A time as Notion writes it in English or, the day first, with a month named in another
    language (month_names); None for anything else (a date alone, no such day)."""
    for shape in _TIME_FORMATS:
        try:
            return datetime.strptime(value, shape)
        except ValueError:
            continue
    return _day_first_time(value)


def _day_first_time(value: str) -> datetime | None:
    """``21. Juli 2023 15:29``, ``3 de marzo de 2023 4:12 PM`` as a time, or None."""
    matched = _DAY_FIRST_TIME.fullmatch(value)
    month = None if matched is None else month_number(matched.group(2))
    if matched is None or month is None:
        return None
    day, year, hour, minute = (int(matched.group(index)) for index in (1, 3, 4, 5))
    half = (matched.group(6) or "").casefold()
    if half and not 1 <= hour <= 12:
        return None
    hour = hour % 12 + (12 if half == "p" else 0) if half else hour
    try:
        return datetime(year, month, day, hour, minute)
    except ValueError:
        return None
