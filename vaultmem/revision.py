"""``revise``: change a memory in place — text, title, layer, expiry, tags (adr/0019).

The note keeps its id, its path (so its usage history and git history), every
frontmatter key it was not asked to change, and their order; the body changes only when
asked (``text`` replaces it, ``append`` adds a paragraph at its end), and then the
frontmatter's bytes stay as they are (body_edits.py).

Pure decisions: :meth:`Revision.of` validates the request before any file is read (a
contradiction is a usage error and nothing is touched), :func:`revise_note` turns a
note's bytes into its revised bytes and the list of fields that changed. The one effect,
:func:`write_revision`, reads, checks the version and writes over exactly what it read. Expiry follows
the one policy (lifecycle.py): an explicit deadline wins; a permanent note (L4 or
``permanent: true``) carries none; a layer change without a deadline re-applies the new
layer's TTL from now (L2 → L3: now + the L3 TTL; → L4: no ``expires_at``), or from the start of
the note's date when that is later; a date set or removed moves an ``expires_at`` vaultmem
computed from the layer when the memory was remembered, never one that was given (adr/0003).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from .body_edits import append_paragraph, body_lines, replace_body, replace_in_body
from .dating import local_day_start, property_day
from .errors import Argument, FrontmatterError, UsageError, WriteConflict, listed, short_repr
from .field_edits import edit_fields, writes_properties
from .fields import case_fold
from .inline_fields import WrittenField, field_text, written_fields
from .lifecycle import (
    DENDRON_MILLISECONDS,
    EXPIRING_LAYERS,
    PERMANENT_LAYER,
    LayerPolicy,
    add_duration,
    format_duration,
    is_absent,
    is_permanent,
    normalize_layer,
    parse_timestamp,
    resolve_now,
)
from .logseq import (
    ID_PROPERTY,
    page_properties,
    page_property_keys,
    page_text,
    property_block_end,
    property_items,
    property_key,
)
from .merge_markers import require_merged, require_resolved
from .noteio import FileChange, JoplinTime, replace_if_unchanged, require_utf8
from .notes import (
    VERSION_CHARS,
    Note,
    created_moment,
    find_frontmatter,
    inline_tags,
    parse_note,
    tags_of,
    timestamp_or_none,
    title_of,
)
from .notion import held_property_line
from .ordered import unique
from .paths import VaultPaths
from .property_sets import LIFECYCLE_KEYS, SET, UNSET, PropertyEdit, as_list_where_listed, property_edit
from .property_types import NO_DECLARED_TYPES, PropertyTypes, load_property_types
from .results import TextProperty
from .writer import (
    clean_tags,
    clean_title,
    default_title,
    explicit_expiry,
    is_generated_title,
    refuse_contradictions,
    refuse_null_character,
    refuse_past,
    ttl_start,
)

# `changed` lists fields in this order, whatever order they were asked in.
FIELDS = ("body", "title", "layer", "expires_at", "permanent", "tags")
ADD_TAGS, REMOVE_TAGS = Argument("add_tags", flag="--tag"), Argument("remove_tags", flag="--untag")
OPTIONS = listed(*map(Argument, ("text", "append", "title", "layer", "ttl", "expires_at", "permanent")), ADD_TAGS, REMOVE_TAGS,
                 SET, UNSET)


VERSION = re.compile(f"[0-9a-f]{{{VERSION_CHARS}}}")


@dataclass(frozen=True)
class Revision:
    """What ``revise`` was asked to change, validated; ``None``/empty: leave it as it is."""

    moment: datetime  # "now": a re-applied layer TTL and a ttl count from here
    text: str | None = None
    append: str | None = None
    title: str | None = None
    layer: str | None = None  # normalized (L1–L4)
    deadline: datetime | None = None  # from ttl or expires_at
    permanent: bool | None = None
    add_tags: tuple[str, ...] = ()
    remove_tags: tuple[str, ...] = ()
    if_version: str | None = None  # only if the file is still at this version
    properties: PropertyEdit = field(default_factory=PropertyEdit)  # other properties to set and remove (property_sets.py)

    @classmethod
    def of(cls, *, text: str | None = None, append: str | None = None, title: str | None = None,
           layer: str | None = None, ttl: str | None = None, expires_at: object = None, permanent: bool | None = None,
           add_tags: Iterable[str] = (), remove_tags: Iterable[str] = (), if_version: str | None = None,
           set_properties: Mapping[str, object] | None = None, unset_properties: Iterable[str] = (),
           date_keys: Iterable[str] = (), now: object = None) -> Revision:
        """Refuse contradictions and an empty revision (:class:`UsageError`) before anything is read.
        ``layer``, ``expires_at`` and ``permanent`` among ``set_properties`` are those options."""
        properties = property_edit(set_properties, unset_properties, date_keys)
        layer, expires_at, permanent = _lifecycle_options(properties, layer, expires_at, permanent)
        properties = properties.without(LIFECYCLE_KEYS)
        if if_version is not None and (not isinstance(if_version, str) or not if_version.strip()):
            raise UsageError(Argument("if_version"), " is empty; pass the version that get, remember or revise returned")
        if if_version is not None and not VERSION.fullmatch(if_version.strip()):
            # Compared as it was, anything else (an id, a date, a made-up value) was a WriteConflict
            # saying the note "changed since you read it" — sending the agent to re-read a note
            # nobody had touched.
            raise UsageError(Argument("if_version"), f" {short_repr(if_version)} is not a version: a version is "
                             f"{VERSION_CHARS} hex digits, as get, recall, remember or revise return it")
        if text is not None and append is not None:
            raise UsageError(Argument("text"), " contradicts ", Argument("append"), ": replace the text or add to it, not both")
        for name, value in (("text", text), ("append", append)):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise UsageError(Argument(name), " is empty; give the note's new text (to remove a note, use forget)")
            if value is not None:
                refuse_null_character(value, Argument(name))
        if title is not None and (not isinstance(title, str) or not title.strip()):
            raise UsageError(Argument("title"), " is empty; give the new title")
        code = normalize_layer(layer) if layer is not None else None
        if permanent is False and code == PERMANENT_LAYER:
            raise UsageError("permanent=false contradicts layer L4 (procedural, never expires); drop one of them")
        refuse_contradictions(code, expires_at, ttl, permanent is True)
        added, removed = clean_tags(list(add_tags)), clean_tags(list(remove_tags), removing=True)
        both = sorted({tag.lower() for tag in added} & {tag.lower() for tag in removed})
        if both:
            raise UsageError(f"tag(s) {', '.join(both)} both added (", ADD_TAGS, ") and removed (", REMOVE_TAGS, "); give each once")
        instant = resolve_now(now)
        moment = instant.replace(microsecond=0)
        deadline = explicit_expiry(expires_at, ttl, moment)
        if deadline is not None:
            refuse_past(deadline, instant)  # as remember does: to retire a note, forget or supersede it
        revision = cls(moment, text, append, clean_title(title) if title is not None else None, code,
                       deadline, permanent, tuple(added), tuple(removed), if_version.strip() if if_version else None,
                       properties)
        if revision.is_empty():
            raise UsageError("nothing to revise: give at least one of ", *OPTIONS)
        return revision

    def is_empty(self) -> bool:
        return (self.text is None and self.append is None and self.title is None and self.layer is None
                and self.deadline is None and self.permanent is None and not self.add_tags and not self.remove_tags
                and not self.properties)


def _lifecycle_options(properties: PropertyEdit, layer: str | None, expires_at: object,
                       permanent: bool | None) -> tuple[str | None, object, bool | None]:
    """``--set layer=L3`` is ``--layer L3`` (and so for expires_at and permanent): validated and
    applied by the one policy, a layer's TTL with it — never written as a bare key beside it."""
    given: dict[str, object] = {"layer": layer, "expires_at": expires_at, "permanent": permanent}
    for key, value in properties.set_values:
        if key not in given:
            continue
        if given[key] is not None:
            raise UsageError(SET, f" {key} contradicts ", Argument(key), ": give it once")
        if key == "permanent" and not isinstance(value, bool):
            raise UsageError(SET, f" permanent: {short_repr(value)} is not true or false")
        given[key] = value if key != "layer" else str(value)
    layer_value, permanent_value = given["layer"], given["permanent"]
    return (None if layer_value is None else str(layer_value), given["expires_at"],
            permanent_value if isinstance(permanent_value, bool) else None)


@dataclass
class _Change:
    """Frontmatter keys to set and remove, and the fields that changed."""

    set_values: dict[str, Any] = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)
    changed: set[str] = field(default_factory=set)
    properties: list[str] = field(default_factory=list)  # other properties set or removed, in the order asked
    said: list[str] = field(default_factory=list)  # each such change as the commit names it

    def put(self, key: str, value: Any, changed: str | None = None) -> None:
        self.set_values[key] = value
        self.changed.add(changed or key)

    def drop(self, key: str, changed: str | None = None) -> None:
        self.remove.append(key)
        self.changed.add(changed or key)


@dataclass(frozen=True)
class RevisedBytes:
    data: bytes  # the note's new bytes (the old ones when nothing changed)
    changed: list[str]  # in FIELDS order, then the other properties set or removed
    said: tuple[str, ...] = ()  # each other property's change, as the commit names it
    in_text: tuple[TextProperty, ...] = ()  # those properties written in the text, where (:func:`_text_report`)


@dataclass(frozen=True)
class RevisedNote:
    """What :func:`write_revision` did to one file."""

    path: str
    title_before: str
    after: Note  # as written (as found, when nothing changed)
    changed: list[str]
    change: FileChange | None  # what was written (for the commit); None when nothing changed
    said: tuple[str, ...] = ()  # properties set or removed: "company: Social Leverage → Acme"
    in_text: tuple[TextProperty, ...] = ()  # those of them written in the text: changed there, or left there

    def commit_message(self) -> str:
        """Subject: the note's title as it is now; a title that changed says what it was."""
        retitled = f"\n\ntitle was: {self.title_before}" if self.after.title != self.title_before else ""
        said = "".join(f"\n{line}" for line in self.said)
        return f"vaultmem revise: {self.after.title}\n\n{self.path}: {', '.join(self.changed)}{retitled}{said}"


def write_revision(paths: VaultPaths, relative: str, revision: Revision, policy: LayerPolicy) -> RevisedNote:
    """Read the note, check its version, write its revised bytes over exactly what was read.

    :class:`WriteConflict` when it is not at ``revision.if_version``, or when it changes
    between this read and the write (a person's save wins); :class:`UnmergedNote` when git's
    index holds it unmerged (a UTF-16 note git merged as binary); nothing is written then.
    """
    path = paths.resolve_inside(relative)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        # Renamed or deleted since it was located a moment ago (the person's rename in Obsidian):
        # a bare "[Errno 2] No such file" told an agent nothing it could act on.
        raise WriteConflict(relative, gone=True) from None
    current = parse_note(relative, raw)
    if revision.if_version is not None and current.version != revision.if_version:
        raise WriteConflict(relative, expected_version=revision.if_version, version=current.version)
    revised = revise_note(raw, current, revision, policy, in_properties=writes_properties(paths.root, current),
                          date_keys=paths.dates.date, solar_hijri=paths.daily.solar_hijri,
                          types=load_property_types(paths.root))
    require_merged(paths.root, [relative])  # git's merge of it unfinished, markers or none: the person's call
    change = replace_if_unchanged(path, revised.data, current.content_hash, relative, paths.root) if revised.changed else None
    return RevisedNote(relative, current.title, parse_note(relative, revised.data), revised.changed, change, revised.said,
                       revised.in_text)


def revise_note(raw: bytes, note: Note, revision: Revision, policy: LayerPolicy, *,
                in_properties: bool = False, date_keys: tuple[str, ...] = ("date",),
                solar_hijri: bool = False, types: PropertyTypes = NO_DECLARED_TYPES) -> RevisedBytes:
    """The note's new bytes; raises :class:`UsageError`/:class:`FrontmatterError`, writing nothing
    (:class:`UnresolvedConflict` for a note in the middle of the person's git merge).

    ``in_properties``: the note is a page of a Logseq graph without frontmatter; its fields
    are its ``key:: value`` lines (adr/0028), and a new text goes below them. ``date_keys``:
    the vault's properties of what day a note is about (its layer's TTL counts from that day
    when it is later: writer.ttl_start); ``solar_hijri``: its Persian Calendar plugin is on, and
    those days and ``created`` are read in that calendar, as the index reads them. ``types``: the
    vault's declared property types (an ``expires_at`` declared a date is written as a day)."""
    require_utf8(note.path, raw)  # a UTF-16 note: read, never written (NotUtf8Note)
    require_resolved(note.path, raw)
    revision, respelled = _as_held(note, revision, in_properties)
    if not in_properties:
        _refuse_notion_property_lines(note, revision)
    revision = _naming_property_as_title(note, revision)
    body = _new_body(note, revision, in_properties)
    change = _Change()
    if body != note.body:
        change.changed.add("body")
    _title(note, revision, body, change, in_properties)
    _lifecycle(note, revision, policy, change, _Days.of(note, revision, date_keys, in_properties, solar_hijri), types)
    _tags(note, revision, body, change, in_properties)
    asked = revision.properties
    revision, in_text = _written_in_text(note, revision, body, raw, in_properties, date_keys)
    change.changed.update(in_text)  # a Dendron or Joplin note says it was changed (_updated)
    _properties(note, revision, change, in_properties, respelled)
    _updated(note, raw, revision, change)
    data = raw
    if change.set_values or change.remove:
        data = _edited(raw, note, change, in_properties)
    data = _with_body(data, note, revision, change, in_properties)
    if in_text:
        data = _values_in_text(data, note, in_text, change, in_properties)
    changed = [name for name in FIELDS if name in change.changed]
    return RevisedBytes(data, changed + [key for key in change.properties if key not in changed], tuple(change.said),
                        _text_report(data, asked, set(in_text), in_properties))


def _updated(note: Note, raw: bytes, revision: Revision, change: _Change) -> None:
    """A note that says when it was last changed in Dendron's way (``updated: 1669241920793``,
    epoch milliseconds) or Joplin's (``updated: 2023-04-01 10:00:00Z``) says it again, in the
    same form; not listed as a change asked for. Without it Dendron sorts and publishes the
    note as last changed before vaultmem's revision, and Joplin imports it so (adr/0030)."""
    if not (change.set_values or change.remove or change.changed):
        return
    stamp = updated_stamp(note, raw, revision.moment)
    if stamp is not None:
        change.set_values["updated"] = stamp


def updated_stamp(note: Note, raw: bytes, moment: datetime) -> int | JoplinTime | None:
    """The ``updated`` a note changed at ``moment`` says, in its own form — Dendron's epoch
    milliseconds or Joplin's UTC second — or ``None`` for a note that says it in neither (its
    ``updated``, if any, is the person's to keep). ``revise`` and ``consolidate``'s kept note."""
    updated = note.meta.get("updated")
    if isinstance(updated, int) and not isinstance(updated, bool) and updated in DENDRON_MILLISECONDS:
        return int(moment.timestamp() * 1000)
    if isinstance(updated, datetime) and _JOPLIN_UPDATED.search(_frontmatter_text(raw)):
        return JoplinTime.of(moment)
    return None


# Joplin's "Markdown + Front Matter" export stamps a note's last change in UTC to the second.
_JOPLIN_UPDATED = re.compile(r"^updated:[ \t]+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ[ \t]*\r?$", re.MULTILINE)


def _frontmatter_text(raw: bytes) -> str:
    text = raw.decode("utf-8-sig", errors="replace")
    block = find_frontmatter(text)
    return "" if block is None or block.toml else block.yaml_text


def _with_body(data: bytes, note: Note, revision: Revision, change: _Change, in_properties: bool) -> bytes:
    try:
        if revision.text is not None and "body" in change.changed:
            text = _below_properties(data.decode("utf-8-sig"), revision.text) if in_properties else revision.text
            return replace_body(data, text)
        if revision.append is not None:
            return append_paragraph(data, revision.append)
    except FrontmatterError as error:
        raise FrontmatterError(f"{note.path}: {error}") from None  # body_edits names the problem; the file is ours to name
    return data


def _edited(raw: bytes, note: Note, change: _Change, in_properties: bool) -> bytes:
    """The note with its fields edited (field_edits.edit_fields): in its page-property lines
    (a tag added to or removed from a ``tags::`` line in the line's own form), else its frontmatter."""
    try:
        return edit_fields(raw, change.set_values, change.remove, in_properties=in_properties)
    except FrontmatterError as error:
        raise FrontmatterError(f"{note.path}: {error}") from None  # noteio names the field; the file is ours to name


def _new_body(note: Note, revision: Revision, in_properties: bool) -> str:
    """The body as it will read (LF line endings, as ``Note.body``)."""
    if revision.text is not None:
        text = _below_properties(note.body, revision.text) if in_properties else revision.text
        return text.replace("\r\n", "\n").rstrip("\n") + "\n"
    if revision.append is not None:
        return note.body + revision.append  # only compared: an append always changes the body
    return note.body


def _below_properties(page: str, text: str) -> str:
    """A new text for a page whose fields are its property lines: below those lines, a blank
    line apart (Logseq reads a line right under them as part of them). A text that opens with
    property lines itself is the whole page (an agent sending back the page ``get`` showed it,
    or changing a ``tags::`` line as an --untag refusal tells it to) — but it must keep the
    page's ``vaultmem-id::``: without it the memory would lose its id (and its usage history)."""
    if page_properties(text):
        kept_id = page_properties(page).get(ID_PROPERTY)
        if kept_id is not None and page_properties(text).get(ID_PROPERTY) != kept_id:
            raise UsageError(f"the new text opens with page properties but not the page's line '{ID_PROPERTY}:: {kept_id}', "
                             "its id; keep that line, or give the text without property lines (they stay as they are)")
        return text
    block = page[:property_block_end(page)]
    if not block:
        return text
    return block + ("" if block.endswith("\n") else "\n") + "\n" + text


def _title(note: Note, revision: Revision, body: str, change: _Change, in_properties: bool) -> None:
    # A note whose title already reads so (from its heading or file name) gets no key.
    if revision.title is not None and revision.title != note.title:
        page_title = page_properties(body).get("title")
        if page_title is not None and not in_properties:
            # A `title::` line under YAML frontmatter (notes.parse_note reads it where the YAML has no
            # title): a frontmatter title beside it would name the page one way to vaultmem and another
            # in the file. A page whose fields are its property lines has that line rewritten instead.
            raise UsageError(f"the title of {note.path} is written in its text on its line 'title:: {page_title}'; "
                             "change that line (", Argument("text"), ") instead")
        change.put(_name_key_to_write(note, revision.title), revision.title, "title")
    elif revision.title is None and revision.text is not None and is_generated_title(note):
        # Else every hit goes on showing the old first line — "Thursday at 14:30" above a
        # body that says Friday at 09:00 — and it weighs most in keyword search.
        title = default_title(body if note.has_frontmatter else page_text(body))
        if title and title != note.title:
            change.put("title", title)


def _name_key_to_write(note: Note, title: str) -> str:
    """The property a new title is written to: the one that names the note (notes.naming_key),
    never another — ``title: Partner`` beside ``name: Matt Ober`` is his job, and writing the
    name over it lost it (a trial). Refused when the note would still not be named so: a
    ``title`` that names a note because it is its file name, beside a ``name``, would leave
    the ``name`` naming it once it is no longer the file name."""
    key = note.name_key or "title"
    if title_of({**note.meta, key: title}, note.path, note.body) != title:
        other = "name" if key == "title" else "title"
        raise UsageError(f"{note.path} is named by its {key} because it is its file name; given another title, its "
                         f"{other} ({short_repr(note.meta.get(other))}) would name it: change {other} instead ",
                         Argument("set", f"{other}={title}"), ", or rename the file")
    return key


def _naming_property_as_title(note: Note, revision: Revision) -> Revision:
    """``--set`` of the property that names the note is ``--title``: the same checks, the same
    key written (a note named by its file name is given a ``title``). Removing it is refused."""
    key = note.name_key or "title"
    if key in revision.properties.unset:
        raise UsageError(UNSET, f" {key}: it names {note.path}; give it another name with ", Argument("title"))
    if key not in dict(revision.properties.set_values):
        return revision
    value = str(revision.properties.value(key))
    if revision.title is not None and revision.title != clean_title(value):
        raise UsageError(SET, f" {key} names {note.path} and contradicts ", Argument("title"), ": give the name once")
    return replace(revision, title=clean_title(value), properties=revision.properties.without([key]))


def _as_held(note: Note, revision: Revision, in_properties: bool) -> tuple[Revision, dict[str, str]]:
    """``revision`` with each property to set or remove spelled as the note holds it, when it holds
    it in another case (``--set Date=…`` beside ``date:``), and each such key with how it was
    asked. Obsidian reads property names in any case (and Logseq its ``key::`` lines), so a second
    key differing only in case was a second copy of the property, its value unread (adr/0006
    "property names in any case"). Two keys a note already holds that differ only in case
    (a person's mess) are refused, naming both: which one the person means is theirs to say."""
    meta = {**_page_lines(note.body), **note.meta} if in_properties else note.meta
    # a page's lines as written: page_properties reads them lower-cased, one key for both spellings
    written = [*page_property_keys(note.body), *note.meta] if in_properties else list(note.meta)
    respelled: dict[str, str] = {}

    def held(key: str, argument: Argument, exact_ok: bool) -> str:
        folded = _property_fold(key, in_properties)
        spellings = unique(name for name in written if _property_fold(name, in_properties) == folded)
        if exact_ok and key in meta:
            return key  # YAML --unset of one spelling removes that key alone: the way out of the mess
        if len(spellings) > 1:
            raise UsageError(argument, f" {key}: {note.path} holds {len(spellings)} properties whose names differ only "
                             f"in case ({', '.join(spellings)}), which Obsidian and Logseq read as one; vaultmem does not "
                             "pick one. Remove the one you do not want in the file (or ", UNSET, " with its exact "
                             "spelling, in a note's YAML), then ask again; nothing was changed")
        same = [name for name in meta if _property_fold(name, in_properties) == folded]
        if same and same[0] != key:
            respelled[same[0]] = key
            return same[0]
        return key

    _refuse_one_property_twice(revision.properties, in_properties)
    set_values = tuple((held(key, SET, False), value) for key, value in revision.properties.set_values)
    unset = tuple(unique(held(key, UNSET, not in_properties) for key in revision.properties.unset))
    if not respelled:
        return revision, respelled
    return replace(revision, properties=replace(revision.properties, set_values=set_values, unset=unset)), respelled


def _refuse_notion_property_lines(note: Note, revision: Revision) -> None:
    """A property set or removed, or tags changed, that a page Notion exported holds on one of
    its ``Key: value`` lines under its title (``Type: Sync with Martin``), refused naming the
    line. Obsidian shows that line as the page's text and a YAML key as a property: written in
    YAML, the page said ``type: Sync`` above and ``Type: Sync with Martin`` below; edited in
    place, the line would still be text to Obsidian and to vaultmem, and ``--set`` would have
    made no property (adr/0032, "two values for one property")."""
    # An --unset of a key the YAML holds too takes away the second value, as the refusal asks.
    in_yaml = {str(key).strip().lower() for key in note.meta}
    asked = [(SET, key) for key, _ in revision.properties.set_values]
    asked += [(UNSET, key) for key in revision.properties.unset if key.strip().lower() not in in_yaml]
    asked += [(argument, "tags") for argument, tags in ((ADD_TAGS, revision.add_tags), (REMOVE_TAGS, revision.remove_tags)) if tags]
    # The page as this revision leaves it: a --text without the line (taken out, as the refusal
    # advises) and a --set of its key in one call make the page say it once, in YAML.
    body = revision.text if revision.text is not None else note.body
    for argument, key in asked:
        line = held_property_line(note.path, body, key)
        if line is not None:
            raise UsageError(argument, f" {key}: {note.path} holds it on its line {line!r}, a Notion property Obsidian "
                             f"shows as text; a YAML {key} beside it would make the page say two things. Change that "
                             "line in the text (", Argument("text"), ") instead, or, for a property Obsidian shows, "
                             "take the line out of the text and ask again; nothing was changed")


def _refuse_one_property_twice(properties: PropertyEdit, in_properties: bool) -> None:
    """Keys asked for that name one property in two spellings (``--set company=… --unset COMPANY``,
    ``--set Stage=… --set stage=…``) refused, naming them: each was taken for the note's own key,
    the set won over the removal said done, one value was dropped unsaid, or two keys Obsidian
    reads as one were written. The same key set and removed is property_edit's to refuse; YAML's
    ``--unset date --unset Date`` removes two keys a note holds (the way out of that mess)."""
    seen: dict[str, str] = {}
    for key in [key for key, _ in properties.set_values] + [key for key in properties.unset
                                                            if key not in dict(properties.set_values)]:
        folded = _property_fold(key, in_properties)
        other = seen.setdefault(folded, key)
        if other != key and (key not in properties.unset or other not in properties.unset):
            raise UsageError(f"{other} and {key} name one property (property names are one in any case): give it "
                             "once, to ", SET, " or to ", UNSET, "; nothing was changed")


def _property_fold(key: str, in_properties: bool) -> str:
    """A property name as names are compared: in any case; a page's line also with - for _."""
    return (key.replace("-", "_") if in_properties else key).casefold()


def _properties(note: Note, revision: Revision, change: _Change, in_properties: bool,
                respelled: Mapping[str, str] | None = None) -> None:
    """Other properties set and removed, as asked; one that already holds the value is left.
    A page whose fields are its ``key:: value`` lines holds them there, as written (adr/0028).
    ``respelled``: the keys written as the note spells them, with how they were asked (:func:`_as_held`)."""
    asked = respelled or {}
    meta = {**_page_lines(note.body), **note.meta} if in_properties else note.meta
    for key in revision.properties.unset:
        # A page's line is found as Logseq spells the key (``Company`` is ``company::``); a YAML
        # key only as written: removing ``Company`` left ``company:`` and said it was removed.
        held = key if key in meta else property_key(key) if in_properties else None
        if held not in meta:
            known = ", ".join(sorted(meta)) or "none"
            raise UsageError(UNSET, f" {key}: {note.path} has no such property (its properties: {short_repr(known)})")
        change.remove.append(key)
        change.properties.append(key)
        change.said.append(f"{key}: {short_repr(meta[held])} removed" + _as_spelled(key, asked))
    for key, given in revision.properties.set_values:
        value = as_list_where_listed(given, meta.get(key))
        if key in meta and meta[key] == value and type(meta[key]) is type(value):
            continue
        change.set_values[key] = value
        change.properties.append(key)
        change.said.append((f"{key}: {short_repr(meta[key])} → {short_repr(value)}" if key in meta
                            else f"{key}: {short_repr(value)} added") + _as_spelled(key, asked))
    _refuse_renaming(note, revision, change)


def _written_in_text(note: Note, revision: Revision, body: str, raw: bytes, in_properties: bool,
                     date_keys: tuple[str, ...]) -> tuple[Revision, dict[str, str]]:
    """``revision`` without the properties to set that are written in the note's text alone, once
    (``speaker:: Caroline`` under a block, ``[rating:: 4]`` in a sentence: inline_fields.py), and
    the new value of each, written there as text (:func:`_values_in_text`); ``raw``: the file, whose
    lines a refusal names. Set in the frontmatter,
    the text went on saying Caroline beside ``speaker: Ana``, and search read both (adr/0019, "A
    property written in the text"). Refused, changing nothing: such a key written on several lines
    (which one is meant is the person's to say), and ``--unset`` of one written only in the text
    (removing the person's words is a text edit). A key that dates the note stays the frontmatter's:
    the note's date is read there (dating.py), so a day written only in the text would date nothing."""
    meta = {**_page_lines(note.body), **note.meta} if in_properties else note.meta
    in_text: dict[str, str] = {}
    for key, value in revision.properties.set_values:
        if key in meta or key.casefold() in {day.casefold() for day in date_keys}:
            continue
        fields = _text_fields(body, key, in_properties)
        if len(fields) > 1:
            raise UsageError(SET, f" {key}: {note.path} writes it {len(fields)} times in its text ({_lines_said(fields, raw)}); "
                             "which one is meant is not vaultmem's to pick. Change the one you mean in the text (",
                             Argument("text"), "); nothing was changed")
        if fields and body[fields[0].start:fields[0].end] != _as_text(value):
            in_text[key] = _as_text(value)
        elif fields:
            in_text[key] = ""  # it already reads so: nothing to write, nor to set in the frontmatter
    for key in revision.properties.unset:
        held = key if key in meta else property_key(key) if in_properties else None
        fields = () if held in meta else _text_fields(body, key, in_properties)
        if fields:
            raise UsageError(UNSET, f" {key}: {note.path} writes it only in its text ({_lines_said(fields, raw)}), the "
                             "person's words; take it out of the text (", Argument("text"), ") instead; nothing was changed")
    kept = revision.properties.without(in_text)
    return replace(revision, properties=kept), {key: value for key, value in in_text.items() if value}


def _text_fields(body: str, key: str, in_properties: bool) -> tuple[WrittenField, ...]:
    """The fields of ``key`` written in ``body`` (inline_fields.written_fields), not a page's
    property lines (its fields, when ``in_properties``: edited as its frontmatter would be)."""
    below = property_block_end(body) if in_properties else 0
    return tuple(found for found in written_fields(body, key) if found.start >= below)


def _lines_said(fields: Iterable[WrittenField], raw: bytes) -> str:
    """The fields with their lines in the file (``raw``: the frontmatter's lines are above the text's)."""
    lines_above = body_lines(raw)[1]
    return ", ".join(f"line {found.line + lines_above}: '{found.written}'" for found in fields)


def _as_text(value: Any) -> str:
    """A value to set as the text of a field written in the note's text: a list's items joined by
    ", " (as Logseq and Dataview list a value), a date as YYYY-MM-DD, true/false as typed."""
    items = value if isinstance(value, list) else [value]
    return ", ".join(str(item).lower() if isinstance(item, bool) else item.isoformat() if isinstance(item, (date, datetime))
                     else str(item) for item in items)


def _values_in_text(data: bytes, note: Note, values: Mapping[str, str], change: _Change, in_properties: bool) -> bytes:
    """``data`` with each property's one field written in the text given its new value (every
    other byte as it was), each change said as the commit names it."""
    body, lines_above = body_lines(data)
    edits: list[tuple[int, int, str]] = []
    for key, text in values.items():
        fields = _text_fields(body, key, in_properties)
        if len(fields) != 1:  # the text read for the decision is the one written: never so
            raise FrontmatterError(f"{note.path}: its {key} written in the text could not be found again; nothing was written")
        found = fields[0]
        edits.append((found.start, found.end, text))
        change.properties.append(key)
        change.said.append(f"{key}: {short_repr(found.text)} → {short_repr(text)} (written in the text, "
                           f"line {found.line + lines_above})")
    try:
        edited = replace_in_body(data, edits)
    except FrontmatterError as error:
        raise FrontmatterError(f"{note.path}: {error}") from None
    _require_read_back(edited, note, values, in_properties)
    return edited


def _require_read_back(data: bytes, note: Note, values: Mapping[str, str], in_properties: bool) -> None:
    """Each value written in the text reads back as that field's value: ``]`` in ``[rating:: 4]``
    would end the field early, a value all code would be none (:class:`UsageError`, nothing written)."""
    body = body_lines(data)[0]
    for key, text in values.items():
        fields = _text_fields(body, key, in_properties)
        if [body[found.start:found.end] for found in fields] != [text]:
            written = ", ".join(f"'{found.written}'" for found in fields) or "no field"
            raise UsageError(SET, f" {key}: {short_repr(text)}, written in the text of {note.path}, would read as "
                             f"{written}, not as its value; give the value without what ends or hides it; "
                             "nothing was changed")


def _text_report(data: bytes, asked: PropertyEdit, edited: set[str], in_properties: bool) -> tuple[TextProperty, ...]:
    """Each property set or removed that the text (as written now) writes: the line changed, or
    a line left saying another value — which search and Dataview read beside the one set."""
    if not asked or b"::" not in data:
        return ()
    body, lines_above = body_lines(data)
    report: list[TextProperty] = []
    new_values = dict(asked.set_values)
    for key in [*new_values, *asked.unset]:
        for found in _text_fields(body, key, in_properties):
            changed = key in edited
            if changed or key not in new_values or found.text != field_text(key, _as_text(new_values[key])):
                report.append(TextProperty(key, found.line + lines_above, found.written, changed))
    return tuple(report)


def _as_spelled(key: str, asked: Mapping[str, str]) -> str:
    return f" (asked as {asked[key]}: the note's own {key} kept, property names are one in any case)" if key in asked else ""


def _page_lines(body: str) -> dict[str, Any]:
    """A page's property lines as fields (``last-contact:: 2026-01-26`` is ``last_contact``, as
    ``--set last_contact=…`` names it; logseq.property_key spells it back)."""
    return {key.replace("-", "_"): value for key, value in page_properties(body).items()}


def _refuse_renaming(note: Note, revision: Revision, change: _Change) -> None:
    """A ``title`` or ``name`` set or removed that does not name the note must not come to name it
    (notes.naming_key): the note renamed by a change to what looked like a property."""
    touched = {"title", "name"} & set(change.properties)
    if not touched:
        return
    meta = {key: value for key, value in {**note.meta, **change.set_values}.items() if key not in change.remove}
    expected = revision.title if revision.title is not None else note.title
    if title_of(meta, note.path, note.body) != expected:
        raise UsageError(f"changing {', '.join(sorted(touched))} of {note.path} would rename it to "
                         f"{short_repr(title_of(meta, note.path, note.body))}; to rename it, give ", Argument("title"))


@dataclass(frozen=True)
class _Days:
    """The day (or time) a note says it is about (dating.property_day), before and after the
    revision, and when it was created (notes.created_moment), each read as the index reads it."""

    before: date | datetime | None
    after: date | datetime | None
    created: datetime | None = None

    @classmethod
    def of(cls, note: Note, revision: Revision, keys: tuple[str, ...], in_properties: bool,
           solar_hijri: bool = False) -> _Days:
        meta = {**_page_lines(note.body), **note.meta} if in_properties else dict(note.meta)
        after = {key: value for key, value in meta.items() if key not in revision.properties.unset}
        after.update(revision.properties.set_values)
        return cls(property_day(meta, keys, solar_hijri), property_day(after, keys, solar_hijri),
                   created_moment(note.meta.get("created"), solar_hijri))


def _own_expiry(meta: Mapping[str, Any], layer: str | None, policy: LayerPolicy, days: _Days) -> bool:
    """Is the note's ``expires_at`` what vaultmem wrote for its layer when it was remembered: its
    TTL from ``created``, or from the start of its day when that was later (writer.ttl_start)?
    Anything else — a deadline the agent or the person gave, a TTL re-applied by a later layer
    change — is theirs to move, not vaultmem's."""
    expires, created = timestamp_or_none(meta.get("expires_at")), days.created
    ttl = policy.ttl(layer) if layer is not None and layer in EXPIRING_LAYERS else None
    if expires is None or created is None or ttl is None:
        return False
    try:
        if _is_day(meta.get("created")):
            # Written as its day (a vault whose types.json declares created a date), the time it was
            # written is some moment of that day — on this machine's calendar, or UTC's as before s39:
            # its deadline lies from that day's first moment + TTL to its last + TTL and a day (a day
            # too, where expires_at is declared one: the first midnight at or after it).
            first, last = _moments_of(created.date())
            begun = ttl_start(created, days.before)
            return (first + ttl <= expires <= last + ttl + timedelta(days=1)
                    or begun + ttl <= expires <= begun + ttl + timedelta(days=1))
        return expires in {created + ttl, ttl_start(created, days.before) + ttl}
    except OverflowError:  # a day near year 9999: no deadline vaultmem could have written
        return False


def _lifecycle(note: Note, revision: Revision, policy: LayerPolicy, change: _Change, days: _Days,
               types: PropertyTypes = NO_DECLARED_TYPES) -> None:
    """Layer, ``permanent`` and ``expires_at``, decided together: they are one policy. A layer's
    TTL counts from now, or from the start of the note's day when that is later; a changed day
    moves an ``expires_at`` vaultmem computed so (never one given: :func:`_own_expiry`)."""
    meta = note.meta
    layer = revision.layer if revision.layer is not None else note.layer
    layer_changed = revision.layer is not None and revision.layer != note.layer
    if layer_changed:
        change.put("layer", revision.layer)
    if revision.deadline is not None and layer == PERMANENT_LAYER:
        raise UsageError(f"{note.path} is layer L4 (procedural, never expires): a deadline contradicts it; "
                         "also give it another layer (", Argument("layer", "L3"), ")")
    flagged = is_permanent(meta)
    if revision.permanent is True and not flagged:
        change.put("permanent", True)
    elif revision.permanent is False and meta.get("permanent", False) is not False:
        change.drop("permanent")
    elif flagged and revision.permanent is None and revision.deadline is not None:
        change.drop("permanent")  # implied: a note given a deadline is no longer permanent
    still_permanent = layer == PERMANENT_LAYER or revision.permanent is True or (
        flagged and revision.permanent is None and revision.deadline is None)
    reapply = layer_changed or (revision.permanent is False and flagged)
    if revision.deadline is not None:
        _set_expiry(meta, revision.deadline, change, types)
    elif still_permanent:
        _set_expiry(meta, None, change, types)
    elif reapply and layer in EXPIRING_LAYERS:
        ttl = policy.ttl(layer)
        _set_expiry(meta, None if ttl is None else _layer_deadline(ttl_start(revision.moment, days.after), ttl, layer), change, types)
    elif days.after != days.before and _own_expiry(meta, layer, policy, days):
        # Counted as remember counts it, from when the memory was written: revising the day is no
        # new lease of life. Without it a concert's memory moved to a later day expired before it.
        ttl, created = policy.ttl(str(layer)), days.created
        if ttl is not None and created is not None:  # both there: _own_expiry checked them
            _set_expiry(meta, _layer_deadline(ttl_start(created, days.after), ttl, str(layer)), change, types)


def _layer_deadline(start: datetime, ttl: timedelta, layer: str) -> datetime:
    """``start`` + the layer's TTL; :class:`InvalidDuration` when that is past year 9999 (a day near it)."""
    return add_duration(start, ttl, f"{format_duration(ttl)} ({layer} TTL)")


def _moments_of(day: date) -> tuple[datetime, datetime]:
    """From the earlier of ``day``'s first moments in UTC and on this machine's calendar to the
    later of its ends: where a moment written as that day, by either reading, lies."""
    utc = datetime.combine(day, time(), UTC)
    return min(utc, local_day_start(day)), max(utc + timedelta(days=1), local_day_start(day + timedelta(days=1)))


def _is_day(value: object) -> bool:
    """Is a ``created`` value a day without a time (a YAML date, ``2026-12-03`` as text)?"""
    if isinstance(value, date) and not isinstance(value, datetime):
        return True
    return isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", value.strip()) is not None


def _set_expiry(meta: Mapping[str, Any], deadline: datetime | None, change: _Change,
                types: PropertyTypes = NO_DECLARED_TYPES) -> None:
    """``deadline`` as the note's ``expires_at`` (None: none), a day where the vault declares it a date."""
    current = meta.get("expires_at")
    if deadline is None:
        if "expires_at" in meta:
            change.drop("expires_at")
        return
    written = types.deadline(deadline)
    if is_absent(current) or timestamp_or_none(current) != parse_timestamp(written):
        change.put("expires_at", written)


def _tags(note: Note, revision: Revision, body: str, change: _Change, in_properties: bool) -> None:
    if not revision.add_tags and not revision.remove_tags:
        return
    raw = note.meta.get("tags")
    if raw is not None and not (isinstance(raw, str) or (isinstance(raw, list) and all(
            item is None or (isinstance(item, (str, int, float)) and not isinstance(item, bool)) for item in raw))):
        # An empty item (None) is no tag, as everywhere (tags_of); a mapping or a list in the list is not ours to guess.
        raise FrontmatterError(f"{note.path}: tags is {short_repr(raw)}, not a list of tags; fix it by hand, then revise again")
    current = tags_of(note.meta)
    # Compared in any case, Turkish's too (fields.case_fold): --untag iş removes İş, --tag KİŞİ adds no second kişi.
    # A page whose fields are its property lines has its `tags:: #rust #async` line edited in place
    # (--untag rust leaves `#async`): those hashtags are the line's, not #tags in its text.
    text = body[property_block_end(body):] if in_properties else body
    inline = {case_fold(tag): tag for tag in inline_tags(text)}
    page_line = "" if in_properties else page_properties(body).get("tags", "")
    page_tags = {case_fold(tag): page_line for tag in property_items(page_line)}
    tags = list(current)
    for tag in revision.add_tags:
        if case_fold(tag) not in {case_fold(known) for known in tags} | set(inline):
            tags.append(tag)
    for tag in revision.remove_tags:
        if case_fold(tag) in inline:
            raise UsageError(f"tag {tag!r} is written in the text of {note.path} as #{inline[case_fold(tag)]}; "
                             "remove it from the text (", Argument("text"), ") instead")
        if case_fold(tag) in page_tags:
            # A `tags::` line under YAML frontmatter (notes.parse_note reads it as tags): a frontmatter
            # list written without the tag would only hide it from vaultmem, the file would still say it.
            # A page whose fields are its property lines has the tag taken off that line instead.
            raise UsageError(f"tag {tag!r} is written in the text of {note.path} on its line 'tags:: {page_tags[case_fold(tag)]}'; "
                             "remove it from that line (", Argument("text"), ") instead")
        tags = [known for known in tags if case_fold(known) != case_fold(tag)]
    if tags != current:
        change.put("tags", tags)
