"""The agent's file writes: compose and write a new note, archive or delete one.

Pure decisions (what the frontmatter says, where the file goes) are separate from the
effects (claiming a file name atomically, moving to the archive). Every path goes
through ``VaultPaths.resolve_inside`` first: a title or folder such as ``../x``,
``/etc/passwd`` or a symlink out can never place a file outside the vault.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from .cjk import has_run
from .dating import DAY_WORDS_READ, iso_spelling, local_day_start, property_day
from .durable import MAX_NAME_BYTES, fitting_name, make_folders, remove_folders_of_a_refused_write
from .errors import Argument, InvalidDuration, InvalidTimestamp, PathOutsideVault, UsageError, path_refused, short_repr
from .fields import name_fold, name_form
from .jalali import said_day, solar_hijri_said
from .lifecycle import (
    PERMANENT_LAYER,
    LayerPolicy,
    add_duration,
    apply_layer_ttl,
    as_given,
    format_as_written,
    format_timestamp,
    normalize_layer,
    parse_as_written,
    parse_duration,
    parse_timestamp,
    resolve_now,
)
from .logseq import page_text
from .markdown import HEADING_LINE, blanked, code_ranges, hidden_ranges
from .merge_markers import require_merged, require_resolved
from .name_clashes import same_file_on_macos, same_file_on_windows
from .note_numbers import leading_number
from .note_styles import App, render_note
from .noteio import (
    FileChange,
    create_exclusive,
    delete_if_unchanged,
    move_if_unchanged,
)
from .notes import YAML_LOAD_ERRORS, Note, load_yaml_mapping, opening_frontmatter
from .paths import VaultPaths
from .property_types import NO_DECLARED_TYPES, PropertyTypes
from .slugs import SLUG_WORDS, slugify
from .terminal_codes import without_terminal_codes
from .windows_names import windows_trouble

DEFAULT_TITLE_CHARS = 80  # a title made from the text's first line
MAX_TITLE_CHARS = 200  # a title given (Obsidian's file names stop at 255 bytes; a subject line long before)
MAX_TAG_CHARS = 100
# Marks that change the direction text is shown in (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI).
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_ULID = re.compile(f"[0-7][{_CROCKFORD}]{{25}}")  # 128 bits: the first character holds 3 of them
# Quote markers, then a list item's marker and a task's checkbox: `> - [x] `, `1. `, `* `.
_LINE_MARKERS = re.compile(r"(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[^\]]\][ \t]+)?)?")


@dataclass(frozen=True)
class NewNote:
    """What ``remember`` will write, decided before any file is touched."""

    meta: dict[str, Any]
    body: str
    written: datetime  # when, to the second: ``created`` may hold only its day (property_types.py)
    app: App = App.OBSIDIAN  # how it is written: YAML, a Logseq page's properties, Dendron's fields (note_styles.py)

    @property
    def id(self) -> str:
        return str(self.meta["id"])

    @property
    def title(self) -> str:
        return str(self.meta["title"])

    def render(self) -> bytes:
        return render_note(self.app, self.meta, self.body)


def new_ulid(now: datetime | None = None) -> str:
    """A ULID: 48 bits of milliseconds + 80 random bits, Crockford base32 (sortable)."""
    millis = int((now.timestamp() if now else time.time()) * 1000)
    value = (millis << 80) | secrets.randbits(80)
    return "".join(_CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5))


def is_ulid(value: object) -> bool:
    """Is ``value`` an id as :func:`new_ulid` makes them (26 Crockford base32 characters)?"""
    return isinstance(value, str) and _ULID.fullmatch(value) is not None


def compose_note(
    text: str,
    *,
    title: str | None,
    layer: str,
    tags: tuple[str, ...] | list[str],
    expires_at: object,
    ttl: str | None,
    permanent: bool,
    policy: LayerPolicy,
    now: object = None,
    supersedes: list[str] | None = None,
    app: App = App.OBSIDIAN,
    day: object = None,
    date_key: str = "date",
    inherited_tags: tuple[str, ...] | list[str] = (),
    types: PropertyTypes = NO_DECLARED_TYPES,
) -> NewNote:
    """Validate the arguments of ``remember`` and decide the note's frontmatter.

    Nothing is written here, so bad input can never leave a half-made note behind.
    ``day``: what the memory is about a day (or time) of, written to ``date_key`` (the vault's
    first date property): "met Dana on 2026-01-28" is dated so, not by the day it was written.
    ``inherited_tags``: the tags when none are given (the superseded notes'), as their person
    wrote them: ``[[event log]]`` of a Logseq page is no tag an agent could add, yet it is theirs.
    ``types``: the vault's declared property types (property_types.py): ``created`` and
    ``expires_at`` are written as days where it declares them dates.
    """
    if not isinstance(text, str) or not text.strip():
        raise UsageError("nothing to remember: the text is empty; pass the memory's text")
    refuse_null_character(text, Argument("text"))
    refuse_frontmatter_in_text(text)
    code = normalize_layer(layer)
    refuse_contradictions(code, expires_at, ttl, permanent)
    instant = resolve_now(now)
    moment = instant.replace(microsecond=0)
    chosen_tags = clean_tags(tags) or clean_tags(inherited_tags, removing=True)
    meta: dict[str, Any] = {
        "id": new_ulid(instant),  # to the millisecond: notes made in one second sort as they were made
        "title": clean_title(title or "") or default_title(text),
        "layer": code,
        # No tags, no key: `tags: []` showed as an empty Tags property in Obsidian, on a note the
        # person never tagged; every reader takes a missing `tags` as none (notes.tags_of).
        **({"tags": chosen_tags} if chosen_tags else {}),
        **({} if day is None else {date_key: memory_day(day)}),
        "created": moment,
    }
    if permanent:
        meta["permanent"] = True
    explicit = explicit_expiry(expires_at, ttl, moment)
    if explicit is not None:
        refuse_past(explicit, instant)
        meta["expires_at"] = explicit
    # The day as the written note will be read (a wall-clock time: its day), as revise and check --fix read it.
    apply_layer_ttl(code, meta, ttl_start(moment, property_day(meta, (date_key,))), policy=policy)
    if isinstance(meta.get("expires_at"), str):
        meta["expires_at"] = parse_timestamp(meta["expires_at"])  # written plain, as an aware time
    # As the vault declares them (.obsidian/types.json): a day where Obsidian expects one, decided
    # last, so that the TTL above counts from the time it was written.
    meta["created"] = types.created(moment)
    if isinstance(meta.get("expires_at"), datetime):
        meta["expires_at"] = types.deadline(meta["expires_at"])
    if supersedes:
        meta["supersedes"] = list(supersedes)
    # A new note is LF throughout, as its frontmatter is: a text pasted from Windows kept its "\r\n"
    # under LF frontmatter, a note of mixed endings (revise writes a text in the note's own ending).
    return NewNote(meta, text.replace("\r\n", "\n"), moment, app)


def ttl_start(moment: datetime, day: object) -> datetime:
    """When a memory's layer TTL starts counting: ``moment`` (when it is written, or given its
    layer), or the start of the day it is about (``day``: a date, at this machine's local
    midnight; a time, as it is) when that is later (adr/0003). Without it, "School concert Dec
    18" remembered on the 2nd as L2 expired on the 9th, a week before the concert."""
    if isinstance(day, datetime):
        start = day.replace(microsecond=0)
    elif isinstance(day, date):
        start = local_day_start(day)
    else:
        return moment
    return max(moment, start)


def memory_day(value: object) -> date | datetime | str:
    """``remember``'s ``date``: a day (``2026-01-28``, written so) or a time, written in the zone
    it is given in (``2026-12-09T10:00-08:00`` stays at -08:00: moved to UTC, Obsidian showed 18:00
    for a 10:00 appointment), one without a zone as the person's wall clock (``2026-12-09T10:00``,
    Obsidian's Date & time spelling, as text: YAML would read it back as text anyway);
    :class:`InvalidTimestamp` naming the argument else. A day
    written as ``--since`` reads one (``2025年3月5日``, ``2026년 4월 17일``, ``2026.04.15``,
    ``14. September 2026``: :func:`dating.iso_spelling`) is that day: an agent passes on the day
    as the person said it, and it was refused as "invalid timestamp" (a trial on a Chinese vault)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    hijri = solar_hijri_said(value)  # ۱۴۰۳/۰۵/۱۲ was written as date: 1403-05-12 (a trial on a Persian vault)
    if hijri:
        raise InvalidTimestamp(value, hijri, Argument("date"),
                               f"give the Gregorian day, {said_day(hijri) or 'such as 2026-01-28'}")
    if isinstance(value, str) and _DAY.fullmatch(iso_spelling(value.strip())):
        try:
            return date.fromisoformat(iso_spelling(value.strip()))
        except ValueError:
            raise InvalidTimestamp(value, "no such day", Argument("date"), DATE_FORMS) from None
    try:
        if isinstance(value, str) and not value.strip():
            raise InvalidTimestamp(value, "empty")
        written = parse_as_written(value)
    except InvalidTimestamp as error:
        raise InvalidTimestamp(value, error.reason, Argument("date"), DATE_FORMS) from None
    if written.tzinfo is None and not (written.second or written.microsecond):
        return format_as_written(written)  # 2026-12-09T10:00, as Obsidian's Date & time property writes it
    return as_given(value, written) if isinstance(value, str) else written  # 19:30:00Z stays Z, not +00:00


_DAY = re.compile(r"\d{4}-\d\d-\d\d")
# A memory's date without a zone is the person's wall clock, not UTC (InvalidTimestamp.ISO says UTC).
DATE_FORMS = ("use ISO-8601: a day such as 2026-12-01, or a time such as 2026-12-01T10:00 (the person's own clock) "
              f"or 2026-12-01T10:00+02:00; or {DAY_WORDS_READ}")


def refuse_contradictions(code: str | None, expires_at: object, ttl: str | None, permanent: bool) -> None:
    # Arguments, not flags: the shell spells them (the CLI as --ttl, the API and MCP as ttl).
    deadline = Argument("expires_at") if expires_at is not None else Argument("ttl") if ttl is not None else None
    if deadline and (permanent or code == PERMANENT_LAYER):
        forever = [Argument("permanent")] if permanent else [Argument("layer", code), " (procedural, never expires)"]
        raise UsageError(*forever, " contradicts ", deadline, ": a permanent note has no deadline; drop one of them")
    if expires_at is not None and ttl is not None:
        raise UsageError(Argument("expires_at"), " contradicts ", Argument("ttl"), ": give the deadline one way only")


def refuse_past(expires_at: datetime, now: datetime) -> None:
    # Without this the note is written and hidden from every read at once: a write that
    # reports success while nothing can ever be recalled (expired iff expires_at <= now).
    if expires_at <= now:
        raise UsageError(
            Argument("expires_at"), f" {format_timestamp(expires_at)} is not in the future (now is "
            f"{format_timestamp(now)}), so the note would be hidden at once; give a later time or a ", Argument("ttl"),
            " such as 3d"
        )


def explicit_expiry(expires_at: object, ttl: str | None, moment: datetime) -> datetime | None:
    if ttl is not None:
        try:
            return add_duration(moment, parse_duration(ttl), ttl)
        except InvalidDuration as error:  # said with the argument it came as: --ttl, or ttl
            raise InvalidDuration(ttl, error.reason, error.fix, Argument("ttl")) from None
    if expires_at is not None:
        try:
            if isinstance(expires_at, str) and not expires_at.strip():
                raise InvalidTimestamp(expires_at, "empty")
            return parse_timestamp(expires_at)
        except InvalidTimestamp as error:  # said with the argument it came as: --expires-at, or expires_at
            raise InvalidTimestamp(expires_at, error.reason, Argument("expires_at")) from None
    return None


def default_title(text: str) -> str:
    """The first line of the text that holds a word, or its first words, as a title; ``…``
    where it was cut (a title cut after "due in late" reads as the whole fact, and wrong).
    A line longer than :data:`DEFAULT_TITLE_CHARS` is cut between two words (it was cut
    mid-word: ``…at 10:00, bring p…``), or between two characters of a script written
    without spaces (cjk.py). Which line, and how it is cleaned: :func:`title_source`."""
    title, more = _title_words(text)
    if len(title) > DEFAULT_TITLE_CHARS:
        return _cut_at_word(title, DEFAULT_TITLE_CHARS - 1) + "…"
    return title + ("…" if more else "")


def _title_words(text: str) -> tuple[str, bool]:
    """The title's first words, one space apart, and whether the line holds more of them."""
    first = "".join(char for char in title_source(text).line if not _unsafe_in_names(char))
    words = first.split()
    return " ".join(words[:SLUG_WORDS * 2]), len(words) > SLUG_WORDS * 2


def _cut_at_word(title: str, limit: int) -> str:
    """``title``'s first ``limit`` characters at most, ending at a word's end: at the last
    space before the limit, unless the cut falls between two characters of a script written
    without spaces, or the only space would keep less than half (one long word, a URL: cut
    inside it, as a title must end somewhere). Punctuation left dangling (``10:00,``) goes."""
    if title[limit].isspace() or has_run(title[limit - 1 : limit + 1]):
        kept = title[:limit]
    else:
        space = title.rfind(" ", 0, limit)
        kept = title[:space] if space >= limit // 2 else title[:limit]
    return kept.rstrip().rstrip(",;:").rstrip()


def _default_title_cut_mid_word(text: str) -> str:
    """The title ``remember`` made before titles were cut at a word's end: notes written
    then carry it, and it is still theirs to replace (:func:`is_generated_title`)."""
    title, more = _title_words(text)
    if len(title) > DEFAULT_TITLE_CHARS:
        return title[: DEFAULT_TITLE_CHARS - 3].rstrip() + "…"
    return title + ("…" if more else "")


def is_generated_title(note: Note) -> bool:
    """Is the note's ``title`` the one ``remember`` makes from its text? Then nobody chose
    it: ``revise`` makes a new one from a new text (a title a person or agent wrote is never
    replaced; ``append`` adds at the end, so the first line the title is made from stays), and
    a merge does not keep it as an alias of the kept note — a first line cut at ``…`` is a
    name nobody types (merging.py).

    Only in a note ``remember`` made (its id a ULID as ``writer.new_ulid`` makes them): a
    person's ``title: Project Alpha`` over ``# Project Alpha`` was replaced by the new text's
    first line, since it equals the title made from that body. A remembered note titled by its
    ``# heading`` takes the new text's heading (a review: "Trip to Oslo" stayed over Bergen)."""
    title = note.meta.get("title")
    if not (is_ulid(note.meta.get("id")) and isinstance(title, str)) or not title.strip():
        return False
    # Either cut: a note remembered before the cut moved to a word's end keeps its old title.
    # A page remembered into a Logseq graph opens with its fields as `key:: value` lines: its
    # title was made from the text below them.
    text = note.body if note.has_frontmatter else page_text(note.body)
    return title.strip() in (default_title(text), _default_title_cut_mid_word(text))


@dataclass(frozen=True)
class TitleSource:
    line: str  # the line a title is made from, its markup stripped
    heading: bool  # it is a Markdown heading: a title the writer chose, not a first line


def refuse_null_character(text: str, argument: Argument) -> None:
    """A NUL in a note makes the file binary to git (its diffs read "Binary files differ") and to
    grep and ripgrep, which pass it over without a word: the memory would be missing from the
    person's own searches of the vault. Was: written as given (an agent pasting ``find -print0``
    output, s33). Refused before anything is written, naming the line and the fix."""
    at = text.find("\x00")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        raise UsageError(argument, f" holds a NUL character (U+0000) on its line {line}: a note holding one is a binary "
                         "file to git and grep; remove it, or write it as text (\\0)")


def refuse_frontmatter_in_text(text: str) -> None:
    """``remember`` writes a note's frontmatter itself: a text that opens with one of its own
    (basic-memory's habit, an agent copying a note) would be a second block under it, which
    Obsidian shows as text and reads no property of — ``layer: L4`` in it left the memory L2,
    gone in a week. Refused before anything is written, naming the block and the fix."""
    found = opening_frontmatter(text)
    if found is not None:
        first, last, keys = found
        raise UsageError(f"the text opens with a frontmatter block (its lines {first}–{last}: {keys}); vaultmem writes "
                         "the note's frontmatter itself, so this block would be a second one, shown as text and not "
                         "read: give the title, layer and tags as their own arguments (", Argument("title"), ", ",
                         Argument("layer"), ", ", Argument("tags", flag="--tag"), ") and leave the block out of the text")


def title_source(text: str) -> TitleSource:
    """The line of ``text`` a title is made from: the first that holds a word once what names
    nothing is passed over — a leading ``---`` block shaped like frontmatter (``layer: L4``
    is no title), what reading view hides (``%%…%%``, ``<!-- … -->``), and lines of markup
    alone (a rule, a code fence, an empty ``#`` heading). List, task and quote markers
    (``- ``, ``1. ``, ``- [ ] ``, ``> ``) are stripped: ``- [ ] buy milk`` is about milk, not
    a checkbox. Only a text with no such line at all is titled by its first line, as it reads.
    A terminal's colour codes in pasted output are left out (terminal_codes.py)."""
    text = without_terminal_codes(text)
    for source in (_shown(text), text):
        for line in source.splitlines():
            found = _cleaned(line)
            if _holds_words(found.line):
                return found
    return next((_cleaned(line) for line in text.splitlines() if line.strip()), TitleSource("", False))


def _shown(text: str) -> str:
    """``text`` without a leading frontmatter-shaped block and what reading view hides."""
    lines = text.split("\n")
    start = next((number for number, line in enumerate(lines) if line.strip()), len(lines))
    if start < len(lines) and lines[start].strip() == "---":
        end = next((number for number in range(start + 1, len(lines)) if lines[number].strip() == "---"), None)
        if end is not None and _is_mapping("\n".join(lines[start + 1 : end])):
            text = "\n".join(lines[end + 1 :])
    return blanked(text, hidden_ranges(text, code_ranges(text)))


def _is_mapping(yaml_text: str) -> bool:
    try:
        return isinstance(load_yaml_mapping(yaml_text), dict)
    except YAML_LOAD_ERRORS:
        return False


def _cleaned(line: str) -> TitleSource:
    stripped = line.strip()
    if HEADING_LINE.match(stripped):
        return TitleSource(stripped.lstrip("#").strip(), True)
    return TitleSource(_LINE_MARKERS.sub("", stripped, count=1).lstrip("#").strip(), False)


def _holds_words(line: str) -> bool:
    # A fence's info string (```python) names a language, not what the note says.
    return not line.startswith(("```", "~~~")) and any(char.isalnum() for char in line)


def clean_title(title: str) -> str:
    """A title given to ``remember`` or ``revise``, stripped; refused when it is longer than
    :data:`MAX_TITLE_CHARS` or holds a control character (NUL, a line break, an escape) or a
    bidirectional override (which turns how a terminal shows it around): a title is one line
    of text, a file name and a commit's subject."""
    value = title.strip()
    if len(value) > MAX_TITLE_CHARS:
        raise UsageError(Argument("title"), f" is {len(value):,} characters; a title is at most {MAX_TITLE_CHARS}: "
                         "put the rest in the text")
    unsafe = next((char for char in value if _unsafe_in_names(char)), None)
    if unsafe is not None:
        raise UsageError(Argument("title"), f" holds the character U+{ord(unsafe):04X} at position {value.index(unsafe) + 1} "
                         "(a control or text-direction character): a title is one line of plain text; remove it")
    return value


def clean_tags(tags: tuple[str, ...] | list[str], removing: bool = False) -> list[str]:
    """Tags as given (``#`` and space around them dropped), each once. A tag to add is one word
    of letters, digits, ``-``, ``_`` and ``/`` (symbols such as emoji too), as Obsidian reads
    tags, at most :data:`MAX_TAG_CHARS`; a tag to remove only needs to be there: a tag a person
    wrote by hand (``has space``, ``v1.2``) can always be taken off."""
    cleaned: list[str] = []
    for tag in tags:
        value = str(tag).strip().lstrip("#").strip()
        if not value or (not removing and (any(char.isspace() for char in value) or not _is_tag(value))):
            raise UsageError(f"invalid tag {short_repr(tag)}: a tag is one word of letters, digits, -, _ and / "
                             f"(at most {MAX_TAG_CHARS} characters), such as project/harbor")
        if value not in cleaned:
            cleaned.append(value)
    return cleaned


def _is_tag(value: str) -> bool:
    return len(value) <= MAX_TAG_CHARS and all(
        char in "-_/\u200d" or char.isalnum() or unicodedata.category(char) in ("So", "Sk", "Mn", "Mc") for char in value)


def _unsafe_in_names(char: str) -> bool:
    return unicodedata.category(char) == "Cc" or char in _DIRECTION_CONTROLS


def target_folder(paths: VaultPaths, folder: str | None, *, asked: bool = True) -> str:
    """The canonical vault-relative folder for a new note ('' for the root); refused if
    outside or ignored.

    Canonical means what the scan would call it: ``.``, ``./``, ``a/./b``, ``a//b`` and a
    symlinked folder all name their real folder. Otherwise ``remember`` would return and
    index ``./name.md`` while every later scan finds ``name.md``: one note, two paths.
    ``asked``: the folder came with the call (an agent's), so a folder it would make is checked
    as one Windows and the file system can hold (:func:`refuse_unmakeable_folders`).
    """
    text = _spaced_as_the_vault_has_it(paths.root, folder or "", asked=asked)
    if not text:
        return ""
    if asked:
        refuse_windows_drive(text)
    try:
        absolute = existing_spelling(paths.root, paths.resolve_inside(text))  # refuses absolute paths, '..' and symlinks out
    except PathOutsideVault as error:
        raise path_refused(text, paths.root, inside=error.inside, folder=True) from None
    if asked:
        refuse_unmakeable_folders(paths.root, absolute, text)
    if not paths.contains_real(absolute):
        # `memories/out` names nothing, so it passed as a folder to make; spelled `Memories/out`
        # it is a link out of the vault (a ValueError came out of real_relative).
        raise PathOutsideVault(text, paths.root, folder=True)
    relative = paths.real_relative(absolute)
    if relative == ".":
        return ""
    if paths.is_ignored_dir(relative):
        raise UsageError(
            f"folder {relative!r} is ignored by vaultmem (hidden, .obsidian/.git/.trash, the archive, or excluded by the vault: see `exclude` in .vaultmem.toml and Obsidian's Excluded files and templates folder); "
            "choose a normal folder so the note can be found"
        )
    return relative


def _spaced_as_the_vault_has_it(root: Path, folder: str, *, asked: bool) -> str:
    """``folder`` with its spaces kept when a folder of exactly that name is there (the person's
    ``drafts ``); otherwise a name that begins or ends with a space (or a line break) is refused
    when asked for, and stripped when it is the vault's setting. Was: ``--folder "drafts "``
    stripped the space and made a second ``drafts/`` beside the person's ``drafts ``."""
    stripped = folder.strip()
    if not stripped:
        return ""
    if stripped == folder or os.path.isdir(root / folder):
        return folder
    if not asked:
        return stripped
    there = os.path.isdir(root / stripped)
    fix = f"give {stripped!r}, the folder that is there" if there else f"give {stripped!r} to make that folder"
    raise UsageError(Argument("folder"), f" {short_repr(folder)} begins or ends with a space and no folder of exactly that "
                     f"name is there (Windows cannot hold a name that ends with one); {fix} (nothing was written)")


_WINDOWS_DRIVE = re.compile(r"[A-Za-z]:(?:[\\/]|$)")


def refuse_windows_drive(folder: str) -> None:
    """An agent on Windows giving the vault's own path (``C:\\Users\\maya\\vault\\memories``): on
    Linux and macOS that is no absolute path, and ``remember`` made ``C:/Users/…`` inside the vault
    and said the note was written there (on Windows it is refused as outside the vault)."""
    if _WINDOWS_DRIVE.match(folder):
        raise UsageError(Argument("folder"), f" {short_repr(folder)} is an absolute Windows path (a drive, "
                         f"{folder[:2]}); give the folder relative to the vault root, such as memories/people")


def refuse_unmakeable_folders(root: Path, folder: Path, text: str) -> None:
    """Refuse a folder ``remember`` would make (one not there yet) that Windows cannot hold (``Q3?``,
    ``con``, ``drafts.``: windows_names.py) or whose name is longer than a file system holds. Made on
    Linux, the first stopped Git for Windows' checkout of the whole vault and ``check`` named it as the
    person's problem; the second failed as a bare "File name too long". A folder of the person's is
    theirs to name and is written into as it is."""
    deepest = _deepest_path(root)
    whole = len(os.fsencode(str(folder)))
    made = root
    for part in folder.relative_to(root).parts:
        made = made / part
        if os.path.lexists(made):
            continue
        if whole + 1 + MAX_NAME_BYTES > deepest:
            # mkdir -p failed part-way down as "File name too long" (and left what it made).
            raise UsageError(Argument("folder"), f" {short_repr(text)} would make a folder {whole} bytes deep, and "
                             f"a path on this system holds at most {deepest}, a note's name in it too; "
                             "choose a shorter folder (nothing was written)")
        size = len(os.fsencode(part))
        trouble = (windows_trouble(part) if size <= MAX_NAME_BYTES else
                   f"{short_repr(part)} is {size} bytes, and a folder's name holds at most {MAX_NAME_BYTES}")
        if trouble is not None:
            fix = "choose a shorter name" if size > MAX_NAME_BYTES else "choose another name"
            raise UsageError(Argument("folder"), f" {short_repr(text)} would make a folder vaultmem must not: {trouble}; "
                             f"{fix} (nothing was written)")


def _deepest_path(root: Path) -> int:
    """The longest path, in bytes, the file system under ``root`` takes (PATH_MAX: 4096 on Linux)."""
    try:
        return os.pathconf(root, "PC_PATH_MAX")
    except (AttributeError, ValueError, OSError):  # Windows has no pathconf; a file system may not say
        return _PATH_MAX


_PATH_MAX = 4096


def existing_spelling(root: Path, folder: Path) -> Path:
    """``folder`` (inside ``root``) as the vault already spells it: a missing part that one
    folder beside it names in another case is that folder (``memories`` is ``Memories``).

    Windows and macOS ignore case, so there ``remember`` writes into the person's
    ``Memories/``; without this, run on Linux it made a second ``memories/`` beside it — one
    folder on the person's machine, two in git and to a sync tool (Dropbox renames one
    "(Case Conflict)", Syncthing refuses it)."""
    spelled = root
    for part in folder.relative_to(root).parts:
        spelled = spelled / (part if os.path.lexists(spelled / part) else _folder_in_any_case(spelled, part))
    return spelled


def _folder_in_any_case(parent: Path, name: str) -> str:
    """The one folder in ``parent`` named ``name`` in another case, else ``name`` (none, or
    several: which one the person means is not known, and a new folder is made as asked)."""
    try:
        entries = [entry.name for entry in os.scandir(parent) if entry.is_dir(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return name  # a parent made new by this remember: nothing there to match
    wanted = same_file_elsewhere(name)
    matches = [entry for entry in entries if same_file_elsewhere(entry) & wanted]
    return matches[0] if len(matches) == 1 else name


def same_file_elsewhere(name: str) -> set[tuple[str, str]]:
    """What Windows and macOS see of ``name``: two names sharing any of these are one file
    there. macOS ignores the Unicode form as well as case (``Zoë`` composed and decomposed),
    Windows case only."""
    return {("windows", same_file_on_windows(name)), ("macos", same_file_on_macos(name))}


@dataclass(frozen=True)
class NewFile:
    """A note :func:`write_new_note` wrote: its vault path and the folders made for it."""

    relative: str
    made_folders: list[Path]


def write_new_note(paths: VaultPaths, folder: str, note: NewNote, named_elsewhere: Callable[[str], bool],
                   name_prefix: str = "") -> NewFile:
    """Claim a unique file name in ``folder`` atomically and write the note there: the title's
    slug, else ``slug-2``, ``slug-3`` … — the first free in the folder whose stem
    ``named_elsewhere`` does not say a note already answers to (remembering.py). ``name_prefix``:
    Dendron's hierarchy before the slug (``memories.``, note_styles.py)."""
    directory, made = _make_folder(paths, folder)
    base = name_prefix + slugify(note.title)
    number = leading_number(base + ".md")
    if number is not None and named_elsewhere(number):
        # A file name beginning with a zettel's timestamp id answers to that id as the zettel does
        # (resolution step 7), with every -2, -3 after it: `remember --title "202403141205 follow-up"`
        # made `get 202403141205` ambiguous for the person's zettel (review, s38).
        base = f"re-{base}"
    data = note.render()
    for attempt in range(1, 1000):
        stem = base if attempt == 1 else f"{base}-{attempt}"
        name = f"{stem}.md"
        relative = f"{folder}/{name}" if folder else name
        absolute = directory / name
        if os.path.lexists(absolute):
            continue  # taken, by a note or by anything else (a dangling symlink out included)
        if named_elsewhere(stem):
            # A bare file name outranks every other name a note goes by (resolution.py): the
            # new file would take the person's `get Dad` over from people/dad.md, or make it ambiguous.
            continue
        try:
            create_exclusive(absolute, data)
        except FileExistsError:
            continue  # taken between the check and the claim
        except OSError:
            # The note could not be written (a full disk, a quota): the folders made for it go
            # too, as when mkdir -p fails part-way; were: left behind, empty, nothing remembered.
            remove_folders_of_a_refused_write(made)
            raise
        if not paths.contains_real(absolute):
            # The folder was swapped for a symlink out after it was checked.
            absolute.unlink()
            raise PathOutsideVault(relative, paths.root)
        return NewFile(relative, made)
    raise UsageError(f"no free file name for {base!r} in {folder or 'the vault root'} (up to {base}-999.md each is a file "
                     "there or a name a note goes by); give a different title")


def _make_folder(paths: VaultPaths, folder: str) -> tuple[Path, list[Path]]:
    """The folder's absolute path, created if missing, and the folders made (outermost
    first); a file in its place is a usage error.

    Checked once, before the name loop: otherwise every candidate name fails the same
    way and the loop ends, 999 attempts later, with a misleading "too many notes".
    """
    directory = paths.resolve_inside(folder) if folder else paths.root
    try:
        made = make_folders(directory)
    except (FileExistsError, NotADirectoryError):
        raise UsageError(f"folder {folder!r} is a file, not a folder (or lies inside one); choose another folder") from None
    return directory, made


# ------------------------------------------------------------------ archive / delete


def archive_note(paths: VaultPaths, relative: str, expected_hash: str) -> tuple[str, list[FileChange]]:
    """Move a note to the archive folder (same relative path inside it) if it still holds
    the bytes vaultmem checked (``expected_hash``); else :class:`WriteConflict` and the
    note stays. Returns the archived path and the changes made (for an auto-commit)."""
    source = paths.resolve_inside(relative)
    archived, moved = move_if_unchanged(source, archive_names(paths, relative), expected_hash, relative, paths.root)
    return archived, [FileChange(relative, moved, None), FileChange(archived, None, moved, moved_from=relative)]


def archive_names(paths: VaultPaths, relative: str, *, reading: bool = False) -> Iterator[tuple[str, Path]]:
    """Where a note may go in the archive: its own path there, then ``name-2.md`` … — in the
    archive's folders as they are spelled already (``_archive/Work/`` takes ``work/y.md``), and
    never a name only the case or Unicode form of another file there tells apart (``dentist.md``
    beside an archived ``Dentist.md`` is ``dentist-2.md``, ``Zoë.md`` written decomposed beside one
    written composed ``Zoë-2.md``). Both were one file on Windows or macOS, where a
    clone of the vault keeps one of the two ("paths have collided") and a sync tool renames one.
    ``reading``: the names a note of ``relative`` was given, for a reader who may spell it in
    another Unicode form than the disk does (resolution.newest_archived): a name only the form
    of a file there tells apart is that file, not a name the writer passed over."""
    archive_relative = PurePosixPath(paths.archive_dir) / relative
    folder = existing_spelling(paths.root, paths.resolve_inside(archive_relative.parent.as_posix()))
    archive_relative = PurePosixPath(folder.relative_to(paths.root).as_posix()) / archive_relative.name
    stem, suffix = archive_relative.stem, archive_relative.suffix
    others = _names_in_any_case(folder)
    for attempt in range(1, 1000):
        candidate = archive_relative if attempt == 1 else archive_relative.with_name(_numbered(stem, attempt, suffix))
        alike = {candidate.name} | ({name for name in others.get(("macos", same_file_on_macos(candidate.name)), set())
                                     if name_form(name) == name_form(candidate.name)} if reading else set())
        if any(others.get(seen, alike) - alike for seen in same_file_elsewhere(candidate.name)):
            continue  # another file there differs from it in case or Unicode form only
        yield candidate.as_posix(), paths.resolve_inside(candidate.as_posix())
    raise UsageError(f"the archive already holds too many copies of {relative}; clean up {paths.archive_dir}/")


def _numbered(stem: str, attempt: int, suffix: str) -> str:
    """``stem-N.suffix``; a stem with no room for ``-N`` (a name of 254 bytes) is cut by bytes, as a
    conflict copy's is (the second forget failed "File name too long"), and keeps a short digest of
    the whole stem: cut alone, ``n…na.md`` and ``n…nb.md`` shared ``n…n-2.md``, and the reader, who
    walks these names (resolution.newest_archived), took one note's copy for the other's."""
    tail = f"-{attempt}{suffix}"
    if len(os.fsencode(stem + tail)) <= MAX_NAME_BYTES:
        return stem + tail
    digest = hashlib.blake2b(os.fsencode(name_fold(stem)), digest_size=4).hexdigest()
    return fitting_name(stem, f"~{digest}{tail}")


def _names_in_any_case(folder: Path) -> dict[tuple[str, str], set[str]]:
    """The names in ``folder`` (none when it is not there yet), by what Windows and macOS see
    of them (:func:`same_file_elsewhere`)."""
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    spelled: dict[tuple[str, str], set[str]] = {}
    for name in names:
        for seen in same_file_elsewhere(name):
            spelled.setdefault(seen, set()).add(name)
    return spelled


def remove_note(paths: VaultPaths, relative: str, expected_hash: str, hard: bool,
                unmerged: Collection[str] | None = None) -> tuple[str | None, list[FileChange]]:
    """Archive the note (its new path) or, with ``hard``, delete it (``None``) — only if it
    still holds the bytes vaultmem checked (else :class:`WriteConflict`, the file as it is).
    The changes made, for the commit. A note in the middle of the person's git merge is
    neither (:class:`UnresolvedConflict`): moved, git's conflict would name a file that is gone.
    ``unmerged``: the notes git's index holds unmerged, when the caller asked for a batch."""
    refuse_conflicted(paths, relative, unmerged)
    if hard:
        return None, [delete_note(paths, relative, expected_hash)]
    return archive_note(paths, relative, expected_hash)


def refuse_conflicted(paths: VaultPaths, relative: str, unmerged: Collection[str] | None = None) -> None:
    """Raise :class:`UnresolvedConflict` when the note's file holds git's merge-conflict markers,
    or :class:`UnmergedNote` when git's index holds it unmerged without them (a UTF-16 note git
    merged as binary: forgotten, it went to the archive and git's conflict named a missing file)."""
    try:
        raw = paths.resolve_inside(relative).read_bytes()
    except OSError:
        return  # gone or unreadable: the move or delete that follows says so, as it did
    require_resolved(relative, raw)
    require_merged(paths.root, [relative], unmerged)


def delete_note(paths: VaultPaths, relative: str, expected_hash: str) -> FileChange:
    """Delete a note, unless it changed since vaultmem last read it (the human's edit wins)."""
    removed = delete_if_unchanged(paths.resolve_inside(relative), expected_hash, relative, paths.root)
    return FileChange(relative, removed, None)
