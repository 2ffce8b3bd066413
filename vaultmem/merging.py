"""What a merge adds to the canonical note — the lines only the merged notes held, so that
no fact leaves recall (adr/0019), and its new frontmatter values (adr/0010).

Consolidation keeps the longest note of a cluster and archives the others. A shorter
duplicate can still hold a fact the longest one lacks ("ask Dana before upgrading,
ticket QX-7731"); archived, that fact would be found by nobody. So the canonical's body
gets, at its end, the lines of each merged note that it does not already contain, under
a small heading naming the source note. Pure functions over notes; consolidate.py shows
the lines in its dry run, merge_apply.py writes both when it applies.

Rules:
- A *unit* is a non-blank line, or a whole fenced code block (keeping half of a fence
  would swallow the rest of the note). Lines, not paragraphs: a memory often holds one
  fact per line without blank lines between them, and a paragraph that repeats one
  known sentence would bring it back twice. The lines of a paragraph whose every line
  is new stay together, so a hard-wrapped paragraph reads as it did.
- A unit is already there when its words, in order — without list, quote and checkbox
  markers, punctuation and case; line breaks do not count — appear in the canonical's
  text (or in what an earlier merged note of the cluster added). Units without a
  letter or digit (rules, lone markers) carry no fact and are left out, as is a heading
  that only repeats the merged note's title (its title is recorded in ``aliases``).
- A paragraph is *said in other words* when each of its sentences is said by one sentence
  of the canonical (or of what was added before): the same words in the same order but a few
  fillers (:data:`FILLERS`), in any punctuation (:func:`says_again`). "…with oat milk, no
  sugar." beside "…with oat milk and no sugar." was
  appended, and the kept note said it twice (a trial). It is left out and listed
  (:class:`SaidAlready`: the plan shows it beside the sentence that says it); the archived
  note keeps it. Measured on reworded pairs (adr/0010): no cosine of the embedder tells a
  rewording from a changed fact ("at 4pm" / "at 5pm" 0.975, "sugar" / "no sugar" 0.966), the
  words do.
- Kept units keep their own text; a blank line in the source between two kept units is
  kept too. A level-1 heading becomes level 2: the canonical's own ``# heading`` (often
  the title written inline, as Obsidian users do) stays its only one.

The frontmatter (:func:`merged_frontmatter`, only the keys that change): tags unioned, the
merged notes' titles (unless ``remember`` made them from the text) and aliases become aliases, their ids (and what they had merged or
superseded) join ``merged_from`` and ``supersedes`` so they keep resolving, and the
canonical lives as long as the longest-lived member (permanent wins).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from .errors import FrontmatterError
from .fields import alias_key, aliases_of
from .lifecycle import PERMANENT_LAYER, format_timestamp, is_absent, parse_timestamp
from .logseq import without_field_lines
from .markdown import HEADING_LINE, code_ranges
from .notes import Note, tags_of
from .ordered import unique
from .writer import is_generated_title, title_source

_MARKERS = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?")
_H1 = re.compile(r"^([ \t]{0,3})#(?=[ \t])")
_WORD = re.compile(r"\w+")
_LIST_ITEM = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")


# Words a rewording drops or adds without changing what a sentence says ("oat milk, no sugar" /
# "oat milk and no sugar"). Kept short on purpose: "after" / "before", "in" / "on" change a fact.
FILLERS = frozenset({"a", "an", "the", "and", "s"})
# A word, or a number with its minus sign: "-18" and "18" are two temperatures.
_SAID_WORD = re.compile(r"(?:(?<!\w)[-\u2212](?=\d))?\w+")
Words = tuple[str, ...]  # what a sentence says (sentence_words)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


@dataclass(frozen=True)
class SaidAlready:
    """A paragraph of a merged note that the canonical already says in other words: not appended
    (the archived note keeps it), and shown with the sentences that say it."""

    text: str  # as the merged note writes it
    said_as: tuple[str, ...]  # the canonical's sentence(s) that say it, one per sentence of ``text``

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "said_as": list(self.said_as)}


@dataclass(frozen=True)
class Addition:
    """The lines of one merged note that the canonical note did not contain, and the paragraphs
    it holds that the canonical says in other words (left out)."""

    path: str  # the merged note's path before it was archived
    title: str
    lines: tuple[str, ...]  # as appended ("" marks a blank line between kept units)
    said_already: tuple[SaidAlready, ...] = ()

    def section(self) -> str:
        return f'### Merged from "{self.title}" ({self.path})\n\n' + "\n".join(self.lines)

    def words(self) -> int:
        """How many words the merge appends for this note (what the canonical lacks of it)."""
        return sum(len(_WORD.findall(line)) for line in self.lines)


def additions(canonical: Note, merged: Sequence[Note]) -> list[Addition]:
    """For each merged note, in order, the units the canonical (plus what came before) lacks."""
    return [addition for addition in merge_lines(canonical, merged) if addition.lines]


def merge_lines(canonical: Note, merged: Sequence[Note]) -> list[Addition]:
    """For each merged note, in order: the units the canonical (plus what came before) lacks, and
    the paragraphs left out as said in other words."""
    known = f" {normalize(canonical.body)} "
    sayings: dict[Words, str] | None = None  # read when a unit first needs it: most are known word for word
    found: list[Addition] = []
    for note in merged:
        lines: list[str] = []
        gap = False
        # Its property lines of vaultmem's fields are merged as fields (merged_frontmatter), not as text.
        units = list(_units(without_field_lines(note.body)))
        paragraph_of = {position: tuple(paragraph) for paragraph in _paragraphs(units) for position in paragraph}
        said_already: list[SaidAlready] = []
        for position, (unit, blank_before) in enumerate(units):
            key = normalize(unit)
            if not key or f" {key} " in known or _repeats_title(unit, note.title):
                gap = gap or blank_before
                continue
            if sayings is None:
                sayings = dict(_sayings(canonical.body))
            said = _said_in_other_words(tuple(units[each][0] for each in paragraph_of[position]), sayings)
            if said is not None:
                if said not in said_already:
                    said_already.append(said)
                gap = gap or blank_before
                continue
            if lines and (gap or blank_before):
                lines.append("")
            lines.append(_H1.sub(r"\1##", unit))
            known += f"| {key} "
            gap = False
        if sayings is not None:
            for words, sentence in _sayings("\n".join(lines)).items():
                sayings.setdefault(words, sentence)
        found.append(Addition(note.path, note.title, tuple(lines), tuple(said_already)))
    return found


def sentence_words(sentence: str) -> Words:
    """What a sentence says, for :func:`says_again`: its words in order, casefolded, without
    :data:`FILLERS`. In order: "Alice owes Bob 50 euros" and "Bob owes Alice 50 euros", a deadline
    on 2027-01-02 and one on 2027-02-01, have the same words and say two facts."""
    return tuple(word for word in _words(sentence) if word not in FILLERS)


def _words(text: str) -> list[str]:
    """The words of ``text`` in order, casefolded; a number keeps its minus sign (``-18``)."""
    return [word.replace("\u2212", "-").casefold() for word in _SAID_WORD.findall(text)]


def says_again(kept: str, text: str) -> bool:
    """Does ``kept`` say every sentence of ``text`` in other words: for each, a sentence of ``kept``
    with the same words in the same order but :data:`FILLERS`, in any punctuation. Not a word more on either
    side: one word turns a fact around ("takes sugar" / "takes no sugar", "in Porto" / "in Porto
    Alegre", "at 9" / "at 9:30"), and a sentence that holds all of another's words and more may say
    something else ("listens on port 6543 (moved from 5433)" holds every word of "listens on port 5433");
    nor in another order: "moved from Monday to Tuesday" / "from Tuesday to Monday"."""
    sayings = _sayings(kept)
    sentences = _sayings(text)
    return bool(sentences) and all(words in sayings for words in sentences)


def _said_in_other_words(paragraph: tuple[str, ...], sayings: Mapping[Words, str]) -> SaidAlready | None:
    """The paragraph (its lines), when each of its sentences is one of ``sayings`` (words → the
    sentence that says them: :func:`says_again`). A paragraph is a run of lines with no blank line
    between; a fenced block, a heading or a list item stands alone."""
    said_as = [sayings.get(words) for words, _ in _paragraph_sentences(paragraph)]
    if not said_as or any(said is None for said in said_as):
        return None
    return SaidAlready("\n".join(paragraph), tuple(said for said in said_as if said))


def _paragraphs(units: Sequence[tuple[str, bool]]) -> list[list[int]]:
    paragraphs: list[list[int]] = []
    for position, (unit, blank_before) in enumerate(units):
        alone = "\n" in unit or HEADING_LINE.match(unit) is not None or _LIST_ITEM.match(unit) is not None
        previous = paragraphs[-1][-1] if paragraphs else None
        joins = (previous is not None and not blank_before and not alone
                 and "\n" not in units[previous][0] and HEADING_LINE.match(units[previous][0]) is None)
        if joins:
            paragraphs[-1].append(position)
        else:
            paragraphs.append([position])
    return paragraphs


@functools.lru_cache(maxsize=4096)  # a cluster's notes are read once per member that could be kept
def _paragraph_sentences(lines: tuple[str, ...]) -> list[tuple[Words, str]]:
    """(words, sentence) of a paragraph: its lines joined without markers, cut after . ! ?"""
    joined = " ".join(_MARKERS.sub("", line).strip() for unit in lines for line in unit.split("\n"))
    pieces = ((sentence_words(piece), piece.strip()) for piece in _SENTENCE_END.split(joined))
    return [(words, piece) for words, piece in pieces if words]


@functools.lru_cache(maxsize=256)
def _sayings(text: str) -> Mapping[Words, str]:
    """What ``text`` says, sentence by sentence: words (:func:`sentence_words`) → the first sentence of them."""
    units = list(_units(text))
    sayings: dict[Words, str] = {}
    for positions in _paragraphs(units):
        for words, sentence in _paragraph_sentences(tuple(units[position][0] for position in positions)):
            sayings.setdefault(words, sentence)
    return sayings


# Why a kept note does not hold a merged note as the merge wrote it (NotHeld.cause).
CHANGED = "changed"  # a line, a section, a carried value differs: one of the two was edited since
SAID_OTHERWISE = "said otherwise"  # a line the merge took as said already, in other words: maybe no edit at all
OWN_PROPERTY = "own property"  # a property no merge carries: the merged note may have had it all along
UNREAD = "unread"  # a file that cannot be read as the merge read it


@dataclass(frozen=True)
class NotHeld:
    """Why a cut-off merge is not finished for a note, and what caused it. ``cause`` tells an
    edit since (:data:`CHANGED`) from what the merge itself leaves, which a reason opening "one of
    the two changed since" called an edit nobody made (:data:`SAID_OTHERWISE`, :data:`OWN_PROPERTY`)."""

    cause: str
    detail: str

    def __str__(self) -> str:
        return self.detail


def merge_not_held(canonical: Note, merged: Note) -> NotHeld | None:
    """Why ``canonical`` does not hold ``merged`` as a merge of it would have written it, or
    ``None`` when it does: a merge cut off after writing the canonical and before archiving
    ``merged`` (merge_apply.py's order) is finished only then (adr/0010).

    The section the merge appended for ``merged`` (:meth:`Addition.section`, computed from its
    text now against the canonical's text before that section, as the merge computed it against
    the canonical and the sections before) must stand in the canonical byte for byte and end
    where the next section or the body ends; with no section, every line of ``merged`` must be
    in the canonical already. Its frontmatter values (tags, title and aliases, ids, expiry) must
    be in the canonical's, and its other properties (a status, its layer) read the same there. A
    line added to ``merged`` since, or one taken out of it, a changed tag, expiry or property: the
    person edited it after the merge, and it is not archived. Two of these the merge itself leaves,
    with no edit since (:class:`NotHeld`'s ``cause``): a line it took as said already in other
    words, and a property no merge carries."""
    heading = f'### Merged from "{merged.title}" ({merged.path})'
    body = canonical.body
    start = 0 if body.startswith(heading + "\n") else body.find(f"\n{heading}\n") + 1  # 0: not found (find's -1)
    if start == 0 and not body.startswith(heading + "\n"):
        lines = merge_lines(canonical, [merged])[0].lines
        if lines:
            return NotHeld(CHANGED, f"{canonical.path} lacks its line {lines[0]!r}")
    else:
        lines = merge_lines(replace(canonical, body=body[:start]), [merged])[0].lines
        expected = Addition(merged.path, merged.title, lines).section()
        after = body[start + len(expected):]
        if not lines or not body.startswith(expected, start) or not (not after.strip() or after.startswith("\n\n### Merged from ")):
            return NotHeld(CHANGED, f"its lines are not those {canonical.path} holds under its heading `{heading}`")
    reworded = said_otherwise(canonical, merged)
    if reworded is not None:
        return NotHeld(SAID_OTHERWISE, f"{canonical.path} holds its line {reworded!r} only in other words (case, "
                       "punctuation, a task's box or a sign)")
    change = merged_frontmatter(canonical, [merged])
    changed = [*change.set_values, *change.remove]
    if changed:
        return NotHeld(CHANGED, f"{canonical.path} lacks its {', '.join(changed)}")
    uncarried = [key for key, value in merged.meta.items() if key not in _CARRIED_OR_OWN and canonical.meta.get(key) != value]
    if uncarried:
        return NotHeld(OWN_PROPERTY, f"{canonical.path} does not read the same {', '.join(uncarried)} (a property no merge "
                       "carries into the kept note)")
    return None


# Keys merged_frontmatter carries into the kept note (checked above), and vaultmem's own per-note
# bookkeeping, which differs between any two notes. Any other property of the left-over note (a
# status, a source, its layer: a merge keeps apart two layers) must read the same in the kept note,
# or it may be one the person gave it after the cut-off, which finishing would archive unsaid (s35 review).
_CARRIED_OR_OWN = frozenset({"tags", "tag", "aliases", "alias", "title", "merged_from", "supersedes", "expires_at",
                             "permanent", "id", "created", "updated", "modified", "version"})


def said_otherwise(canonical: Note, merged: Note) -> str | None:
    """The first line of ``merged`` that ``canonical`` does not hold character for character (but
    for spacing, a list marker and a closing ``.``/``,``/``;``), or ``None``. The merge found a line
    in the kept note by its words (:func:`normalize`): "- [x] Renew…" is "- [ ] Renew…" and "£50"
    "€50" to it. Fine for a merge the person reviews, not for finishing a cut-off one, where such a
    line may be their edit after the cut-off (a task ticked): that note is left for them (s35 review)."""
    held = _spaced(canonical.body)
    for unit, _blank_before in _units(without_field_lines(merged.body)):
        if _repeats_title(unit, merged.title):
            continue
        line = _spaced("\n".join(_LIST_ITEM.sub("", part) for part in unit.split("\n"))).rstrip(".,;")
        if line and line not in held:
            return unit
    return None


def _spaced(text: str) -> str:
    return " ".join(text.split())


def both_changed(first: Note, second: Note) -> bool:
    """Whether each note holds text the other lacks (:func:`additions` both ways): two versions of
    one note edited on two devices, not one that only adds to (or only lacks lines of) the other."""
    return bool(additions(first, [second])) and bool(additions(second, [first]))


def appended_text(found: Sequence[Addition]) -> str:
    """What is appended to the canonical's body: each addition's section, a blank line apart."""
    return "\n\n".join(addition.section() for addition in found)


def normalize(text: str) -> str:
    """The words of ``text`` in order, without line markers, punctuation or case ("is it there?")."""
    return " ".join(_words(" ".join(_MARKERS.sub("", line) for line in text.split("\n"))))


def _repeats_title(unit: str, title: str) -> bool:
    heading = HEADING_LINE.match(unit)
    return heading is not None and heading.group(2).strip().casefold() == title.strip().casefold()


def _units(body: str) -> Iterator[tuple[str, bool]]:
    """(unit, whether a blank line came before it) for each non-blank line or fenced block."""
    fences = {start: end for start, end in code_ranges(body) if "\n" in body[start:end]}  # blocks start a line
    offset = 0
    inside_until = -1
    blank_before = False
    for line in body.split("\n"):
        line_start, offset = offset, offset + len(line) + 1
        if line_start < inside_until:
            continue  # a line of the fenced block just yielded
        if line_start in fences:
            inside_until = fences[line_start]
            yield body[line_start:inside_until], blank_before
            blank_before = False
        elif line.strip():
            yield line.rstrip(), blank_before
            blank_before = False
        else:
            blank_before = True


# ------------------------------------------------------------------ the merged frontmatter


@dataclass(frozen=True)
class FrontmatterChange:
    set_values: dict[str, Any]
    remove: tuple[str, ...] = ()
    why: dict[str, str] = field(default_factory=dict)  # key → why it changes (the expiry's rule)


def merged_frontmatter(canonical: Note, merged: Sequence[Note]) -> FrontmatterChange:
    """The canonical's new frontmatter values — only the keys that change.

    tags: the union; aliases += the merged notes' titles (unless ``remember`` made them from the
    text: :func:`chosen_title`) and their aliases;
    merged_from += their ids (and what they had merged); expiry: see :func:`expiry_change`.
    """
    cluster = [canonical, *merged]
    changes: dict[str, Any] = {}
    # The canonical keeps its own inline #tags in its body; the merged notes' inline tags
    # would leave with their archived bodies, so they join the frontmatter list.
    tags = unique([*tags_of(canonical.meta), *(tag for note in merged for tag in note.tags)])
    if tags != tags_of(canonical.meta):
        changes["tags"] = tags
    aliases = [alias for note in merged for alias in (*chosen_title(note), *alias_list(note)) if alias != canonical.title]
    _extend_aliases(changes, canonical, aliases)
    _extend(changes, canonical, "merged_from", [ident for note in merged for ident in (note.id, *string_list(note, "merged_from"))])
    # What a merged note had replaced now lives on in the canonical: those ids resolve to it.
    _extend(changes, canonical, "supersedes", [ident for note in merged for ident in string_list(note, "supersedes")])
    expiry_set, expiry_remove, why = expiry_change(cluster)
    changes.update(expiry_set)
    return FrontmatterChange(changes, expiry_remove, dict.fromkeys((*expiry_set, *expiry_remove), why))


def chosen_title(note: Note) -> tuple[str, ...]:
    """The merged note's title as an alias of the kept note — none when ``remember`` made it
    from the text's first line (writer.is_generated_title): ``For the North Hill garage job on
    Saturday, bring trailer + heavy gloves; star…`` is a name nobody types, and the note's id
    keeps resolving through ``merged_from``."""
    # A title made from a `# heading` is still a name a person reads and types ("Rehearsals").
    return () if is_generated_title(note) and not title_source(note.body).heading else (note.title,)


def expiry_change(cluster: Sequence[Note]) -> tuple[dict[str, Any], tuple[str, ...], str]:
    """(keys to set, keys to remove, why) so the canonical (first) lives as long as the longest-lived member.

    Permanent wins: any permanent/L4 member removes ``expires_at`` (and marks the canonical
    ``permanent: true`` unless it already is, or ``check --fix`` would stamp a TTL back).
    A member without ``expires_at`` never expires, which is later than any date.
    """
    canonical = cluster[0]
    has_expiry = not is_absent(canonical.meta.get("expires_at"))
    lasting = next((note for note in cluster if note.permanent), None)
    if lasting is not None:
        rule = "layer L4" if lasting.layer == PERMANENT_LAYER else "permanent: true"
        why = f"permanent wins: {'the kept note' if lasting is canonical else lasting.path} is {rule}"
        return ({} if canonical.permanent else {"permanent": True}), (("expires_at",) if has_expiry else ()), why
    deadlines = [_deadline(note) for note in cluster]
    if any(deadline is None for deadline in deadlines):
        endless = cluster[deadlines.index(None)]
        return {}, (("expires_at",) if has_expiry else ()), f"{endless.path} has no expires_at: it never expires, the longest"
    latest = max(deadline for deadline in deadlines if deadline is not None)
    source = cluster[deadlines.index(latest)]
    return ({} if latest == deadlines[0] else {"expires_at": latest}), (), f"the latest in the cluster: {source.path}"


# ------------------------------------------------------------------ said for a person (dry run and apply)


# `alias` (the legacy key Obsidian still reads) and `Aliases` rank as `aliases`: a note holding
# them had its alias change listed last, after merged_from.
CHANGE_ORDER = ("expires_at", "permanent", "tags", "aliases", "alias", "merged_from", "supersedes")


@dataclass(frozen=True)
class KeptChange:
    """One frontmatter key a merge changes in the kept note, as the dry run and apply say it."""

    key: str
    before: str | None = None  # the value as it reads now; None: no such key
    after: str | None = None  # as it will read; None: removed
    added: tuple[str, ...] = ()  # a list: the items it gains
    why: str = ""

    def as_dict(self) -> dict[str, Any]:
        if self.added:
            return {"added": list(self.added)}
        return {"before": self.before, "after": self.after, "why": self.why}

    def describe(self) -> str:
        if self.added:
            return f"{self.key}: + {', '.join(_listed(item) for item in self.added)}"
        before = "(none)" if self.before is None else self.before
        after = "removed" if self.after is None else self.after
        return f"{self.key}: {before} → {after}" + (f" ({self.why})" if self.why else "")


def kept_changes(canonical: Note, change: FrontmatterChange) -> tuple[KeptChange, ...]:
    """What ``change`` does to the canonical's frontmatter, key by key (expiry first)."""
    said: list[KeptChange] = []
    for key in sorted({*change.set_values, *change.remove}, key=_change_rank):
        why = change.why.get(key, "")
        if key in change.remove:
            said.append(KeptChange(key, _as_text(canonical.meta.get(key)), None, why=why))
        elif isinstance(change.set_values[key], list):
            existing = set(tags_of(canonical.meta) if key == "tags" else alias_list(canonical)
                           if key == (alias_key(canonical.meta) or "aliases") else string_list(canonical, key))
            said.append(KeptChange(key, added=tuple(item for item in change.set_values[key] if item not in existing)))
        else:
            before = canonical.meta.get(key)
            said.append(KeptChange(key, None if key not in canonical.meta else _as_text(before),
                                   _as_text(change.set_values[key]), why=why))
    return tuple(said)


def _listed(item: str) -> str:
    """An item of a list, readable in a line of them (an alias often holds a comma or spaces)."""
    return f'"{item}"' if "," in item or " " in item else item


def _change_rank(key: str) -> tuple[int, str]:
    folded = key.lower()
    return (CHANGE_ORDER.index(folded) if folded in CHANGE_ORDER else len(CHANGE_ORDER), key)


def _as_text(value: Any) -> str:
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value).lower() if isinstance(value, bool) else str(value)


def _deadline(note: Note) -> datetime | None:
    value = note.meta.get("expires_at")
    return None if is_absent(value) else parse_timestamp(value)


def string_list(note: Note, key: str) -> list[str]:
    """A list-of-text frontmatter value (a lone string counts as one item). An empty item (``-``
    alone on its line, YAML's null: the Obsidian Hub's template writes ``aliases:`` then ``- ``)
    holds no text and is no item: refused, every merge into such a note was skipped with a fix
    that asked the person to rewrite a list Obsidian reads as it is (a trial, s38)."""
    value = note.meta.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list) and all(item is None or (isinstance(item, (str, int, float)) and not isinstance(item, bool))
                                       for item in value):
        return [str(item) for item in value if item is not None]
    raise FrontmatterError(f"{note.path}: {key} is {value!r}, not a list of text; write it as a YAML list of strings, then run consolidate again")


def alias_list(note: Note) -> list[str]:
    """The note's aliases as Obsidian reads them (fields.aliases_of: ``alias`` too, a string split
    on commas); a value that is not text is refused, not overwritten (as :func:`string_list`)."""
    key = alias_key(note.meta)
    if key is not None:
        string_list(note, key)
    return aliases_of(note.meta)


def _extend_aliases(changes: dict[str, Any], canonical: Note, additions: Iterable[str]) -> None:
    """Add to the canonical's aliases under the key it already holds them in: a second key
    (``aliases`` beside ``alias``) would hide one of them from Obsidian, which reads the first.
    Written as a list: ``aliases: Tommy, T-Bone`` plus ``Tom`` is ``[Tommy, T-Bone, Tom]``."""
    existing = alias_list(canonical)
    combined = unique([*existing, *additions])
    if combined != existing:
        changes[alias_key(canonical.meta) or "aliases"] = combined


def _extend(changes: dict[str, Any], canonical: Note, key: str, additions: Iterable[str]) -> None:
    existing = string_list(canonical, key)
    combined = unique([*existing, *additions])
    if combined != existing:
        changes[key] = combined
