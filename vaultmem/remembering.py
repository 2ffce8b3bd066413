"""``remember``: a new note with its layer's policy, retiring the notes it supersedes.

Runs inside the write path's unit of work (unit_of_work.py), in this order: the index is
made if there is none (an index that cannot take the note fails before anything is
written); the notes to supersede are located as the index last saw them and read once;
the new note's frontmatter is decided (writer.py) with their lineage, and every
retirement is planned (supersede.py) before a file is touched; the index is brought in
line with the files, and the new note claims a file name no note answers to (adr/0019:
the person's ``get Dad`` keeps naming ``people/dad.md``; ours is ``dad-2.md``); then the old
notes are retired — all of them, or none and no new note.

After the write, :func:`similar_notes` names the live memories, of any layer, that say
nearly the same (``[consolidate] similar_threshold``, 0.83: lower than merging's 0.88, as a
list is advice and a merge is not — adr/0010): the writer may have repeated a memory, or
written again in a longer-lived layer a fact it first kept as an episode; then your notes (no
layer) one of whose sentences says it (own_similar.py, 0.70). A failure there is
:class:`NoteWritten`, so a retrying agent does not write it twice.
See adr/0019-memories-change.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from .config import is_logseq_graph
from .dating import local_date, local_day_start, memory_day_word
from .durable import remove_made_folders
from .errors import NoteWritten, VaultmemError
from .fields import case_fold, name_key
from .lifecycle import (
    EXPIRING_LAYERS,
    LAYERS,
    format_timestamp,
    is_expired_us,
    parse_timestamp,
    resolve_now,
    to_epoch_us,
)
from .merge_markers import require_merged
from .note_numbers import file_name_id
from .note_styles import placement
from .noteio import FileChange
from .notes import Note, content_hash, parse_note, version_of
from .own_similar import OWN_SIMILAR_THRESHOLD, similar_own_notes
from .property_types import load_property_types
from .resolution import answered, locate_to_write
from .results import LeftUnsaid, NoteRef, Remembered, SimilarNote
from .slugs import slugify
from .spelled_days import days_said
from .storage import Eligibility, NoteRow
from .supersede import Retirement, lineage, plan_retirement, retire, unsaid
from .writer import NewNote, compose_note, delete_note, target_folder, write_new_note

if TYPE_CHECKING:
    from .config import VaultConfig
    from .derived import DerivedIndex
    from .unit_of_work import VaultWrite


@dataclass(frozen=True)
class Written:
    """The note ``remember`` wrote, where, and the notes it retired."""

    note: NewNote
    path: str
    retirements: list[Retirement]

    @property
    def expires_at(self) -> str | None:
        expires = self.note.meta.get("expires_at")
        return format_timestamp(parse_timestamp(expires)) if expires else None  # a day, where types.json declares one

    def remembered(self, write: VaultWrite, similar: list[SimilarNote], same_name: list[NoteRef]) -> Remembered:
        note = self.note
        return Remembered(id=note.id, path=self.path, title=note.title, layer=note.meta["layer"],
                          expires_at=self.expires_at, tags=list(note.meta.get("tags", [])),
                          version=version_of(content_hash(note.render())), commit=write.commit, similar=similar,
                          not_committed=write.not_committed, yours_left_uncommitted=write.yours_left_uncommitted,
                          supersedes=[NoteRef(item.note.id, item.path) for item in self.retirements], same_name=same_name,
                          named_beside=self.named_beside(), unsaid=self.unsaid())

    def unsaid(self) -> list[LeftUnsaid]:
        """Each retired note's statements the new note does not say, for those that have any."""
        found = []
        for item in self.retirements:
            left = unsaid(item.note.body, f"{self.note.title}\n{self.note.body}")
            if left.statements:
                found.append(LeftUnsaid(item.note.id, item.path, list(left.statements), left.more))
        return found

    def named_beside(self) -> str | None:
        """The retired note whose file name this one would have had (``dentist-phone.md`` beside
        ``dentist-phone-2.md``): it keeps the name until ``expire`` archives it (adr/0019)."""
        written = PurePosixPath(self.path)
        numbered = re.fullmatch(r"(.+)-\d+", written.stem)
        if numbered is None or not numbered.group(1).endswith(slugify(self.note.title)):
            return None  # its title's own name (tax-return-2025 for "Tax return 2025"), not numbered: beside nothing
        base = numbered.group(1)
        for item in self.retirements:
            old = PurePosixPath(item.path)  # dentist-phone, or dentist-phone-2 superseded in turn (by dentist-phone-3)
            if old.parent == written.parent and old.suffix == written.suffix and re.fullmatch(
                    rf"{re.escape(base)}(?:-\d+)?", old.stem):
                return item.path
        return None


def write_memory(index: DerivedIndex, write: VaultWrite, config: VaultConfig, text: str, *, title: str | None,
                 layer: str | None, tags: Iterable[str], expires_at: object, ttl: str | None, permanent: bool,
                 folder: str | None, supersedes: Iterable[str], now: object, day: object = None) -> Written:
    """Write the new note and retire the superseded ones, recording each change on ``write``.
    ``layer`` None: the layer of the notes it supersedes (the longest-lived of them), else L2;
    no ``tags``: theirs. ``day``: the day the memory is about (its first date property)."""
    paths = index.paths
    index.ensure_indexed()  # before writing: an index that cannot take the note must fail first
    olds = list({row.path: row for row in (_superseded_row(index, old) for old in supersedes)}.values())
    layer = layer if layer is not None else inherited_layer(olds)
    raws = {row.path: paths.resolve_inside(row.path).read_bytes() for row in olds}
    place = placement(paths.root, config.remember_dir, config.remember_dir_set, folder)
    old_notes = [parse_note(path, raw) for path, raw in raws.items()]
    note = compose_note(text, title=title, layer=layer, tags=list(tags), expires_at=expires_at,
                        ttl=ttl, permanent=permanent, policy=config.policy, now=now, supersedes=lineage(old_notes),
                        app=place.app, day=day, date_key=paths.dates.date[0], inherited_tags=inherited_tags(old_notes),
                        types=load_property_types(paths.root))
    graph = is_logseq_graph(paths.root)
    retirements = [plan_retirement(path, raw, note.id, note.written, graph=graph) for path, raw in raws.items()]
    require_merged(paths.root, list(raws))  # retiring one side of an unfinished git merge is the person's call
    # The names notes answer to now (a note the person wrote a moment ago included): the one
    # walk a remember pays (adr/0021), before the file name is chosen rather than after the write.
    # Another writer holding the index (an `index`, a watcher's batch): the names as the index
    # last saw them — refusing would fail a memory a read would have answered beside, and the
    # write waits for that writer anyway to index the new note.
    index.bring_current()
    moment_us = to_epoch_us(resolve_now(now))
    # The folder asked for is checked as one vaultmem may make; remember_dir is the person's setting.
    new_file = write_new_note(paths, target_folder(paths, place.folder, asked=folder is not None), note,
                              lambda stem: answered(index.store.notes, stem, moment_us), place.name_prefix)
    relative = new_file.relative
    created = FileChange(relative, None, note.render())
    write.record(created)
    write.reindex(*raws)  # also when a retirement fails: the index follows the files

    def remove_new_note() -> None:
        delete_note(paths, relative, content_hash(note.render()))
        remove_made_folders(new_file.made_folders)  # a memories/ made for it goes too; one that was there stays
        write.unrecord(created)  # gone again: the failure must not say "written, do not remember it again"

    write.record(*retire(paths, retirements, remove_new_note, relative))
    written = Written(note, relative, retirements)
    retired = "".join(f"\nsupersedes {path}" for path in raws)
    write.message = (f"vaultmem remember: {note.title}\n\nlayer {note.meta['layer']}, "
                     f"expires {written.expires_at or 'never'}{retired}")
    return written


DEFAULT_LAYER = "L2"  # episodic: a memory given no layer and superseding nothing


def _superseded_row(index: DerivedIndex, reference: str) -> NoteRow:
    """The note ``reference`` names, to be retired; an error that says it was the ``supersedes``
    argument and that nothing was written. A bare "NoteNotFound: no note matches 'x'" left an
    agent that sent a text, a title and supersedes to guess which was wrong, and whether its
    memory was stored (an agent's week over MCP)."""
    try:
        return locate_to_write(index, reference).row
    except VaultmemError as error:
        error.add_note(f"{reference!r} was given as supersedes (the note this memory replaces): nothing was written")
        raise


def inherited_layer(olds: Iterable[NoteRow]) -> str:
    """The layer a memory takes when none is given: that of the notes it supersedes, the
    longest-lived (the highest) when they differ, else L2 (episodic). A corrected fact keeps its
    kind: an agent that superseded its L3 note of Dana's address with the new address, saying no
    layer, got an L2 note that expired a week later, and the address was gone. Never L4: an L4
    note is never superseded (supersede.never_expires_refusal says why), and an L4 taken from it
    was refused first, with a ``ttl``, as "layer L4 contradicts ttl" — a layer the caller never gave."""
    layers = [row.layer for row in olds if row.layer is not None and row.layer in EXPIRING_LAYERS]
    return max(layers, key=LAYERS.index) if layers else DEFAULT_LAYER


def inherited_tags(olds: Iterable[Note]) -> list[str]:
    """The tags a memory takes when none are given: those of the notes it supersedes, in their
    order, each once (in any case). A correction written with no tags was ``tags: []``: the
    fact that replaced Dana's #contact note was found by no search for #contact (a trial)."""
    tags: dict[str, str] = {}
    for old in olds:
        for tag in old.tags:
            tags.setdefault(case_fold(tag), tag)
    return list(tags.values())


def same_named(index: DerivedIndex, written: Written, now: object) -> list[NoteRef]:
    """Live notes that go by the new note's title or file name (case and Unicode form aside,
    as Obsidian resolves ``[[links]]``): a link by that name, or ``get`` by it, is ambiguous
    now. From an index the caller has brought in line with the files."""
    alive = Eligibility(now_us=to_epoch_us(resolve_now(now)))
    keys = dict.fromkeys(key for key in (name_key(written.note.title), name_key(PurePosixPath(written.path).stem)) if key)
    numbered = file_name_id(written.note.title)
    try:
        labels = {label for key in keys for label in index.store.notes.labels_named(key, alive)}
        rows = sorted(index.store.notes.by_labels(sorted(labels)).values(), key=lambda row: row.path)
        # A title that is a timestamp or Johnny.Decimal id: the note whose file name begins with it
        # answers to it first (resolution step 7), so `get 11.01` never opens the new note (review, s38).
        rows += [] if numbered is None else [row for row in index.store.notes.file_names_starting(numbered[0])
                                             if not is_expired_us(row.expires_us, alive.now_us) and row.label not in labels]
    except Exception as error:  # the note is written: a retry must not write it again
        raise NoteWritten([written.path], "remember", error) from error
    return [NoteRef(row.id, row.path) for row in rows if row.path != written.path]


# Words that name one day to come, read against the day a memory is written (dating.memory_day_word:
# the reader of remember's `date`): "tomorrow", "the day after tomorrow", "next Friday".
_WEEKDAY_NAMES = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_DAY_TO_COME = re.compile(rf"(?<![\w-])(?:day after tomorrow|tomorrow|next (?:{_WEEKDAY_NAMES}))(?![\w-])", re.IGNORECASE)
# "in two weeks", "in 3 days": that many days or weeks from the day it is written.
_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
_DAYS_FROM_NOW = re.compile(r"(?<![\w-])in (a|one|two|three|four|five|six|seven|eight|nine|ten|[0-9]{1,3}) (day|week)s?(?![\w-])",
                            re.IGNORECASE)


def days_to_come(text: str, now: datetime, week_start: int = 0) -> list[date]:
    """The days ``text`` names in words as days to come, on this machine's calendar at ``now``:
    ``tomorrow``, ``the day after tomorrow``, ``next Friday``, ``in two weeks``, ``in 3 days``."""
    found = []
    for words in _DAY_TO_COME.finditer(text):
        read = memory_day_word(words.group(), now, week_start)
        if read is not None:
            found.append(read[0])
    today = local_date(now)
    for count, unit in (said.groups() for said in _DAYS_FROM_NOW.finditer(text)):
        many = _COUNTS.get(count.casefold()) or int(count)
        found.append(today + timedelta(days=many * (7 if unit.casefold() == "week" else 1)))
    return found


def expires_before(text: str, expires_at: str | None, now: datetime | None = None, week_start: int = 0) -> str | None:
    """The latest day ``text`` says (spelled_days.days_said) that is not over when the memory
    expires, as an ISO day; None for a memory that never expires or outlives every day it names.
    A trial: "Dentist appointment moved to Friday 11 December 2026 at 14:00." kept as L2 on the
    4th expired at 03:57 on the 11th, gone from recall before the appointment without a word. Told
    the day, the writer passes it as ``date`` (the layer's lifetime counts from it) or a later
    expiry; nothing is decided for them (a day in the text may be a past one's anniversary). A day
    ends at this machine's local midnight after it, as a memory's day starts there (adr/0003).
    ``now``: the day words such as ``next Friday`` and ``in two weeks`` are read against
    (:func:`days_to_come`; was, review43b s43: unread, "Dentist next Friday" kept as L2 on a
    Friday expired that morning without a word)."""
    if expires_at is None:
        return None
    expires = parse_timestamp(expires_at)
    named = days_said(text) + ([] if now is None else days_to_come(text, now, week_start))
    outlived = [day for day in named if local_day_start(day + timedelta(days=1)) > expires]
    return max(outlived).isoformat() if outlived else None


def similar_notes(index: DerivedIndex, written: Written, threshold: float, now: object) -> list[SimilarNote]:
    """Live memories (notes with a layer, any layer) whose whole note says nearly the same, then
    your live notes (no layer) one of whose sentences does (own_similar.py), from an index the
    caller has brought in line with the files."""
    # Every layer, not the new note's alone: "Sam is allergic to peanuts" kept as an episode
    # (L2, the default) and written again as a fact (L3) were two live notes recall returned
    # side by side, with `similar` empty — and consolidate, which merges within a layer, never
    # joins them. Your notes by their sentences: a daily note's "… the new bouldering wall opens
    # in January." and the memory saying it again were `similar: []` (a whole note of many facts
    # stood at 0.2–0.6 to one of them; adr/0010).
    moment = to_epoch_us(resolve_now(now))
    try:
        searcher = index.searcher()
        memories = searcher.similar_notes(written.path, threshold, Eligibility(now_us=moment, layers=LAYERS))
        return memories + similar_own_notes(searcher, written.path, written.note.body, OWN_SIMILAR_THRESHOLD,
                                            Eligibility(now_us=moment))
    except Exception as error:  # the note is written: a retry must not write it again
        raise NoteWritten([written.path], "remember", error) from error
