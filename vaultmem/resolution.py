"""What a NOTE argument names, tried in a fixed order (adr/0019).

1. the note's id, its vault-relative path, or the path without ``.md``;
2. a bare file name in any case, unique in the vault (how ``[[name]]`` links name notes:
   Obsidian takes ``[[Kyoto]]`` and ``[[kyoto]]`` for one name, so ``References/Kyoto.md``
   and ``memories/kyoto.md`` are both named by either — ambiguous, never a guess);
3. an id listed in a note's ``merged_from`` (consolidate merged that note into it) or
   ``supersedes`` (``remember --supersedes`` retired it): the id an agent saved keeps
   working after the note it named was archived;
4. one of a note's aliases (``fields.aliases_of``: ``aliases`` or ``alias``, a list or a
   comma-separated string), in any case, unique in the vault; or its ``permalink``
   (basic-memory's and Obsidian Publish's address of the note, ``notes.permalink_names``): the
   whole (``decisions/lanesborough-protocol``, also as ``memory://decisions/…``) or, with
   folders, an end of it from a ``/`` on (``lanesborough-protocol``; ``decisions/x`` of
   ``project/decisions/x``), in any case, with or without ``.md``; or
   its citation key (``citekey: Koszegi2006b``, as a reference manager's import writes it:
   ``notes.CITEKEY_KEYS``), in any case, with or without the ``@`` of ``[@Koszegi2006b]``;
5. a note's title, in any case, unique in the vault (agents often hold a title);
6. a day written as ISO writes it (``2022-05-16``, or ``20220516`` in its basic format:
   note_numbers.compact_day): the note named for that day, by the vault's
   daily-note format (``Journal/16.05.2022.md``) where it has one, else by a day its file name
   spells (Logseq's ``journals/2022_05_16.md``); several are ambiguous. ``get 2022-05-16`` opened a daily note only
   where its file was named so (a trial on a Logseq graph);
7. a Zettelkasten's timestamp id (``202103131641``, 12 or 14 digits) or a Johnny.Decimal id
   (``11.01``, area-category and item): the note whose file name begins with it and no further
   digit, as Zettlr's ``[[202103131641]]`` links name it and a Johnny.Decimal index names
   ``11.01 Grant proposal.md``. Asked before titles (step 5): a note titled ``11.01`` answers beside
   it, never in its place (adr/0019, 2026-12-03);
8. the ``# heading`` a note opens with (``fields.opening_heading``: its body's first line that
   says anything, a level-one heading), in any case, unique in the vault: Foam titles a note so,
   and so does a person whose file names are ids or slugs (``walking-the-heap.md`` opening with
   ``# Walking the Heap``, Zettelkasten's ``202103131641.md`` with ``# On habits``). Last: a
   heading is the name a person reads at the note's top, but a ``# Clippings`` may open a page
   too, so every name the note's owner gave a note comes first (adr/0019, "heading").

The first step that matches decides: a later step is never asked to break a tie of an
earlier one. But a reference that is not an id or path given exactly is also compared with the
other notes' file names, aliases, permalinks, titles and opening headings (:func:`with_others`, two indexed lookups;
a path without ``.md`` with their permalinks alone, adr/0019 "permalink"): a read
takes the first step's note and names the others in its ``resolved_from``; a write refuses
(:func:`sole`, :class:`AmbiguousNote`) — unless the others answer only by their opening heading
and the note found by a name its owner gave it (:meth:`Resolution.blocking`) — ``forget 靠墙天使`` archived the person's
``靠墙天使.md`` when the agent meant its memory titled so (adr/0019, 2026-12-01).
A reference with white space around it is first taken as written (a file
`` leading space.md`` is a note of its own, which only that spelling names), and only when
nothing answers to it, stripped (:func:`spellings`, adr/0020): a name pasted with a stray space still
works, and the note with the space in its name is never shadowed by the one without. Steps 2, 4, 5 and 8 compare names case folded (``fields.name_fold``), as Obsidian
does: ``Job Search`` and ``job search`` are one name, so the notes going by either are
ambiguous together whichever spelling is asked for (a case that matches one of them does
not pick it). Ids and paths (steps 1 and 3) are compared exactly. Each step compares the
names as written first, then in Unicode NFC (``fields.name_form``): macOS names a file
``Cafe\u0301.md`` (decomposed), a person types ``Café`` — the same name, either way round. A
note whose name matches byte for byte (steps 2, 4, 5: once case folded) wins over one that
matches only once normalized; the row found carries the path as the file system spells
it, which is the one opened (step 8 stores the heading in NFC, case folded, so two notes whose
headings differ only in their Unicode form are ambiguous). Steps 3–8 say how they resolved (:class:`Resolution`), so a caller can tell
the agent that ``01J…`` now lives in ``people/Dana Reyes.md``. When several notes match
a step, those alive now win (a note that superseded another is alive, the one it
superseded is expired); more than one left is :class:`AmbiguousNote`.

:func:`locate` takes the steps against an index it first brings in line with the files
(or, for a write, takes as it last saw them), indexing a note file written a moment ago;
:func:`in_index` asks the index as it is (``explain``: nothing is indexed to find it).
"""

from __future__ import annotations

import itertools
import logging
import os
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote

from .canvas import is_canvas_path
from .dating import iso_spelling, name_day, since_bound
from .errors import (
    AmbiguousNote,
    ArchivedNote,
    Argument,
    ExcludedNote,
    LinkedOutNote,
    NoteNotFound,
    NoteReadError,
    PathOutsideVault,
    ReadOnlyCanvas,
    RemovedNote,
    SupersededReference,
    UsageError,
)
from .exclusions import Rule
from .fields import name_fold, name_form, name_key, opening_heading
from .jalali import YEARS as SOLAR_HIJRI_YEARS
from .jalali import gregorian_day
from .lifecycle import from_epoch_us, is_expired_us, resolve_now, to_epoch_us
from .month_names import month_number, only_calendar_words, weekday_days
from .note_numbers import JOHNNY_DECIMAL_KIND, TIMESTAMP_ID_KIND, begins_with_number, compact_day, file_name_id
from .notes import (
    ALIASES,
    CITEKEY,
    HEADING,
    PAGE_NAME,
    PERMALINK,
    SUCCESSOR_FIELDS,
    SUPERSEDES,
    citekey_form,
    content_hash,
    find_frontmatter,
    path_without_suffix,
    permalink_form,
    permalink_names,
    read_note,
    read_text,
    text_values,
)
from .ordered import unique
from .paths import NOTE_SUFFIX, PACKAGE_FOLDERS, is_note_name, is_other_note_format, other_format_reason
from .periods import Span
from .shown_titles import shown_title
from .storage import NoteRow, NoteStore
from .sync_copies import SyncCopy, copy_among, named_copy, tool_named_original
from .writer import archive_names

if TYPE_CHECKING:
    from .derived import DerivedIndex
    from .paths import VaultPaths

logger = logging.getLogger(__name__)

ARCHIVE_SCAN_FILES = 20_000  # archived files a NOTE that matched nothing is looked for among
TEMPLATE_SCAN_FILES = 2_000  # template files a bare name that matched nothing is looked for among
ARCHIVE_HEAD_CHARS = 2_000  # of each, where its id line is
# The kinds a note's aliases are stored under (fields.aliases_of reads them), and the name a
# Notion page titled by its heading keeps from its file name (notes.PAGE_NAME): names in any case.
ALIAS_FIELDS = (ALIASES, PAGE_NAME)

Found = TypeVar("Found")


FILE_NAME = "file name"  # a Resolution's via when a bare file name found the note and other notes answer too
PATH = "path"  # ... when its path without .md found it and another note has that as its permalink
RELATIVE_LINK = "relative link"  # ... when a link's `../` target found it by the end of its path
WAYS = {FILE_NAME: "its file name", PATH: "its path", ALIASES: "an alias", PERMALINK: "its permalink",
        CITEKEY: "its citekey", "title": "its title", "day": "the day its name is",
        "merged_from": "an id in its merged_from", TIMESTAMP_ID_KIND: "the timestamp id its file name begins with",
        JOHNNY_DECIMAL_KIND: "the Johnny.Decimal id its file name begins with", "supersedes": "an id in its supersedes", "old name": "its old name",
        HEADING: "its heading", "id": "its id", PAGE_NAME: "its file name without the page id",
        RELATIVE_LINK: "the end of its path (a link's '../' target)"}


@dataclass(frozen=True)
class Answering:
    """A note besides the one found that answers to the same reference, and by which of its
    names (``file name``, ``aliases``, ``permalink``, ``title``, ``heading``)."""

    path: str
    id: str
    by: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "id": self.id, "by": list(self.by)}

    def how(self) -> str:
        return " and ".join(WAYS[way] for way in self.by)


@dataclass(frozen=True)
class Resolution:
    """How a reference that is not the note's own id, path or file name found the note; or,
    ``others`` (via "file name" when its file name found it): the notes that answer to the
    reference too, by a name a later step would have compared (adr/0019, 2026-12-01)."""

    reference: str  # what the caller gave
    # "file name", "path", "merged_from", "supersedes", "aliases", "permalink", "citekey", "title", "day",
    # "timestamp id", "Johnny.Decimal id", "heading" or "link" (a symlinked note file's name: _by_link_name); "old name"
    # (a renamed note's, from git: gone.py)
    via: str
    others: tuple[Answering, ...] = ()
    # the note found is retired and the others are its successors: a write by the reference goes
    # to the last of them (resolution._with_successor), which answers to it by ``writes_by``
    writes_to: NoteRow | None = None
    writes_by: str = ""
    # via "supersedes" or "merged_from": the archived file of the note the reference (its id) named,
    # which get reads by that path (reading.view_note; resolution.archived_with_id)
    archived: str | None = None
    # via "id": the sync tools' copies of the note that hold its id too, each with what its name
    # says (sync_copies.py); the id names the original, for a read and a write (adr/0035)
    copies: tuple[tuple[str, str], ...] = ()
    # via "id": the note found is named as a sync tool's copy of this path, which is not in the
    # vault (forgotten, deleted): a read shows the copy and says so, a write by the id refuses
    orphan_of: str | None = None
    # with ``archived``: what of the archived note the reference was — its id, or its permalink
    # (resolution._by_merged_permalink)
    named_by: str = "id"

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"reference": self.reference, "via": self.via}
        if self.others:  # only then: a resolution without them keeps the shape it always had
            found.update(others=[other.as_dict() for other in self.others])
        if self.archived is not None:
            found.update(archived=self.archived)
        if self.copies:
            found.update(copies=[path for path, _ in self.copies])
        if self.orphan_of is not None:
            found.update(copy_of=self.orphan_of)
        if self.others or self.archived is not None or self.copies or self.orphan_of is not None:
            found.update(notice=self.notice())
        if self.writes_to is not None:
            found.update(writes_to=self.writes_to.path)
        return found

    def notice(self) -> str:
        """What a read says when other notes answer to the reference too, and where the note an
        id this note superseded or merged named is now ("" when neither)."""
        said = [self._others_notice()] if self.others else []
        if self.copies:
            said.append(self._copies_notice())
        if self.orphan_of is not None:
            said.append(self.orphan_notice())
        if self.archived is not None:
            # Without it `get <old id>` opened the successor, and the agent asking "what was it
            # before" had no way to the old text (a four-week agent trial).
            took = "superseded" if self.via == "supersedes" else "was merged from"
            said.append(f"{self.reference!r} is the {self.named_by} of the note this one {took}: that note was archived and is "
                        f"{self.archived} now; get reads it by that path (read-only)")
        return "; ".join(said)

    def orphan_notice(self) -> str:
        return (f"this file's name makes it a sync tool's copy of {self.orphan_of}, which is not in the vault (forgotten "
                "or deleted): it holds another device's version of that note, often the older; a write by the id "
                f"{self.reference!r} is refused — write to it by its path, or rename it to {self.orphan_of} to make it the note")

    def _copies_notice(self) -> str:
        copies = "; ".join(f"{path} ({what})" for path, what in self.copies)
        return (f"{copies} holds the id {self.reference!r} too: a sync tool kept another device's version of this note "
                "there, left as it is; a read or a write by the id acts on this note, the original. Compare the copy "
                "with it, keep the right text here and delete the copy (check lists it)")

    def _others_notice(self) -> str:
        if len(self.others) == 1:
            other = self.others[0]
            said = f"another note answers to {self.reference!r} by {other.how()}: {other.path}"
        else:
            said = (f"other notes answer to {self.reference!r} too: "
                    + ", ".join(f"{other.path} ({other.how()})" for other in self.others))
        if self.writes_to is not None:
            return f"{said}; it was superseded, and a write by that name goes to {self.writes_to.path}"
        if not self.blocking():
            return f"{said}; a write by that name acts on this note, whose own name it is, not on a heading"
        path = "path with .md" if self.via == PATH else "path"  # without it, the path is the name refused
        return f"{said}; a write by that name is refused: name the note by its {path} or id"

    def blocking(self) -> tuple[Answering, ...]:
        """The others that keep a write by the reference from acting: all of them, but a note that
        answers only by the ``# heading`` it opens with when the note found answers by a name
        its owner gave it (file name, alias, title…). A heading is the weakest name (step 8): a
        `# Kyoto` section opening a trip's note must not refuse every write to ``Kyoto.md``."""
        if self.via == HEADING:
            return self.others
        return tuple(other for other in self.others if set(other.by) - {HEADING})

    def __str__(self) -> str:
        if self.via == "day":
            return f"{self.reference!r} is the day its name is"
        if self.via == "id":
            return f"{self.reference!r} is its id"
        return f"{self.reference!r} resolved through its {self.via}"


@dataclass(frozen=True)
class Located:
    row: NoteRow
    resolved_from: Resolution | None = None


def locate(index: DerivedIndex, reference: str, now: object = None, *, refresh: bool = True) -> Located:
    """A NOTE argument → its index row, and how it was found when not by its own name
    (``Vault.locate``: the steps above, in order).

    ``refresh`` (reads): first bring the index in line with the files (adr/0021); without
    it (writes that compare against what the index last saw) the index is taken as it is.
    """
    *as_written, stripped = spellings(reference)
    for spelling in as_written:
        try:
            return _locate(index, spelling, now, refresh)
        except NoteNotFound:
            continue  # nothing answers to it with its spaces: the stripped spelling is asked next
    try:
        return _locate(index, stripped, now, refresh)
    except PathOutsideVault:
        found = _as_relative_link(index, stripped)
        if found is None:
            raise
        return found
    except NoteNotFound as missing:
        if type(missing) is not NoteNotFound:
            raise  # archived, excluded: already says where it is
        found = _as_windows_path(index, stripped, now, refresh) or _as_url_encoded(index, stripped, now, refresh)
        return found if found is not None else left_the_vault(index, reference, missing, now)


def _as_windows_path(index: DerivedIndex, reference: str, now: object, refresh: bool) -> Located | None:
    """The note a path written with Windows' backslashes names (``Work\\Ideas.md``, as Explorer
    copies it), when nothing answers to it as written: a vault synced from Windows was told
    "no note matches" for the path of a note it holds. None when the path names nothing either."""
    if "\\" not in reference:
        return None
    try:
        return _locate(index, reference.replace("\\", "/"), now, refresh)
    except NoteNotFound as missing:
        if type(missing) is not NoteNotFound:
            raise
        return None


# A percent escape as a Markdown link writes a character of a file name (`%20` a space, `%C3%A9` an é).
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def _as_url_encoded(index: DerivedIndex, reference: str, now: object, refresh: bool) -> Located | None:
    """The note a Markdown link's target names with its spaces and other characters escaped
    (``Proxy%20Product%20Owner%20Responsibilities%2023e5….md``, as a Notion export and
    Obsidian write a link), when nothing answers to it as written: an agent that read the link
    in a note and asked for its target was told "no note matches" beside the very note (a
    trial on a Notion export). None when it has no escape, or names nothing decoded either."""
    if _PERCENT_ESCAPE.search(reference) is None:
        return None
    decoded = unquote(reference)
    try:
        return _locate(index, decoded, now, refresh)
    except NoteNotFound as missing:
        if type(missing) is not NoteNotFound:
            raise
        return None


# A link's target climbing out of its note's folder: `../Ops/Backup.md`, `../../People/Lena.md`.
_CLIMBS = re.compile(r"(?:\.\./)+")


def _as_relative_link(index: DerivedIndex, reference: str) -> Located | None:
    """The note a Markdown link's ``../`` target names, when one note alone can be it:
    ``../Ops/Backup.md``, copied from a note in a subfolder, is relative to that note, which
    vaultmem is not given — but whatever folder it is read from, it ends in ``Ops/Backup.md``;
    a note whose path is or ends with that, the only one, is the target (an agent asking was
    told "resolves outside the vault" of a note in it). None when no note or several do; only
    the index is asked, nothing outside the vault is read. Escaped (``%20``) as written first."""
    climbs = _CLIMBS.match(reference)
    if climbs is None:
        return None
    if not index.is_indexed():
        index.ensure_indexed()
    rest = reference[climbs.end():]
    for spelling in unique([rest, unquote(rest)]):
        path = spelling if spelling.endswith(NOTE_SUFFIX) else spelling + NOTE_SUFFIX
        if not spelling or ".." in PurePosixPath(spelling).parts:
            return None
        rows = [row for row in index.store.notes.find_by_name(PurePosixPath(path).stem)
                if row.path == path or row.path.endswith("/" + path)]
        if len(rows) == 1:
            return Located(rows[0], Resolution(reference, RELATIVE_LINK))
        if rows:
            return None  # several: which folder the link was read from decides, and it is not known
    return None


def left_the_vault(index: DerivedIndex, reference: str, missing: NoteNotFound, now: object = None) -> Located:
    """A reference no live note answers to, asked of git (gone.py, as ``history`` asks it): the
    old path or name of a note a person renamed names it where it lives now (via "old name"),
    and one that was deleted or moved away raises :class:`RemovedNote`, saying where and in
    which commit. Without it an agent told "no note matches" for the id it was given took the
    id for wrong, not the memory for deleted; and a path it kept stopped working at a rename.

    "Deleted" is said only once a walk of the vault (:meth:`DerivedIndex.walk`) found no file
    the index had not read: a revise by id right after the person's rename was told "deleted"
    while the note lived on under its new name (a trial: the index had heard the old name leave
    and not yet the new one come, and git sees a deletion beside an untracked file) — and an
    agent told so remembers the note again, a duplicate."""
    from .gitops import is_repository

    if not is_repository(index.paths.root):
        _refuse_if_titled_in_archive(index.paths, reference)
        raise missing
    found = _removal_git_saw(index, reference, missing)
    if _unproven(index, found) and index.walk():
        again = _located_after_walk(index, reference, now)
        if again is not None:
            return again
        found = _removal_git_saw(index, reference, missing)
    return _where_it_went(index, reference, missing, found)


def _removal_git_saw(index: DerivedIndex, reference: str, missing: NoteNotFound) -> object:
    """gone.find_removed's answer: a ``Gone``, a ``RenamedTo`` or None."""
    from .gone import find_removed

    try:
        return find_removed(index.paths, index.store.notes, reference)[0]
    except AmbiguousNote:
        # Several removed notes had that name: no live note answers to it, and a write must
        # not act on a guess; "no note matches" stays the truth (history lists them).
        raise missing from None


def _unproven(index: DerivedIndex, found: object) -> bool:
    """Does git's answer rest on the index holding every note there is? A note said deleted, or
    moved to a file that is no note (the index does not hold it), or renamed to a path the index
    has not read: each may be a note the index has not heard of yet."""
    from .gone import Gone, RenamedTo

    if isinstance(found, RenamedTo):
        return _row_at(index, found.path) is None
    return isinstance(found, Gone) and not found.archived


def _located_after_walk(index: DerivedIndex, reference: str, now: object) -> Located | None:
    """The note the reference names in the index the walk brought in line, or None."""
    for spelling in spellings(reference):
        try:
            return _locate(index, spelling, now, refresh=False)
        except NoteNotFound as missing:
            if type(missing) is not NoteNotFound:
                raise  # archived, excluded: says where it is
    return None


def _where_it_went(index: DerivedIndex, reference: str, missing: NoteNotFound, found: object) -> Located:
    from .gone import Gone, RenamedTo

    if isinstance(found, RenamedTo):
        row = _row_at(index, found.path)
        if row is not None:
            return Located(row, Resolution(reference, "old name"))
    if not isinstance(found, Gone):
        _refuse_if_titled_in_archive(index.paths, reference)
        raise missing
    archived = archived_file_at(index.paths, found.moved_to) if found.archived and found.moved_to is not None else None
    raise RemovedNote(reference, found, index.paths.archive_dir, archived) from None


def _row_at(index: DerivedIndex, path: str) -> NoteRow | None:
    return next((row for row in index.store.notes.find(path) if row.path == path), None)


def spellings(reference: str) -> list[str]:
    """The spellings of a NOTE argument to try, in order: as written when white space surrounds
    it, then stripped. Without the first, `` leading space.md`` could never be named (every
    surface stripped it, and ``leading space.md`` answered instead); without the second, a
    name pasted with a trailing space or newline would name nothing. An empty or blank
    reference names nothing (:class:`NoteNotFound`)."""
    stripped = reference.strip()
    if not stripped:
        raise NoteNotFound(stripped)
    return [reference, stripped] if reference != stripped else [stripped]


def _locate(index: DerivedIndex, reference: str, now: object, refresh: bool) -> Located:
    """:func:`locate` for one spelling of the reference: the first step that matches, with the
    other notes that answer to it too (:func:`with_others`)."""
    located = _first_step(index, reference, now, refresh)
    now_us = to_epoch_us(resolve_now(now))
    return _with_successor(index, with_others(index.store.notes, reference, located, now_us), now_us)


def _first_step(index: DerivedIndex, reference: str, now: object, refresh: bool) -> Located:
    indexed = index.is_indexed()
    if indexed:
        if refresh:
            index.ensure_current()  # before the id match too: the row must be the file's as it is now
        else:
            index.ensure_indexed()
        by_id = [row for row in index.store.notes.find(reference) if row.id == reference]
        if len(by_id) == 1:
            return _lone_copy_said(index.store.notes, reference, by_id[0])
        if by_id and (original := _original_of_copies(index, reference, by_id)) is not None:
            return original
    moment_us = to_epoch_us(resolve_now(now))
    try:
        index.paths.resolve_inside(reference)  # '../x', '/etc/passwd', symlinks out: refused as given
    except PathOutsideVault:
        # Not a path in the vault; it may still be a merged id, an alias or a title. Only
        # the index is asked: nothing is read at the path it spells.
        located = (locate_by_names(index.store.notes, reference, moment_us)
                   or _by_heading(index.store.notes, reference, moment_us)) if indexed else None
        if located is None:
            refuse_if_linked_out(index.paths, reference)
            raise
        return located
    if not indexed:
        index.ensure_indexed()  # a first index: in line with the files as it is made
    notes = index.store.notes
    matches = as_written_else_nfc(lambda normalized: notes.find(reference, normalized=normalized))
    if not matches:
        _index_if_on_disk(index, reference)
        matches = direct_matches(notes, reference)
    if len(matches) > 1 and all(row.id == reference for row in matches):
        # a first index (the id step above asks an index made already): the same rule
        original = _original_of_copies(index, reference, matches)
        if original is not None:
            return original
    if matches:
        return Located(pick_direct(reference, matches, notes))
    located = (locate_by_names(notes, reference, moment_us) or _named_for_day(index, reference, moment_us)
               or _by_id_in_file_name(notes, reference, moment_us) or _by_heading(notes, reference, moment_us))
    if located is None:
        _refuse_if_excluded(index.paths, reference)
        located = _by_merged_permalink(index, reference, moment_us)
    if located is None:
        located = _by_link_name(index, reference)
    if located is None:
        located = archived_successor(index, reference, moment_us)
    if located is None:
        refuse_if_linked_out(index.paths, reference)
        refuse_if_named_link_out(index, reference)
        _refuse_if_linked(index.paths, reference)
        day = _day_of(reference, moment_us, index.paths.daily.solar_hijri)
        if day is None and (link := _a_link_to(index, reference, now)):
            raise NoteNotFound(reference, why=link)  # the note is named: no guesses beside it
        if day is not None:
            _refuse_if_daily_note_excluded(index.paths, reference, day)
        if day is not None and reference.strip().casefold() in _RELATIVE_DAYS:
            # A day's word, not a fragment of a name: a memory "…-today.md" is no guess at it (review, s34).
            raise NoteNotFound(reference, why=_no_daily_note(index.paths, day))
        raise not_found(notes, reference, _no_daily_note(index.paths, day) if day is not None
                        else _other_format_file(index.paths, reference))
    return located


# An Obsidian link as a note writes it: `[[Note#Heading|label]]`, or its target alone (`Note#^block-id`).
_LINK_TARGET = re.compile(r"(?:\[\[)?(?P<note>[^\[\]#|]*)(?:#(?P<anchor>[^\[\]|]*))?(?:\|[^\[\]]*)?(?:\]\])?")


def link_parts(reference: str) -> tuple[str, str] | None:
    """(note, anchor) of a reference written as an Obsidian link (``Note#Heading``, ``Note#H1#H2``,
    ``Note#^block``, ``[[Note#Heading|label]]``, ``[[Note]]``): the anchor "" when there is none;
    None when it is no link (the reference is a name as it stands)."""
    link = _LINK_TARGET.fullmatch(reference)
    if link is None or not (written := link.group("note").strip()) or written == reference:
        return None
    return written, (link.group("anchor") or "").strip()


def _a_link_to(index: DerivedIndex, reference: str, now: object) -> str:
    """Why a reference written as a link names no note, when the note it links to is there:
    ``get "Linear Algebra#Eigenvalues"`` (a heading's link, as a note writes it) was answered
    "no note matches" beside the very note (a trial on a math vault), and an agent took the note
    for missing. ``get`` reads the section such a link names (reading.view_section); a write
    names a whole note, and would change or forget all of it — so for a write the link is told
    apart, never taken for its note. ``""`` otherwise."""
    parts = link_parts(reference)
    if parts is None:
        return ""
    written, anchor = parts
    target = _link_target(index, written, now)
    if target is None:
        return ""  # no one note by that name: the reference is answered as any other
    part = (f"the block ^{anchor[1:]}" if anchor.startswith("^") else f"the heading {anchor!r}") if anchor else ""
    where = f"{part} in {target}" if part else target
    return (f"it is a link to {where}, and a NOTE names a whole note: give {written!r}"
            f"{' (get reads the section by the link; a write acts on a whole note)' if part else ''}")


def _link_target(index: DerivedIndex, written: str, now: object) -> str | None:
    """The path of the one note a link's target names — written with Windows' backslashes too
    (``[[work\\Ideas]]``, as Obsidian on Windows resolves it) — or None."""
    for spelling in unique([written, written.replace("\\", "/")]):
        try:
            return _first_step(index, spelling, now, refresh=False).row.path
        except (NoteNotFound, AmbiguousNote, PathOutsideVault):
            continue  # no one note by that spelling: the next, if any, is asked
    return None


def _other_format_file(paths: VaultPaths, reference: str) -> str:
    """Why the file ``reference`` names is no note, when it is one of another format (``book/ch1.qmd``,
    ``Dentist.txt``: as ``index`` says of it); "" for anything else. Was (review, s34): only "no note
    matches", then every way of naming a note."""
    name = PurePosixPath(reference.strip()).name
    if not is_other_note_format(name):
        return ""
    try:
        absolute = paths.resolve_inside(reference.strip())
    except PathOutsideVault:
        return ""
    return other_format_reason(name) if absolute.is_file() else ""


DAILY_SCAN_FILES = 20_000  # files of the daily notes' folder looked at for an excluded day's note


def _refuse_if_daily_note_excluded(paths: VaultPaths, reference: str, day: date) -> None:
    """A day whose daily note (by the vault's daily-note format) is a file the vault excludes: said
    so (ExcludedNote), not that no daily note for it is in the vault (review, s34: the person's
    Journal/Private/ in Obsidian's Excluded files). Looks at the daily notes' folder alone, and
    at most :data:`DAILY_SCAN_FILES` of its files; a daily note's name without a format is not looked for."""
    daily = paths.daily
    if not daily.in_use or not paths.exclusions:
        return
    top = paths.absolute(daily.folder) if daily.folder else paths.root
    depth = daily.moment.text.count("/") if daily.moment is not None else 0  # YYYY/MM/YYYY-MM-DD: two folders down
    looked = 0
    for folder, subfolders, files in os.walk(top):
        below = len(Path(folder).relative_to(top).parts)
        subfolders[:] = sorted(name for name in subfolders if not name.startswith(".")) if below < depth else []
        for name in sorted(files):
            looked += 1
            if looked > DAILY_SCAN_FILES:
                return
            if not name.endswith(NOTE_SUFFIX):
                continue
            relative = paths.relative(Path(folder) / name)
            if daily.day(relative) == day and (rule := paths.exclusion_rule(relative)) is not None:
                raise ExcludedNote(reference, relative, rule)


def _no_daily_note(paths: VaultPaths, day: date) -> str:
    """Why a day names no note, and what to do: an agent told to add to today's daily note
    (`revise 2026-12-01 --append`) was answered with the ways to name a note, as if the day
    were misspelled, when only the day's note was not there yet."""
    where = f"under the daily-note format {paths.daily.describe()}" if paths.daily.in_use else "named for it alone"
    return (f"no daily note for {day.isoformat()} is in the vault ({where}); vaultmem makes no daily notes: "
            f"{paths.daily.maker} makes the day's note from its template when the day is opened, or remember the text as a new note")


def not_found(notes: NoteStore, reference: str, why: str = "") -> NoteNotFound:
    """The error for a reference that names no note, naming the notes it may have meant: first
    those whose name it is once accents are dropped (``Kadikoy`` for ``Kadıköy``: search finds
    that note by name, a NOTE argument does not — Obsidian's links keep accents, and a write
    must never act on a guess), then those whose path or title holds it, then those whose opening
    ``# heading`` does."""
    name = reference.rsplit("/", 1)[-1].removesuffix(".md")
    key = name_key(name)
    matching = [(path, _name_matching(key, path, title, aliases))
                for path, title, aliases in (notes.named_by_key(key) if key else [])]
    # Not a note whose name is the one typed (in its case): that name is not what kept it from
    # matching (`alias/note.md` for `real/note.md`: the folder did).
    # Shown as hits show it (crypto/README, shown_titles): two READMEs' "(README)" told them not apart.
    unaccented = [(path, shown_title(matched, path)) for path, matched in matching if name_fold(matched) != name_fold(name)]
    named = {path for path, _ in unaccented}
    similar = [path for path in notes.similar_paths(name) if path not in named]
    similar += [path for path in _numbered_alike(notes, name) if path not in named and path not in similar]
    # A note whose opening # heading holds what was typed (`interleaving` for Zettelkasten's
    # 202301161000.md, `# Interleaving mixes problem types`): suggested; the whole heading names it.
    similar += [path for path in notes.opening_with(key) if path not in named and path not in similar] if key else []
    if not similar and not unaccented:
        similar = _misspelt(notes, name)
    return NoteNotFound(reference, similar, unaccented, why)


MISSPELT_CUTOFF = 0.8  # difflib's ratio: "Blade Runer" → "Blade Runner", "Futurma" → "Futurama"


def _misspelt(notes: NoteStore, name: str) -> list[str]:
    """Paths of the notes whose file name or title is ``name`` spelt a letter or two otherwise
    (``Blade Runer``: a person's trial, s34, was told only the ways to name a note). Asked only
    when nothing holds what was typed; only suggested: a note is never resolved by a guess."""
    import difflib

    by_name: dict[str, list[str]] = {}
    for path, title in notes.paths_and_titles():
        stem = PurePosixPath(path).name.removesuffix(NOTE_SUFFIX)
        for spelling in unique([stem.casefold(), title.casefold()]):
            by_name.setdefault(spelling, []).append(path)
    # A name with other numbers is another note, however close in spelling (`v1.5` for `v1.05`,
    # `Lecture 50` for `Lecture 5`): only what _numbered_alike reads by value is suggested so.
    numbers = _DIGITS.findall(name)
    spellings = [spelling for spelling in by_name if _DIGITS.findall(spelling) == numbers]
    close = difflib.get_close_matches(name.casefold(), spellings, n=SUGGESTED_SPELLINGS, cutoff=MISSPELT_CUTOFF)
    return unique([path for spelling in close for path in by_name[spelling]])[:SUGGESTED_SPELLINGS]


SUGGESTED_SPELLINGS = 3
_DIGITS = re.compile(r"\d+")


_RELATIVE_DAYS = ("today", "yesterday", "tomorrow")  # a day's note by the day's word (_day_of)


# A number's leading zeros, not a decimal's (`1.05` is not `1.5`), and a lone digit to pad.
_LEADING_ZEROS = re.compile(r"(?<![\d.,])0+(?=\d)")
_ONE_DIGIT = re.compile(r"(?<![\d.,])(\d)(?!\d)")


def _numbered_alike(notes: NoteStore, name: str) -> list[str]:
    """Paths that hold ``name`` once numbers are read by their value: ``Lecture 05``
    for ``Lecture 5.md``, ``Week 3`` for ``Week 03 - Eigenvalues.md`` (a trial on a student's
    math vault: "no note matches 'Lecture 05'" named nothing). Only suggested: a note is never
    resolved by such a guess."""
    unpadded = _LEADING_ZEROS.sub("", name)
    padded = _ONE_DIGIT.sub(r"0\1", unpadded)
    if unpadded == padded:
        return []  # no number in it
    holds = re.compile(re.escape(unpadded.casefold()) + r"(?!\d)")
    return [path for spelling in unique([unpadded, padded]) if spelling != name
            for path in notes.similar_paths(spelling) if holds.search(_LEADING_ZEROS.sub("", path.casefold()))]


def _name_matching(key: str, path: str, title: str, aliases: Sequence[str]) -> str:
    """Which of a note's names (file name, title, aliases) has the name key ``key``."""
    names = (Path(path).stem, title, *aliases)
    return next((name for name in names if name_key(name) == key), names[0])


def locate_on_disk(index: DerivedIndex, reference: str, now: object = None, *, refresh: bool = True) -> Located:
    """:func:`locate`, making sure the note's file still exists. ``refresh=False`` (writes):
    locate in the index as it last saw the files, so a file changed since is refused
    (WriteConflict) by the write that compares against it. ``now``: the day ``today`` names."""
    try:
        located = locate(index, reference, now, refresh=refresh)
    except NoteNotFound as missing:
        if refresh or type(missing) is not NoteNotFound:
            raise  # a read looked at the files already; archived, excluded: says where it is
        # No note the index knows answers to it: one made (or renamed) by hand since the index
        # last saw the files may. `revise jq` was told "no note matches" for a jq.md written a
        # moment before, while `get jq`, which brings the index in line first, found it (a trial;
        # no watcher running). The index never read such a note, so there is no version of it a
        # write could be comparing against: bring the index in line and look again.
        index.ensure_current()
        located = locate(index, reference, now, refresh=False)
    if index.paths.absolute(located.row.path).is_file():
        return located
    # The file moved or vanished a moment ago: bring the index in line with the files and look
    # again. Syncing its old path alone dropped the row, and a note a person had just renamed
    # or moved (Obsidian keeps its id) was answered "no note matches" by a write by id: an
    # agent took its memory for gone and wrote it again.
    gone = located.row
    index.ensure_current()
    return _as_known_before(locate(index, reference, now, refresh=False), gone)


def locate_to_write(index: DerivedIndex, reference: str, now: object = None) -> Located:
    """:func:`locate_on_disk` for a write (``forget``, ``revise``, ``remember --supersedes``):
    in the index as it last saw the files, and refused when another note answers to the
    reference too (:func:`sole`) — unless the note found is retired and the others answering
    are its successors (:func:`_to_successor`). A canvas is refused (:class:`ReadOnlyCanvas`):
    read as its cards' text, it has no text of its own a write could keep its JSON around."""
    located = _still_answering(index, reference, locate_on_disk(index, reference, now, refresh=False), now)
    found = located.resolved_from
    if found is not None and found.via == RELATIVE_LINK:
        # A read may take the one note a link's `../` target can be; a write acts on no reading
        # of a link from a note it was not told (a broken link's target names another note so).
        raise PathOutsideVault(reference, index.paths.root, link_target=located.row.path)
    if found is not None and found.orphan_of is not None:
        raise NoteNotFound(reference, why=f"the one note holding that id is {located.row.path}, and "
                                          + found.orphan_notice())
    if found is not None and found.writes_to is not None:
        located = Located(found.writes_to, Resolution(found.reference, found.writes_by))
    else:
        located = sole(located)
    if is_canvas_path(located.row.path):
        raise ReadOnlyCanvas(located.row.path)
    return located


def refuse_a_superseded_reference(index: DerivedIndex, located: Located) -> None:
    """:class:`SupersededReference` when ``located`` was found through its ``supersedes`` (the
    reference named the old note, gone from the vault): ``forget`` would archive the newer fact
    in its place — an agent told "forget my old address" archived the new one (an agent trial,
    s38). A merged note's id acts on the kept note (it holds that note's text) and still does."""
    found = located.resolved_from
    if found is None or found.via != SUPERSEDES:
        return
    archived = found.archived
    if archived is None and (named := archived_named(index, found.reference)) is not None and not named.by_path:
        archived = named.archived
    raise SupersededReference(found.reference, located.row.path, archived, index.paths.archive_dir)


def _still_answering(index: DerivedIndex, reference: str, located: Located, now: object = None) -> Located:
    """``located``, or the note that answers to ``reference`` now when the note found by a name
    its text gives (a title, an alias, its opening heading…) was changed since the index saw it
    and no longer answers to it: ``revise Kyoto --append`` wrote into the note whose ``# Kyoto``
    the person had just made ``# Osaka``. Still answering, the note is returned as the index knew
    it, so that a write comparing against that version refuses the person's edit (WriteConflict)."""
    if located.resolved_from is None or located.resolved_from.via == "id":  # an id or a path: the file named is the note meant
        return located
    try:
        raw = index.paths.absolute(located.row.path).read_bytes()
    except OSError:
        return located  # the write reads it and says why it cannot
    if content_hash(raw) == located.row.content_hash:
        return located
    index.ensure_current()
    again = locate_on_disk(index, reference, now, refresh=False)
    return located if again.row.path == located.row.path else again


def _with_successor(index: DerivedIndex, located: Located, now_us: int) -> Located:
    """``located``, its ``resolved_from`` naming where a write by the same name goes
    (``writes_to``) when the note found was retired by ``remember --supersedes`` that kept its
    title and every other note answering to the reference is on its ``superseded_by`` chain,
    whose end is alive and answers too. ``revise standup`` after the standup memory was
    superseded was refused as ambiguous between ``standup.md`` (its file name, retired) and
    ``standup-2.md`` (its title): the retired note names its successor itself, so nothing is
    guessed. A read still opens the note found (and says where writes go); a chain that forks
    (a ``superseded_by`` of several ids), leaves the vault or ends in an expired note is not
    followed, and a write is refused as before. Files are read only for a note found expired
    that others share a name with."""
    found = located.resolved_from
    if found is None or not found.others or not is_expired_us(located.row.expires_us, now_us):
        return located
    chain = _successors(index, located.row, now_us)
    if not chain or is_expired_us(chain[-1].expires_us, now_us):
        return located
    on_chain = {row.id for row in chain}
    last = next((other for other in found.others if other.id == chain[-1].id), None)
    if last is None or not all(other.id in on_chain for other in found.others):
        return located
    return replace(located, resolved_from=replace(found, writes_to=chain[-1], writes_by=last.by[0]))


def _successors(index: DerivedIndex, retired: NoteRow, now_us: int) -> list[NoteRow]:
    """The notes ``retired``'s ``superseded_by`` leads to, in order, while each names exactly
    one note the index holds once, up to the first alive; [] when the first step already fails
    (or the retired note's file is gone since the index saw it)."""
    chain: list[NoteRow] = []
    seen = {retired.id}
    current = retired
    while is_expired_us(current.expires_us, now_us):
        if not index.paths.absolute(current.path).is_file():
            # Gone since the index last saw it (a write locates without a walk): not followed, and
            # locate_on_disk brings the index in line and names the note again.
            return chain
        successors = text_values(read_note(index.paths.root, current.path).meta, "superseded_by")
        rows = index.store.notes.find(successors[0]) if len(successors) == 1 else []
        if len(rows) != 1 or rows[0].id in seen:
            return chain
        current = rows[0]
        seen.add(current.id)
        chain.append(current)
    return chain


def _as_known_before(moved: Located, gone: NoteRow) -> Located:
    """The note found at its new path, with the bytes the index knew at its old one: a write
    that compares against them (forget) refuses a note edited as it moved, as it refuses one
    edited in place; a note only renamed has the same bytes and passes."""
    if moved.row.id != gone.id:
        return moved
    return replace(moved, row=replace(moved.row, content_hash=gone.content_hash))


def in_index(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    """Steps 1–5, 7 and 8 in the index as it is: nothing is indexed or read to find the note. Each
    of :func:`spellings` in turn: as written, then stripped. Step 7 is one indexed lookup too:
    without it, ``explain 202101011200 …`` refused the zettel ``get 202101011200`` opens."""
    for spelling in spellings(reference):
        located = _in_index(notes, spelling, now_us)
        if located is not None:
            return located
    return None


def _in_index(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    matches = direct_matches(notes, reference)
    located = (Located(pick_direct(reference, matches, notes)) if matches
               else locate_by_names(notes, reference, now_us) or _by_id_in_file_name(notes, reference, now_us)
               or _by_heading(notes, reference, now_us))
    return None if located is None else with_others(notes, reference, located, now_us)


def with_others(notes: NoteStore, reference: str, located: Located, now_us: int) -> Located:
    """``located`` with the notes besides it that answer to ``reference`` too — by their file
    name, an alias, their title or their opening heading, compared as the steps compare them (case folded, in NFC) —
    in its ``resolved_from`` (via "file name" when its file name found it). The first step still
    decides (a read opens that note, as Obsidian's [[links]] do); a write refuses (:func:`sole`).
    Among them, as within a step, those alive now win: a note found alive is not shared with
    the expired note it superseded. An id or a path given exactly is never shared — but a path
    without ``.md`` is shared with another note's permalink (``decisions/x``: the address an
    agent of basic-memory holds for the other note), which only the path with ``.md`` never is."""
    exact = named_exactly(located.row, reference)
    if exact and not _path_without_md(located.row, reference):
        return located
    others = also_answering(notes, reference, located.row, now_us, permalinks_only=exact)
    if not others:
        return located
    found = located.resolved_from or Resolution(reference, PATH if exact else FILE_NAME)
    return replace(located, resolved_from=replace(found, others=others))


def named_exactly(row: NoteRow, reference: str) -> bool:
    """Is ``reference`` the note's vault-relative path (with ``.md``; without it when it has
    folders) or its id? A bare ``Mom`` is the path of a ``Mom.md`` at the vault's top (and the
    id of one without an ``id``), but also a file name other notes' names are compared with."""
    spelled, path = name_form(reference), name_form(row.path)
    if path == spelled:
        return True
    if path == spelled + ".md":
        return "/" in spelled
    return name_form(row.id) == spelled


def _path_without_md(row: NoteRow, reference: str) -> bool:
    return name_form(row.path) == name_form(reference) + ".md"


def also_answering(notes: NoteStore, reference: str, found: NoteRow, now_us: int, *,
                   permalinks_only: bool = False) -> tuple[Answering, ...]:
    """The notes besides ``found`` that answer to ``reference`` by a file name, alias, permalink,
    title or opening heading (any case, NFC); only the alive ones when ``found`` is alive; ``permalinks_only``: by
    a permalink alone (``reference`` is ``found``'s path without ``.md``). One indexed lookup of
    the reference's name key (``fields.name_key``: every such name but a permalink has that key,
    or a heading that key, and more names do, so the rows found are compared again), one of
    their aliases and headings when there are any, and one of the permalinks (stored as compared: ``notes.permalink_form``)."""
    wanted = name_fold(reference)
    key = name_key(reference)
    if permalinks_only:
        named = []
    elif key:
        named = [(row, _answers_by(row, aliases, heading, wanted))
                 for row, aliases, heading in notes.keyed_besides(key, found.label)]
    else:
        named = _answering_without_key(notes, reference, found)
    answering = _with_permalinks(named, [row for row in _by_permalink(notes, reference) if row.label != found.label])
    if not permalinks_only:
        answering = _with_permalinks(answering, [row for row in _by_citekey(notes, reference) if row.label != found.label],
                                     CITEKEY)
        numbered = file_name_id(reference)
        if numbered is not None:  # `11.01 Grant proposal.md` answers to 11.01 beside a note titled "11.01"
            answering = _with_permalinks(answering, [row for row in notes.file_names_starting(numbered[0])
                                                     if row.label != found.label], numbered[1])
    answering = [(row, by) for row, by in answering if by]
    if not is_expired_us(found.expires_us, now_us):
        answering = [(row, by) for row, by in answering if not is_expired_us(row.expires_us, now_us)]
    return tuple(Answering(row.path, row.id, by) for row, by in answering)


def _with_permalinks(named: Sequence[tuple[NoteRow, tuple[str, ...]]], permalinked: Sequence[NoteRow],
                     way: str = PERMALINK) -> list[tuple[NoteRow, tuple[str, ...]]]:
    """``named`` (notes with the ways they answer), each note whose permalink (or ``way``: its
    citekey) answers too given that way besides its others (after an alias: step 4 holds them), by path."""
    ways = {row.label: (row, by) for row, by in named}
    for row in permalinked:
        _, by = ways.get(row.label, (row, ()))
        if way not in by:
            by = tuple(each for each in WAYS if each in (*by, way))  # in the order of the steps
        ways[row.label] = (row, by)
    return sorted(ways.values(), key=lambda item: item[0].path)


def _answers_by(row: NoteRow, aliases: Sequence[str], heading: str, wanted: str) -> tuple[str, ...]:
    """Which of the note's names are ``wanted`` (a name case folded; ``heading`` is stored so):
    a name key is looser (accents, punctuation around it, full-width marks), the steps compare
    only this."""
    file_name = row.path.rsplit("/", 1)[-1]
    named = {FILE_NAME: name_fold(file_name) in (wanted, wanted + ".md"),
             ALIASES: any(name_fold(alias) == wanted for alias in aliases),
             "title": name_fold(row.title) == wanted, HEADING: heading == wanted}
    return tuple(way for way, answers in named.items() if answers)


def _answering_without_key(notes: NoteStore, reference: str, found: NoteRow) -> list[tuple[NoteRow, tuple[str, ...]]]:
    """A name of punctuation alone (``???``) has no name key: each step's own lookup is asked
    (scans, as steps 4–5 are), so even such a name is never shared unseen."""
    by_way = {FILE_NAME: direct_matches(notes, reference) if "/" not in reference else [],
              ALIASES: [row for row, _ in _listing(notes, reference, ALIAS_FIELDS)],  # permalinks: also_answering
              "title": as_written_else_nfc(lambda normalized: notes.by_title(reference, normalized=normalized)),
              HEADING: headed(notes, reference)}
    rows = {row.label: row for found_rows in by_way.values() for row in found_rows if row.label != found.label}
    return [(row, tuple(way for way, found_rows in by_way.items() if any(item.label == label for item in found_rows)))
            for label, row in sorted(rows.items(), key=lambda item: item[1].path)]


def sole(located: Located) -> Located:
    """For a write: ``located`` when no other note answers to its reference, else
    :class:`AmbiguousNote` naming every note and how each answers. A write must not act on the
    note the first step happened to find: an agent that ran ``remember --title 靠墙天使`` (the
    file became ``靠墙天使-2.md``) and then ``forget 靠墙天使`` archived the person's
    ``靠墙天使.md``, whose file name outranked its memory's title."""
    found = located.resolved_from
    if found is None or not found.blocking():
        return located
    answers = {located.row.path: _described(located.row, WAYS[found.via])}
    answers.update((other.path, _described(other, other.how())) for other in found.others)
    raise AmbiguousNote(found.reference, sorted(answers), answers=answers)


def _described(note: NoteRow | Answering, how: str) -> str:
    """How a note answers, and its id when it has one of its own (not its path)."""
    own_id = note.id != note.path.removesuffix(".md")
    return f"{how}; id {note.id}" if own_id else how


def answered(notes: NoteStore, reference: str, now_us: int) -> bool:
    """Does a note, or several, answer to ``reference`` by steps 1–5, 7 or 8, in the index as it is?"""
    try:
        return in_index(notes, reference, now_us) is not None
    except AmbiguousNote:
        return True


def direct_matches(notes: NoteStore, reference: str) -> list[NoteRow]:
    """Steps 1–2: the notes whose id or path the reference is, else (no ``/`` in it) whose file
    name, in any case (``NoteStore.find_by_name``)."""
    matches = as_written_else_nfc(lambda normalized: notes.find(reference, normalized=normalized))
    if not matches and "/" not in reference:  # a bare file name, as in [[name]]
        matches = as_written_else_nfc(lambda normalized: notes.find_by_name(reference, normalized=normalized))
    return matches


def as_written_else_nfc(lookup: Callable[[bool], list[Found]]) -> list[Found]:
    """One step's matches: the name as written (``lookup(False)``), else the names compared
    in NFC (``lookup(True)``). Without the second, a note macOS named decomposed could be
    listed by search and not be named by what a person types."""
    return lookup(False) or lookup(True)


def _index_if_on_disk(index: DerivedIndex, reference: str) -> None:
    """A note file written a moment ago that no read has indexed yet: index it now, at
    the path as the file system spells it (a file system that ignores case or Unicode
    form would otherwise open it under the typed spelling too: two rows of one file)."""
    relative = reference if reference.endswith(".md") else reference + ".md"
    on_disk = index.paths.spelled_on_disk(relative) if index.paths.is_note_path(relative) else None
    if on_disk is not None and index.paths.is_note_path(on_disk) and index.paths.absolute(on_disk).is_file():
        index.indexer.sync_paths([on_disk])


def _by_merged_permalink(index: DerivedIndex, reference: str, now_us: int) -> Located | None:
    """The live note a merged or superseded note's permalink names, once no note answers to it: the
    archived file (among at most :data:`ARCHIVE_SCAN_FILES`) whose ``permalink`` answers to the
    reference as a live note's would (``notes.permalink_names``), whose id (its path without
    ``.md`` when it has none) a live note lists in ``merged_from`` or ``supersedes`` — as the id and
    the title (an alias now) of a merged note name the note it went into. Was (a trial on a
    basic-memory vault): after ``consolidate --apply``, ``get <the merged note's permalink>`` said
    "no note matches" while its id and title opened the kept note. ``None`` when no archived
    permalink answers, or no live note took in the note that had it."""
    wanted = permalink_form(reference)
    archive = index.paths.root / index.paths.archive_dir
    if not wanted or not archive.is_dir() or not index.store.notes.lists_any(SUCCESSOR_FIELDS):
        return None  # no live note took any note in: no archived permalink can name one (and no scan)
    successors: list[tuple[NoteRow, str, Path]] = []
    for path in itertools.islice(archive.rglob("*.md"), ARCHIVE_SCAN_FILES):
        if not _readable_in_archive(index.paths, path):
            continue
        head = _head(path)
        if wanted in _archived_permalink_names(head):
            ident = _archived_id(index.paths, path, head)
            successors += [(row, field, path) for row, field in _listing(index.store.notes, ident, SUCCESSOR_FIELDS)]
    if not successors:
        return None
    row = _one(index.store.notes, reference, [row for row, _, _ in successors], now_us)
    taken = [(field, path) for found, field, path in successors if found.label == row.label]
    field, path = max(taken, key=lambda item: _archived_when(item[1]))
    archived = path.relative_to(index.paths.root).as_posix()
    return Located(row, Resolution(reference, field, archived=archived, named_by=PERMALINK))


def _archived_permalink_names(head: str) -> set[str]:
    """The names an archived file's ``permalink:`` (in its first lines) answers to."""
    return {name for found in re.finditer(r"^permalink:(.*)$", head, re.MULTILINE)
            for name in permalink_names(_unquoted(found[1]))}


def _archived_id(paths: VaultPaths, path: Path, head: str) -> str:
    """An archived file's id as the note had it: its ``id:``, else the path it had in the vault
    without ``.md`` (the archive keeps it at that path under its folder)."""
    said = re.search(r"^id:(.*)$", head, re.MULTILINE)
    if said is not None and _unquoted(said[1]):
        return _unquoted(said[1])
    return path.relative_to(paths.root / paths.archive_dir).as_posix().removesuffix(".md")


def _unquoted(value: str) -> str:
    """A frontmatter line's value as the regexes before read it: spaces and tabs around it
    dropped, then one pair of matching quotes. In linear time: a pattern that did this with a
    lazy group and a backreference took the square of a crafted line's length."""
    value = value.strip(" \t")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _refuse_if_linked(paths: VaultPaths, reference: str) -> None:
    """A path that reaches a note through a symlink (the link itself, or a linked folder on the
    way) names that note's real path: :class:`NoteNotFound` saying so. A link is never a note of
    its own — the scan reads the note at its real path only (paths.VaultPaths._symlink_issue) —
    but "no note matches" beside the very link left the agent no way on."""
    relative = reference if reference.endswith(".md") else reference + ".md"
    link = paths.absolute(relative)
    if paths.reached_without_links(relative) or not link.is_file() or not paths.contains_real(link):
        return
    target = paths.real_relative(link)
    if paths.is_note_path(target):
        raise NoteNotFound(reference, why=f"{relative} is a link to {target}, and vaultmem knows a linked note by its real "
                                          f"path only; use {target}")


def refuse_if_linked_out(paths: VaultPaths, reference: str) -> None:
    """A path (with or without .md) that is a symlink out of the vault, or runs through a folder
    linked out of it: :class:`NoteNotFound` saying so and how to fix it, as ``check`` says it (once
    excluded as that fix says, :class:`ExcludedNote` naming the rule)."""
    for relative in unique([reference if reference.endswith(NOTE_SUFFIX) else reference + NOTE_SUFFIX, reference]):
        why = paths.link_out(relative)
        if why is not None:
            # Excluded as the fix says: the rule is said, not the fix again (s35 review)
            rule = paths.exclusion_rule(relative)
            if rule is not None:
                raise ExcludedNote(reference, relative, rule)
            raise LinkedOutNote(reference, why)


def refuse_if_named_link_out(index: DerivedIndex, reference: str) -> None:
    """A bare name (``Outer``, ``outer.md``) of a note file that is a symlink out of the vault in
    some folder (``refs/Outer.md``), as the last walk met it and the disk still has it:
    :class:`LinkedOutNote` saying so, as for its path (:func:`refuse_if_linked_out`)."""
    if "/" in reference:
        return
    wanted = {reference.casefold(), (reference + NOTE_SUFFIX).casefold()}
    paths = index.paths
    for link in index.store.meta.links_out():
        if PurePosixPath(link).name.casefold() in wanted and paths.is_link_out(link):
            why = paths.link_out(link)
            if why is not None:
                raise LinkedOutNote(reference, why)


def _by_link_name(index: DerivedIndex, reference: str) -> Located | None:
    """The note a symlinked note file's bare name (``get Alias`` for ``links/Alias.md`` →
    ``notes/Real.md``) links to, found by the links the last reconcile's walk met (no walk on a
    miss), each checked on disk now. Via "link": the note keeps its one path, the real one, and
    a write goes to the real file (the link stays a link). Was: "no note matches", while
    Obsidian lists the link by that name. Links to two notes under one name: :class:`NoteNotFound`
    naming them. A path through the link is refused as before (:func:`_refuse_if_linked`)."""
    if "/" in reference:
        return None
    wanted = {reference.casefold(), (reference + NOTE_SUFFIX).casefold()}
    paths = index.paths
    targets = unique(note for link, note in index.store.meta.linked_notes()
                     if PurePosixPath(link).name.casefold() in wanted and _still_links(paths, link, note))
    if len(targets) > 1:
        raise NoteNotFound(reference, why=f"links named so lead to {len(targets)} notes ({', '.join(targets)}); use one's path")
    row = _row_at(index, targets[0]) if targets else None
    return None if row is None else Located(row, Resolution(reference, "link"))


def _still_links(paths: VaultPaths, link: str, note: str) -> bool:
    """Is ``link`` (vault-relative) still a symlink to ``note``, inside the vault?"""
    absolute = paths.absolute(link)
    return absolute.is_symlink() and paths.contains_real(absolute) and paths.real_relative(absolute) == note


def _refuse_if_excluded(paths: VaultPaths, reference: str) -> None:
    """An excluded file named by its path — or a template named by its file name alone, as
    Obsidian's template pickers show it — gets an error that says so (not "no such note")."""
    relative = reference if reference.endswith(".md") else reference + ".md"
    rule = paths.exclusion_rule(relative)
    if rule is not None and paths.absolute(relative).is_file():
        raise ExcludedNote(reference, relative, rule)
    if "/" not in relative:
        # A trial: `get "TPL-Evergreen Note"` said "no note matches" of a template in Templater's
        # folder, and the person took it for a note vaultmem had lost.
        template = _template_named(paths, relative)
        if template is not None:
            raise ExcludedNote(reference, *template)


def _template_named(paths: VaultPaths, name: str) -> tuple[str, Rule] | None:
    """The first file of the vault's templates folders whose name is ``name`` (in any case),
    with the rule that excludes it; at most :data:`TEMPLATE_SCAN_FILES` files are looked at."""
    wanted = name.casefold()
    for rule in paths.exclusions.template_folders:
        folder = paths.absolute(rule.pattern)
        if not folder.is_dir():
            continue
        for count, found in enumerate(folder.rglob("*.md")):
            if count >= TEMPLATE_SCAN_FILES:
                break
            if found.name.casefold() == wanted:
                return found.relative_to(paths.root).as_posix(), rule
    return None


def archived_successor(index: DerivedIndex, reference: str, now_us: int) -> Located | None:
    """The live note that took in the archived note ``reference`` names (:func:`_successor_of_archived`);
    ``None`` when it names no archived note; its :class:`ArchivedNote` when no live note took it in."""
    archived = archived_named(index, reference)
    if archived is None:
        return None
    located = _successor_of_archived(index, reference, archived, now_us)
    if located is None:
        raise archived
    return located


def _successor_of_archived(index: DerivedIndex, reference: str, archived: ArchivedNote, now_us: int) -> Located | None:
    """The live note that took in the archived note ``reference`` names by its old path or file
    name — a note consolidate merged into it (``merged_from``) or that superseded it — as its id
    finds it (step 3), and as :func:`_by_merged_permalink` does for a permalink. ``None`` when
    the reference is the archive path itself (read as the file), the note is back in the vault,
    two archived notes answer, or no live note lists its id. Without it, ``get <old path>`` after a
    merge said "move it out of the archive to make it a note again": a second copy of a fact the
    kept note holds already (an agent trial, s38)."""
    if archived.by_path or archived.live is not None or archived.also:
        return None
    path = index.paths.absolute(archived.archived)
    ident = _archived_id(index.paths, path, _head(path))
    successors = _listing(index.store.notes, ident, SUCCESSOR_FIELDS)
    if not successors:
        return None
    row = _one(index.store.notes, reference, [row for row, _ in successors], now_us)
    field = next(field for found, field in successors if found.label == row.label)
    named_by = "path" if "/" in reference.strip() else "file name"
    return Located(row, Resolution(reference, field, archived=archived.archived, named_by=named_by))


def archived_named(index: DerivedIndex, reference: str) -> ArchivedNote | None:
    """A note forget, expire or consolidate archived, named by its old path, its id or its bare
    file name: the error that says where it went (not "no note matches"), or ``None``. Only asked once
    nothing matched. A path is looked up where the archive puts it (:func:`newest_archived`);
    an id or a file name without ``/`` among at most :data:`ARCHIVE_SCAN_FILES` archived files:
    an id in the first few lines of each, a file name (in any case and Unicode form, as step 2
    compares it) by the file's own name, a timestamp or Johnny.Decimal id by the file name it
    begins (as step 7 finds it) — and then the newest copy of that note is named. A file
    in the archive named by its path there is :class:`ArchivedNote` with ``by_path``: ``get``
    reads it (reading.view_archived), a write is refused. An archived note whose id a live note
    holds too (a merge brought it back: archived_twins.py) is said to be live there."""
    paths = index.paths
    archive = paths.root / paths.archive_dir
    if not archive.is_dir():
        return None
    in_archive = archived_file_at(paths, reference)
    if in_archive is not None:  # named by its path in the archive: a read opens it (reading.view_archived)
        return ArchivedNote(reference, in_archive, paths.archive_dir, by_path=True)
    relative = reference if reference.endswith(".md") else reference + ".md"
    newest = newest_archived(paths, relative)
    if newest is not None:
        return ArchivedNote(reference, newest, paths.archive_dir, live=live_twin(index, newest))
    if "/" in reference or not reference.strip():
        return None
    wanted = name_fold(relative)
    # A timestamp or Johnny.Decimal id names the file that begins with it (step 7), archived too:
    # without it, `get 11.01` after `forget 11.01` said "no note matches", as if never written.
    number = _file_name_number(reference)
    named: set[str] = set()  # the old paths of archived files of that name
    for count, path in enumerate(archive.rglob("*.md")):
        if count >= ARCHIVE_SCAN_FILES:
            break
        if holds_id(path, reference):
            archived = path.relative_to(paths.root).as_posix()
            return ArchivedNote(reference, archived, paths.archive_dir, live=live_twin(index, archived))
        if name_fold(path.name) == wanted or (number is not None and begins_with_number(path.name, number[0])):
            named.add(path.relative_to(archive).as_posix())
    # A set: an id's files include a second copy's (`11.01 Budget-2.md`), whose newest is itself.
    found = sorted({newest for old in named if (newest := newest_archived(paths, old)) is not None})
    if found:
        return ArchivedNote(reference, found[0], paths.archive_dir, also=found[1:], live=live_twin(index, found[0]))
    return None


def live_twin(index: DerivedIndex, archived: str) -> str | None:
    """The live note that holds the ``id`` the archived file's frontmatter says, if one does: a
    merge or a restore brought the forgotten note back (archived_twins.py). Without it, its old
    path was answered "move it out of the archive to make it a note again" — a second copy of a
    note that is a note already."""
    ident = archived_id(index.paths.absolute(archived))
    holding = index.store.notes.paths_by_id([ident]).get(ident, []) if ident else []
    return next((path for path in holding if path_without_suffix(path) != ident), None)


def archived_file_at(paths: VaultPaths, reference: str) -> str | None:
    """The archived file ``reference`` names by its path in the archive folder
    (``_archive/memories/x.md``, with or without ``.md``), as the disk spells it; ``None`` when it
    names none. Only a file that would be a note outside the archive
    (``VaultPaths.is_archived_note_path``: no hidden folder, no temp file) and that is one there
    with every symlink resolved: a link in the archive to a live note, a hidden folder or a
    file outside the vault names nothing. Raises :class:`PathOutsideVault` for a path that
    leaves the vault as written (``_archive/../../x``)."""
    relative = reference if reference.endswith(".md") else reference + ".md"
    if not paths.is_archived_note_path(relative):
        return None
    paths.resolve_inside(relative)
    on_disk = paths.spelled_on_disk(relative)
    if on_disk is None or not paths.is_archived_note_path(on_disk):
        return None
    absolute = paths.absolute(on_disk)
    if not paths.contains_real(absolute) or not absolute.is_file():
        return None
    return on_disk if paths.is_archived_note_path(paths.real_relative(absolute)) else None


def archived_with_id(paths: VaultPaths, ident: str) -> str | None:
    """The archived file whose frontmatter says ``id: <ident>`` (the one archived last when
    several do) or, when none does, the newest copy of a note at ``<ident>.md`` that has no
    ``id`` (its path was its id); among at most :data:`ARCHIVE_SCAN_FILES` files that :func:`archived_file_at`
    would open: ``get`` of an id a note superseded or merged names where the note it named is."""
    archive = paths.root / paths.archive_dir
    if not archive.is_dir():
        return None
    holding = [path for path in itertools.islice(archive.rglob("*.md"), ARCHIVE_SCAN_FILES)
               if _readable_in_archive(paths, path) and holds_id(path, ident)]
    newest = max(holding, key=_archived_when, default=None)
    if newest is not None:
        return newest.relative_to(paths.root).as_posix()
    # A note without an ``id`` went by its path (``preferences/milk-in-coffee``): the archive keeps
    # it at that path under its folder, still without one.
    by_path = newest_archived(paths, ident + ".md")
    if by_path is None or not _readable_in_archive(paths, paths.absolute(by_path)):
        return None
    return by_path if re.search(r"^id:", _head(paths.absolute(by_path)), re.MULTILINE) is None else None


def archived_ids(paths: VaultPaths, names: Collection[str] | None,
                 also: Iterable[str] = ()) -> list[tuple[str, str | None]]:
    """The archived files :func:`archived_file_at` would open whose file name, less an archive
    number (``door-code-2.md``: writer.archive_names), is one of ``names`` (live notes' file
    names; compared as step 2 compares file names, in any case and Unicode form: macOS spells a
    name decomposed, git composed), and those of ``also`` (archived paths: files git says
    changed), by path, with the ``id`` their frontmatter says (:func:`archived_id`). ``names``
    ``None``: every archived file, for ``check``, which reads the vault whole anyway and so finds a
    note brought back under another name; ``index`` asks by name only, as an archive of thousands
    read whole cost it seconds (a ``realpath`` and a read per file)."""
    archive = paths.root / paths.archive_dir
    if not archive.is_dir() or not paths.contains_real(archive):
        return []
    folded = None if names is None else {name_fold(name) for name in names}
    found = {}
    for folder, folders, files in os.walk(archive):  # links to folders are not followed
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name not in PACKAGE_FOLDERS)
        for name in sorted(files):
            if is_note_name(name) and (folded is None or name_fold(name) in folded or name_fold(_unnumbered(name)) in folded):
                found[Path(folder, name).relative_to(paths.root).as_posix()] = Path(folder, name)
    for relative in also:
        if paths.in_archive(relative):
            found.setdefault(relative, paths.absolute(relative))
    return [(relative, archived_id(path)) for relative, path in sorted(found.items())
            if not path.is_symlink() and path.is_file() and _readable_in_archive(paths, path)]


def archived_id(path: Path) -> str | None:
    """The ``id`` an archived file's frontmatter says (in its first :data:`ARCHIVE_HEAD_CHARS`),
    ``None`` when it says none: its old path was its id. A line ``id: 5`` in its body (a YAML
    example a note quotes) is no id: such a note, brought back, was not found by its bytes."""
    head = _head(path)
    block = find_frontmatter(head)
    said = re.search(r"^id:(.*)$", head if block is None else head[:block.body_start], re.MULTILINE)
    return (_unquoted(said[1]) or None) if said is not None else None


def _unnumbered(name: str) -> str:
    """A file name less the number the archive gives a second copy (``door-code-2.md`` → ``door-code.md``)."""
    stem, dot, suffix = name.rpartition(".")
    if not stem[-1:].isdigit():
        return name
    bare = stem.rstrip("0123456789")
    return f"{bare[:-1]}{dot}{suffix}" if bare.endswith("-") and len(bare) > 1 else name


def _readable_in_archive(paths: VaultPaths, path: Path) -> bool:
    """Is ``path`` (found in the archive folder) a file :func:`archived_file_at` opens? Asked before
    a byte of it is read: a link out of the vault is never followed."""
    return (paths.is_archived_note_path(path.relative_to(paths.root).as_posix()) and paths.contains_real(path)
            and paths.is_archived_note_path(paths.real_relative(path)))


def _refuse_if_titled_in_archive(paths: VaultPaths, reference: str) -> None:
    """A memory archived by forget, expire or consolidate, named by its title (``title:`` in its
    frontmatter, any case) or the heading it opens with, gets an error that says where it went — once nothing else, git's
    history included (which says more: who moved it, and when), knew the name. An agent holds
    a memory's title: ``get "Cabin wifi"`` after ``forget "Cabin wifi"`` said "no note matches",
    as if it had never been (a trial). Among at most :data:`ARCHIVE_SCAN_FILES` archived files."""
    archive = paths.root / paths.archive_dir
    if "/" in reference or not archive.is_dir():
        return
    titled = [path for path in itertools.islice(archive.rglob("*.md"), ARCHIVE_SCAN_FILES) if holds_title(path, reference)]
    # The one archived last first (forget twice: memories/x.md, then memories/x-2.md).
    found = [path.relative_to(paths.root).as_posix() for path in sorted(titled, key=_archived_when, reverse=True)]
    if found:
        raise ArchivedNote(reference, found[0], paths.archive_dir, also=found[1:])


def _archived_when(path: Path) -> float:
    """When the archived file last changed (its move into the archive keeps its mtime; a file
    that cannot be asked sorts last)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def newest_archived(paths: VaultPaths, relative: str) -> str | None:
    """The newest copy the archive holds of the note that was at ``relative``, as the archive's
    folder spells it: writer.archive_names puts its own path there, then ``-2``, ``-3`` … beside
    it, the last the newest. Spelled in another Unicode form than the file (``Café`` typed,
    ``Cafe\u0301`` on disk) it is still found (``VaultPaths.spelled_on_disk``)."""
    newest = None
    try:
        for archived, absolute in archive_names(paths, relative, reading=True):
            on_disk = archived if absolute.is_file() else paths.spelled_on_disk(archived)
            if on_disk is None or not paths.absolute(on_disk).is_file():
                break
            newest = on_disk
    except (PathOutsideVault, UsageError):
        pass  # a reference no note could have had, or every copy the archive takes is there
    return newest


def holds_id(path: Path, reference: str) -> bool:
    """Does the archived file's frontmatter say ``id: <reference>``? (:func:`archived_id`.)"""
    return archived_id(path) == reference


def holds_title(path: Path, reference: str) -> bool:
    """Does the archived file's frontmatter say ``title: <reference>``, or does its body open with
    ``# <reference>``, in any case (as steps 5 and 8 compare them)? An agent holds a memory's
    title: ``get "Cabin wifi"`` after ``forget "Cabin wifi"`` said "no note matches", as if it had
    never been (a trial); a Foam user holds the heading."""
    wanted = name_fold(reference)
    head = _head(path)
    block = find_frontmatter(head)  # None too when the frontmatter runs past the head: no heading then
    opening = opening_heading(head if block is None else head[block.body_start:])
    return name_fold(opening) == wanted or any(
        name_fold(found[2]) == wanted for found in re.finditer(r"^title:[ \t]*([\"']?)(.*?)\1[ \t]*$", head, re.MULTILINE))


def _head(path: Path) -> str:
    """An archived file's first :data:`ARCHIVE_HEAD_CHARS` characters, where its frontmatter
    is; ``""`` (logged) for a file that cannot be read, which then names nothing."""
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            return file.read(ARCHIVE_HEAD_CHARS)
    except OSError as error:
        logger.warning("could not read the archived file %s (%s): a NOTE naming it by id or title gets 'no note "
                       "matches'", path, error)
        return ""


def pick_direct(reference: str, matches: Sequence[NoteRow], notes: NoteStore) -> NoteRow:
    """One of the notes that steps 1–2 found: an exact path wins over an id that looks like one.
    When several are left, the error also names the notes that go by the reference as an alias,
    title or opening heading: the later steps never decide, but the note the caller meant may be one of them."""
    if len(matches) == 1:
        return matches[0]
    spelled = name_form(reference)
    exact_path = [row for row in matches if name_form(row.path) in (spelled, spelled + ".md")]
    if len(exact_path) == 1:
        return exact_path[0]
    named = [row for row, _ in _owners_names(notes, reference)]
    named += as_written_else_nfc(lambda normalized: notes.by_title(reference, normalized=normalized))
    named += headed(notes, reference)
    listed = {row.path for row in matches}
    raise AmbiguousNote(reference, [row.path for row in matches], unique(row.path for row in named if row.path not in listed),
                        sync_copies(notes, [row.path for row in matches]))


def locate_by_names(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    """Steps 3–5, once the reference named no note by id, path or file name; step 7 before the
    title of step 5 (a number the person gave a file name outranks a title)."""
    steps: tuple[Callable[[], list[tuple[NoteRow, str]]], ...] = (
        lambda: _listing(notes, reference, SUCCESSOR_FIELDS), lambda: _owners_names(notes, reference))
    for step in steps:
        listed = step()
        if listed:
            row = _one(notes, reference, [row for row, _ in listed], now_us)
            via = next(field for listing, field in listed if listing.label == row.label)
            return Located(row, Resolution(reference, via))
    # A timestamp or Johnny.Decimal id (step 7) before a title: the number the person gave a note's
    # file name names it for good, and a memory titled "11.01" (`remember --title 11.01`) took
    # `get 11.01` from `11.01 Grant proposal.md` without a word (review, s38). The title still
    # answers too: a read names that note beside it, a write by the number is refused (with_others).
    numbered = _by_id_in_file_name(notes, reference, now_us)
    if numbered is not None:
        return numbered
    titled = as_written_else_nfc(lambda normalized: notes.by_title(reference, normalized=normalized))
    if titled:
        return Located(_one(notes, reference, titled, now_us), Resolution(reference, "title"))
    return None


_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _by_id_in_file_name(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    """Step 7: a Zettelkasten's timestamp id (12 or 14 digits) names the note whose file name
    begins with it (``202103131641 - The US South was an independent nation.md``), as Zettlr's
    and The Archive's ``[[202103131641]]`` links do; so does a Johnny.Decimal id
    (``11.01 Grant proposal.md``, in ``10-19 Work/11 Projects/``), the one name that system
    gives a note for good. Several are ambiguous. Was (trials on a Zettelkasten, then on a
    Johnny.Decimal vault): ``get 202103131641`` and ``get 11.01`` found nothing, only a
    did-you-mean."""
    found = _file_name_number(reference)
    if found is None:
        return None
    wanted, via = found
    rows = notes.file_names_starting(wanted)
    return Located(_one(notes, reference, rows, now_us), Resolution(reference, via)) if rows else None


_UNIX_TIME_ID = re.compile(r"[1-9]\d{9}")  # Unix seconds, 2001-09-09 to 2286


def _file_name_number(reference: str) -> tuple[str, str] | None:
    """The number a file's name begins with that ``reference`` is (note_numbers.file_name_id), or
    the Unique note creator's Unix-time prefix (format X: `1732193684 - Algoritmos.md`), and its
    kind; None for any other name. Was (s42, a trial of a student's Zettelkasten): `get 1732193684`
    found nothing, only a did-you-mean; then (review, s42) after `forget 1732193684` it said "no note
    matches", as if never written, where `get 202103131641` says where the archive put its note."""
    found = file_name_id(reference)
    if found is None and _UNIX_TIME_ID.fullmatch(reference.strip()) is not None:
        return reference.strip(), TIMESTAMP_ID_KIND
    return found


def _by_heading(notes: NoteStore, reference: str, now_us: int) -> Located | None:
    """Step 8: the note that opens with the ``# heading`` ``reference`` is, in any case (as a title
    is compared); several are ambiguous. Was (a trial on a Foam workspace): ``get "Walking the
    Heap"`` found nothing and suggested ``walking-the-heap.md``, the note Foam shows by that name."""
    rows = headed(notes, reference)
    return Located(_one(notes, reference, rows, now_us), Resolution(reference, HEADING)) if rows else None


def headed(notes: NoteStore, reference: str) -> list[NoteRow]:
    """The notes whose opening heading is ``reference`` once case folded in NFC (stored so:
    notes.HEADING), by path: one indexed lookup."""
    wanted = name_fold(reference)
    return [row for row, _ in notes.by_name_entry(wanted, (HEADING,))] if wanted else []


def _named_for_day(index: DerivedIndex, reference: str, now_us: int) -> Located | None:
    """Step 6: a day written as ISO writes it names the note whose name is that day — by the
    vault's daily-note format (``16.05.2022`` in its folder) where it has one in use, else by a
    file name that spells the day and nothing else (:func:`dating.name_day`) — once no name matched.
    A day written as Korean, Chinese and Japanese write it (``2026년 4월 17일``, ``2026年4月17日``,
    ``2026.04.17``) is that day too: no order is guessed (dating.iso_spelling), and an agent asked
    in Korean passes the day on as the user said it. None: not such a day, or no note is named for it."""
    day = _day_of(reference, now_us, index.paths.daily.solar_hijri)
    if day is None:
        return None
    label = to_epoch_us(datetime(day.year, day.month, day.day, tzinfo=UTC))
    dated = index.store.notes.dated_on(label)
    named = [row for row in dated if daily_note_day(index.paths, row.path) == day]
    if not named:
        # Named for the day, dated otherwise by a property (a template's `date:` of the day it ran:
        # check says so): Obsidian opens it for the day, and it was said to be missing (review, s34).
        named = [row for path, _title in index.store.notes.paths_and_titles()
                 if daily_note_day(index.paths, path) == day and (row := _row_at(index, path)) is not None]
    if not named:
        return None
    return Located(_one(index.store.notes, reference, named, now_us), Resolution(reference, "day"))


def daily_note_day(paths: VaultPaths, path: str) -> date | None:
    """The day the note at ``path`` is the daily note of, by its name; None for any other note."""
    daily = paths.daily
    if daily.in_use:
        # The vault says which notes are its daily notes: a meeting note named "2022-05-16 Budget" is
        # none, and `revise 2022-05-16 --append` on a day without a daily note appended to it.
        return daily.day(path)
    # No daily-note format (a Logseq graph, a vault without the setting): a file whose name is
    # the day and nothing else (`2022_05_16`, `May 16th, 2022`), never a meeting note named
    # "2022-05-16 Budget", which a write by the day would have appended to.
    # With the Persian Calendar plugin on, `1403-05-12.md` is 2024-08-02 (as the index dated it).
    day = name_day(path, daily.solar_hijri)
    stem = PurePosixPath(path).stem
    return day if day is not None and only_calendar_words(stem) and not _words_of_its_own(stem, day) else None


# A day written whole in digits (2022-05-16, 16.05.2022): the name needs no month's name beside it.
_DAY_IN_DIGITS = re.compile(r"\d{4}[-_./]\d{1,2}[-_./]\d{1,2}|\d{1,2}[-_./]\d{1,2}[-_./]\d{4}")
_LETTERS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _words_of_its_own(stem: str, day: date) -> bool:
    """Does a name whose digits give the whole day hold a word besides them that no daily-note
    format put there: a month's name (no format writes the month twice; ``2022-05-16 Maja`` is a
    meeting with Maja, though Polish ``maja`` is May) or another day's weekday (``2022-05-16 PT``,
    a Monday's physical therapy, though Polish ``pt`` is Friday)? Was (review, s41): either was
    taken for the day's own note and ``revise 2022-05-16 --append`` wrote the day's entry into it."""
    if _DAY_IN_DIGITS.search(stem) is None:
        return False
    for word in _LETTERS.findall(stem):
        days = weekday_days(word)
        if days is not None and day.weekday() in days:
            continue  # the day's own weekday (French and Spanish `mar.`, Tuesday, is March's name too)
        if days is not None or month_number(word) is not None:
            return True
    return False


def refuse_dating_a_daily_note(paths: VaultPaths, path: str) -> None:
    """``revise``'s ``date`` on a daily note: refused, as its day is its name. Was (review, s34):
    ``revise today --date 2026-12-05`` wrote ``date: 2026-12-05`` into the person's note of the 2nd;
    the property wins over the name, so the note left its own day (``get today`` found none) and
    ``check`` named vaultmem's write as the person's problem."""
    day = daily_note_day(paths, path)
    if day is not None:
        named = (f"its name in the daily-note format {paths.daily.describe()}" if paths.daily.in_use else "its name")
        raise UsageError(Argument("date"), f": {path} is the daily note of {day.isoformat()} ({named}), and its day is "
                         "its name: a date property would make it another day's note; nothing was written. To move what it "
                         "says to another day, write it in that day's note (or remember it with date) and revise this one's text")
    period = paths.daily.period(path)  # a weekly, monthly … note by Periodic Notes' formats, alike
    if period is not None and isinstance(span := period[0], Span):
        raise UsageError(Argument("date"), f": {path} is the {span.kind}ly note of {span.name} (its name in Periodic "
                         f"Notes' {span.kind}ly format), and its {span.kind} is its name: a date property would take it "
                         f"out of it; nothing was written. Write what it says of another day in that day's note (or "
                         "remember it with date) and revise this one's text")


def _day_of(reference: str, now_us: int, solar_hijri: bool = False) -> date | None:
    """The day ``reference`` is, written as ISO writes it (or year first as CJK write it), or
    ``today``, ``yesterday``, ``tomorrow`` (this machine's calendar day at ``now_us``, as ``list
    --since today`` reads it); None for anything else, and for a day no calendar holds (2022-02-30).
    The words: a person's trial (s34) asked `get today` for the daily note, as Obsidian opens it,
    and was offered `memories/working-on-the-churn-dashboard-for-priya-today.md` instead.
    ``solar_hijri`` (the Persian Calendar plugin is on): a day of a Solar Hijri year is that
    calendar's, as the vault's file names are read (``1403-05-13`` is 2024-08-03)."""
    word = reference.strip().casefold()
    if word in _RELATIVE_DAYS:
        return since_bound(word, from_epoch_us(now_us)).day.date()
    shape = _ISO_DAY.fullmatch(iso_spelling(reference.strip()))
    compact = compact_day(reference, solar_hijri) if shape is None else None  # 20261203, ISO's basic format
    parts = (int(shape[1]), int(shape[2]), int(shape[3])) if shape is not None else compact
    if parts is None:
        return None
    try:
        return gregorian_day(*parts) if solar_hijri and parts[0] in SOLAR_HIJRI_YEARS else date(*parts)
    except ValueError:
        return None  # 2022-02-30, or 1402-12-30 of that calendar


def _owners_names(notes: NoteStore, reference: str) -> list[tuple[NoteRow, str]]:
    """Step 4: the notes that go by ``reference`` as an alias, by their permalink or by their
    citekey, each with the kind (``aliases``, ``permalink``, ``citekey``). One step, as all are
    names the note's owner gave it: one note's alias and another's citekey are ambiguous together."""
    return [*_listing(notes, reference, ALIAS_FIELDS), *((row, PERMALINK) for row in _by_permalink(notes, reference)),
            *((row, CITEKEY) for row in _by_citekey(notes, reference))]


def _by_citekey(notes: NoteStore, reference: str) -> list[NoteRow]:
    """The notes whose citation key ``reference`` is (``notes.citekey_form``: without an ``@``,
    any case), compared as stored: one indexed lookup."""
    wanted = citekey_form(reference)
    return [row for row, _ in notes.by_name_entry(wanted, (CITEKEY,))] if wanted else []


def _by_permalink(notes: NoteStore, reference: str) -> list[NoteRow]:
    """The notes that answer to ``reference`` by their permalink (``notes.permalink_names``: the
    whole, or an end of it from a ``/`` on), compared as stored (``notes.permalink_form``): one indexed lookup."""
    wanted = permalink_form(reference)
    return [row for row, _ in notes.by_name_entry(wanted, (PERMALINK,))] if wanted else []


def _listing(notes: NoteStore, reference: str, fields: Sequence[str]) -> list[tuple[NoteRow, str]]:
    """The notes that list ``reference`` in one of ``fields``, with the field: an alias in any
    case (as a file name), an id byte for byte (an opaque token: ``01J…`` is not ``01j…``)."""
    any_case = fields == ALIAS_FIELDS
    return as_written_else_nfc(lambda normalized: notes.by_name_entry(reference, fields, normalized=normalized,
                                                                      any_case=any_case))


def _one(notes: NoteStore, reference: str, rows: Sequence[NoteRow], now_us: int) -> NoteRow:
    distinct = list({row.label: row for row in rows}.values())
    alive = [row for row in distinct if not is_expired_us(row.expires_us, now_us)]
    chosen = alive if alive else distinct
    if len(chosen) > 1:
        raise AmbiguousNote(reference, [row.path for row in chosen], sync_copies=sync_copies(notes, [row.path for row in chosen]))
    return chosen[0]


def _original_of_copies(index: DerivedIndex, reference: str, rows: Sequence[NoteRow]) -> Located | None:
    """The one note among ``rows`` (the notes whose id ``reference`` is) that the others are sync
    tools' copies of (sync_copies.py), with the copies in its ``resolved_from``; None when the
    rows are not one note and its copies. A copy holds the id because a device's version of the
    note was kept beside it: the original is the note links name and writes go to, and it was
    refused as ambiguous, a memory the agent held by its id out of reach until the person deleted
    the copy (adr/0035, 2026-12-02). A copy named by a number alone (``Note 2.md``, as a person
    may name a note of their own) counts only when its text is a version of the original's
    (``SyncCopy.of_text``, the files read). Once the original is gone, the copy is the one note
    the id names (len(rows) == 1): it answers in its place, as adr/0035 says of ``forget``."""
    paths = [row.path for row in rows]
    copies = {row.path: copy for row in rows if (copy := copy_among(row.path, paths)) is not None}
    originals = [row for row in rows if row.path not in copies]
    if len(originals) != 1 or any(copy.original != originals[0].path for copy in copies.values()):
        return None
    original = originals[0]
    if not all(_copy_agrees(index, copy) for copy in copies.values()):
        return None
    described = tuple((path, copy.describe()) for path, copy in sorted(copies.items()))
    return Located(original, Resolution(reference, "id", copies=described))


def _lone_copy_said(notes: NoteStore, reference: str, row: NoteRow) -> Located:
    """The one note whose id ``reference`` is; when its name is a sync tool's own copy name
    (not ``Note 2.md``, which a person may name a note) and the note it is a copy of is not in
    the index, with ``orphan_of`` saying so: once the original was forgotten or deleted, a write
    by its id went to the copy — another device's older version — as if it were the note."""
    original = tool_named_original(row.path)
    if original is None or notes.by_path(original) is not None:
        return Located(row)
    return Located(row, Resolution(reference, "id", orphan_of=original))


def _copy_agrees(index: DerivedIndex, copy: SyncCopy) -> bool:
    """Does the copy's text agree with what its name says (a numbered copy's must resemble its original's)?"""
    if not copy.numbered:
        return True
    try:
        return copy.of_text(read_text(index.paths.root, copy.path), read_text(index.paths.root, copy.original))
    except NoteReadError:
        return False  # unread: not known to be a copy, so the id stays ambiguous (the error names both)


def sync_copies(notes: NoteStore, candidates: Sequence[str]) -> dict[str, str]:
    """The candidates named as a sync tool's copy of a note the index holds (sync_copies.py),
    each with what its name says: a title four files share is then no riddle."""
    found = {}
    for path in candidates:
        copy = named_copy(path)
        if copy is not None and (copy.original in candidates or notes.by_path(copy.original) is not None):
            found[path] = copy.describe()
    return found
